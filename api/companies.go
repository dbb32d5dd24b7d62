package api

import (
	"context"
	"fmt"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/record"
	"github.com/openprospect/prospectd/record/domain"
	"github.com/openprospect/prospectd/store"
)

// Profile is a company profile as the API returns it: the spec's profile
// fields plus revenue_range, business_models and languages. Site text,
// vendors and subdomains are append datasets and are not part of it.
type Profile struct {
	Domain         string             `json:"domain" doc:"Normalized root domain; unique identifier"`
	Name           string             `json:"name"`
	Status         record.Status      `json:"status"`
	Score          int                `json:"score" doc:"Digital footprint score, 1-800"`
	StartDate      *string            `json:"start_date" doc:"Estimated company start (YYYY-MM-DD)"`
	EndDate        *string            `json:"end_date" doc:"Last certificate date when closed; null when active"`
	Address        record.Address     `json:"address"`
	Phones         []string           `json:"phones"`
	PublicEmails   []string           `json:"public_emails"`
	SocialURLs     []string           `json:"social_urls"`
	Description    string             `json:"description"`
	Keywords       map[string]float64 `json:"keywords"`
	IndustryGroups map[string]float64 `json:"industry_groups" doc:"Top 2 industry labels -> score"`
	Employees      string             `json:"employees" enum:"1-10,11-50,51-200,201-500,501-1000,1001-5000,5001-10000,10001+,"`
	RedirectDomain *string            `json:"redirect_domain"`
	UpdateDate     *string            `json:"update_date"`
	MXProvider     string             `json:"mx_provider"`
	RevenueRange   *string            `json:"revenue_range" doc:"Revenue bucket; null when unknown"`
	BusinessModels []string           `json:"business_models"`
	Languages      []string           `json:"languages"`
}

// ProfileOf shapes a stored company for the API: lists are never null.
func ProfileOf(c record.Company) Profile {
	return Profile{
		Domain: c.Domain, Name: c.Name, Status: c.Status, Score: c.Score,
		StartDate: optional(c.StartDate), EndDate: c.EndDate, Address: c.Address,
		Phones: nonNil(c.Phones), PublicEmails: nonNil(c.PublicEmails), SocialURLs: nonNil(c.SocialURLs),
		Description: c.Description, Keywords: nonNilMap(c.Keywords), IndustryGroups: nonNilMap(c.IndustryGroups),
		Employees: c.Employees, RedirectDomain: c.RedirectDomain, UpdateDate: optional(c.UpdateDate),
		MXProvider: c.MXProvider, RevenueRange: optional(c.RevenueRange),
		BusinessModels: nonNil(c.BusinessModels), Languages: nonNil(c.Languages),
	}
}

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
		r, err := s.bill(ctx, p, "bizdata", account.Companies([]string{d}))
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

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func nonNilMap(m map[string]float64) map[string]float64 {
	if m == nil {
		return map[string]float64{}
	}
	return m
}
