package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/danielgtaylor/huma/v2"

	"github.com/openprospect/prospectd/query"
	"github.com/openprospect/prospectd/store"
)

// DiscoveredCompany is a company profile with the discovery fields.
type DiscoveredCompany struct {
	Profile
	Similarity   float64  `json:"similarity" doc:"Similarity to the search inputs, 0-100; 0 when the search had only filters"`
	Vendors      []string `json:"vendors,omitempty" doc:"Technology vendor domains; present when tech_stack is used"`
	SiteText     *string  `json:"site_text,omitempty" doc:"Text retrieved from the company's pages; present when retrieval=true"`
	MatchReasons []string `json:"match_reasons,omitempty" doc:"Why the result matched, each 'kind: detail': the nearest example domain of a lookalike search (nearest example: acme.com (similarity 82.5)), shared industries and keywords, the phrase_match phrases its text holds, and each filter it satisfies with its value (filter country: DE); present when enhanced=true"`
}

type discoverOutput struct {
	TotalCount       int    `header:"X-Total-Count" doc:"Number of companies returned"`
	CreditsBilled    int    `header:"X-Credits-Billed" doc:"Credits this response cost: one per company not billed to the organization in the last 90 days"`
	CreditsRemaining int    `header:"X-Credits-Remaining" doc:"Credits left in the current period; when they run out mid-response the response holds only the companies they cover"`
	Applied          string `header:"X-Applied-Filters" doc:"JSON object of the filters actually used (after region expansion, defaults and prompt extraction)"`
	Body             []DiscoveredCompany
}

// CountBody is the count variant's response.
type CountBody struct {
	Count int `json:"count" doc:"Number of companies matching the filters (and min_similarity / variance when those apply)"`
}

type countOutput struct {
	Applied string `header:"X-Applied-Filters" doc:"JSON object of the filters actually used"`
	Body    CountBody
}

func (s *Server) registerDiscover() {
	params := s.queryParams(query.DiscoverTable)
	errs := []int{http.StatusUnauthorized, http.StatusPaymentRequired, http.StatusForbidden, http.StatusNotFound,
		http.StatusUnprocessableEntity, http.StatusTooManyRequests, http.StatusServiceUnavailable}
	huma.Register(s.api, huma.Operation{
		OperationID: "discover",
		Method:      http.MethodGet,
		Path:        "/v1/discover",
		Summary:     "Discover companies",
		Description: "Finds companies by lookalike domains, ICP text, a natural-language prompt, phrase matches or filters only, ranked by similarity (or by digital footprint when there is no search input). Repeat a parameter for array values. Unknown parameters are rejected.",
		Tags:        []string{"Discovery"},
		Security:    authRequired,
		Parameters:  params,
		Errors:      errs,
	}, func(ctx context.Context, in *rawQuery) (*discoverOutput, error) {
		p, err := s.paid(ctx, store.PlanStarter)
		if err != nil {
			return nil, err
		}
		d, err := query.ParseDiscover(in.values)
		if err != nil {
			return nil, queryError(err, "query")
		}
		res, err := s.companies.Discover(ctx, d)
		if err != nil {
			return nil, s.serviceError(ctx, "discover", err)
		}
		paid, err := bill(ctx, s, p, "discover", res.Matches, func(m query.Match) []store.Charge { return companyCharge(m.Company.Domain) })
		if err != nil {
			return nil, err
		}
		out := &discoverOutput{Applied: appliedHeader(res.Applied), CreditsBilled: paid.Billed, CreditsRemaining: paid.Left,
			Body: make([]DiscoveredCompany, 0, len(res.Matches))}
		for i, m := range res.Matches {
			if !paid.Mask[i] {
				continue // past what the credits pay for
			}
			dc := DiscoveredCompany{Profile: ProfileOf(m.Company), Similarity: m.Similarity, MatchReasons: m.Reasons}
			if len(d.TechStack) > 0 || len(res.Applied.TechStack) > 0 {
				dc.Vendors = nonNil(m.Company.Vendors)
			}
			if d.Retrieval {
				t := m.Company.SiteText
				dc.SiteText = &t
			}
			out.Body = append(out.Body, dc)
		}
		out.TotalCount = len(out.Body)
		return out, nil
	})
	huma.Register(s.api, huma.Operation{
		OperationID: "count",
		Method:      http.MethodGet,
		Path:        "/v1/count",
		Summary:     "Count discovery matches",
		Description: "Takes the parameters of GET /v1/discover, with the same limits, and returns how many companies match instead of the companies.",
		Tags:        []string{"Discovery"},
		Security:    authRequired,
		Parameters:  params,
		Errors:      errs,
	}, func(ctx context.Context, in *rawQuery) (*countOutput, error) {
		if _, err := s.paid(ctx, store.PlanStarter); err != nil {
			return nil, err
		}
		d, err := query.ParseDiscover(in.values)
		if err != nil {
			return nil, queryError(err, "query")
		}
		n, applied, err := s.companies.Count(ctx, d)
		if err != nil {
			return nil, s.serviceError(ctx, "count", err)
		}
		return &countOutput{Applied: appliedHeader(applied), Body: CountBody{Count: n}}, nil
	})
}

// serviceError maps the errors a query service returns.
func (s *Server) serviceError(ctx context.Context, op string, err error) error {
	return s.serviceErrorAt(ctx, op, err, "query")
}

// serviceErrorAt is serviceError for parameters read from loc ("query" or
// "body").
func (s *Server) serviceErrorAt(ctx context.Context, op string, err error, loc string) error {
	var qe *query.Error
	switch {
	case errors.As(err, &qe):
		return queryError(err, loc)
	case errors.Is(err, query.ErrNoEmbedder):
		return huma.Error503ServiceUnavailable(err.Error())
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return huma.NewError(499, "request canceled")
	}
	return s.internal(ctx, op, err)
}

// appliedHeader encodes the applied filters as ASCII JSON: header values
// must not carry raw UTF-8 or control characters.
func appliedHeader(a query.Applied) string {
	b, err := json.Marshal(a)
	if err != nil {
		return "{}"
	}
	var sb strings.Builder
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r < 0x80 {
			sb.WriteByte(b[0])
		} else if r <= 0xFFFF {
			fmt.Fprintf(&sb, `\u%04x`, r)
		} else {
			r1, r2 := utf16Pair(r)
			fmt.Fprintf(&sb, `\u%04x\u%04x`, r1, r2)
		}
		b = b[size:]
	}
	return sb.String()
}

func utf16Pair(r rune) (rune, rune) {
	r -= 0x10000
	return 0xD800 + (r>>10)&0x3FF, 0xDC00 + r&0x3FF
}
