package api

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"
)

// HealthBody reports the state of the service's dependencies.
type HealthBody struct {
	Status string          `json:"status" enum:"ok,degraded" doc:"ok when every component is healthy"`
	Engine ComponentHealth `json:"engine"`
	State  ComponentHealth `json:"state"`
}

// ComponentHealth is one dependency's health.
type ComponentHealth struct {
	Name   string `json:"name" doc:"backend name"`
	Status string `json:"status" enum:"ok,error"`
	Error  string `json:"error,omitempty"`
}

type healthOutput struct {
	Status int
	Body   HealthBody
}

func (s *Server) registerService() {
	huma.Register(s.api, huma.Operation{
		OperationID: "health",
		Method:      http.MethodGet,
		Path:        "/v1/health",
		Summary:     "Health check",
		Description: "Reports whether the search engine and the state store can serve. Returns 503 when either cannot. No authentication.",
		Tags:        []string{"Service"},
		Responses:   map[string]*huma.Response{"503": {Description: "A dependency is unhealthy; the body says which."}},
	}, func(ctx context.Context, _ *struct{}) (*healthOutput, error) {
		out := &healthOutput{Status: http.StatusOK, Body: HealthBody{Status: "ok"}}
		out.Body.Engine = check(s.deps.Engine.Name(), s.deps.Engine.Health(ctx))
		out.Body.State = check("sql", s.deps.Store.Health(ctx))
		if out.Body.Engine.Status != "ok" || out.Body.State.Status != "ok" {
			out.Status, out.Body.Status = http.StatusServiceUnavailable, "degraded"
		}
		return out, nil
	})
}

func check(name string, err error) ComponentHealth {
	if err != nil {
		return ComponentHealth{Name: name, Status: "error", Error: err.Error()}
	}
	return ComponentHealth{Name: name, Status: "ok"}
}
