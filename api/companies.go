package api

import (
	"context"
	"fmt"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/openprospect/prospectd/record"
	"github.com/openprospect/prospectd/record/domain"
	"github.com/openprospect/prospectd/store"
)

// Profile is a company profile as the API returns it (see record.Profile).
type Profile = record.Profile

// ProfileOf shapes a stored company for the API.
func ProfileOf(c record.Company) Profile { return record.ProfileOf(c) }

type bizdataInput struct {
	Domain string `query:"domain" required:"true" minLength:"1" maxLength:"2048" doc:"Company domain or URL; subdomains normalize to the root domain" example:"example.com"`
}

type bizdataOutput struct {
	CreditsBilled    int `header:"X-Credits-Billed" doc:"Credits this response cost (0 when the record was billed in the last 90 days)"`
	CreditsRemaining int `header:"X-Credits-Remaining" doc:"Credits left in the current period"`
	Body             Profile
}

func (s *Server) registerCompanies() {
	huma.Register(s.api, huma.Operation{
		OperationID: "get-bizdata",
		Method:      http.MethodGet,
		Path:        "/v1/bizdata",
		Summary:     "Company profile by domain",
		Description: "Returns the profile of one company. The domain may be a URL or a subdomain; it is normalized to the registrable root domain first.",
		Tags:        []string{"Companies"},
		Security:    authRequired,
		Errors:      []int{http.StatusUnauthorized, http.StatusPaymentRequired, http.StatusForbidden, http.StatusNotFound, http.StatusUnprocessableEntity, http.StatusTooManyRequests},
	}, func(ctx context.Context, in *bizdataInput) (*bizdataOutput, error) {
		p, err := s.paid(ctx, store.PlanStarter)
		if err != nil {
			return nil, err
		}
		d, err := domain.Normalize(in.Domain)
		if err != nil {
			return nil, huma.Error422UnprocessableEntity(fmt.Sprintf("domain: %v", err), &huma.ErrorDetail{Location: "query.domain", Message: err.Error(), Value: in.Domain})
		}
		got, err := s.deps.Engine.GetCompanies(ctx, []string{d})
		if err != nil {
			return nil, s.internal(ctx, "get company", err)
		}
		if len(got) == 0 {
			return nil, huma.Error404NotFound(fmt.Sprintf("domain: no company profile for %q", d))
		}
		r, err := bill(ctx, s, p, "bizdata", []string{d}, companyCharge)
		if err != nil {
			return nil, err
		}
		return &bizdataOutput{CreditsBilled: r.Billed, CreditsRemaining: r.Left, Body: ProfileOf(got[0])}, nil
	})
}

// internal logs an unexpected failure and returns a 500 that reveals nothing.
func (s *Server) internal(ctx context.Context, what string, err error) error {
	s.deps.Log.Error().Err(err).Str("op", what).Msg("request failed")
	return huma.Error500InternalServerError("internal error")
}

// Shorthands for shaping responses: null for empty text, [] and {} for nil.
var (
	optional  = record.OptionalText
	nonNil    = record.List
	nonNilMap = record.Scores
)
