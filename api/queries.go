package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"reflect"
	"strconv"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/query"
	"github.com/openprospect/prospectd/saved"
	"github.com/openprospect/prospectd/store"
)

// SaveResultsPerMinute is the base rate of POST /v1/queries/save-results
// per organization, scaled by the plan's multiplier (spec: Limits).
const SaveResultsPerMinute = 10

// queryRoutes are the saved-query routes' services.
type queryRoutes struct {
	svc *saved.Service
	// monitors is nil when the store keeps no monitors.
	monitors *saved.Monitors
	// saves limits save-results per organization (and key) on top of the
	// general limits.
	saves *account.Limiter
}

// SavedQueryBody is a saved query as the API returns it.
type SavedQueryBody struct {
	QueryID   string    `json:"query_id" format:"uuid"`
	QueryName string    `json:"query_name"`
	Action    string    `json:"action" doc:"discover, exclusion, or thin_<action> for saved results"`
	UserName  string    `json:"user_name" doc:"Owner (email)"`
	Mtime     time.Time `json:"mtime"`
	Domains   []string  `json:"domains" doc:"The query's domains (the first 1,000 in a listing; domain_count is the total)"`
	// DomainCount, PersonaIDCount and RowCount are the list sizes.
	DomainCount    int            `json:"domain_count"`
	PersonaIDCount int            `json:"persona_id_count"`
	RowCount       int            `json:"row_count"`
	QueryParams    map[string]any `json:"query_params"`
	Tags           []string       `json:"tags"`
}

func savedQueryBody(q saved.Query) SavedQueryBody {
	params := map[string]any{}
	if len(q.Params) > 0 {
		_ = json.Unmarshal(q.Params, &params) // validated as an object when saved
	}
	return SavedQueryBody{
		QueryID: q.ID, QueryName: q.Name, Action: q.Action, UserName: q.UserName, Mtime: q.UpdatedAt,
		Domains: nonNil(q.Domains), DomainCount: q.DomainCount, PersonaIDCount: q.PersonaIDCount, RowCount: q.RowCount,
		QueryParams: params, Tags: nonNil(q.Tags),
	}
}

type listSavedInput struct {
	MaxRecords int      `query:"max_records" default:"100" minimum:"1" maximum:"1000" doc:"Page size"`
	Offset     int      `query:"offset" default:"0" minimum:"0" doc:"Queries to skip"`
	Action     string   `query:"action" doc:"Only queries of this action, e.g. discover (also matches results saved from discovery, thin_discover), exclusion, thin_contacts"`
	Tags       []string `query:"tags,explode" doc:"Only queries having any of these tags; repeat or comma-separate; normalized like stored tags"`
}

type listSavedOutput struct {
	Body struct {
		Results []SavedQueryBody `json:"results"`
		Count   int              `json:"count" doc:"Queries matching the filters in all (not only this page)"`
	}
}

// saveResultsRequest documents the save-results body (read by the service).
type saveResultsRequest struct {
	QueryName    string           `json:"query_name" minLength:"1" maxLength:"255"`
	Action       string           `json:"action" enum:"discover,segment,contacts,append,match" doc:"Stored as thin_<action>"`
	Data         []map[string]any `json:"data" doc:"Result rows; extra columns are kept. At most 50,000 rows and 50 MB."`
	QueryParams  map[string]any   `json:"query_params,omitempty" doc:"The original request parameters"`
	DomainColumn string           `json:"domain_column,omitempty" default:"domain" doc:"Column holding each row's domain"`
	Tags         []string         `json:"tags,omitempty" maxItems:"20" doc:"2-50 characters each; lower-cased, spaces to hyphens, other characters removed"`
}

type saveResultsInput struct {
	RawBody []byte
}

type saveResultsOutput struct {
	Body struct {
		QueryID        string   `json:"query_id"`
		QueryName      string   `json:"query_name"`
		Action         string   `json:"action"`
		DomainCount    int      `json:"domain_count"`
		PersonaIDCount int      `json:"persona_id_count"`
		RowCount       int      `json:"row_count"`
		Tags           []string `json:"tags"`
	}
}

type exclusionListInput struct {
	Body struct {
		QueryName  string   `json:"query_name" doc:"1-255 characters"`
		Domains    []string `json:"domains,omitempty" doc:"At least 20 distinct domains unless persona_ids are given; duplicates removed; over 250,000 truncated"`
		PersonaIDs []int64  `json:"persona_ids,omitempty" doc:"Persona ids; duplicates removed; over 500,000 truncated"`
		Tags       []string `json:"tags,omitempty" doc:"At most 20, 2-50 characters each"`
	}
}

type exclusionListOutput struct {
	Body struct {
		QueryID        string   `json:"query_id"`
		QueryName      string   `json:"query_name"`
		DomainCount    int      `json:"domain_count"`
		PersonaIDCount int      `json:"persona_id_count"`
		Truncated      bool     `json:"truncated" doc:"Whether the list was cut to the caps"`
		Tags           []string `json:"tags"`
	}
}

type patchSavedInput struct {
	QueryID string `path:"query_id"`
	Body    struct {
		QueryName *string  `json:"query_name,omitempty" doc:"New name, 1-255 characters"`
		Tags      []string `json:"tags,omitempty" doc:"Replaces the tags; [] removes them"`
	}
}

type patchSavedOutput struct {
	Body struct {
		QueryID   string   `json:"query_id"`
		QueryName string   `json:"query_name"`
		Tags      []string `json:"tags"`
	}
}

type deleteSavedInput struct {
	QueryID string `path:"query_id"`
}

type messageOutput struct {
	Body struct {
		Message string `json:"message"`
	}
}

// callerOf is who acts on saved queries for p.
func callerOf(p store.Principal) saved.Caller {
	return saved.Caller{OrgID: p.Org.ID, UserID: p.User.ID, Admin: p.User.Role == store.RoleAdmin}
}

// savedError maps the saved package's errors to statuses.
func (s *Server) savedError(ctx context.Context, what string, err error) error {
	var re *saved.RuleError
	var nf *saved.NotFoundError
	switch {
	case errors.As(err, &nf):
		return huma.Error404NotFound(nf.Error())
	case errors.Is(err, saved.ErrNotFound):
		return huma.Error404NotFound("query_id: saved query not found for the caller")
	case errors.As(err, &re) && errors.Is(err, saved.ErrTooLarge):
		return huma.NewError(http.StatusRequestEntityTooLarge, re.Error())
	case errors.As(err, &re):
		return huma.Error400BadRequest(re.Error())
	}
	return s.internal(ctx, what, err)
}

// registerQueries serves the saved-query routes when the state store keeps
// saved queries, and lets discovery, contacts, segment and append resolve
// saved-query ids.
func (s *Server) registerQueries() {
	st, ok := s.deps.Store.(saved.Store)
	if !ok {
		s.deps.Log.Warn().Msg("this state store keeps no saved queries: the /v1/queries routes are not served and every query id is unknown")
		return
	}
	r := &queryRoutes{
		svc: saved.NewService(st),
		saves: &account.Limiter{Plans: s.deps.Plans, Limits: account.Limits{
			KeyPerSecond: SaveResultsPerMinute / 60.0, KeyBurst: SaveResultsPerMinute,
			OrgPerSecond: SaveResultsPerMinute / 60.0, OrgBurst: SaveResultsPerMinute,
		}},
	}
	s.queries = r
	if ms, ok := s.deps.Store.(saved.MonitorStore); ok {
		if s.deps.Webhooks == nil {
			s.deps.Log.Warn().Msg("no webhook sender (Deps.Webhooks): the /v1/queries/{query_id}/monitor routes are not served")
		} else {
			r.monitors = s.newMonitors(ms, st)
			s.registerMonitors(r, ms)
		}
	}
	s.companies.Saved = func(ctx context.Context, id string) (query.SavedQuery, bool, error) {
		p, ok := PrincipalFrom(ctx)
		if !ok {
			return query.SavedQuery{}, false, nil
		}
		q, err := r.svc.Lists(ctx, callerOf(p), id)
		if errors.Is(err, saved.ErrNotFound) {
			return query.SavedQuery{}, false, nil
		}
		if err != nil {
			return query.SavedQuery{}, false, err
		}
		return query.SavedQuery{Key: q.ID, Domains: q.Domains, PersonaIDs: q.PersonaIDs, OverCap: r.svc.OverCap(q)}, true, nil
	}

	errs := []int{http.StatusBadRequest, http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusUnprocessableEntity, http.StatusTooManyRequests}
	huma.Register(s.api, huma.Operation{
		OperationID: "list-saved-queries",
		Method:      http.MethodGet,
		Path:        "/v1/queries/saved",
		Summary:     "List saved queries",
		Description: "The organization's saved queries that have domains, newest change first. Starter plan or higher.",
		Tags:        []string{"Saved queries"},
		Security:    authRequired,
		Errors:      errs,
	}, func(ctx context.Context, in *listSavedInput) (*listSavedOutput, error) {
		p, err := s.paid(ctx, store.PlanStarter)
		if err != nil {
			return nil, err
		}
		qs, n, err := r.svc.List(ctx, callerOf(p), saved.List{Action: in.Action, Tags: in.Tags, Limit: in.MaxRecords, Offset: in.Offset})
		if err != nil {
			return nil, s.savedError(ctx, "list saved queries", err)
		}
		out := &listSavedOutput{}
		out.Body.Results = make([]SavedQueryBody, len(qs))
		for i, q := range qs {
			out.Body.Results[i] = savedQueryBody(q)
		}
		out.Body.Count = n
		return out, nil
	})

	maxBody := r.svc.Limits.MaxBytes
	huma.Register(s.api, huma.Operation{
		OperationID:  "save-results",
		Method:       http.MethodPost,
		Path:         "/v1/queries/save-results",
		Summary:      "Save a result set",
		Description:  "Saves result rows as a query usable as inclusion_query_id / exclusion_query_id / query_id. Domain-based actions need at least one domain; `contacts` also accepts persona-only rows. 413 over 50,000 rows or 50 MB; 10 requests a minute per organization, times the plan's multiplier. Starter plan or higher.",
		Tags:         []string{"Saved queries"},
		Security:     authRequired,
		Errors:       append(errs, http.StatusRequestEntityTooLarge),
		MaxBodyBytes: maxBody,
		// The service checks the body (400 naming the rule); the schema
		// only documents it, and validating 50,000 rows twice would cost
		// more than saving them.
		SkipValidateBody: true,
		RequestBody: &huma.RequestBody{Required: true, Content: map[string]*huma.MediaType{
			"application/json": {Schema: s.api.OpenAPI().Components.Schemas.Schema(reflect.TypeOf(saveResultsRequest{}), true, "SaveResultsRequest")}}},
	}, func(ctx context.Context, in *saveResultsInput) (*saveResultsOutput, error) {
		p, err := s.paid(ctx, store.PlanStarter)
		if err != nil {
			return nil, err
		}
		if ok, retry := r.saves.Allow(p, s.deps.Now()); !ok {
			secs := int(math.Ceil(retry.Seconds()))
			return nil, huma.ErrorWithHeaders(huma.Error429TooManyRequests(fmt.Sprintf(
				"save-results is limited to %d requests a minute per organization (times the plan's multiplier); retry in %d s", SaveResultsPerMinute, secs)),
				http.Header{"Retry-After": {strconv.Itoa(secs)}})
		}
		req, err := r.svc.DecodeSaveResults(in.RawBody)
		if err != nil {
			return nil, s.savedError(ctx, "save results", err)
		}
		q, err := r.svc.SaveResults(ctx, callerOf(p), req)
		if err != nil {
			return nil, s.savedError(ctx, "save results", err)
		}
		out := &saveResultsOutput{}
		out.Body.QueryID, out.Body.QueryName, out.Body.Action = q.ID, q.Name, q.Action
		out.Body.DomainCount, out.Body.PersonaIDCount, out.Body.RowCount, out.Body.Tags = q.DomainCount, q.PersonaIDCount, q.RowCount, nonNil(q.Tags)
		return out, nil
	})

	// The raw body is read as JSON only; Huma also lists it as bytes.
	if pi := s.api.OpenAPI().Paths["/v1/queries/save-results"]; pi != nil && pi.Post != nil && pi.Post.RequestBody != nil {
		delete(pi.Post.RequestBody.Content, "application/octet-stream")
	}

	huma.Register(s.api, huma.Operation{
		OperationID:  "create-exclusion-list",
		Method:       http.MethodPost,
		Path:         "/v1/queries/exclusion-list",
		Summary:      "Create an exclusion list",
		Description:  "Stores domains and/or persona ids as a query of action `exclusion`, for exclusion_query_id. Domain lists need at least 20 distinct domains (persona-only lists are exempt); duplicates are removed; lists over 250,000 domains or 500,000 persona ids are truncated. Starter plan or higher.",
		Tags:         []string{"Saved queries"},
		Security:     authRequired,
		Errors:       append(errs, http.StatusRequestEntityTooLarge),
		MaxBodyBytes: maxBody,
	}, func(ctx context.Context, in *exclusionListInput) (*exclusionListOutput, error) {
		p, err := s.paid(ctx, store.PlanStarter)
		if err != nil {
			return nil, err
		}
		q, truncated, err := r.svc.CreateExclusionList(ctx, callerOf(p), saved.ExclusionList{
			Name: in.Body.QueryName, Domains: in.Body.Domains, PersonaIDs: in.Body.PersonaIDs, Tags: in.Body.Tags})
		if err != nil {
			return nil, s.savedError(ctx, "create exclusion list", err)
		}
		out := &exclusionListOutput{}
		out.Body.QueryID, out.Body.QueryName, out.Body.DomainCount, out.Body.PersonaIDCount = q.ID, q.Name, q.DomainCount, q.PersonaIDCount
		out.Body.Truncated, out.Body.Tags = truncated, nonNil(q.Tags)
		return out, nil
	})

	huma.Register(s.api, huma.Operation{
		OperationID: "patch-saved-query",
		Method:      http.MethodPatch,
		Path:        "/v1/queries/{query_id}",
		Summary:     "Rename or retag a saved query",
		Description: "Changes query_name and/or replaces tags (at least one). Only the owner or an organization admin may change a query; otherwise 404. Starter plan or higher.",
		Tags:        []string{"Saved queries"},
		Security:    authRequired,
		Errors:      errs,
	}, func(ctx context.Context, in *patchSavedInput) (*patchSavedOutput, error) {
		p, err := s.paid(ctx, store.PlanStarter)
		if err != nil {
			return nil, err
		}
		var tags *[]string
		if in.Body.Tags != nil {
			tags = &in.Body.Tags
		}
		q, err := r.svc.Update(ctx, callerOf(p), in.QueryID, in.Body.QueryName, tags)
		if err != nil {
			return nil, s.savedError(ctx, "update saved query", err)
		}
		out := &patchSavedOutput{}
		out.Body.QueryID, out.Body.QueryName, out.Body.Tags = q.ID, q.Name, nonNil(q.Tags)
		return out, nil
	})

	huma.Register(s.api, huma.Operation{
		OperationID: "delete-saved-query",
		Method:      http.MethodDelete,
		Path:        "/v1/queries/{query_id}",
		Summary:     "Delete a saved query",
		Description: "Deletes a saved query or exclusion list owned by the caller (or, for an organization admin, any of the organization's); 404 otherwise. Starter plan or higher.",
		Tags:        []string{"Saved queries"},
		Security:    authRequired,
		Errors:      errs,
	}, func(ctx context.Context, in *deleteSavedInput) (*messageOutput, error) {
		p, err := s.paid(ctx, store.PlanStarter)
		if err != nil {
			return nil, err
		}
		if err := r.svc.Delete(ctx, callerOf(p), in.QueryID); err != nil {
			return nil, s.savedError(ctx, "delete saved query", err)
		}
		out := &messageOutput{}
		out.Body.Message = "saved query " + in.QueryID + " deleted"
		return out, nil
	})
}

// savedDomains resolves query_id values of segment and append into the
// union of their domains (each up to its cap); nil for none.
func (s *Server) savedDomains(ctx context.Context, p store.Principal, ids []string) ([]string, error) {
	ids = saved.SplitIDs(ids)
	if len(ids) == 0 {
		return nil, nil
	}
	if s.queries == nil {
		return nil, huma.Error404NotFound((&saved.NotFoundError{Field: "query_id", IDs: ids}).Error())
	}
	doms, err := s.queries.svc.UnionDomains(ctx, callerOf(p), "query_id", ids)
	if err != nil {
		return nil, s.savedError(ctx, "resolve query_id", err)
	}
	return doms, nil
}
