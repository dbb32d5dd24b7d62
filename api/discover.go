package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
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
	MatchReasons []string `json:"match_reasons,omitempty" doc:"What the result shares with the search (keywords, industries); present when enhanced=true"`
}

// rawQuery captures the whole query string: discovery parses and validates
// its parameters in query/ (repeated arrays, unknown names rejected), which
// Huma's per-field binding cannot express.
type rawQuery struct {
	values url.Values
}

func (r *rawQuery) Resolve(ctx huma.Context) []error {
	u := ctx.URL()
	v, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return []error{&huma.ErrorDetail{Location: "query", Message: "malformed query string: " + err.Error()}}
	}
	r.values = v
	return nil
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
	params := discoverParamDocs()
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
			return nil, queryError(err)
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
			return nil, queryError(err)
		}
		n, applied, err := s.companies.Count(ctx, d)
		if err != nil {
			return nil, s.serviceError(ctx, "count", err)
		}
		return &countOutput{Applied: appliedHeader(applied), Body: CountBody{Count: n}}, nil
	})
}

// queryError turns a query.Error into a problem document whose detail
// names every parameter and rule.
func queryError(err error) error {
	var qe *query.Error
	if !errors.As(err, &qe) {
		return huma.Error422UnprocessableEntity(err.Error())
	}
	details := make([]error, len(qe.Params))
	for i, p := range qe.Params {
		d := &huma.ErrorDetail{Location: "query." + p.Param, Message: p.Rule}
		if p.Value != "" {
			d.Value = p.Value
		}
		details[i] = d
	}
	msg := "invalid parameters"
	if qe.Status == http.StatusNotFound {
		msg = "not found"
	}
	return huma.NewError(qe.Status, msg, details...)
}

// serviceError maps the errors a query service returns.
func (s *Server) serviceError(ctx context.Context, op string, err error) error {
	var qe *query.Error
	switch {
	case errors.As(err, &qe):
		return queryError(err)
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

// discoverParamDocs documents the discovery parameters in the OpenAPI
// document; query.ParseDiscover enforces them.
func discoverParamDocs() []*huma.Param {
	str := &huma.Schema{Type: "string"}
	arr := &huma.Schema{Type: "array", Items: str}
	integer := func(min, max, def int) *huma.Schema {
		lo, hi := float64(min), float64(max)
		return &huma.Schema{Type: "integer", Minimum: &lo, Maximum: &hi, Default: def}
	}
	boolean := func(def bool) *huma.Schema { return &huma.Schema{Type: "boolean", Default: def} }
	p := func(name string, schema *huma.Schema, doc string) *huma.Param {
		explode := schema.Type == "array"
		return &huma.Param{Name: name, In: "query", Description: doc, Schema: schema, Explode: &explode}
	}
	return []*huma.Param{
		p("icp_prompt", str, "Natural-language request (max 4000 chars). Filters, an ICP text and lookalike examples are extracted from it; explicit parameters win over extracted ones. Overrides auto_icp_text and auto_phrase_match."),
		p("domain", arr, "Lookalike example domains, max 10 (repeated or comma-separated)."),
		p("negate_domain", arr, "Domains to push results away from, max 10."),
		p("icp_text", str, "Description of the ideal customer, 3-4000 chars; empty is treated as omitted."),
		p("negate_icp_text", str, "Description to push results away from, 3-4000 chars."),
		p("phrase_match", arr, "Exact fragments of site text or description (any of them), max 20, each >= 3 chars. Repeat the parameter; commas are part of a phrase."),
		p("negate_phrase_match", arr, "Fragments none of the results may contain; same limits."),
		p("country", arr, "ISO-3166-1 alpha-2 codes, country names or region codes (ANZ, APAC, ASEAN, BENELUX, CEE, DACH, EMEA, EU, GCC, LATAM, MENA, NORDICS)."),
		p("negate_country", arr, "Countries or regions to exclude."),
		p("state", arr, "ISO 3166-2 codes or names, max 100; only with a single country (full codes such as US-CA imply it)."),
		p("negate_state", arr, "Subdivisions to exclude; same rules as state."),
		p("min_digital_footprint", integer(0, 800, 50), "Lowest digital-footprint score. With start_date, capped at the score the top 1% of companies of that age reach."),
		p("max_digital_footprint", integer(0, 800, 800), "Highest digital-footprint score."),
		p("start_date", str, "YYYY-MM-DD (started on or after) or YYYY-MM-DD,YYYY-MM-DD (inclusive; either side may be empty)."),
		p("category", arr, "Industry labels (any of them)."),
		p("negate_category", arr, "Industry labels to exclude."),
		p("employee_range", str, "min,max head count; '50,' is 50 and above, ',50' 50 and below. Unparseable values are ignored."),
		p("revenue_range", str, "min,max annual revenue in USD; a '+' suffix on max means unbounded. Unknown revenue is included when the range reaches below 1M. Unparseable values are ignored."),
		p("business_model", arr, "B2B, B2C, B2G, G2B, G2C, D2C, C2C, C2B (any of them)."),
		p("negate_business_model", arr, "Business models to exclude."),
		p("social", arr, "Social networks the company must have a profile on (any of them)."),
		p("negate_social", arr, "Social networks the company must not be on."),
		p("language", arr, "2-letter site language codes (any of them)."),
		p("negate_language", arr, "Site languages to exclude."),
		p("redirect", boolean(false), "Include domains that redirect to another domain."),
		p("exclude_leadgen", boolean(true), "Exclude suspected lead-generation sites (score below 100 and no phone, email or social profile)."),
		p("tech_stack", arr, "Technology vendor domains (any of them), max 20; results then carry vendors."),
		p("negate_tech_stack", arr, "Vendor domains to exclude, max 20."),
		p("subdomain", arr, "Subdomain labels (any of them), max 20, each >= 3 chars."),
		p("negate_subdomain", arr, "Subdomain labels to exclude."),
		p("inclusion_query_id", arr, "Limit results to the domains of saved queries (404 for an unknown id)."),
		p("exclusion_query_id", arr, "Exclude the domains of saved queries (404 for an unknown id)."),
		p("exclude_domain", arr, "Domains to leave out of the results, max 100 (repeated or comma-separated); does not change lookalike matching."),
		p("max_records", integer(5, 10000, 100), "Results per page."),
		p("offset", integer(0, 9995, 0), "Results to skip; offset + max_records <= 10000."),
		p("min_similarity", integer(0, 99, 0), "Lowest similarity (0-100) of a result."),
		p("consensus", integer(1, 20, 1), "Refine the query with its top N results' vectors; higher is broader."),
		p("variance", &huma.Schema{Type: "string", Enum: []any{"LOW", "MID_LOW", "MEDIUM", "MID_HIGH", "HIGH", "UNRESTRICTED"}, Default: "UNRESTRICTED"},
			"How far below the best match results may fall: LOW 5, MID_LOW 10, MEDIUM 20, MID_HIGH 30, HIGH 45 similarity points; UNRESTRICTED no limit."),
		p("include_search_domains", boolean(false), "Include the example domains in the results."),
		p("enhanced", boolean(false), "Add match_reasons to each result: the keywords and industries it shares with the search."),
		p("retrieval", boolean(false), "Add site_text, the text retrieved from each company's pages."),
		p("auto_icp_text", boolean(false), "Write an ICP text from the example domains' keywords and industries and search with it too."),
		p("auto_phrase_match", boolean(false), "Derive phrase matches from the ICP text (kept only when they occur in the index)."),
	}
}
