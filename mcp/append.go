package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/query/datasets"
	"github.com/openprospect/prospectd/store"
)

// AppendArgs are append_datasets' arguments: the REST route's file of
// domains as a list.
type AppendArgs struct {
	Domains []string `json:"domains" jsonschema:"Domains or URLs, 1-10,000; one output row per entry, in order"`
	Dataset []string `json:"dataset" jsonschema:"Datasets to append: bizdata, domain_status, redirects, growth, vendors, subdomains"`
}

func (s *Server) appendTable(ctx context.Context, c *call) (datasets.Table, []datasets.Name, error) {
	var a AppendArgs
	if err := decode(c, &a); err != nil {
		return datasets.Table{}, nil, err
	}
	sets, err := datasets.Parse(a.Dataset)
	if err != nil {
		return datasets.Table{}, nil, refuse(http.StatusUnprocessableEntity, "%v", err)
	}
	if len(a.Domains) == 0 || len(a.Domains) > maxTaskRows {
		return datasets.Table{}, nil, refuse(http.StatusUnprocessableEntity, "domains: give 1-%d domains (got %d)", maxTaskRows, len(a.Domains))
	}
	in := datasets.Input{Header: []string{"domain"}, DomainColumn: 0}
	for _, d := range a.Domains {
		in.Rows = append(in.Rows, []string{d})
	}
	t, err := s.cfg.Companies.Append(ctx, in, sets)
	if err != nil {
		return t, nil, fmt.Errorf("append: %w", err)
	}
	return t, sets, nil
}

func (s *Server) estimateAppend(ctx context.Context, c *call) (Estimate, error) {
	t, sets, err := s.appendTable(ctx, c)
	if err != nil {
		return Estimate{}, err
	}
	n := len(t.Charges(sets))
	return Estimate{Records: n, Credits: n, Note: "bizdata bills each indexed domain (free when retrieved in the last 90 days); other datasets bill each row that has data"}, nil
}

// AppendResult is append_datasets' answer: the REST route's rows.
type AppendResult struct {
	Rows     json.RawMessage `json:"rows"`
	Withheld int             `json:"records_withheld" jsonschema:"Values nulled because the credits did not cover them"`
	billed
}

func (s *Server) appendDatasets(ctx context.Context, c *call) (any, error) {
	t, sets, err := s.appendTable(ctx, c)
	if err != nil {
		return nil, err
	}
	out := AppendResult{}
	if owners := t.Charges(sets); len(owners) > 0 {
		r, err := account.BillRecords(ctx, s.cfg.Biller, c.caller.Principal.Org, "append", owners,
			func(o datasets.Charge) []store.Charge { return []store.Charge{o.Charge} })
		if errors.Is(err, account.ErrNoCredits) {
			return nil, refuse(http.StatusPaymentRequired, "no credits left this period (%d used); records retrieved in the last 90 days stay free; see get_usage", r.Used)
		}
		if err != nil {
			return nil, err
		}
		for k, ok := range r.Mask {
			if !ok {
				t.Withhold(owners[k].Row, owners[k].Set)
			}
		}
		out.billed, out.Withheld = billed{r.Billed, r.Left}, r.Withheld
	} else {
		u, err := s.cfg.Biller.Usage(ctx, c.caller.Principal.Org)
		if err != nil {
			return nil, fmt.Errorf("usage: %w", err)
		}
		out.Left = u.CreditsLeft
	}
	var b bytes.Buffer
	if err := t.WriteJSON(&b); err != nil {
		return nil, fmt.Errorf("encode append: %w", err)
	}
	out.Rows = b.Bytes()
	return out, nil
}
