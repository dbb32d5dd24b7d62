package api

import (
	"context"
	"fmt"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/openprospect/prospectd/namematch"
	"github.com/openprospect/prospectd/store"
)

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

// bulkMatchColumns are the form fields that name columns, in the order of
// the task's fields.
var bulkMatchColumns = []string{"name_column", "country_column", "state_column", "city_column", "zip_code_column", "phone_column"}

func (s *Server) registerBulkMatch() {
	huma.Register(s.api, huma.Operation{
		OperationID:   "bulkmatch",
		Method:        http.MethodPost,
		Path:          "/v1/bulkmatch",
		MaxBodyBytes:  uploadBodyLimit(bulkMatchLimits),
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
		return s.submit(ctx, p, namematch.KindBulkMatch, task)
	})

	s.registerTaskStatus("bulkmatch-status", "/v1/bulkmatch/status/{task_id}", "Companies", "Company name bulk match status",
		"Status and progress; when completed, `results`: one row per input row with every input column as `input:<column>`, the matched company's profile fields and `match_confidence` (0-100). A row without a match at the threshold has `domain` and `match_confidence` null; a row that could not be searched has `match_error` `search_failed` (not billed; resubmit); a matched row the period's credits did not cover has `domain` null and `match_error` `no_credits` (the task fails when none is covered).", namematch.KindBulkMatch)
}

// parseBulkMatch validates the form and reads the upload.
func parseBulkMatch(form *multipart.Form, query map[string]string) (namematch.BulkMatchInput, error) {
	field := func(name string) string {
		if v := formValue(form, name); v != "" {
			return v
		}
		return strings.TrimSpace(query[name])
	}
	task := namematch.BulkMatchInput{MinConfidence: 50}
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
