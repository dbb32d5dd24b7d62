package api

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/openprospect/prospectd/integrations"
	"github.com/openprospect/prospectd/providers/search"
	"github.com/openprospect/prospectd/secrets"
	"github.com/openprospect/prospectd/store"
)

// LLMIntegration is an LLM provider integration as the API shows it.
type LLMIntegration struct {
	IntegrationID     string  `json:"integration_id" format:"uuid"`
	IntegrationName   string  `json:"integration_name"`
	Provider          string  `json:"provider" enum:"openai,anthropic,custom"`
	APIKey            string  `json:"api_key" doc:"Always masked as *****" example:"*****"`
	ModelName         string  `json:"model_name"`
	BaseURL           *string `json:"base_url"`
	SupportsWebSearch bool    `json:"supports_web_search"`
	IsDefault         bool    `json:"is_default"`
	ModelDeprecated   bool    `json:"model_deprecated"`
}

// SearchIntegration is a search provider integration as the API shows it.
type SearchIntegration struct {
	IntegrationID   string  `json:"integration_id" format:"uuid"`
	IntegrationName string  `json:"integration_name"`
	Provider        string  `json:"provider"`
	SearchModel     string  `json:"search_model"`
	APIKey          string  `json:"api_key" doc:"Always masked as *****" example:"*****"`
	BaseURL         *string `json:"base_url"`
	IsDefault       bool    `json:"is_default"`
	CostPerQuery    float64 `json:"cost_per_query"`
}

func llmView(in store.Integration) LLMIntegration {
	return LLMIntegration{IntegrationID: in.ID, IntegrationName: in.Name, Provider: in.Provider, APIKey: secrets.Mask,
		ModelName: in.Model, BaseURL: optional(in.BaseURL), SupportsWebSearch: in.SupportsWebSearch,
		IsDefault: in.IsDefault, ModelDeprecated: in.ModelDeprecated}
}

func searchView(in store.Integration) SearchIntegration {
	return SearchIntegration{IntegrationID: in.ID, IntegrationName: in.Name, Provider: in.Provider, SearchModel: in.Model,
		APIKey: secrets.Mask, BaseURL: optional(in.BaseURL), IsDefault: in.IsDefault, CostPerQuery: in.CostPerQuery}
}

// llmBody is the body of creating, updating and testing an LLM integration.
type llmBody struct {
	IntegrationName string  `json:"integration_name,omitempty" maxLength:"255"`
	Provider        string  `json:"provider" enum:"openai,anthropic,custom"`
	APIKey          *string `json:"api_key,omitempty" maxLength:"1000" writeOnly:"true" doc:"Write-only; omit on update to keep the stored key (required when provider or base_url change)"`
	ModelName       string  `json:"model_name" minLength:"1" maxLength:"200"`
	BaseURL         string  `json:"base_url,omitempty" maxLength:"2000" doc:"Required when provider is custom"`
}

func (b llmBody) fields() integrations.LLMFields {
	return integrations.LLMFields{Name: b.IntegrationName, Provider: b.Provider, Model: b.ModelName, BaseURL: b.BaseURL, APIKey: b.APIKey}
}

type searchBody struct {
	IntegrationName string  `json:"integration_name" minLength:"1" maxLength:"255"`
	Provider        string  `json:"provider" minLength:"1" maxLength:"50"`
	SearchModel     string  `json:"search_model" minLength:"1" maxLength:"100" doc:"<provider>/search"`
	APIKey          *string `json:"api_key,omitempty" maxLength:"1000" writeOnly:"true" doc:"Write-only; required on create and when provider, search_model or base_url change"`
	BaseURL         string  `json:"base_url,omitempty" maxLength:"2000"`
}

func (b searchBody) fields() integrations.SearchFields {
	return integrations.SearchFields{Name: b.IntegrationName, Provider: b.Provider, SearchModel: b.SearchModel, BaseURL: b.BaseURL, APIKey: b.APIKey}
}

type integrationIDInput struct {
	IntegrationID string `path:"integration_id" format:"uuid"`
}

type messageBody struct {
	Message       string `json:"message"`
	IntegrationID string `json:"integration_id,omitempty"`
}

// integrationError maps the service's errors to statuses. Messages never
// hold keys: the provider clients redact them.
func (s *Server) integrationError(ctx context.Context, what string, err error) error {
	switch {
	case errors.Is(err, integrations.ErrInvalid):
		return huma.Error422UnprocessableEntity(err.Error())
	case errors.Is(err, integrations.ErrTestFailed):
		return huma.Error400BadRequest(err.Error())
	case errors.Is(err, integrations.ErrNoIntegration):
		return huma.Error400BadRequest(err.Error())
	case errors.Is(err, store.ErrNotFound):
		return huma.Error404NotFound("integration_id: no such integration for this organization")
	case errors.Is(err, store.ErrConflict):
		return huma.Error409Conflict(err.Error())
	}
	return s.internal(ctx, what, err)
}

// admin returns the caller when it has the admin role.
func (s *Server) admin(ctx context.Context) (store.Principal, error) {
	p, err := s.paid(ctx, store.PlanStarter)
	if err != nil {
		return p, err
	}
	if p.User.Role != store.RoleAdmin {
		return p, huma.Error403Forbidden("admin role required")
	}
	return p, nil
}

// registerIntegrations serves the LLM and search integration routes and
// returns the service the research routes use; nil when no secrets key is
// configured (the routes are then not served).
func (s *Server) registerIntegrations() *integrations.Service {
	svc := s.deps.Integrations
	if svc == nil {
		s.deps.Log.Warn().Msg("no integration service (Deps.Integrations): the integration and research routes are not served")
		return nil
	}
	tag := []string{"Integrations"}
	errs := []int{http.StatusBadRequest, http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusUnprocessableEntity}

	type llmListOut struct {
		Body struct {
			Providers []LLMIntegration `json:"providers"`
			Mtime     *time.Time       `json:"mtime"`
		}
	}
	huma.Register(s.api, huma.Operation{OperationID: "llm-providers-list", Method: http.MethodGet, Path: "/v1/llm-providers/config",
		Summary: "List LLM integrations", Tags: tag, Security: authRequired, Errors: errs},
		func(ctx context.Context, _ *struct{}) (*llmListOut, error) {
			p, err := s.paid(ctx, store.PlanStarter)
			if err != nil {
				return nil, err
			}
			list, err := svc.Store.ListIntegrations(ctx, p.Org.ID, store.IntegrationLLM)
			if err != nil {
				return nil, s.internal(ctx, "list llm integrations", err)
			}
			out := &llmListOut{}
			out.Body.Providers = []LLMIntegration{}
			for _, in := range list {
				out.Body.Providers = append(out.Body.Providers, llmView(in))
				if out.Body.Mtime == nil || in.UpdatedAt.After(*out.Body.Mtime) {
					t := in.UpdatedAt
					out.Body.Mtime = &t
				}
			}
			return out, nil
		})

	type llmCreateIn struct{ Body llmBody }
	type messageOut struct{ Body messageBody }
	huma.Register(s.api, huma.Operation{OperationID: "llm-providers-create", Method: http.MethodPost, Path: "/v1/llm-providers/config",
		Summary: "Create an LLM integration", Description: "Tests the key and model against the provider before saving.",
		Tags: tag, Security: authRequired, Errors: errs},
		func(ctx context.Context, in *llmCreateIn) (*messageOut, error) {
			p, err := s.paid(ctx, store.PlanStarter)
			if err != nil {
				return nil, err
			}
			it, err := svc.CreateLLM(ctx, p.Org.ID, in.Body.fields())
			if err != nil {
				return nil, s.integrationError(ctx, "create llm integration", err)
			}
			return &messageOut{Body: messageBody{Message: "integration created", IntegrationID: it.ID}}, nil
		})

	type llmOut struct{ Body LLMIntegration }
	huma.Register(s.api, huma.Operation{OperationID: "llm-providers-get", Method: http.MethodGet, Path: "/v1/llm-providers/config/{integration_id}",
		Summary: "Get an LLM integration", Tags: tag, Security: authRequired, Errors: errs},
		func(ctx context.Context, in *integrationIDInput) (*llmOut, error) {
			p, err := s.paid(ctx, store.PlanStarter)
			if err != nil {
				return nil, err
			}
			it, err := svc.Store.GetIntegration(ctx, p.Org.ID, store.IntegrationLLM, in.IntegrationID)
			if err != nil {
				return nil, s.integrationError(ctx, "get llm integration", err)
			}
			return &llmOut{Body: llmView(it)}, nil
		})

	type llmUpdateIn struct {
		IntegrationID string `path:"integration_id" format:"uuid"`
		Body          llmBody
	}
	huma.Register(s.api, huma.Operation{OperationID: "llm-providers-update", Method: http.MethodPut, Path: "/v1/llm-providers/config/{integration_id}",
		Summary: "Update an LLM integration", Description: "Omit api_key to keep the stored key; a changed provider or base_url needs the key again. Changes are tested before saving.",
		Tags: tag, Security: authRequired, Errors: errs},
		func(ctx context.Context, in *llmUpdateIn) (*llmOut, error) {
			p, err := s.paid(ctx, store.PlanStarter)
			if err != nil {
				return nil, err
			}
			it, err := svc.UpdateLLM(ctx, p.Org.ID, in.IntegrationID, in.Body.fields())
			if err != nil {
				return nil, s.integrationError(ctx, "update llm integration", err)
			}
			return &llmOut{Body: llmView(it)}, nil
		})

	huma.Register(s.api, huma.Operation{OperationID: "llm-providers-delete", Method: http.MethodDelete, Path: "/v1/llm-providers/config/{integration_id}",
		Summary: "Delete an LLM integration (admin)", Tags: tag, Security: authRequired, Errors: errs},
		func(ctx context.Context, in *integrationIDInput) (*messageOut, error) {
			p, err := s.admin(ctx)
			if err != nil {
				return nil, err
			}
			if err := svc.Store.DeleteIntegration(ctx, p.Org.ID, store.IntegrationLLM, in.IntegrationID); err != nil {
				return nil, s.integrationError(ctx, "delete llm integration", err)
			}
			return &messageOut{Body: messageBody{Message: "integration deleted", IntegrationID: in.IntegrationID}}, nil
		})

	type testOut struct {
		Body struct {
			Status            string `json:"status" enum:"success,error"`
			Message           string `json:"message"`
			SupportsWebSearch *bool  `json:"supports_web_search,omitempty"`
			ModelDeprecated   *bool  `json:"model_deprecated,omitempty"`
		}
	}
	huma.Register(s.api, huma.Operation{OperationID: "llm-providers-test", Method: http.MethodPost, Path: "/v1/llm-providers/test-connection",
		Summary: "Test an LLM key and model without saving", Description: "status is success or error; a refused key, unknown model or unreachable URL is status error with the provider's reason.",
		Tags: tag, Security: authRequired, Errors: errs},
		func(ctx context.Context, in *llmCreateIn) (*testOut, error) {
			if _, err := s.paid(ctx, store.PlanStarter); err != nil {
				return nil, err
			}
			res, err := svc.TestLLM(ctx, in.Body.fields())
			out := &testOut{}
			switch {
			case errors.Is(err, integrations.ErrTestFailed):
				out.Body.Status, out.Body.Message = "error", err.Error()
			case err != nil:
				return nil, s.integrationError(ctx, "test llm integration", err)
			default:
				out.Body.Status, out.Body.Message = "success", "connection ok"
				out.Body.SupportsWebSearch, out.Body.ModelDeprecated = &res.SupportsWebSearch, &res.ModelDeprecated
			}
			return out, nil
		})

	huma.Register(s.api, huma.Operation{OperationID: "llm-providers-set-default", Method: http.MethodPost, Path: "/v1/llm-providers/config/{integration_id}/set-default",
		Summary: "Make an LLM integration the organization default (admin)", Tags: tag, Security: authRequired, Errors: errs},
		func(ctx context.Context, in *integrationIDInput) (*messageOut, error) {
			p, err := s.admin(ctx)
			if err != nil {
				return nil, err
			}
			if err := svc.Store.SetDefaultIntegration(ctx, p.Org.ID, store.IntegrationLLM, in.IntegrationID); err != nil {
				return nil, s.integrationError(ctx, "set default llm integration", err)
			}
			return &messageOut{Body: messageBody{Message: "default set", IntegrationID: in.IntegrationID}}, nil
		})

	// Search providers.
	type searchListOut struct {
		Body struct {
			Providers []SearchIntegration `json:"providers"`
		}
	}
	huma.Register(s.api, huma.Operation{OperationID: "search-providers-list", Method: http.MethodGet, Path: "/v1/search-providers",
		Summary: "List search integrations", Tags: tag, Security: authRequired, Errors: errs},
		func(ctx context.Context, _ *struct{}) (*searchListOut, error) {
			p, err := s.paid(ctx, store.PlanStarter)
			if err != nil {
				return nil, err
			}
			list, err := svc.Store.ListIntegrations(ctx, p.Org.ID, store.IntegrationSearch)
			if err != nil {
				return nil, s.internal(ctx, "list search integrations", err)
			}
			out := &searchListOut{}
			out.Body.Providers = []SearchIntegration{}
			for _, in := range list {
				out.Body.Providers = append(out.Body.Providers, searchView(in))
			}
			return out, nil
		})

	type searchModelsOut struct {
		Body struct {
			Models map[string][]search.ModelInfo `json:"models"`
		}
	}
	huma.Register(s.api, huma.Operation{OperationID: "search-providers-models", Method: http.MethodGet, Path: "/v1/search-providers/models",
		Summary: "Supported search providers, models and prices", Tags: tag, Security: authRequired, Errors: errs},
		func(ctx context.Context, _ *struct{}) (*searchModelsOut, error) {
			if _, err := s.paid(ctx, store.PlanStarter); err != nil {
				return nil, err
			}
			out := &searchModelsOut{}
			out.Body.Models = search.Models()
			return out, nil
		})

	type searchCreateIn struct{ Body searchBody }
	type searchOut struct{ Body SearchIntegration }
	huma.Register(s.api, huma.Operation{OperationID: "search-providers-create", Method: http.MethodPost, Path: "/v1/search-providers",
		Summary: "Create a search integration", Description: "Validated with a test search before saving.",
		Tags: tag, Security: authRequired, Errors: errs, DefaultStatus: http.StatusCreated},
		func(ctx context.Context, in *searchCreateIn) (*searchOut, error) {
			p, err := s.paid(ctx, store.PlanStarter)
			if err != nil {
				return nil, err
			}
			it, err := svc.CreateSearch(ctx, p.Org.ID, in.Body.fields())
			if err != nil {
				return nil, s.integrationError(ctx, "create search integration", err)
			}
			return &searchOut{Body: searchView(it)}, nil
		})

	type searchUpdateIn struct {
		IntegrationID string `path:"integration_id" format:"uuid"`
		Body          searchBody
	}
	huma.Register(s.api, huma.Operation{OperationID: "search-providers-update", Method: http.MethodPut, Path: "/v1/search-providers/{integration_id}",
		Summary: "Update a search integration", Description: "api_key optional (omit to keep); changing provider, search_model or base_url requires a new api_key and re-validates.",
		Tags: tag, Security: authRequired, Errors: errs},
		func(ctx context.Context, in *searchUpdateIn) (*searchOut, error) {
			p, err := s.paid(ctx, store.PlanStarter)
			if err != nil {
				return nil, err
			}
			it, err := svc.UpdateSearch(ctx, p.Org.ID, in.IntegrationID, in.Body.fields())
			if err != nil {
				return nil, s.integrationError(ctx, "update search integration", err)
			}
			return &searchOut{Body: searchView(it)}, nil
		})

	huma.Register(s.api, huma.Operation{OperationID: "search-providers-delete", Method: http.MethodDelete, Path: "/v1/search-providers/{integration_id}",
		Summary: "Delete a search integration (admin)", Tags: tag, Security: authRequired, Errors: errs},
		func(ctx context.Context, in *integrationIDInput) (*messageOut, error) {
			p, err := s.admin(ctx)
			if err != nil {
				return nil, err
			}
			if err := svc.Store.DeleteIntegration(ctx, p.Org.ID, store.IntegrationSearch, in.IntegrationID); err != nil {
				return nil, s.integrationError(ctx, "delete search integration", err)
			}
			return &messageOut{Body: messageBody{Message: "integration deleted", IntegrationID: in.IntegrationID}}, nil
		})

	huma.Register(s.api, huma.Operation{OperationID: "search-providers-set-default", Method: http.MethodPut, Path: "/v1/search-providers/{integration_id}/default",
		Summary: "Make a search integration the organization default (admin)", Tags: tag, Security: authRequired, Errors: errs},
		func(ctx context.Context, in *integrationIDInput) (*messageOut, error) {
			p, err := s.admin(ctx)
			if err != nil {
				return nil, err
			}
			if err := svc.Store.SetDefaultIntegration(ctx, p.Org.ID, store.IntegrationSearch, in.IntegrationID); err != nil {
				return nil, s.integrationError(ctx, "set default search integration", err)
			}
			return &messageOut{Body: messageBody{Message: "default set", IntegrationID: in.IntegrationID}}, nil
		})

	huma.Register(s.api, huma.Operation{OperationID: "search-providers-clear-default", Method: http.MethodDelete, Path: "/v1/search-providers/{integration_id}/default",
		Summary: "Clear the organization's default search integration (admin)", Description: "Only when this integration is the default (409 otherwise); leaves no default.",
		Tags: tag, Security: authRequired, Errors: append(errs, http.StatusConflict)},
		func(ctx context.Context, in *integrationIDInput) (*messageOut, error) {
			p, err := s.admin(ctx)
			if err != nil {
				return nil, err
			}
			if err := svc.Store.ClearDefaultIntegration(ctx, p.Org.ID, store.IntegrationSearch, in.IntegrationID); err != nil {
				return nil, s.integrationError(ctx, "clear default search integration", err)
			}
			return &messageOut{Body: messageBody{Message: "default cleared", IntegrationID: in.IntegrationID}}, nil
		})
	return svc
}

// integrationStore is the state store's integration role, nil when the
// store does not have it.
