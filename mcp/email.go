package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/openprospect/prospectd/email"
	"github.com/openprospect/prospectd/store"
)

// emailTools are the email lookup tools; none without an email service
// (the REST routes are not served then either).
func (s *Server) emailTools() []*tool {
	if s.cfg.Email == nil {
		return nil
	}
	return []*tool{
		{name: "find_email", title: "Find a person's work email", op: "email-find",
			description: "Enumerates address patterns (the domain's known pattern first) and verifies them over SMTP, as a job. Returns job_id; get_email_job reports the result. Bills one email credit only when an address is found.",
			estimate:    s.estimateEmailOne(email.KindFind), run: s.emailOne(email.KindFind)},
		{name: "verify_email", title: "Verify an email address", op: "email-verify",
			description: "Checks one address over SMTP (with a catch-all probe), as a job of kind verify. Returns job_id; get_email_job reports the result. Bills one email credit when the address is deliverable.",
			estimate:    s.estimateEmailOne(email.KindVerify), run: s.emailOne(email.KindVerify)},
		{name: "find_emails", title: "Find or verify up to 500 emails", op: "email-find-batch",
			description: "Each request is a find (first_name, last_name, domain) or, with kind verify, an address. Returns batch_id and job_ids; get_email_batch reports the results. Refused whole when it would take the account over its queued-or-running limit. Bills one email credit per address found.",
			estimate:    s.estimateEmailBatch, run: s.emailBatch},
		{name: "get_email_job", title: "Email job status and result", op: "email-job", readOnly: true,
			description: "Status queued, processing, completed or failed of one email job of the caller's organization, with the outcome and its evidence when done. Free.",
			run:         s.emailJob},
		{name: "get_email_batch", title: "Email batch results", op: "email-batch-results", readOnly: true,
			description: "Every job of an email batch of the caller's organization in request order; finished when completed + failed = total. Free.",
			run:         s.emailBatchResults},
	}
}

func emailFieldError(prefix string, err error) *toolError {
	te := refuse(http.StatusUnprocessableEntity, "invalid email lookup: %v", err)
	var fe *email.FieldError
	if errors.As(err, &fe) {
		te.Detail = fmt.Sprintf("%s%s: %s", prefix, fe.Field, fe.Rule)
		te.Errors = []paramError{{Location: prefix + fe.Field, Message: fe.Rule}}
	}
	return te
}

func emailSubmitError(err error) error {
	if errors.Is(err, store.ErrOverLimit) {
		return refuse(http.StatusTooManyRequests, "this request would take the account over its limit of queued or running email lookups; nothing was queued (retry in 60 s): %v", err)
	}
	return fmt.Errorf("submit email lookups: %w", err)
}

type emailOneArgs struct {
	FirstName    string `json:"first_name"`
	LastName     string `json:"last_name"`
	Domain       string `json:"domain"`
	KnownPattern string `json:"known_pattern"`
	Email        string `json:"email"`
}

func (s *Server) emailRequest(c *call, kind string) (email.Request, error) {
	var a emailOneArgs
	if err := decode(c, &a); err != nil {
		return email.Request{}, err
	}
	if kind == email.KindVerify && (a.FirstName != "" || a.LastName != "" || a.Domain != "" || a.KnownPattern != "") ||
		kind == email.KindFind && a.Email != "" {
		want := "first_name, last_name, domain, known_pattern"
		if kind == email.KindVerify {
			want = "email"
		}
		return email.Request{}, refuse(http.StatusUnprocessableEntity, "arguments: %s takes only %s", kind, want)
	}
	req, err := email.Validate(kind, email.Request{FirstName: a.FirstName, LastName: a.LastName, Domain: a.Domain, KnownPattern: a.KnownPattern, Email: a.Email})
	if err != nil {
		return req, emailFieldError("", err)
	}
	return req, nil
}

func (s *Server) estimateEmailOne(kind string) func(context.Context, *call) (Estimate, error) {
	return func(_ context.Context, c *call) (Estimate, error) {
		if _, err := s.emailRequest(c, kind); err != nil {
			return Estimate{}, err
		}
		return Estimate{Records: 1, Credits: 1, Note: "billed only when the lookup finds a deliverable address"}, nil
	}
}

// EmailJobAccepted answers find_email and verify_email. The reserved
// credits count against the session cap as spent: the bill is settled
// when the job runs.
type EmailJobAccepted struct {
	JobID   string `json:"job_id"`
	BatchID string `json:"batch_id"`
	Status  string `json:"status"`
	Kind    string `json:"kind"`
	Next    string `json:"next"`
}

func (EmailJobAccepted) credits() int { return 1 }

func (s *Server) emailOne(kind string) func(context.Context, *call) (any, error) {
	return func(ctx context.Context, c *call) (any, error) {
		req, err := s.emailRequest(c, kind)
		if err != nil {
			return nil, err
		}
		_, jobs, err := s.cfg.Email.Submit(ctx, c.caller.Principal.Org.ID, email.Submission{Kind: kind, Requests: []email.Request{req}})
		if err != nil {
			return nil, emailSubmitError(err)
		}
		j := jobs[0]
		return EmailJobAccepted{JobID: j.ID, BatchID: j.BatchID, Status: j.Status, Kind: j.Kind,
			Next: "call get_email_job with job_id until status is completed or failed"}, nil
	}
}

type emailBatchArgs struct {
	Requests      []emailBatchItem `json:"requests"`
	SourceQueryID string           `json:"source_query_id"`
	Refs          []any            `json:"refs"`
	Round         string           `json:"round"`
}

type emailBatchItem struct {
	Kind string `json:"kind"`
	emailOneArgs
}

const maxEmailBatch = 500

// emailSubmission validates as POST /v1/email/find/batch does.
func (s *Server) emailSubmission(c *call) (email.Submission, error) {
	var a emailBatchArgs
	if err := decode(c, &a); err != nil {
		return email.Submission{}, err
	}
	sub := email.Submission{Kind: email.KindFind, SourceQueryID: strings.TrimSpace(a.SourceQueryID), Round: a.Round}
	te := refuse(http.StatusUnprocessableEntity, "invalid email batch")
	bad := func(loc, msg string) { te.Errors = append(te.Errors, paramError{Location: loc, Message: msg}) }
	switch sub.Round {
	case "":
		sub.Round = "verify"
	case "verify", "escalate":
	default:
		bad("round", "verify or escalate")
	}
	if len(a.Requests) == 0 || len(a.Requests) > maxEmailBatch {
		bad("requests", fmt.Sprintf("give 1-%d requests (got %d)", maxEmailBatch, len(a.Requests)))
	}
	if len(sub.SourceQueryID) > 100 {
		bad("source_query_id", "at most 100 characters")
	}
	if len(a.Refs) > 0 {
		if sub.SourceQueryID == "" {
			bad("refs", "refs requires source_query_id")
		}
		if len(a.Refs) != len(a.Requests) {
			bad("refs", fmt.Sprintf("refs has %d items; it must align with the %d requests", len(a.Refs), len(a.Requests)))
		}
		for i, r := range a.Refs {
			ref, ok := refString(r)
			if !ok {
				bad(fmt.Sprintf("refs[%d]", i), "a ref is a string of 1-200 characters or an integer")
			}
			sub.Refs = append(sub.Refs, ref)
		}
	}
	for i, it := range a.Requests {
		kind := it.Kind
		if kind == "" {
			kind = email.KindFind
		}
		loc := fmt.Sprintf("requests[%d]", i)
		if kind != email.KindFind && kind != email.KindVerify {
			bad(loc+".kind", "find or verify")
			continue
		}
		req, err := email.Validate(kind, email.Request{FirstName: it.FirstName, LastName: it.LastName, Domain: it.Domain, KnownPattern: it.KnownPattern, Email: it.Email})
		if err != nil {
			te.Errors = append(te.Errors, emailFieldError(loc+".", err).Errors...)
			continue
		}
		req.Escalate = sub.Round == "escalate"
		sub.Requests = append(sub.Requests, req)
		sub.Kinds = append(sub.Kinds, kind)
	}
	if len(te.Errors) > 0 {
		parts := make([]string, len(te.Errors))
		for i, e := range te.Errors {
			parts[i] = e.Location + ": " + e.Message
		}
		te.Detail = "invalid email batch: " + strings.Join(parts, "; ")
		return sub, te
	}
	return sub, nil
}

// refString reads a ref as the REST route does: a string of 1-200
// characters or an integer.
func refString(v any) (string, bool) {
	switch r := v.(type) {
	case string:
		r = strings.TrimSpace(r)
		return r, r != "" && len(r) <= 200
	case float64:
		if r == float64(int64(r)) && r < 1<<53 && r > -(1<<53) {
			return fmt.Sprintf("%d", int64(r)), true
		}
	}
	return "", false
}

func (s *Server) estimateEmailBatch(_ context.Context, c *call) (Estimate, error) {
	sub, err := s.emailSubmission(c)
	if err != nil {
		return Estimate{}, err
	}
	n := len(sub.Requests)
	return Estimate{Records: n, Credits: n, Note: "only addresses found (or verified deliverable) are billed"}, nil
}

// EmailBatchAccepted answers find_emails.
type EmailBatchAccepted struct {
	BatchID string   `json:"batch_id"`
	JobIDs  []string `json:"job_ids"`
	Total   int      `json:"total"`
	Next    string   `json:"next"`
}

func (b EmailBatchAccepted) credits() int { return b.Total }

func (s *Server) emailBatch(ctx context.Context, c *call) (any, error) {
	sub, err := s.emailSubmission(c)
	if err != nil {
		return nil, err
	}
	batch, jobs, err := s.cfg.Email.Submit(ctx, c.caller.Principal.Org.ID, sub)
	if err != nil {
		return nil, emailSubmitError(err)
	}
	out := EmailBatchAccepted{BatchID: batch.ID, Total: len(jobs), JobIDs: make([]string, len(jobs)),
		Next: "call get_email_batch with batch_id until completed + failed = total"}
	for i, j := range jobs {
		out.JobIDs[i] = j.ID
	}
	return out, nil
}

func (s *Server) idArg(c *call, name string) (string, error) {
	if err := onlyArgs(c.args, name); err != nil {
		return "", err
	}
	id, err := c.args.str(name)
	if err != nil {
		return "", err
	}
	if id == "" || len(id) > 100 {
		return "", &toolError{Status: http.StatusUnprocessableEntity, Title: "Unprocessable Entity", Detail: name + ": required, at most 100 characters",
			Errors: []paramError{{Location: name, Message: "required, at most 100 characters"}}}
	}
	return id, nil
}

func (s *Server) emailJob(ctx context.Context, c *call) (any, error) {
	if err := paid(c.caller); err != nil {
		return nil, err
	}
	id, err := s.idArg(c, "job_id")
	if err != nil {
		return nil, err
	}
	v, err := s.cfg.Email.Job(ctx, c.caller.Principal.Org.ID, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, refuse(http.StatusNotFound, "job_id: no email job %q for this organization", id)
	}
	if err != nil {
		return nil, fmt.Errorf("email job: %w", err)
	}
	return v, nil
}

func (s *Server) emailBatchResults(ctx context.Context, c *call) (any, error) {
	if err := paid(c.caller); err != nil {
		return nil, err
	}
	id, err := s.idArg(c, "batch_id")
	if err != nil {
		return nil, err
	}
	v, err := s.cfg.Email.Batch(ctx, c.caller.Principal.Org.ID, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, refuse(http.StatusNotFound, "batch_id: no email batch %q for this organization", id)
	}
	if err != nil {
		return nil, fmt.Errorf("email batch: %w", err)
	}
	return v, nil
}
