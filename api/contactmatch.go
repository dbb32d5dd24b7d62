package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/openprospect/prospectd/query"
	"github.com/openprospect/prospectd/record/domain"
	"github.com/openprospect/prospectd/record/geo"
	"github.com/openprospect/prospectd/store"
)

// ContactMatchQuery is one query of a contact bulk match.
type ContactMatchQuery struct {
	Name          string `json:"name,omitempty" maxLength:"200"`
	Email         string `json:"email,omitempty" maxLength:"254"`
	CompanyName   string `json:"company_name,omitempty" maxLength:"300"`
	Domain        string `json:"domain,omitempty" maxLength:"300"`
	PersonCountry string `json:"person_country,omitempty" maxLength:"60" doc:"ISO-3166-1 alpha-2"`
}

// ContactMatchBody is POST /v1/contacts/bulk-match.
type ContactMatchBody struct {
	Queries []ContactMatchQuery `json:"queries" minItems:"1" maxItems:"500" doc:"1-500 queries, each with a name or an email"`
	Enrich  bool                `json:"enrich,omitempty" doc:"Return full contact records (billed as contacts)"`
	Limit   int                 `json:"limit,omitempty" minimum:"1" maximum:"20" doc:"Matches per query, 1-20 (default 10)"`
}

type contactMatchInput struct{ Body ContactMatchBody }

// TaskAccepted is the answer to a task submission.
type TaskAccepted struct {
	TaskID string `json:"task_id"`
	Status string `json:"status"`
}

type taskAcceptedOutput struct {
	Status int
	Body   TaskAccepted
}

// ContactMatchResult is one query's matches; a match is the lookup subset
// with match_score, or a full contact record (with match_score) when
// enrich is set.
type ContactMatchResult = query.ContactMatchResult

// TaskStatusBody is a task's status; results when completed.
type TaskStatusBody struct {
	TaskID   string          `json:"task_id"`
	Status   string          `json:"status" enum:"in_progress,completed,failed,cancelling,cancelled"`
	Progress int             `json:"progress" doc:"0-100"`
	Results  json.RawMessage `json:"results,omitempty"`
	Error    string          `json:"error,omitempty"`
}

type taskStatusInput struct {
	TaskID string `path:"task_id" maxLength:"100"`
}

type taskStatusOutput struct{ Body TaskStatusBody }

func (s *Server) registerContactMatch() {
	huma.Register(s.api, huma.Operation{
		OperationID:   "contacts-bulk-match",
		Method:        http.MethodPost,
		Path:          "/v1/contacts/bulk-match",
		MaxBodyBytes:  contactMatchBodyLimit,
		Summary:       "Match people to contacts (async)",
		Description:   "Each query is matched by exact email first (match_score 100), then by name (and company or domain). Returns a task id; poll GET /v1/contactmatch/status/{task_id}.",
		Tags:          []string{"Contacts"},
		Security:      authRequired,
		DefaultStatus: http.StatusAccepted,
		Errors:        []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusUnprocessableEntity, http.StatusTooManyRequests},
	}, func(ctx context.Context, in *contactMatchInput) (*taskAcceptedOutput, error) {
		p, err := s.paid(ctx, store.PlanStarter)
		if err != nil {
			return nil, err
		}
		task := query.ContactMatchInput{Enrich: in.Body.Enrich, Limit: in.Body.Limit}
		if task.Limit == 0 {
			task.Limit = 10
		}
		var details []error
		for i, q := range in.Body.Queries {
			loc := fmt.Sprintf("body.queries[%d]", i)
			mq := query.MatchQuery{Name: strings.TrimSpace(q.Name), Email: strings.ToLower(strings.TrimSpace(q.Email)), CompanyName: strings.TrimSpace(q.CompanyName)}
			if mq.Name == "" && mq.Email == "" {
				details = append(details, &huma.ErrorDetail{Location: loc, Message: "give a name or an email"})
			}
			if mq.Email != "" {
				if !plainEmail(mq.Email) {
					details = append(details, &huma.ErrorDetail{Location: loc + ".email", Message: "not an email address", Value: q.Email})
				}
			}
			if q.Domain != "" {
				d, err := domain.Normalize(q.Domain)
				if err != nil {
					details = append(details, &huma.ErrorDetail{Location: loc + ".domain", Message: err.Error(), Value: q.Domain})
				}
				mq.Domain = d
			}
			if q.PersonCountry != "" {
				c, ok := geo.LookupCountry(q.PersonCountry)
				if !ok {
					details = append(details, &huma.ErrorDetail{Location: loc + ".person_country", Message: "not an ISO-3166-1 alpha-2 code or country name", Value: q.PersonCountry})
				}
				mq.PersonCountry = c.Code
			}
			task.Queries = append(task.Queries, mq)
		}
		if len(details) > 0 {
			return nil, huma.NewError(http.StatusUnprocessableEntity, "invalid queries", details...)
		}
		return s.submit(ctx, p, query.KindContactMatch, task)
	})

	for _, path := range []string{"/v1/contactmatch/status/{task_id}", "/v1/bulkcontactmatch/status/{task_id}"} {
		s.registerTaskStatus("contact-match-status"+strings.ReplaceAll(strings.Split(path, "/")[2], "contactmatch", ""), path, "Contacts", "Contact bulk match status",
			"Status and progress of a contact bulk match; results when completed. Both paths serve the same tasks.", query.KindContactMatch)
	}
}

// taskStatus reports a task of the caller's organization; another
// organization's task, or one of another kind, is not found.
func (s *Server) taskStatus(ctx context.Context, id, kind string) (*taskStatusOutput, error) {
	p, ok := PrincipalFrom(ctx)
	if !ok {
		return nil, huma.Error401Unauthorized("missing API key")
	}
	t, err := s.deps.Store.GetTask(ctx, p.Org.ID, id)
	if errors.Is(err, store.ErrNotFound) || err == nil && t.Kind != kind {
		return nil, huma.Error404NotFound(fmt.Sprintf("task_id: no task %q for this organization", id))
	}
	if err != nil {
		return nil, s.internal(ctx, "task status", err)
	}
	body := TaskStatusBody{TaskID: t.ID, Status: t.Status, Progress: t.Progress, Error: t.Error}
	if t.Status == store.TaskCompleted {
		body.Results = t.Result
		body.Progress = 100
	}
	return &taskStatusOutput{Body: body}, nil
}
