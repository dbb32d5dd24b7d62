package namematch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/record"
	"github.com/openprospect/prospectd/store"
)

// KindBulkMatch is the task kind of POST /v1/bulkmatch.
const KindBulkMatch = "bulkmatch"

// BulkMatchInput is a bulk match task's input: the upload's header and
// rows, the columns read as evidence (-1 when not given) and the
// threshold.
type BulkMatchInput struct {
	Header        []string   `json:"header"`
	Rows          [][]string `json:"rows"`
	Name          int        `json:"name"`
	Country       int        `json:"country"`
	State         int        `json:"state"`
	City          int        `json:"city"`
	Zip           int        `json:"zip"`
	Phone         int        `json:"phone"`
	MinConfidence int        `json:"min_confidence"`
}

// Row outcomes besides a match.
const (
	MatchErrSearchFailed = "search_failed"
	MatchErrNoCredits    = "no_credits"
)

// BulkMatchTask is the body of company bulk match tasks (wired by jobs/).
type BulkMatchTask struct {
	Names    *Service
	Profiles index.CompanyReader
	Orgs     store.Orgs
	Biller   *account.Biller
	Log      zerolog.Logger
}

// Run matches, hydrates and bills the task's rows: one result row per
// input row with the input columns as `input:<column>`, then the matched
// profile and match_confidence. Matched rows are hydrated profiles: billed
// like bizdata, cut to what the credits cover (the task fails when none
// is covered).
func (h *BulkMatchTask) Run(ctx context.Context, t store.Task, in BulkMatchInput, progress func(pct int)) ([]json.RawMessage, error) {
	cell := func(row []string, c int) string {
		if c < 0 || c >= len(row) {
			return ""
		}
		return row[c]
	}
	qs := make([]Query, len(in.Rows))
	for i, row := range in.Rows {
		qs[i] = Query{Name: cell(row, in.Name), Country: cell(row, in.Country), State: cell(row, in.State),
			City: cell(row, in.City), Zip: cell(row, in.Zip), Phone: cell(row, in.Phone)}
	}
	start := time.Now()
	res, err := h.Names.Match(ctx, qs, func(p int) { progress(p * 9 / 10) })
	matched := time.Now()
	if err != nil {
		return nil, fmt.Errorf("bulk match: %w", err)
	}
	// The matched companies, each once, in row order.
	var domains []string
	seen := map[string]bool{}
	for _, r := range res {
		if r.Err == nil && r.Domain != "" && r.Confidence >= in.MinConfidence && !seen[r.Domain] {
			seen[r.Domain] = true
			domains = append(domains, r.Domain)
		}
	}
	companies := map[string]record.Company{}
	if len(domains) > 0 {
		got, err := h.Profiles.GetCompanies(ctx, domains)
		if err != nil {
			return nil, fmt.Errorf("bulk match: read %d matched profiles: %w", len(domains), err)
		}
		for _, c := range got {
			companies[c.Domain] = c
		}
	}
	hydrated := time.Now()
	org, err := h.Orgs.OrgByID(ctx, t.OrgID)
	if err != nil {
		return nil, err
	}
	var billed []string
	for _, d := range domains {
		if _, ok := companies[d]; ok {
			billed = append(billed, d)
		}
	}
	covered := map[string]bool{}
	if len(billed) > 0 {
		paid, err := account.BillRecords(ctx, h.Biller, org, "bulkmatch", billed, func(d string) []store.Charge {
			return account.Companies([]string{d})
		})
		if errors.Is(err, account.ErrNoCredits) {
			return nil, fmt.Errorf("no credits left this period for the %d matched companies; see GET /v1/usage", len(billed))
		}
		if err != nil {
			return nil, err
		}
		for _, d := range paid.Records {
			covered[d] = true
		}
	}
	out := make([]json.RawMessage, len(in.Rows))
	for i, row := range in.Rows {
		r := res[i]
		var b bulkRow
		b.begin()
		for c, col := range in.Header {
			b.field("input:"+col, cell(row, c))
		}
		c, found := companies[r.Domain]
		switch {
		case r.Err != nil:
			b.raw("domain", "null")
			b.raw("match_confidence", "null")
			b.field("match_error", MatchErrSearchFailed)
		case r.Domain == "" || r.Confidence < in.MinConfidence || !found:
			b.raw("domain", "null")
			b.raw("match_confidence", "null")
		case !covered[r.Domain]:
			b.raw("domain", "null")
			b.raw("match_confidence", "null")
			b.field("match_error", MatchErrNoCredits)
		default:
			if err := b.profile(record.ProfileOf(c)); err != nil {
				return nil, fmt.Errorf("bulk match: encode %s: %w", c.Domain, err)
			}
			b.raw("match_confidence", strconv.Itoa(r.Confidence))
		}
		out[i] = b.end()
	}
	progress(100)
	h.Log.Info().Str("task", t.ID).Int("rows", len(in.Rows)).Dur("match", matched.Sub(start)).
		Dur("hydrate", hydrated.Sub(matched)).Dur("bill_and_shape", time.Since(hydrated)).Msg("bulk match done")
	return out, nil
}

// bulkRow writes one result row as a JSON object with its keys in order:
// the input columns as in the file, then the profile, then the match.
type bulkRow struct {
	buf bytes.Buffer
	n   int
}

func (b *bulkRow) begin() { b.buf.WriteByte('{') }

func (b *bulkRow) raw(key, v string) {
	if b.n > 0 {
		b.buf.WriteByte(',')
	}
	b.n++
	k, _ := json.Marshal(key)
	b.buf.Write(k)
	b.buf.WriteByte(':')
	b.buf.WriteString(v)
}

func (b *bulkRow) field(key, v string) {
	s, _ := json.Marshal(v)
	b.raw(key, string(s))
}

// profile splices the profile object's members into the row.
func (b *bulkRow) profile(p record.Profile) error {
	j, err := json.Marshal(p)
	if err != nil {
		return err
	}
	inner := bytes.TrimSpace(j)
	inner = inner[1 : len(inner)-1]
	if len(inner) == 0 {
		return nil
	}
	if b.n > 0 {
		b.buf.WriteByte(',')
	}
	b.n++
	b.buf.Write(inner)
	return nil
}

func (b *bulkRow) end() json.RawMessage {
	b.buf.WriteByte('}')
	return json.RawMessage(b.buf.Bytes())
}
