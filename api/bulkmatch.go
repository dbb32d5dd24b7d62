package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/jobs"
	"github.com/openprospect/prospectd/namematch"
	"github.com/openprospect/prospectd/record"
	"github.com/openprospect/prospectd/store"
)

const kindBulkMatch = "bulkmatch"

// Bulk match upload caps: the segment caps (spec: Limits).
var bulkMatchLimits = segmentLimits

// bulkMatchInput: the parameters may be query parameters or form fields
// (the form field wins).
type bulkMatchInput struct {
	NameColumn         string `query:"name_column" doc:"Header of the column with company names (required)"`
	CountryColumn      string `query:"country_column"`
	StateColumn        string `query:"state_column"`
	CityColumn         string `query:"city_column"`
	ZipCodeColumn      string `query:"zip_code_column"`
	PhoneColumn        string `query:"phone_column"`
	MinMatchConfidence string `query:"min_match_confidence" doc:"50-100, default 50"`
	RawBody            huma.MultipartFormFiles[BulkMatchForm]
}

func (in *bulkMatchInput) query() map[string]string {
	return map[string]string{"name_column": in.NameColumn, "country_column": in.CountryColumn, "state_column": in.StateColumn,
		"city_column": in.CityColumn, "zip_code_column": in.ZipCodeColumn, "phone_column": in.PhoneColumn,
		"min_match_confidence": in.MinMatchConfidence}
}

// bulkMatchTask is the persisted input: the upload's header and rows, the
// columns read as evidence (-1 when not given) and the threshold.
type bulkMatchTask struct {
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

// bulkMatchColumns are the form fields that name columns, in the order of
// the task's fields.
var bulkMatchColumns = []string{"name_column", "country_column", "state_column", "city_column", "zip_code_column", "phone_column"}

// Row outcomes besides a match.
const (
	matchErrSearchFailed = "search_failed"
	matchErrNoCredits    = "no_credits"
)

func (s *Server) registerBulkMatch() {
	s.jobs.Register(kindBulkMatch, func(ctx context.Context, run *jobs.Run) (any, error) {
		var in bulkMatchTask
		if err := run.Decode(&in); err != nil {
			return nil, err
		}
		return s.runBulkMatch(ctx, s.names, run, in)
	})

	huma.Register(s.api, huma.Operation{
		OperationID:   "bulkmatch",
		Method:        http.MethodPost,
		Path:          "/v1/bulkmatch",
		Summary:       "Match company names to domains (async)",
		Description:   "multipart/form-data: `file` (CSV or .xlsx, at most 1 MB and 10,000 rows), `name_column` (required), optional evidence columns `country_column` (ISO code or name), `state_column`, `city_column`, `zip_code_column`, `phone_column`, and `min_match_confidence` (50-100, default 50). Returns a task id; poll GET /v1/bulkmatch/status/{task_id}. Matched rows are billed as company profiles.",
		Tags:          []string{"Companies"},
		Security:      authRequired,
		DefaultStatus: http.StatusAccepted,
		Errors:        []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusRequestEntityTooLarge, http.StatusUnprocessableEntity, http.StatusTooManyRequests},
	}, func(ctx context.Context, in *bulkMatchInput) (*taskAcceptedOutput, error) {
		p, err := s.paid(ctx, store.PlanStarter)
		if err != nil {
			return nil, err
		}
		task, err := parseBulkMatch(in.RawBody.Form, in.query())
		if err != nil {
			return nil, err
		}
		return s.submit(ctx, p, kindBulkMatch, task)
	})

	s.registerTaskStatus("bulkmatch-status", "/v1/bulkmatch/status/{task_id}", "Companies", "Company name bulk match status",
		"Status and progress; when completed, `results`: one row per input row with every input column as `input:<column>`, the matched company's profile fields and `match_confidence` (0-100). A row without a match at the threshold has `domain` and `match_confidence` null; a row that could not be searched has `match_error` `search_failed` (not billed; resubmit); a matched row the period's credits did not cover has `domain` null and `match_error` `no_credits` (the task fails when none is covered).", kindBulkMatch)
}

// parseBulkMatch validates the form and reads the upload.
func parseBulkMatch(form *multipart.Form, query map[string]string) (bulkMatchTask, error) {
	field := func(name string) string {
		if v := formValue(form, name); v != "" {
			return v
		}
		return strings.TrimSpace(query[name])
	}
	task := bulkMatchTask{MinConfidence: 50}
	if v := field("min_match_confidence"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 50 || n > 100 {
			return task, huma.Error422UnprocessableEntity("min_match_confidence: must be an integer between 50 and 100")
		}
		task.MinConfidence = n
	}
	if field("name_column") == "" {
		return task, huma.Error422UnprocessableEntity("name_column: required, the header of the column with company names")
	}
	t, err := readUpload(form, bulkMatchLimits)
	if err != nil {
		return task, err
	}
	cols := []*int{&task.Name, &task.Country, &task.State, &task.City, &task.Zip, &task.Phone}
	for i, param := range bulkMatchColumns {
		*cols[i] = -1
		name := field(param)
		if name == "" {
			continue
		}
		c := columnIndex(t.Header, name)
		if c < 0 {
			return task, huma.Error422UnprocessableEntity(fmt.Sprintf("%s: no column %q in the file (columns: %s)", param, name, strings.Join(t.Header, ", ")))
		}
		*cols[i] = c
	}
	if len(t.Rows) == 0 {
		return task, huma.Error422UnprocessableEntity("file: no rows below the header")
	}
	task.Header, task.Rows = t.Header, t.Rows
	return task, nil
}

// columnIndex finds a header exactly, then ignoring case and surrounding
// space; -1 when absent.
func columnIndex(header []string, name string) int {
	for i, h := range header {
		if h == name {
			return i
		}
	}
	for i, h := range header {
		if strings.EqualFold(strings.TrimSpace(h), name) {
			return i
		}
	}
	return -1
}

// runBulkMatch matches, hydrates and bills the task's rows.
func (s *Server) runBulkMatch(ctx context.Context, svc *namematch.Service, run *jobs.Run, in bulkMatchTask) ([]json.RawMessage, error) {
	cell := func(row []string, c int) string {
		if c < 0 || c >= len(row) {
			return ""
		}
		return row[c]
	}
	qs := make([]namematch.Query, len(in.Rows))
	for i, row := range in.Rows {
		qs[i] = namematch.Query{Name: cell(row, in.Name), Country: cell(row, in.Country), State: cell(row, in.State),
			City: cell(row, in.City), Zip: cell(row, in.Zip), Phone: cell(row, in.Phone)}
	}
	start := time.Now()
	res, err := svc.Match(ctx, qs, func(p int) { run.Progress(p * 9 / 10) })
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
		got, err := s.deps.Engine.GetCompanies(ctx, domains)
		if err != nil {
			return nil, fmt.Errorf("bulk match: read %d matched profiles: %w", len(domains), err)
		}
		for _, c := range got {
			companies[c.Domain] = c
		}
	}
	hydrated := time.Now()
	org, err := s.deps.Store.OrgByID(ctx, run.Task.OrgID)
	if err != nil {
		return nil, err
	}
	// Matched rows are hydrated profiles: billed like bizdata, cut to what
	// the credits cover.
	var billed []string
	for _, d := range domains {
		if _, ok := companies[d]; ok {
			billed = append(billed, d)
		}
	}
	covered := map[string]bool{}
	if len(billed) > 0 {
		bill, err := s.biller.Bill(ctx, org, "bulkmatch", account.Companies(billed))
		if errors.Is(err, account.ErrNoCredits) {
			return nil, fmt.Errorf("no credits left this period for the %d matched companies; see GET /v1/usage", len(billed))
		}
		if err != nil {
			return nil, err
		}
		for i, d := range billed {
			if i < len(bill.Covered) && bill.Covered[i] {
				covered[d] = true
			}
		}
	}
	out := make([]json.RawMessage, len(in.Rows))
	for i, row := range in.Rows {
		r := res[i]
		var b bulkRow
		b.begin()
		for c, h := range in.Header {
			b.field("input:"+h, cell(row, c))
		}
		c, found := companies[r.Domain]
		switch {
		case r.Err != nil:
			b.raw("domain", "null")
			b.raw("match_confidence", "null")
			b.field("match_error", matchErrSearchFailed)
		case r.Domain == "" || r.Confidence < in.MinConfidence || !found:
			b.raw("domain", "null")
			b.raw("match_confidence", "null")
		case !covered[r.Domain]:
			b.raw("domain", "null")
			b.raw("match_confidence", "null")
			b.field("match_error", matchErrNoCredits)
		default:
			if err := b.profile(ProfileOf(c)); err != nil {
				return nil, fmt.Errorf("bulk match: encode %s: %w", c.Domain, err)
			}
			b.raw("match_confidence", strconv.Itoa(r.Confidence))
		}
		out[i] = b.end()
	}
	run.Progress(100)
	s.deps.Log.Info().Str("task", run.Task.ID).Int("rows", len(in.Rows)).Dur("match", matched.Sub(start)).
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
func (b *bulkRow) profile(p Profile) error {
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
