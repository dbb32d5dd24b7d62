package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/saved"
	"github.com/openprospect/prospectd/store"
)

// saveResultsPerMinute is the spec's save-results rate per organization
// (times the plan's multiplier), the same as the REST route's.
const saveResultsPerMinute = 10

// savedTools are the saved-query tools; none when the store keeps no
// saved queries (the REST routes are not served then either).
func (s *Server) savedTools() []*tool {
	if s.cfg.Saved == nil {
		return nil
	}
	return []*tool{
		{name: "list_saved_queries", title: "List saved queries", op: "list-saved-queries", readOnly: true,
			description: "The organization's saved queries and exclusion lists that have domains, newest change first, with their ids for inclusion_query_id, exclusion_query_id and query_id. Free.",
			run:         s.listSaved},
		{name: "save_results", title: "Save a result set", op: "save-results",
			description: "Saves result rows (of discover, segment, contacts, append or match) as a query usable as inclusion_query_id / exclusion_query_id / query_id. At most 50,000 rows; 10 calls a minute per organization times the plan's multiplier. Free.",
			run:         s.saveResults},
		{name: "create_exclusion_list", title: "Create an exclusion list", op: "create-exclusion-list",
			description: "Stores domains (at least 20 distinct) and/or persona ids as a query of action exclusion, for exclusion_query_id. Free.",
			run:         s.createExclusionList},
		{name: "update_saved_query", title: "Rename or retag a saved query", op: "patch-saved-query",
			description: "Changes query_name and/or replaces tags of a saved query the caller owns (an admin: any of the organization's). Free.",
			run:         s.updateSaved},
		{name: "delete_saved_query", title: "Delete a saved query", op: "delete-saved-query", destructive: true,
			description: "Deletes a saved query or exclusion list the caller owns (an admin: any of the organization's). Free.",
			run:         s.deleteSaved},
	}
}

func savedCaller(p store.Principal) saved.Caller {
	return saved.Caller{OrgID: p.Org.ID, UserID: p.User.ID, Admin: p.User.Role == store.RoleAdmin}
}

// savedError maps the saved package's errors to the REST statuses.
func savedError(err error) error {
	var re *saved.RuleError
	var nf *saved.NotFoundError
	switch {
	case errors.As(err, &nf):
		return refuse(http.StatusNotFound, "%s", nf.Error())
	case errors.Is(err, saved.ErrNotFound):
		return refuse(http.StatusNotFound, "query_id: saved query not found for the caller")
	case errors.As(err, &re) && errors.Is(err, saved.ErrTooLarge):
		return &toolError{Status: http.StatusRequestEntityTooLarge, Title: http.StatusText(http.StatusRequestEntityTooLarge), Detail: re.Error(),
			Errors: []paramError{{Location: re.Field, Message: re.Rule}}}
	case errors.As(err, &re):
		return &toolError{Status: http.StatusBadRequest, Title: http.StatusText(http.StatusBadRequest), Detail: re.Error(),
			Errors: []paramError{{Location: re.Field, Message: re.Rule}}}
	}
	return err
}

// SavedQuery is a saved query as the tools return it (the REST body).
type SavedQuery struct {
	QueryID        string         `json:"query_id"`
	QueryName      string         `json:"query_name"`
	Action         string         `json:"action"`
	UserName       string         `json:"user_name"`
	Mtime          time.Time      `json:"mtime"`
	Domains        []string       `json:"domains"`
	DomainCount    int            `json:"domain_count"`
	PersonaIDCount int            `json:"persona_id_count"`
	RowCount       int            `json:"row_count"`
	QueryParams    map[string]any `json:"query_params"`
	Tags           []string       `json:"tags"`
}

// SavedList is list_saved_queries' answer.
type SavedList struct {
	Results []SavedQuery `json:"results"`
	Count   int          `json:"count"`
}

func orEmpty[T any](v []T) []T {
	if v == nil {
		return []T{}
	}
	return v
}

func intArg(v map[string][]string, name string, def, lo, hi int) (int, error) {
	if len(v[name]) == 0 {
		return def, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v[name][0]))
	if err != nil || n < lo || n > hi {
		return 0, &toolError{Status: http.StatusUnprocessableEntity, Title: "Unprocessable Entity",
			Detail: fmt.Sprintf("%s: must be an integer between %d and %d", name, lo, hi),
			Errors: []paramError{{Location: name, Message: fmt.Sprintf("must be %d-%d", lo, hi), Value: v[name][0]}}}
	}
	return n, nil
}

func (s *Server) listSaved(ctx context.Context, c *call) (any, error) {
	if err := paid(c.caller); err != nil {
		return nil, err
	}
	if err := onlyArgs(c.args, "max_records", "offset", "action", "tags"); err != nil {
		return nil, err
	}
	v, err := c.args.values()
	if err != nil {
		return nil, err
	}
	limit, err := intArg(v, "max_records", 100, 1, 1000)
	if err != nil {
		return nil, err
	}
	offset, err := intArg(v, "offset", 0, 0, math.MaxInt32)
	if err != nil {
		return nil, err
	}
	var tags []string
	for _, t := range v["tags"] { // repeated or comma-separated, as the REST parameter
		tags = append(tags, strings.Split(t, ",")...)
	}
	action := ""
	if len(v["action"]) > 0 {
		action = v["action"][0]
	}
	qs, n, err := s.cfg.Saved.List(ctx, savedCaller(c.caller.Principal), saved.List{Action: action, Tags: tags, Limit: limit, Offset: offset})
	if err != nil {
		return nil, savedError(err)
	}
	out := SavedList{Results: make([]SavedQuery, len(qs)), Count: n}
	for i, q := range qs {
		params := map[string]any{}
		if len(q.Params) > 0 {
			_ = json.Unmarshal(q.Params, &params) // validated as an object when saved
		}
		out.Results[i] = SavedQuery{QueryID: q.ID, QueryName: q.Name, Action: q.Action, UserName: q.UserName, Mtime: q.UpdatedAt,
			Domains: orEmpty(q.Domains), DomainCount: q.DomainCount, PersonaIDCount: q.PersonaIDCount, RowCount: q.RowCount,
			QueryParams: params, Tags: orEmpty(q.Tags)}
	}
	return out, nil
}

// SavedResult answers the tools that create or change a saved query.
type SavedResult struct {
	QueryID        string   `json:"query_id"`
	QueryName      string   `json:"query_name"`
	Action         string   `json:"action,omitempty"`
	DomainCount    int      `json:"domain_count"`
	PersonaIDCount int      `json:"persona_id_count"`
	RowCount       int      `json:"row_count"`
	Truncated      bool     `json:"truncated,omitempty"`
	Tags           []string `json:"tags"`
}

func savedResult(q saved.Query) SavedResult {
	return SavedResult{QueryID: q.ID, QueryName: q.Name, Action: q.Action, DomainCount: q.DomainCount,
		PersonaIDCount: q.PersonaIDCount, RowCount: q.RowCount, Tags: orEmpty(q.Tags)}
}

func (s *Server) saveResults(ctx context.Context, c *call) (any, error) {
	if err := paid(c.caller); err != nil {
		return nil, err
	}
	if ok, retry := s.saves.Allow(c.caller.Principal, s.cfg.Now()); !ok {
		return nil, refuse(http.StatusTooManyRequests, "save_results is limited to %d calls a minute per organization (times the plan's multiplier); retry in %d s",
			saveResultsPerMinute, int(math.Ceil(retry.Seconds())))
	}
	req, err := s.cfg.Saved.DecodeSaveResults(c.raw)
	if err != nil {
		return nil, savedError(err)
	}
	q, err := s.cfg.Saved.SaveResults(ctx, savedCaller(c.caller.Principal), req)
	if err != nil {
		return nil, savedError(err)
	}
	return savedResult(q), nil
}

func (s *Server) createExclusionList(ctx context.Context, c *call) (any, error) {
	if err := paid(c.caller); err != nil {
		return nil, err
	}
	var in saved.ExclusionList
	if err := decode(c, &in); err != nil {
		return nil, err
	}
	q, truncated, err := s.cfg.Saved.CreateExclusionList(ctx, savedCaller(c.caller.Principal), in)
	if err != nil {
		return nil, savedError(err)
	}
	r := savedResult(q)
	r.Truncated = truncated
	return r, nil
}

type savedIDArgs struct {
	QueryID   string    `json:"query_id"`
	QueryName *string   `json:"query_name,omitempty"`
	Tags      *[]string `json:"tags,omitempty"`
}

func (s *Server) savedID(c *call, a *savedIDArgs) error {
	if err := decode(c, a); err != nil {
		return err
	}
	if strings.TrimSpace(a.QueryID) == "" {
		return &toolError{Status: http.StatusUnprocessableEntity, Title: "Unprocessable Entity", Detail: "query_id: required",
			Errors: []paramError{{Location: "query_id", Message: "required"}}}
	}
	return nil
}

func (s *Server) updateSaved(ctx context.Context, c *call) (any, error) {
	if err := paid(c.caller); err != nil {
		return nil, err
	}
	var a savedIDArgs
	if err := s.savedID(c, &a); err != nil {
		return nil, err
	}
	q, err := s.cfg.Saved.Update(ctx, savedCaller(c.caller.Principal), a.QueryID, a.QueryName, a.Tags)
	if err != nil {
		return nil, savedError(err)
	}
	return savedResult(q), nil
}

// Message is the answer of a tool that only reports what it did.
type Message struct {
	Message string `json:"message"`
}

func (s *Server) deleteSaved(ctx context.Context, c *call) (any, error) {
	if err := paid(c.caller); err != nil {
		return nil, err
	}
	var a savedIDArgs
	if err := onlyArgs(c.args, "query_id"); err != nil {
		return nil, err
	}
	if err := s.savedID(c, &a); err != nil {
		return nil, err
	}
	if err := s.cfg.Saved.Delete(ctx, savedCaller(c.caller.Principal), a.QueryID); err != nil {
		return nil, savedError(err)
	}
	return Message{Message: "saved query " + a.QueryID + " deleted"}, nil
}

// saveLimiter is save_results' own limit on top of the general ones.
func saveLimiter(plans account.Plans) *account.Limiter {
	return &account.Limiter{Plans: plans, Limits: account.Limits{
		KeyPerSecond: saveResultsPerMinute / 60.0, KeyBurst: saveResultsPerMinute,
		OrgPerSecond: saveResultsPerMinute / 60.0, OrgBurst: saveResultsPerMinute,
	}}
}
