package mcp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"time"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/crm"
)

// Per-minute base limits of the CRM tools per organization (the spec's
// for the REST routes), times the plan's multiplier; buckets of the tool
// server, as for save_results.
const (
	crmListPerMinute     = 20
	crmSuppressPerMinute = 5
)

// crmTools list CRM connections and start suppression snapshots; none
// when no CRM service is configured (the REST routes are not served
// then either). Connecting and disconnecting need a person at a browser
// (OAuth consent, an admin web-app session) and have no tools.
func (s *Server) crmTools() []*tool {
	if s.cfg.CRM == nil {
		return nil
	}
	var plans account.Plans
	if s.cfg.Biller != nil {
		plans = s.cfg.Biller.Plans
	}
	perMinute := func(n int) *account.Limiter {
		return &account.Limiter{Plans: plans, Limits: account.Limits{
			KeyPerSecond: float64(n) / 60, KeyBurst: n, OrgPerSecond: float64(n) / 60, OrgBurst: n}}
	}
	list, suppress := perMinute(crmListPerMinute), perMinute(crmSuppressPerMinute)
	return []*tool{
		{name: "list_crm_connections", title: "List CRM connections", op: "crm-connections", readOnly: true,
			description: "The organization's CRM connections (hubspot, pipedrive, salesforce) with status (active or needs_reauth) and the ids of the current suppression lists (companies_query_id, contacts_query_id) for exclusion_query_id. probe=true checks each connection live. Free.",
			run:         func(ctx context.Context, c *call) (any, error) { return s.listCRM(ctx, c, list) }},
		{name: "start_crm_suppression", title: "Snapshot a CRM into an exclusion list", op: "crm-suppress",
			description: "Starts a background snapshot of the CRM's companies (kind=companies, excluded by root domain) or contacts (kind=contacts, emails resolved against the contact index). When whole, a saved exclusion list replaces the provider's previous one; follow the task with get_task_status, then use results.query_id as exclusion_query_id. Free.",
			run:         func(ctx context.Context, c *call) (any, error) { return s.startSuppression(ctx, c, suppress) }},
	}
}

func crmAllow(l *account.Limiter, c *call, name string, n int, now time.Time) error {
	if ok, retry := l.Allow(c.caller.Principal, now); !ok {
		return refuse(http.StatusTooManyRequests, "%s is limited to %d calls a minute per organization (times the plan's multiplier); retry in %d s",
			name, n, int(math.Ceil(retry.Seconds())))
	}
	return nil
}

// crmError maps the crm package's errors to the REST statuses.
func crmError(provider string, err error) error {
	switch {
	case errors.Is(err, crm.ErrUnknownProvider):
		return refuse(http.StatusNotFound, "provider: unknown CRM provider %q (hubspot, pipedrive or salesforce)", provider)
	case errors.Is(err, crm.ErrNoConnection):
		return refuse(http.StatusNotFound, "provider: no %s connection for this organization; connect it in the app (GET /v1/crm/%s/authorize)", provider, provider)
	case errors.Is(err, crm.ErrNotConfigured):
		return refuse(http.StatusServiceUnavailable, "provider: %s is not configured on this server", provider)
	case errors.Is(err, crm.ErrNeedsReauth):
		return refuse(http.StatusConflict, "provider: the %s connection needs reauthorization; reconnect it in the app", provider)
	}
	return err
}

// CRMConnection is a connection as list_crm_connections returns it (the
// REST body).
type CRMConnection struct {
	Provider         string     `json:"provider"`
	Status           string     `json:"status"`
	ConnectedAt      *time.Time `json:"connected_at"`
	CompaniesQueryID *string    `json:"companies_query_id"`
	ContactsQueryID  *string    `json:"contacts_query_id"`
}

// CRMConnections is list_crm_connections' answer.
type CRMConnections struct {
	Results []CRMConnection `json:"results"`
}

func optionalID(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func (s *Server) listCRM(ctx context.Context, c *call, l *account.Limiter) (any, error) {
	if err := paid(c.caller); err != nil {
		return nil, err
	}
	var a struct {
		Probe bool `json:"probe"`
	}
	if err := decode(c, &a); err != nil {
		return nil, err
	}
	if err := crmAllow(l, c, "list_crm_connections", crmListPerMinute, s.cfg.Now()); err != nil {
		return nil, err
	}
	cs, err := s.cfg.CRM.List(ctx, c.caller.Principal.Org.ID, a.Probe)
	if err != nil {
		return nil, fmt.Errorf("list crm connections: %w", err)
	}
	out := CRMConnections{Results: make([]CRMConnection, len(cs))}
	for i, x := range cs {
		out.Results[i] = CRMConnection{Provider: x.Provider, Status: x.Status, ConnectedAt: x.ConnectedAt,
			CompaniesQueryID: optionalID(x.CompaniesQueryID), ContactsQueryID: optionalID(x.ContactsQueryID)}
	}
	return out, nil
}

// CRMSuppression is start_crm_suppression's answer (the REST body).
type CRMSuppression struct {
	Message  string `json:"message"`
	Provider string `json:"provider"`
	Kind     string `json:"kind"`
	TaskID   string `json:"task_id"`
}

func (s *Server) startSuppression(ctx context.Context, c *call, l *account.Limiter) (any, error) {
	if err := paid(c.caller); err != nil {
		return nil, err
	}
	var a struct {
		Provider string `json:"provider"`
		Kind     string `json:"kind"`
	}
	if err := decode(c, &a); err != nil {
		return nil, err
	}
	if err := crm.Known(a.Provider); err != nil {
		return nil, crmError(a.Provider, err)
	}
	kind, err := crm.ValidKind(a.Kind)
	if err != nil {
		return nil, &toolError{Status: http.StatusUnprocessableEntity, Title: "Unprocessable Entity", Detail: err.Error(),
			Errors: []paramError{{Location: "kind", Message: "must be companies or contacts", Value: a.Kind}}}
	}
	if err := crmAllow(l, c, "start_crm_suppression", crmSuppressPerMinute, s.cfg.Now()); err != nil {
		return nil, err
	}
	if _, err := s.cfg.CRM.Provider(a.Provider); err != nil {
		return nil, crmError(a.Provider, err)
	}
	p := c.caller.Principal
	conn, err := s.cfg.CRM.Store().CRMConnection(ctx, p.Org.ID, a.Provider)
	if err != nil {
		return nil, crmError(a.Provider, err)
	}
	if conn.Status == crm.StatusNeedsReauth {
		return nil, crmError(a.Provider, crm.ErrNeedsReauth)
	}
	t, err := s.cfg.Tasks.Submit(ctx, p.Org.ID, crm.KindSnapshot, crm.SnapshotInput{Provider: a.Provider, Kind: kind, UserID: p.User.ID})
	if err != nil {
		return nil, fmt.Errorf("submit crm snapshot: %w", err)
	}
	return CRMSuppression{Message: fmt.Sprintf("%s %s snapshot started; the exclusion list appears under saved queries when it is whole", a.Provider, kind),
		Provider: a.Provider, Kind: kind, TaskID: t.ID}, nil
}
