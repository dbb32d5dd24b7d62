package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/openprospect/prospectd/email"
	"github.com/openprospect/prospectd/store"
)

// EmailFindBody is POST /v1/email/find.
type EmailFindBody struct {
	FirstName    string `json:"first_name" minLength:"1" maxLength:"100" doc:"First name"`
	LastName     string `json:"last_name" minLength:"1" maxLength:"100" doc:"Last name"`
	Domain       string `json:"domain" minLength:"1" maxLength:"253" doc:"Company email domain"`
	KnownPattern string `json:"known_pattern,omitempty" maxLength:"80" doc:"Local-part pattern known for the domain, e.g. {first}.{last} or flast; tried first"`
}

// EmailVerifyBody is POST /v1/email/verify (an extension).
type EmailVerifyBody struct {
	Email string `json:"email" minLength:"3" maxLength:"254" doc:"Address to verify"`
}

// EmailBatchItem is one request of a batch: a find (names and domain) or,
// with kind verify, an address.
type EmailBatchItem struct {
	Kind         string `json:"kind,omitempty" enum:"find,verify" doc:"find (default) or verify"`
	FirstName    string `json:"first_name,omitempty" maxLength:"100"`
	LastName     string `json:"last_name,omitempty" maxLength:"100"`
	Domain       string `json:"domain,omitempty" maxLength:"253"`
	KnownPattern string `json:"known_pattern,omitempty" maxLength:"80"`
	Email        string `json:"email,omitempty" maxLength:"254" doc:"Address to verify (kind verify)"`
}

// EmailBatchBody is POST /v1/email/find/batch.
type EmailBatchBody struct {
	Requests      []EmailBatchItem `json:"requests" minItems:"1" maxItems:"500" doc:"1-500 lookups"`
	SourceQueryID string           `json:"source_query_id,omitempty" maxLength:"100" doc:"Internal linkage to the query the rows came from"`
	Refs          []any            `json:"refs,omitempty" maxItems:"500" doc:"Contact row ids (strings or integers) aligned by index with requests; requires source_query_id"`
	Round         string           `json:"round,omitempty" enum:"verify,escalate" doc:"verify (default) or escalate (twice as many candidate patterns)"`
}

// EmailJobAccepted answers a single lookup.
type EmailJobAccepted struct {
	JobID   string `json:"job_id"`
	BatchID string `json:"batch_id"`
	Status  string `json:"status"`
	Kind    string `json:"kind"`
}

// EmailBatchAccepted answers a batch.
type EmailBatchAccepted struct {
	BatchID string   `json:"batch_id"`
	JobIDs  []string `json:"job_ids"`
	Total   int      `json:"total"`
}

// EmailFeedbackBody is POST /v1/email/feedback (an extension).
type EmailFeedbackBody struct {
	Email     string `json:"email" minLength:"3" maxLength:"254" doc:"The address mail was sent to"`
	Outcome   string `json:"outcome" enum:"bounced,delivered" doc:"What happened to the mail"`
	FirstName string `json:"first_name,omitempty" maxLength:"100" doc:"The person's first name, to tell the address's pattern when no lookup of it is cached"`
	LastName  string `json:"last_name,omitempty" maxLength:"100"`
}

type emailFeedbackInput struct{ Body EmailFeedbackBody }
type emailFeedbackOutput struct{ Body email.FeedbackResult }

type emailFindInput struct{ Body EmailFindBody }
type emailVerifyInput struct{ Body EmailVerifyBody }
type emailBatchInput struct{ Body EmailBatchBody }
type emailJobAcceptedOutput struct {
	Status int
	Body   EmailJobAccepted
}
type emailBatchAcceptedOutput struct {
	Status int
	Body   EmailBatchAccepted
}
type emailJobInput struct {
	JobID string `path:"job_id" maxLength:"100"`
}
type emailJobOutput struct{ Body email.JobView }
type emailBatchResultsInput struct {
	BatchID string `path:"batch_id" maxLength:"100"`
}
type emailBatchResultsOutput struct{ Body email.BatchView }

func (s *Server) registerEmail() {
	svc := s.deps.Email
	if svc == nil {
		s.deps.Log.Warn().Msg("no email lookup service (Deps.Email): the /v1/email routes are not served")
		return
	}
	errs := []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusUnprocessableEntity, http.StatusTooManyRequests}

	huma.Register(s.api, huma.Operation{
		OperationID: "email-find", Method: http.MethodPost, Path: "/v1/email/find",
		Summary:     "Find a person's work email (async)",
		Description: "Enumerates address patterns (the domain's known pattern first) and verifies them over SMTP. Returns `job_id`; poll GET /v1/email/jobs/{job_id}. Only `found` results are billed.",
		Tags:        []string{"Email"}, Security: authRequired, DefaultStatus: http.StatusAccepted, Errors: errs,
	}, func(ctx context.Context, in *emailFindInput) (*emailJobAcceptedOutput, error) {
		b := in.Body
		return s.submitEmailOne(ctx, svc, email.KindFind, email.Request{FirstName: b.FirstName, LastName: b.LastName, Domain: b.Domain, KnownPattern: b.KnownPattern})
	})

	huma.Register(s.api, huma.Operation{
		OperationID: "email-verify", Method: http.MethodPost, Path: "/v1/email/verify",
		Summary:     "Verify an email address (async; extension)",
		Description: "Checks one address over SMTP (with a catch-all probe). A job of kind `verify`; poll GET /v1/email/jobs/{job_id}.",
		Tags:        []string{"Email"}, Security: authRequired, DefaultStatus: http.StatusAccepted, Errors: errs,
	}, func(ctx context.Context, in *emailVerifyInput) (*emailJobAcceptedOutput, error) {
		return s.submitEmailOne(ctx, svc, email.KindVerify, email.Request{Email: in.Body.Email})
	})

	huma.Register(s.api, huma.Operation{
		OperationID: "email-find-batch", Method: http.MethodPost, Path: "/v1/email/find/batch",
		Summary:     "Find or verify up to 500 emails (async)",
		Description: "Each request is a find (first_name, last_name, domain) or, with kind verify, an address. The whole request is refused with 429 and Retry-After: 60 when it would take the account over its queued-or-running limit. Poll GET /v1/email/batch/{batch_id}/results until completed + failed = total.",
		Tags:        []string{"Email"}, Security: authRequired, DefaultStatus: http.StatusAccepted, Errors: errs,
	}, func(ctx context.Context, in *emailBatchInput) (*emailBatchAcceptedOutput, error) {
		p, err := s.paid(ctx, store.PlanStarter)
		if err != nil {
			return nil, err
		}
		b := in.Body
		sub := email.Submission{Kind: email.KindFind, SourceQueryID: strings.TrimSpace(b.SourceQueryID), Round: b.Round}
		if sub.Round == "" {
			sub.Round = "verify"
		}
		var details []error
		if len(b.Requests) == 0 { // null passes the schema's array type
			details = append(details, &huma.ErrorDetail{Location: "body.requests", Message: "1-500 requests required"})
		}
		if len(b.Refs) > 0 {
			if sub.SourceQueryID == "" {
				details = append(details, &huma.ErrorDetail{Location: "body.refs", Message: "refs requires source_query_id"})
			}
			if len(b.Refs) != len(b.Requests) {
				details = append(details, &huma.ErrorDetail{Location: "body.refs", Message: fmt.Sprintf("refs has %d items; it must align with the %d requests", len(b.Refs), len(b.Requests))})
			}
			for i, r := range b.Refs {
				ref, ok := refString(r)
				if !ok {
					details = append(details, &huma.ErrorDetail{Location: fmt.Sprintf("body.refs[%d]", i), Message: "a ref is a string of 1-200 characters or an integer", Value: r})
				}
				sub.Refs = append(sub.Refs, ref)
			}
		}
		for i, it := range b.Requests {
			kind := it.Kind
			if kind == "" {
				kind = email.KindFind
			}
			req, err := email.Validate(kind, email.Request{FirstName: it.FirstName, LastName: it.LastName, Domain: it.Domain, KnownPattern: it.KnownPattern, Email: it.Email})
			if err != nil {
				details = append(details, fieldDetail(fmt.Sprintf("body.requests[%d]", i), err))
				continue
			}
			req.Escalate = sub.Round == "escalate"
			sub.Requests = append(sub.Requests, req)
			sub.Kinds = append(sub.Kinds, kind)
		}
		if len(details) > 0 {
			return nil, huma.NewError(http.StatusUnprocessableEntity, "invalid email batch", details...)
		}
		batch, jobList, err := svc.Submit(ctx, p.Org.ID, sub)
		if err != nil {
			return nil, s.emailSubmitError(ctx, err)
		}
		out := &emailBatchAcceptedOutput{Status: http.StatusAccepted, Body: EmailBatchAccepted{BatchID: batch.ID, Total: len(jobList), JobIDs: make([]string, len(jobList))}}
		for i, j := range jobList {
			out.Body.JobIDs[i] = j.ID
		}
		return out, nil
	})

	huma.Register(s.api, huma.Operation{
		OperationID: "email-feedback", Method: http.MethodPost, Path: "/v1/email/feedback",
		Summary:     "Report a bounced or delivered address (extension)",
		Description: "A bounce drops the cached lookups that gave the address (the next lookup asks the mail server again) and lowers the confidence of its pattern at the domain; a delivery marks them delivery_confirmed and raises it. The answer gives the domain's best pattern afterwards.",
		Tags:        []string{"Email"}, Security: authRequired, Errors: []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusUnprocessableEntity},
	}, func(ctx context.Context, in *emailFeedbackInput) (*emailFeedbackOutput, error) {
		if _, err := s.paid(ctx, store.PlanStarter); err != nil {
			return nil, err
		}
		b := in.Body
		res, err := svc.Feedback(ctx, email.FeedbackRequest{Email: b.Email, Outcome: b.Outcome, FirstName: b.FirstName, LastName: b.LastName})
		if errors.Is(err, email.ErrBadRequest) {
			return nil, huma.NewError(http.StatusUnprocessableEntity, "invalid feedback", fieldDetail("body", err))
		}
		if err != nil {
			return nil, s.internal(ctx, "email feedback", err)
		}
		return &emailFeedbackOutput{Body: res}, nil
	})

	huma.Register(s.api, huma.Operation{
		OperationID: "email-job", Method: http.MethodGet, Path: "/v1/email/jobs/{job_id}",
		Summary:     "Email job status and result",
		Description: "Status queued, processing (a greylisted lookup shows its interim result while it waits for the recheck), completed or failed. The result carries the outcome and its evidence (MX, SMTP replies, method, checked_at).",
		Tags:        []string{"Email"}, Security: authRequired, Errors: []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound},
	}, func(ctx context.Context, in *emailJobInput) (*emailJobOutput, error) {
		p, err := s.paid(ctx, store.PlanStarter)
		if err != nil {
			return nil, err
		}
		v, err := svc.Job(ctx, p.Org.ID, in.JobID)
		if errors.Is(err, store.ErrNotFound) {
			return nil, huma.Error404NotFound(fmt.Sprintf("job_id: no email job %q for this organization", in.JobID))
		}
		if err != nil {
			return nil, s.internal(ctx, "email job", err)
		}
		return &emailJobOutput{Body: v}, nil
	})

	huma.Register(s.api, huma.Operation{
		OperationID: "email-batch-results", Method: http.MethodGet, Path: "/v1/email/batch/{batch_id}/results",
		Summary:     "Email batch results",
		Description: "Every job of the batch in request order; the batch is finished when completed + failed = total.",
		Tags:        []string{"Email"}, Security: authRequired, Errors: []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound},
	}, func(ctx context.Context, in *emailBatchResultsInput) (*emailBatchResultsOutput, error) {
		p, err := s.paid(ctx, store.PlanStarter)
		if err != nil {
			return nil, err
		}
		v, err := svc.Batch(ctx, p.Org.ID, in.BatchID)
		if errors.Is(err, store.ErrNotFound) {
			return nil, huma.Error404NotFound(fmt.Sprintf("batch_id: no email batch %q for this organization", in.BatchID))
		}
		if err != nil {
			return nil, s.internal(ctx, "email batch", err)
		}
		return &emailBatchResultsOutput{Body: v}, nil
	})
}

func (s *Server) submitEmailOne(ctx context.Context, svc *email.Service, kind string, r email.Request) (*emailJobAcceptedOutput, error) {
	p, err := s.paid(ctx, store.PlanStarter)
	if err != nil {
		return nil, err
	}
	req, err := email.Validate(kind, r)
	if err != nil {
		return nil, huma.NewError(http.StatusUnprocessableEntity, "invalid email lookup", fieldDetail("body", err))
	}
	_, jobList, err := svc.Submit(ctx, p.Org.ID, email.Submission{Kind: kind, Requests: []email.Request{req}})
	if err != nil {
		return nil, s.emailSubmitError(ctx, err)
	}
	j := jobList[0]
	return &emailJobAcceptedOutput{Status: http.StatusAccepted, Body: EmailJobAccepted{JobID: j.ID, BatchID: j.BatchID, Status: j.Status, Kind: j.Kind}}, nil
}

// emailSubmitError turns the account cap into the spec's 429.
func (s *Server) emailSubmitError(ctx context.Context, err error) error {
	if errors.Is(err, store.ErrOverLimit) {
		return huma.ErrorWithHeaders(
			huma.Error429TooManyRequests("this request would take the account over its limit of queued or running email lookups; nothing was queued: "+err.Error()),
			http.Header{"Retry-After": {"60"}})
	}
	return s.internal(ctx, "submit email lookups", err)
}

func fieldDetail(prefix string, err error) error {
	var fe *email.FieldError
	if errors.As(err, &fe) {
		return &huma.ErrorDetail{Location: prefix + "." + fe.Field, Message: fe.Rule}
	}
	return &huma.ErrorDetail{Location: prefix, Message: err.Error()}
}

// refString reads a ref: a non-empty string of at most 200 characters or
// an integer.
func refString(v any) (string, bool) {
	switch r := v.(type) {
	case string:
		r = strings.TrimSpace(r)
		return r, r != "" && len(r) <= 200
	case float64:
		if r == math.Trunc(r) && math.Abs(r) < 1<<53 {
			return strconv.FormatInt(int64(r), 10), true
		}
	case json.Number:
		if _, err := r.Int64(); err == nil {
			return r.String(), true
		}
	}
	return "", false
}
