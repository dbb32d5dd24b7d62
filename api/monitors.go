package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/openprospect/prospectd/query"
	"github.com/openprospect/prospectd/saved"
	"github.com/openprospect/prospectd/store"
)

// MonitorInterval is how often due monitors are looked for.
const MonitorInterval = time.Minute

// paramsValues turns saved discovery parameters (a JSON object of
// parameter -> string, number, boolean or array of those) into a query
// string's values.
func paramsValues(raw json.RawMessage) (url.Values, error) {
	var obj map[string]any
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, fmt.Errorf("query_params: %w", err)
	}
	v := url.Values{}
	var add func(k string, x any) error
	add = func(k string, x any) error {
		switch t := x.(type) {
		case string:
			v.Add(k, t)
		case float64:
			v.Add(k, strconv.FormatFloat(t, 'f', -1, 64))
		case bool:
			v.Add(k, strconv.FormatBool(t))
		case []any:
			for _, e := range t {
				if _, nested := e.([]any); nested {
					return fmt.Errorf("query_params.%s: nested arrays", k)
				}
				if err := add(k, e); err != nil {
					return err
				}
			}
		case nil:
		default:
			return fmt.Errorf("query_params.%s: must be a string, number, boolean or array", k)
		}
		return nil
	}
	for k, x := range obj {
		if err := add(k, x); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// parseSavedDiscover reads a saved query's parameters as a discovery
// request.
func parseSavedDiscover(raw json.RawMessage) (query.Discover, error) {
	v, err := paramsValues(raw)
	if err != nil {
		return query.Discover{}, err
	}
	return query.ParseDiscover(v)
}

// newMonitors wires monitoring to discovery: a run is the saved query's
// discovery parameters run for the monitor's organization (not billed: it
// returns domains, not profiles); changes go out through the process's
// sender (Deps.Webhooks).
func (s *Server) newMonitors(st saved.MonitorStore, qs saved.Store) *saved.Monitors {
	return &saved.Monitors{Store: st, Queries: qs, Log: s.deps.Log, Now: s.deps.Now,
		Webhooks: s.deps.Webhooks,
		Discover: func(ctx context.Context, m saved.Monitor, params json.RawMessage) ([]string, error) {
			d, err := parseSavedDiscover(params)
			if err != nil {
				return nil, err
			}
			ctx = context.WithValue(ctx, principalKey{}, store.Principal{Org: store.Org{ID: m.OrgID}, User: store.User{ID: m.UserID}})
			res, err := s.companies.Discover(ctx, d)
			if err != nil {
				return nil, err
			}
			out := make([]string, len(res.Matches))
			for i, mt := range res.Matches {
				out[i] = mt.Company.Domain
			}
			return out, nil
		}}
}

type putMonitorInput struct {
	QueryID string `path:"query_id"`
	Body    struct {
		Schedule   string `json:"schedule" doc:"Cron expression, 5 fields (minute hour day month weekday, UTC) or @hourly / @daily / @weekly; at most hourly" example:"0 7 * * 1-5"`
		WebhookURL string `json:"webhook_url" doc:"http(s) URL that receives change events, signed with the returned secret (Standard Webhooks)"`
	}
}

// MonitorBody is a monitor as the API shows it.
type MonitorBody struct {
	QueryID    string     `json:"query_id"`
	MonitorID  string     `json:"monitor_id"`
	Schedule   string     `json:"schedule"`
	WebhookURL string     `json:"webhook_url"`
	Secret     string     `json:"secret,omitempty" doc:"Signing secret; returned only when the monitor is created or replaced"`
	NextRunAt  time.Time  `json:"next_run_at"`
	LastRunAt  *time.Time `json:"last_run_at"`
	// DomainCount is the last run's result size (null before the first run).
	DomainCount *int `json:"domain_count"`
}

func monitorBody(m saved.Monitor, withSecret bool) MonitorBody {
	b := MonitorBody{QueryID: m.QueryID, MonitorID: m.ID, Schedule: m.Schedule, WebhookURL: m.WebhookURL, NextRunAt: m.NextRunAt, LastRunAt: m.LastRunAt}
	if withSecret {
		b.Secret = m.Secret
	}
	if m.Domains != nil {
		n := len(m.Domains)
		b.DomainCount = &n
	}
	return b
}

type monitorOutput struct{ Body MonitorBody }

type monitorRefInput struct {
	QueryID string `path:"query_id"`
}

type changesInput struct {
	QueryID    string `path:"query_id"`
	MaxRecords int    `query:"max_records" default:"100" minimum:"1" maximum:"1000"`
}

// ChangeBody is one monitor change.
type ChangeBody struct {
	ChangeID   string         `json:"change_id"`
	At         time.Time      `json:"at"`
	Added      []string       `json:"added"`
	Dropped    []string       `json:"dropped"`
	Total      int            `json:"total"`
	Deliveries []DeliveryBody `json:"deliveries"`
}

// DeliveryBody is one webhook delivery attempt.
type DeliveryBody struct {
	Attempt int       `json:"attempt"`
	Status  int       `json:"status" doc:"HTTP status of the answer; 0 when none came"`
	Error   string    `json:"error,omitempty"`
	At      time.Time `json:"at"`
}

type changesOutput struct {
	Body struct {
		Results []ChangeBody `json:"results"`
	}
}

func (s *Server) registerMonitors(r *queryRoutes, st saved.MonitorStore) {
	errs := []int{http.StatusBadRequest, http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusUnprocessableEntity, http.StatusTooManyRequests}
	tags := []string{"Saved queries"}
	huma.Register(s.api, huma.Operation{
		OperationID: "put-monitor",
		Method:      http.MethodPut,
		Path:        "/v1/queries/{query_id}/monitor",
		Summary:     "Monitor a saved discover query (beyond the spec)",
		Description: "Re-runs the saved query's discovery parameters on the cron schedule; domains gained or lost since the previous run are recorded and POSTed to webhook_url, signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature: v1,base64 HMAC-SHA256 of id.timestamp.body with the secret's bytes after whsec_), retried with backoff. The first run sets the baseline. The secret is shown only in this response; PUT again to replace the schedule, URL and secret. Owner or admin only. Starter plan or higher.",
		Tags:        tags,
		Security:    authRequired,
		Errors:      errs,
	}, func(ctx context.Context, in *putMonitorInput) (*monitorOutput, error) {
		p, err := s.paid(ctx, store.PlanStarter)
		if err != nil {
			return nil, err
		}
		m, err := r.monitors.Put(ctx, callerOf(p), in.QueryID, saved.MonitorRequest{Schedule: in.Body.Schedule, WebhookURL: in.Body.WebhookURL},
			func(params json.RawMessage) error {
				if _, err := parseSavedDiscover(params); err != nil {
					return &saved.RuleError{Field: "query_id", Rule: "the saved query_params are not valid discovery parameters: " + err.Error(), Sentinel: saved.ErrInvalid}
				}
				return nil
			})
		if err != nil {
			return nil, s.savedError(ctx, "put monitor", err)
		}
		return &monitorOutput{Body: monitorBody(m, true)}, nil
	})

	huma.Register(s.api, huma.Operation{
		OperationID: "get-monitor",
		Method:      http.MethodGet,
		Path:        "/v1/queries/{query_id}/monitor",
		Summary:     "A saved query's monitor (beyond the spec)",
		Tags:        tags,
		Security:    authRequired,
		Errors:      errs,
	}, func(ctx context.Context, in *monitorRefInput) (*monitorOutput, error) {
		p, err := s.paid(ctx, store.PlanStarter)
		if err != nil {
			return nil, err
		}
		m, err := st.MonitorOf(ctx, p.Org.ID, in.QueryID)
		if err != nil {
			return nil, s.savedError(ctx, "get monitor", err)
		}
		return &monitorOutput{Body: monitorBody(m, false)}, nil
	})

	huma.Register(s.api, huma.Operation{
		OperationID: "monitor-changes",
		Method:      http.MethodGet,
		Path:        "/v1/queries/{query_id}/monitor/changes",
		Summary:     "Change history of a monitored query (beyond the spec)",
		Description: "Newest first: domains added and dropped by each run that changed something, with every webhook delivery attempt.",
		Tags:        tags,
		Security:    authRequired,
		Errors:      errs,
	}, func(ctx context.Context, in *changesInput) (*changesOutput, error) {
		p, err := s.paid(ctx, store.PlanStarter)
		if err != nil {
			return nil, err
		}
		if _, err := st.MonitorOf(ctx, p.Org.ID, in.QueryID); err != nil {
			return nil, s.savedError(ctx, "monitor changes", err)
		}
		cs, err := st.Changes(ctx, p.Org.ID, in.QueryID, in.MaxRecords)
		if err != nil {
			return nil, s.internal(ctx, "monitor changes", err)
		}
		out := &changesOutput{}
		out.Body.Results = make([]ChangeBody, len(cs))
		for i, c := range cs {
			b := ChangeBody{ChangeID: c.ID, At: c.At, Added: nonNil(c.Added), Dropped: nonNil(c.Dropped), Total: c.Total, Deliveries: []DeliveryBody{}}
			for _, d := range c.Deliveries {
				b.Deliveries = append(b.Deliveries, DeliveryBody{Attempt: d.Attempt, Status: d.Status, Error: d.Error, At: d.At})
			}
			out.Body.Results[i] = b
		}
		return out, nil
	})

	huma.Register(s.api, huma.Operation{
		OperationID: "delete-monitor",
		Method:      http.MethodDelete,
		Path:        "/v1/queries/{query_id}/monitor",
		Summary:     "Stop monitoring a saved query (beyond the spec)",
		Description: "Owner or admin only; the change history goes with it.",
		Tags:        tags,
		Security:    authRequired,
		Errors:      errs,
	}, func(ctx context.Context, in *monitorRefInput) (*messageOutput, error) {
		p, err := s.paid(ctx, store.PlanStarter)
		if err != nil {
			return nil, err
		}
		if err := r.monitors.Delete(ctx, callerOf(p), in.QueryID); err != nil {
			return nil, s.savedError(ctx, "delete monitor", err)
		}
		out := &messageOutput{}
		out.Body.Message = "monitor of saved query " + in.QueryID + " deleted"
		return out, nil
	})
}
