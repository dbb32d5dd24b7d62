package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humafiber"

	"github.com/openprospect/prospectd/export"
	"github.com/openprospect/prospectd/query"
	"github.com/openprospect/prospectd/store"
)

type exportFileInput struct {
	TaskID string `path:"task_id" maxLength:"100"`
}

// registerExports serves server-side exports (beyond the spec) when the
// server keeps export files: POST /v1/exports/discover and
// /v1/exports/contacts queue a task, GET /v1/exports/{task_id} reports it
// and GET /v1/exports/{task_id}/file downloads the file.
func (s *Server) registerExports(contacts *query.ContactService) {
	if s.deps.Exports == nil {
		return
	}
	errs := []int{http.StatusBadRequest, http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound,
		http.StatusUnprocessableEntity, http.StatusTooManyRequests, http.StatusServiceUnavailable}
	for _, op := range []struct {
		source, id, summary, desc string
		table                     query.ParamTable
	}{
		{export.SourceDiscover, "export-discover", "Export discovery results",
			"Queues a task that writes every company a discovery search matches — past the 10,000 a page can reach, up to max_records — to a CSV, JSONL or XLSX file, billed as the pages would be (one credit per company not billed in the last 90 days; when the credits run out the file stops there and the task says so). Takes the parameters of GET /v1/discover without max_records/offset, plus format and max_records. Poll GET /v1/exports/{task_id}; download GET /v1/exports/{task_id}/file.",
			export.DiscoverTable},
		{export.SourceContacts, "export-contacts", "Export contact search results",
			"Queues a task that writes every contact a contact search matches, in rank order and without per-company caps, up to max_records, to a CSV, JSONL or XLSX file of contact records (as GET /v1/contacts returns them), billed as the contact pages are (each company and each contact not billed in the last 90 days). Takes the contact search parameters as a query string without max_records, max_companies, offset and results_by_company, plus format and max_records.",
			export.ContactTable},
	} {
		huma.Register(s.api, huma.Operation{
			OperationID:   op.id,
			Method:        http.MethodPost,
			Path:          "/v1/exports/" + op.source,
			Summary:       op.summary,
			Description:   op.desc,
			Tags:          []string{"Exports"},
			Security:      authRequired,
			Parameters:    s.queryParams(op.table),
			Errors:        errs,
			DefaultStatus: http.StatusAccepted,
		}, func(ctx context.Context, in *rawQuery) (*taskAcceptedOutput, error) {
			p, err := s.paid(ctx, store.PlanStarter)
			if err != nil {
				return nil, err
			}
			req, err := export.Parse(op.source, in.values)
			if err != nil {
				return nil, queryError(err, "query")
			}
			// Counting checks now what the task would fail on later:
			// unknown saved-query ids (404), over-cap exclusions, an
			// index without an embedder.
			if op.source == export.SourceDiscover {
				_, _, err = s.companies.Count(ctx, req.Discover)
			} else {
				_, err = contacts.Count(ctx, req.Contacts)
			}
			if err != nil {
				return nil, s.serviceError(ctx, "export "+op.source, err)
			}
			return s.submit(ctx, p, export.Kind, req.Input)
		})
	}
	s.registerTaskStatus("export-status", "/v1/exports/{task_id}", "Exports", "Export status",
		"Status and progress of an export; when completed, the file's size, record count, credits billed and download path.", export.Kind)

	huma.Register(s.api, huma.Operation{
		OperationID: "export-file",
		Method:      http.MethodGet,
		Path:        "/v1/exports/{task_id}/file",
		Summary:     "Download an export",
		Description: "The file of a completed export, streamed from disk (CSV, JSONL or XLSX as requested). 409 while the export runs, 410 once its retention period has passed.",
		Tags:        []string{"Exports"},
		Security:    authRequired,
		Errors:      []int{http.StatusUnauthorized, http.StatusNotFound, http.StatusConflict, http.StatusGone},
		Responses: map[string]*huma.Response{"200": {Description: "The export file", Content: map[string]*huma.MediaType{
			"text/csv":                            {Schema: &huma.Schema{Type: huma.TypeString}},
			"application/x-ndjson":                {Schema: &huma.Schema{Type: huma.TypeString}},
			export.ContentType(export.FormatXLSX): {Schema: &huma.Schema{Type: huma.TypeString, Format: "binary"}},
		}}},
	}, func(ctx context.Context, in *exportFileInput) (*huma.StreamResponse, error) {
		p, ok := PrincipalFrom(ctx)
		if !ok {
			return nil, huma.Error401Unauthorized("missing API key")
		}
		t, err := s.deps.Store.GetTask(ctx, p.Org.ID, in.TaskID)
		if errors.Is(err, store.ErrNotFound) || err == nil && t.Kind != export.Kind {
			return nil, huma.Error404NotFound(fmt.Sprintf("task_id: no export %q for this organization", in.TaskID))
		}
		if err != nil {
			return nil, s.internal(ctx, "export file", err)
		}
		if t.Status != store.TaskCompleted {
			return nil, huma.Error409Conflict(fmt.Sprintf("task_id: export %q is %s, not completed", t.ID, t.Status))
		}
		var res export.Result
		if err := json.Unmarshal(t.Result, &res); err != nil {
			return nil, s.internal(ctx, "export file", err)
		}
		f, size, err := s.deps.Exports.Open(t.ID, res.Format)
		if errors.Is(err, export.ErrGone) {
			return nil, huma.NewError(http.StatusGone, fmt.Sprintf("task_id: the file of export %q is gone (kept until %s)", t.ID, res.ExpiresAt.Format("2006-01-02T15:04:05Z")))
		}
		if err != nil {
			return nil, s.internal(ctx, "export file", err)
		}
		return &huma.StreamResponse{Body: func(hctx huma.Context) {
			c := humafiber.Unwrap(hctx)
			c.Set("Content-Type", export.ContentType(res.Format))
			c.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="export-%s.%s"`, t.ID, res.Format))
			c.Status(http.StatusOK)
			// fasthttp sends the file after the handler returns and
			// closes it then: the body never sits in memory.
			if err := c.SendStream(f, int(size)); err != nil {
				f.Close()
			}
		}}, nil
	})
}
