package api

import (
	"context"
	"errors"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/openprospect/prospectd/ingest/refresh"
	"github.com/openprospect/prospectd/store"
)

// registerRefresh serves the operator's view of the scheduled refreshes
// (beyond the spec): the sources with their run history, and a run by
// hand. Admin keys of the refresh configuration's operator organizations
// only: any signup has an admin of its own organization, and the index
// is the service's, not an organization's.
func (s *Server) registerRefresh() {
	svc := s.deps.Refresh
	tag := []string{"Admin"}
	errs := []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusUnprocessableEntity}

	type listOut struct {
		Body struct {
			Sources []refresh.SourceStatus `json:"sources"`
		}
	}
	huma.Register(s.api, huma.Operation{OperationID: "admin-refreshes-list", Method: http.MethodGet, Path: "/v1/admin/refreshes",
		Summary:     "List the scheduled refresh sources with their latest run (operator admin)",
		Description: "Every source of the server's refresh configuration (--refresh-config) with its schedule, next firing and latest run: status (queued, waiting, running, completed, failed), progress, counts (read, changed, unchanged, closed, rejected, dropped, not_modified). Admin keys of the configuration's operator_orgs only.",
		Tags:        tag, Security: authRequired, Errors: errs},
		func(ctx context.Context, _ *struct{}) (*listOut, error) {
			if err := s.operator(ctx); err != nil {
				return nil, err
			}
			out := &listOut{}
			out.Body.Sources = []refresh.SourceStatus{}
			if svc == nil {
				return out, nil
			}
			st, err := svc.Status(ctx, "", 1)
			if err != nil {
				return nil, s.internal(ctx, "list refreshes", err)
			}
			if st != nil {
				out.Body.Sources = st
			}
			return out, nil
		})

	type nameIn struct {
		Name string `path:"name" doc:"Source name from the refresh configuration" maxLength:"64"`
	}
	type historyIn struct {
		Name  string `path:"name" doc:"Source name from the refresh configuration" maxLength:"64"`
		Limit int    `query:"limit" default:"20" minimum:"1" maximum:"100" doc:"Runs to return, newest first"`
	}
	type sourceOut struct {
		Body refresh.SourceStatus
	}
	huma.Register(s.api, huma.Operation{OperationID: "admin-refreshes-get", Method: http.MethodGet, Path: "/v1/admin/refreshes/{name}",
		Summary:     "A refresh source's run history with rejects (operator admin)",
		Description: "The source and its latest runs, newest first, each with its counts and up to 1,000 rejects (file, row, domain, reason: refused rows and optional fields dropped from kept records).",
		Tags:        tag, Security: authRequired, Errors: errs},
		func(ctx context.Context, in *historyIn) (*sourceOut, error) {
			if err := s.operator(ctx); err != nil {
				return nil, err
			}
			if svc == nil {
				return nil, huma.Error404NotFound("name: no such refresh source (the server has no refresh configuration)")
			}
			st, err := svc.Status(ctx, in.Name, in.Limit)
			if errors.Is(err, refresh.ErrUnknownSource) {
				return nil, huma.Error404NotFound("name: no such refresh source in the server's refresh configuration")
			}
			if err != nil {
				return nil, s.internal(ctx, "refresh history", err)
			}
			return &sourceOut{Body: st[0]}, nil
		})

	type runOut struct {
		Body refresh.RunView
	}
	huma.Register(s.api, huma.Operation{OperationID: "admin-refreshes-run", Method: http.MethodPost, Path: "/v1/admin/refreshes/{name}/run",
		Summary:     "Start a refresh of a source now (operator admin)",
		Description: "Queues a run (a task of kind refresh) and returns it, status queued; follow it with GET /v1/admin/refresh-runs/{task_id}. One run of a source at a time across every server sharing the state store: a run started while another is under way waits for it.",
		Tags:        tag, Security: authRequired, Errors: errs, DefaultStatus: http.StatusAccepted},
		func(ctx context.Context, in *nameIn) (*runOut, error) {
			if err := s.operator(ctx); err != nil {
				return nil, err
			}
			if svc == nil {
				return nil, huma.Error404NotFound("name: no such refresh source (the server has no refresh configuration)")
			}
			r, err := svc.Submit(ctx, in.Name, refresh.TriggerManual)
			if errors.Is(err, refresh.ErrUnknownSource) {
				return nil, huma.Error404NotFound("name: no such refresh source in the server's refresh configuration")
			}
			if err != nil {
				return nil, s.internal(ctx, "start refresh", err)
			}
			return &runOut{Body: refresh.ViewOf(r, false)}, nil
		})
	s.registerRefreshRun(errs)
}

// registerRefreshRun serves one run by its task id, which a run's start
// answers; the CLI's --wait follows it.
func (s *Server) registerRefreshRun(errs []int) {
	svc := s.deps.Refresh
	type runIn struct {
		TaskID string `path:"task_id" doc:"The run's task_id" maxLength:"64"`
	}
	type runOut struct {
		Body refresh.RunView
	}
	huma.Register(s.api, huma.Operation{OperationID: "admin-refresh-runs-get", Method: http.MethodGet, Path: "/v1/admin/refresh-runs/{task_id}",
		Summary:     "One refresh run with its counts and rejects (operator admin)",
		Description: "status is queued, waiting (for another run of the source), running, completed or failed; progress 0-100.",
		Tags:        []string{"Admin"}, Security: authRequired, Errors: errs},
		func(ctx context.Context, in *runIn) (*runOut, error) {
			if err := s.operator(ctx); err != nil {
				return nil, err
			}
			if svc == nil {
				return nil, huma.Error404NotFound("task_id: no such refresh run")
			}
			r, err := svc.State.RefreshRunByTask(ctx, in.TaskID)
			if errors.Is(err, store.ErrNotFound) {
				return nil, huma.Error404NotFound("task_id: no such refresh run")
			}
			if err != nil {
				return nil, s.internal(ctx, "refresh run", err)
			}
			return &runOut{Body: refresh.ViewOf(r, true)}, nil
		})
}

// operator admits admin keys of the refresh configuration's operator
// organizations.
func (s *Server) operator(ctx context.Context) error {
	p, ok := PrincipalFrom(ctx)
	if !ok {
		return huma.Error401Unauthorized("missing API key")
	}
	if p.User.Role != store.RoleAdmin {
		return huma.Error403Forbidden("admin role required")
	}
	if s.deps.Refresh == nil || !s.deps.Refresh.Operator(p.Org.Name, p.User.Role) {
		return huma.Error403Forbidden("refreshes are the service operator's: admin keys of an organization listed in operator_orgs of the server's refresh configuration only")
	}
	return nil
}
