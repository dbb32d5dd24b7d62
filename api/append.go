package api

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/openprospect/prospectd/query/datasets"
	"github.com/openprospect/prospectd/store"
	"github.com/openprospect/prospectd/uploads"
)

// Append upload caps: the spec states none; append answers synchronously,
// so the file is bounded like segment's row count (see docs/decisions.md).
var appendLimits = uploads.Limits{MaxBytes: 5 << 20, MaxRows: 10_000}

type appendInput struct {
	Dataset      []string `query:"dataset,explode" doc:"Datasets to append (repeatable or comma-separated): bizdata, domain_status, redirects, growth, vendors, subdomains"`
	DomainColumn string   `query:"domain_column" doc:"Column holding the domains; detected by header name and values when omitted"`
	QueryID      []string `query:"query_id,explode" doc:"Saved query ids whose domains are appended too"`
	CSV          string   `query:"csv" doc:"true returns CSV instead of JSON"`
	RawBody      huma.MultipartFormFiles[AppendForm]
}

type appendOutput struct {
	ContentType      string `header:"Content-Type"`
	CreditsBilled    int    `header:"X-Credits-Billed" doc:"Credits this response cost"`
	CreditsRemaining int    `header:"X-Credits-Remaining" doc:"Credits left in the current period"`
	Withheld         int    `header:"X-Records-Withheld" doc:"Dataset values left out because the period's credits ran out"`
	Body             []byte
}

func (s *Server) registerAppend() {
	rowSchema := &huma.Schema{Type: huma.TypeObject, AdditionalProperties: true,
		Description: "One row per input row: `domain` (null when the cell is not a domain), the input columns as `input:<column>`, then each dataset's fields. Fields are null when the domain is not indexed, when the company has no such record (status, history), or when the credits did not cover them (see X-Records-Withheld); an indexed company without redirects, vendors or subdomains has 0 and empty lists. Profile fields are unprefixed; other datasets' fields are unprefixed when only one dataset is requested, else prefixed `<dataset>:`."}
	huma.Register(s.api, huma.Operation{
		OperationID: "append",
		Method:      http.MethodPost,
		Path:        "/v1/append",
		Summary:     "Append datasets to a file of domains",
		Description: "multipart/form-data with `file` (CSV or .xlsx, at most 5 MB and 10,000 rows). `dataset` (required, repeatable): bizdata, domain_status, redirects, growth (quarterly `score_YYYYqN` and `subdomains_YYYYqN`, `score_growth_3m`, `subdomain_growth_3m` in percent), vendors (at most 100), subdomains (at most 300, most popular first). Parameters may also be sent as form fields. Billing: bizdata bills net-new domains (90-day cache); each other dataset bills one record per row that returns data, every time.",
		Tags:        []string{"Companies"},
		Security:    authRequired,
		Errors:      []int{http.StatusUnauthorized, http.StatusPaymentRequired, http.StatusForbidden, http.StatusNotFound, http.StatusRequestEntityTooLarge, http.StatusUnprocessableEntity, http.StatusTooManyRequests},
		Responses: map[string]*huma.Response{"200": {
			Description: "The rows",
			Content: map[string]*huma.MediaType{
				"application/json": {Schema: &huma.Schema{Type: huma.TypeArray, Items: rowSchema}},
				"text/csv":         {Schema: &huma.Schema{Type: huma.TypeString}},
			},
		}},

		MaxBodyBytes: uploadBodyLimit(appendLimits),
	}, func(ctx context.Context, in *appendInput) (*appendOutput, error) {
		p, err := s.paid(ctx, store.PlanStarter)
		if err != nil {
			return nil, err
		}
		form := in.RawBody.Form
		sets, err := datasets.Parse(append(in.Dataset, form.Value["dataset"]...))
		if err != nil {
			return nil, huma.Error422UnprocessableEntity(err.Error())
		}
		asCSV, err := flag("csv", in.CSV, formValue(form, "csv"))
		if err != nil {
			return nil, err
		}
		savedDoms, err := s.savedQueryRef(ctx, p, append(in.QueryID, form.Value["query_id"]...))
		if err != nil {
			return nil, err
		}
		// With query_id the file is optional: the saved domains are rows.
		t, col := &uploads.Table{Header: []string{"domain"}}, 0
		if len(savedDoms) == 0 || hasFile(form) {
			if t, err = readUpload(form, appendLimits); err != nil {
				return nil, err
			}
			named := in.DomainColumn
			if named == "" {
				named = formValue(form, "domain_column")
			}
			if col, err = uploads.DomainColumn(t, named); err != nil {
				return nil, huma.Error422UnprocessableEntity(err.Error())
			}
		}
		withSavedDomains(t, col, savedDoms)
		table, err := s.companies.Append(ctx, datasets.Input{Header: t.Header, Rows: t.Rows, DomainColumn: col}, sets)
		if err != nil {
			return nil, s.internal(ctx, "append", err)
		}
		out := &appendOutput{}
		if out.CreditsBilled, out.CreditsRemaining, out.Withheld, err = s.billAppend(ctx, p, &table, sets); err != nil {
			return nil, err
		}
		var body bytes.Buffer
		if asCSV {
			out.ContentType = "text/csv; charset=utf-8"
			err = table.WriteCSV(&body)
		} else {
			out.ContentType = "application/json"
			err = table.WriteJSON(&body)
		}
		if err != nil {
			return nil, s.internal(ctx, "encode append", err)
		}
		out.Body = body.Bytes()
		return out, nil
	})
}

// billAppend bills an append: bizdata per net-new domain (cached 90
// days), each other dataset one uncached record per row with data. Values
// the credits do not cover are withheld (nulled) rather than rows dropped,
// so the output still lines up with the file.
func (s *Server) billAppend(ctx context.Context, p store.Principal, t *datasets.Table, sets []datasets.Name) (billed, left, withheld int, err error) {
	return s.billTable(ctx, p, "append", t, sets)
}

// billTable bills a table of append rows in the ledger under endpoint (the
// single-domain lookups bill exactly as append does).
func (s *Server) billTable(ctx context.Context, p store.Principal, endpoint string, t *datasets.Table, sets []datasets.Name) (billed, left, withheld int, err error) {
	// One record per value billed: a row's dataset.
	type owner struct {
		row    int
		set    datasets.Name
		charge store.Charge
	}
	var owners []owner
	for _, n := range sets {
		if n == datasets.Bizdata {
			for i, l := range t.Lines {
				if l.Company != nil {
					owners = append(owners, owner{i, n, store.Charge{Kind: store.KindCompany, Key: l.Domain}})
				}
			}
			continue
		}
		for _, i := range t.Billable[n] {
			owners = append(owners, owner{i, n, store.Charge{Kind: store.KindRow, Key: string(n) + ":" + t.Lines[i].Domain, NoCache: true}})
		}
	}
	if len(owners) == 0 {
		u, err := s.biller.Usage(ctx, p.Org)
		if err != nil {
			return 0, 0, 0, s.internal(ctx, "usage", err)
		}
		return 0, u.CreditsLeft, 0, nil
	}
	r, err := bill(ctx, s, p, endpoint, owners, func(o owner) []store.Charge { return []store.Charge{o.charge} })
	if err != nil {
		return 0, 0, 0, err
	}
	for k, ok := range r.Mask {
		if !ok {
			t.Withhold(owners[k].row, owners[k].set)
		}
	}
	return r.Billed, r.Left, r.Withheld, nil
}

// flag reads a boolean parameter given as a query or a form value.
func flag(name string, values ...string) (bool, error) {
	for _, v := range values {
		if v = strings.TrimSpace(v); v != "" {
			b, err := strconv.ParseBool(v)
			if err != nil {
				return false, huma.Error422UnprocessableEntity(fmt.Sprintf("%s: %q is not true or false", name, v))
			}
			return b, nil
		}
	}
	return false, nil
}
