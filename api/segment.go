package api

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/openprospect/prospectd/query"
	"github.com/openprospect/prospectd/record/domain"
	"github.com/openprospect/prospectd/store"
	"github.com/openprospect/prospectd/uploads"
)

// Segment upload caps (spec: Limits).
var segmentLimits = uploads.Limits{MaxBytes: 1 << 20, MaxRows: 10_000}

type segmentInput struct {
	RawBody huma.MultipartFormFiles[SegmentForm]
}

// SegmentedCompany is a result row: a profile with the segment fields.
type SegmentedCompany = query.SegmentedCompany

// SegmentResults are a completed segmentation's results.
type SegmentResults = query.SegmentResults

func (s *Server) registerSegment() {
	huma.Register(s.api, huma.Operation{
		OperationID:   "segment",
		Method:        http.MethodPost,
		Path:          "/v1/segment",
		MaxBodyBytes:  uploadBodyLimit(segmentLimits),
		Summary:       "Segment a list of domains (async)",
		Description:   "multipart/form-data: `file` (CSV or .xlsx, at most 1 MB and 10,000 rows), `domain_column` (detected when omitted), `max_segments` (2-100; chosen by silhouette when omitted). Returns a task id; poll GET /v1/segment/status/{task_id}. Only active indexed companies are segmented.",
		Tags:          []string{"Companies"},
		Security:      authRequired,
		DefaultStatus: http.StatusAccepted,
		Errors:        []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusRequestEntityTooLarge, http.StatusUnprocessableEntity, http.StatusTooManyRequests},
	}, func(ctx context.Context, in *segmentInput) (*taskAcceptedOutput, error) {
		p, err := s.paid(ctx, store.PlanStarter)
		if err != nil {
			return nil, err
		}
		form := in.RawBody.Form
		savedDoms, err := s.savedQueryRef(ctx, p, form.Value["query_id"])
		if err != nil {
			return nil, err
		}
		task := query.SegmentInput{}
		if v := formValue(form, "max_segments"); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 2 || n > 100 {
				return nil, huma.Error422UnprocessableEntity("max_segments: must be an integer between 2 and 100")
			}
			task.MaxSegments = n
		}
		// With query_id the file is optional: the saved domains are rows.
		t, col := &uploads.Table{Header: []string{"domain"}}, 0
		if len(savedDoms) == 0 || hasFile(form) {
			if t, err = readUpload(form, segmentLimits); err != nil {
				return nil, err
			}
			if col, err = uploads.DomainColumn(t, formValue(form, "domain_column")); err != nil {
				return nil, huma.Error422UnprocessableEntity(err.Error())
			}
		}
		withSavedDomains(t, col, savedDoms)
		seen := map[string]bool{}
		var bad []string
		for i, row := range t.Rows {
			v := row[col]
			if v == "" {
				continue
			}
			d, err := domain.Normalize(v)
			if err != nil {
				bad = append(bad, fmt.Sprintf("line %d: %q", t.Line[i], v))
				continue
			}
			if !seen[d] {
				seen[d] = true
				task.Domains = append(task.Domains, d)
			}
		}
		if len(bad) > 0 {
			if len(bad) > 5 {
				bad = append(bad[:5], fmt.Sprintf("and %d more", len(bad)-5))
			}
			return nil, huma.Error422UnprocessableEntity("domain column " + t.Header[col] + ": not domains: " + strings.Join(bad, "; "))
		}
		if len(task.Domains) == 0 {
			return nil, huma.Error422UnprocessableEntity("domain column " + t.Header[col] + ": no domains")
		}
		return s.submit(ctx, p, query.KindSegment, task)
	})

	s.registerTaskStatus("segment-status", "/v1/segment/status/{task_id}", "Companies", "Segmentation status",
		"Status and progress; when completed, `results`: company profiles with segment_id (-1 unclustered), segment_description and probability.", query.KindSegment)
}
