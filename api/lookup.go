package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/namematch"
	"github.com/openprospect/prospectd/query"
	"github.com/openprospect/prospectd/query/datasets"
	"github.com/openprospect/prospectd/record"
	"github.com/openprospect/prospectd/record/domain"
	"github.com/openprospect/prospectd/record/geo"
	"github.com/openprospect/prospectd/store"
)

// Single-record lookups: one company name (GET /v1/match), one person
// (GET /v1/contacts/match) and one append dataset for a few domains (GET
// /v1/score, /status, /redirects, /growth, /vendors, /subdomains), and
// the crawled site text of one domain (GET /v1/extract, in extract.go).
// Each answers what its bulk counterpart returns for one row, billed the
// same.

type matchInput struct {
	Name               string `query:"name" required:"true" minLength:"1" maxLength:"500" doc:"Company name as a list spells it (legal forms, abbreviations, typos and accents are tolerated)" example:"Acme Security Inc."`
	Country            string `query:"country" maxLength:"60" doc:"ISO-3166-1 alpha-2 code or country name"`
	State              string `query:"state" maxLength:"100" doc:"ISO 3166-2 code, local code or name"`
	City               string `query:"city" maxLength:"100"`
	Zip                string `query:"zip" maxLength:"20"`
	Phone              string `query:"phone" maxLength:"40"`
	MinMatchConfidence int    `query:"min_match_confidence" minimum:"50" maximum:"100" default:"50" doc:"Lowest match_confidence returned, 50-100 inclusive"`
	Strict             bool   `query:"strict" doc:"Require the match to be in country (which is then required): a best match elsewhere is a 404"`
}

// MatchBody is the best match: the profile and its match_confidence, as a
// bulk match row has them.
type MatchBody struct {
	Profile
	MatchConfidence int `json:"match_confidence" minimum:"0" maximum:"100" doc:"Calibrated precision of matches scored like this one"`
}

type matchOutput struct {
	CreditsBilled    int `header:"X-Credits-Billed" doc:"Credits this response cost (0 when the company was billed in the last 90 days)"`
	CreditsRemaining int `header:"X-Credits-Remaining" doc:"Credits left in the current period"`
	Body             MatchBody
}

type contactMatchOneInput struct {
	Name          string `query:"name" maxLength:"200" doc:"Full name; give a name or an email"`
	Email         string `query:"email" maxLength:"254" doc:"Matched exactly first (match_score 100)"`
	CompanyName   string `query:"company_name" maxLength:"300"`
	Domain        string `query:"domain" maxLength:"300" doc:"Employer domain or URL"`
	PersonCountry string `query:"person_country" maxLength:"60" doc:"ISO-3166-1 alpha-2"`
	Limit         int    `query:"limit" minimum:"1" maximum:"20" default:"10" doc:"Matches returned, 1-20"`
	Enrich        bool   `query:"enrich" doc:"Return full contact records, billed as contacts"`
}

type contactMatchOneOutput struct {
	CreditsBilled    int `header:"X-Credits-Billed" doc:"Credits this response cost"`
	CreditsRemaining int `header:"X-Credits-Remaining" doc:"Credits left in the current period"`
	Withheld         int `header:"X-Records-Withheld" doc:"Enriched matches the credits did not cover (returned as the lookup subset)"`
	Body             ContactMatchResult
}

type domainsInput struct {
	Domain []string `query:"domain,explode" required:"true" minItems:"1" maxItems:"100" doc:"Domains or URLs, repeated or comma-separated, at most 100; normalized to root domains and deduplicated"`
}

type domainsMatchInput struct {
	Domain []string `query:"domain,explode" required:"true" minItems:"1" maxItems:"100" doc:"Domains or URLs, repeated or comma-separated, at most 100; normalized to root domains and deduplicated"`
	Match  string   `query:"match" maxLength:"300" doc:"A domain: adds a boolean match field per row"`
}

type lookupOutput struct {
	ContentType      string `header:"Content-Type"`
	CreditsBilled    int    `header:"X-Credits-Billed" doc:"Credits this response cost"`
	CreditsRemaining int    `header:"X-Credits-Remaining" doc:"Credits left in the current period"`
	Withheld         int    `header:"X-Records-Withheld" doc:"Rows whose values were nulled because the period's credits ran out"`
	Body             []byte
}

// The row types document the dataset lookups' rows in the OpenAPI
// document; the rows themselves are append's (query/datasets).

// ScoreRow is a GET /v1/score row.
type ScoreRow struct {
	Domain     string  `json:"domain"`
	Score      *int    `json:"score" doc:"Digital footprint score, 1-800"`
	UpdateDate *string `json:"update_date" doc:"When the profile (and its score) was last updated"`
}

// StatusRow is a GET /v1/status row (the domain_status dataset).
type StatusRow struct {
	Domain       string  `json:"domain"`
	StatusCode   *int    `json:"status_code" doc:"HTTP status of the latest home-page fetch"`
	StatusReason *string `json:"status_reason"`
	RecordDate   *string `json:"record_date" doc:"When that fetch ran"`
}

// RedirectsRow is a GET /v1/redirects row.
type RedirectsRow struct {
	Domain          string   `json:"domain"`
	RedirectSources []string `json:"redirect_sources" doc:"Domains that redirect here, at most 1,000"`
	RedirectCount   *int     `json:"redirect_count" doc:"True number of redirect sources"`
	Match           *bool    `json:"match,omitempty" doc:"With match: whether that domain redirects here"`
}

// GrowthRow is a GET /v1/growth row; it also has score_YYYYqN and
// subdomains_YYYYqN for every quarter the rows' histories cover.
type GrowthRow struct {
	Domain            string   `json:"domain"`
	ScoreGrowth3m     *float64 `json:"score_growth_3m" doc:"Percent change of the score over the last quarter"`
	SubdomainGrowth3m *float64 `json:"subdomain_growth_3m" doc:"Percent change of the subdomain count over the last quarter"`
}

// VendorsRow is a GET /v1/vendors row.
type VendorsRow struct {
	Domain  string   `json:"domain"`
	Vendors []string `json:"vendors" doc:"Technology vendor domains, at most 100"`
	Match   *bool    `json:"match,omitempty" doc:"With match: whether the domain uses that vendor (over all its vendors, not only the 100 listed)"`
}

// SubdomainsRow is a GET /v1/subdomains row.
type SubdomainsRow struct {
	Domain     string   `json:"domain"`
	Subdomains []string `json:"subdomains" doc:"Most popular first, at most 300"`
}

// lookupEndpoint is one per-domain dataset lookup.
type lookupEndpoint struct {
	path, id, summary, desc string
	set                     datasets.Name
	columns                 []string // kept columns; all when nil
	match                   string   // what match asks ("" when the endpoint has none)
	row                     any
}

var lookupEndpoints = []lookupEndpoint{
	{path: "/v1/score", id: "score", summary: "Digital footprint score of domains", set: datasets.Bizdata, columns: []string{"domain", "score", "update_date"}, row: ScoreRow{},
		desc: "The profile's digital footprint score (1-800) and its date; the quarterly history is GET /v1/growth. Billed as bizdata: once per indexed domain, free again for 90 days."},
	{path: "/v1/status", id: "domain-status", summary: "HTTP status of domains", set: datasets.DomainStatus, row: StatusRow{},
		desc: "The domain_status dataset of append. Billed one record per domain with a status, every time."},
	{path: "/v1/redirects", id: "redirects", summary: "Domains redirecting to domains", set: datasets.Redirects, match: "redirect source", row: RedirectsRow{},
		desc: "The redirects dataset of append: at most 1,000 sources and the true count. `match` (a domain) adds `match`: whether it redirects to the row's domain — also when it is past the 1,000 listed, read from its own profile's redirect_domain. Billed one record per domain with redirects, every time."},
	{path: "/v1/growth", id: "growth", summary: "Quarterly footprint history of domains", set: datasets.Growth, row: GrowthRow{},
		desc: "The growth dataset of append: score_YYYYqN and subdomains_YYYYqN for the quarters the rows' histories cover, then score_growth_3m and subdomain_growth_3m (percent). Billed one record per domain with a history, every time."},
	{path: "/v1/vendors", id: "vendors", summary: "Technology vendors of domains", set: datasets.Vendors, match: "vendor", row: VendorsRow{},
		desc: "The vendors dataset of append (at most 100). `match` (a vendor domain) adds `match`: whether the domain uses it. Billed one record per domain with vendors, every time."},
	{path: "/v1/subdomains", id: "subdomains", summary: "Subdomains of domains", set: datasets.Subdomains, row: SubdomainsRow{},
		desc: "The subdomains dataset of append (most popular first, at most 300). Billed one record per domain with subdomains, every time."},
}

func (s *Server) registerLookup() {
	names := s.deps.Names
	if names == nil {
		names = &namematch.Service{Engine: s.deps.Engine, Now: s.deps.Now}
	}
	s.registerMatch(names)
	s.registerContactMatchOne(&query.ContactService{Engine: s.deps.Engine, Companies: s.companies})
	for _, ep := range lookupEndpoints {
		s.registerDatasetLookup(ep)
	}
	s.registerExtract()
}

func (s *Server) registerMatch(names *namematch.Service) {
	huma.Register(s.api, huma.Operation{
		OperationID: "match",
		Method:      http.MethodGet,
		Path:        "/v1/match",
		Summary:     "Match one company name to its domain",
		Description: "The best company for a name with optional evidence (country, state, city, zip, phone): its profile and `match_confidence`, from the same matcher and calibration as POST /v1/bulkmatch. 404 when no company reaches `min_match_confidence`. Billed like a matched bulk match row: as the company's profile, free again for 90 days.",
		Tags:        []string{"Companies"},
		Security:    authRequired,
		Errors:      []int{http.StatusUnauthorized, http.StatusPaymentRequired, http.StatusForbidden, http.StatusNotFound, http.StatusUnprocessableEntity, http.StatusTooManyRequests},
	}, func(ctx context.Context, in *matchInput) (*matchOutput, error) {
		p, err := s.paid(ctx, store.PlanStarter)
		if err != nil {
			return nil, err
		}
		var country string
		if strings.TrimSpace(in.Country) != "" {
			c, ok := geo.LookupCountry(in.Country)
			if !ok {
				return nil, huma.NewError(http.StatusUnprocessableEntity, "country: not an ISO-3166-1 alpha-2 code or country name",
					&huma.ErrorDetail{Location: "query.country", Message: "unknown country", Value: in.Country})
			}
			country = c.Code
		}
		if in.Strict && country == "" {
			return nil, huma.Error422UnprocessableEntity("country: required when strict is true")
		}
		// The values go to the matcher as given, as a bulk match cell would.
		r, err := names.MatchOne(ctx, namematch.Query{Name: in.Name, Country: in.Country, State: in.State, City: in.City, Zip: in.Zip, Phone: in.Phone})
		switch {
		case errors.Is(err, index.ErrUnsupported):
			return nil, huma.NewError(http.StatusNotImplemented, "name matching needs an engine that can list its companies; "+s.deps.Engine.Name()+" cannot")
		case err != nil:
			return nil, s.serviceError(ctx, "match", err)
		case errors.Is(r.Err, namematch.ErrNoName):
			return nil, huma.NewError(http.StatusUnprocessableEntity, "name: has no letters or digits to match",
				&huma.ErrorDetail{Location: "query.name", Message: "no letters or digits", Value: in.Name})
		case r.Err != nil:
			return nil, s.internal(ctx, "match", r.Err)
		}
		notFound := func() error {
			where := ""
			if in.Strict {
				where = " in " + country
			}
			return huma.Error404NotFound(fmt.Sprintf("name: no company%s matches %q with match_confidence >= %d", where, in.Name, in.MinMatchConfidence))
		}
		if r.Domain == "" || r.Confidence < in.MinMatchConfidence {
			return nil, notFound()
		}
		got, err := s.deps.Engine.GetCompanies(ctx, []string{r.Domain})
		if err != nil {
			return nil, s.internal(ctx, "get matched company", err)
		}
		// A company deleted since the name index was built is no match,
		// as in bulk match.
		if len(got) == 0 || in.Strict && got[0].Address.Country != country {
			return nil, notFound()
		}
		bill, err := bill(ctx, s, p, "match", []string{r.Domain}, companyCharge)
		if err != nil {
			return nil, err
		}
		return &matchOutput{CreditsBilled: bill.Billed, CreditsRemaining: bill.Left,
			Body: MatchBody{Profile: ProfileOf(got[0]), MatchConfidence: r.Confidence}}, nil
	})
}

func (s *Server) registerContactMatchOne(svc *query.ContactService) {
	huma.Register(s.api, huma.Operation{
		OperationID: "contacts-match",
		Method:      http.MethodGet,
		Path:        "/v1/contacts/match",
		Summary:     "Match one person to contacts",
		Description: "One query of POST /v1/contacts/bulk-match, answered at once: `{query, matches}` with matches ranked as bulk match ranks them (an exact email first with match_score 100, then by name and company or domain). Without `enrich` a match is the lookup subset plus match_score and is free; with `enrich` a full contact record, billed as a contact (free again for 90 days); matches the credits do not cover keep the subset (X-Records-Withheld), and 402 when none is covered.",
		Tags:        []string{"Contacts"},
		Security:    authRequired,
		Errors:      []int{http.StatusUnauthorized, http.StatusPaymentRequired, http.StatusForbidden, http.StatusUnprocessableEntity, http.StatusTooManyRequests},
	}, func(ctx context.Context, in *contactMatchOneInput) (*contactMatchOneOutput, error) {
		p, err := s.paid(ctx, store.PlanStarter)
		if err != nil {
			return nil, err
		}
		// The same normalization and rules as a bulk match query.
		mq := query.MatchQuery{Name: strings.TrimSpace(in.Name), Email: strings.ToLower(strings.TrimSpace(in.Email)), CompanyName: strings.TrimSpace(in.CompanyName)}
		var details []error
		if mq.Name == "" && mq.Email == "" {
			details = append(details, &huma.ErrorDetail{Location: "query.name", Message: "give a name or an email"})
		}
		if mq.Email != "" && !plainEmail(mq.Email) {
			details = append(details, &huma.ErrorDetail{Location: "query.email", Message: "not an email address", Value: in.Email})
		}
		if in.Domain != "" {
			d, err := domain.Normalize(in.Domain)
			if err != nil {
				details = append(details, &huma.ErrorDetail{Location: "query.domain", Message: err.Error(), Value: in.Domain})
			}
			mq.Domain = d
		}
		if in.PersonCountry != "" {
			c, ok := geo.LookupCountry(in.PersonCountry)
			if !ok {
				details = append(details, &huma.ErrorDetail{Location: "query.person_country", Message: "not an ISO-3166-1 alpha-2 code or country name", Value: in.PersonCountry})
			}
			mq.PersonCountry = c.Code
		}
		if len(details) > 0 {
			return nil, huma.NewError(http.StatusUnprocessableEntity, "invalid query", details...)
		}
		found, err := svc.MatchContact(ctx, mq, in.Limit)
		if err != nil {
			return nil, s.serviceError(ctx, "contact match", err)
		}
		out := &contactMatchOneOutput{}
		covered := make([]bool, len(found))
		if in.Enrich && len(found) > 0 {
			r, err := bill(ctx, s, p, "contacts_match", found, func(c query.ContactCandidate) []store.Charge { return contactCharge(c.Contact.PersonaID) })
			if err != nil {
				return nil, err
			}
			out.CreditsBilled, out.CreditsRemaining, out.Withheld = r.Billed, r.Left, r.Withheld
			copy(covered, r.Mask)
		} else {
			u, err := s.biller.Usage(ctx, p.Org)
			if err != nil {
				return nil, s.internal(ctx, "usage", err)
			}
			out.CreditsRemaining = u.CreditsLeft
		}
		out.Body = ContactMatchResult{Query: mq,
			Matches: make([]map[string]any, 0, len(found))}
		for i, c := range found {
			m, err := contactMatchEntry(c, covered[i])
			if err != nil {
				return nil, s.internal(ctx, "encode contact match", err)
			}
			out.Body.Matches = append(out.Body.Matches, m)
		}
		return out, nil
	})
}

// contactMatchEntry shapes a match as contact bulk match does: the lookup
// subset, or the full record when enriched and covered, with match_score.
func contactMatchEntry(c query.ContactCandidate, full bool) (map[string]any, error) {
	var m map[string]any
	if full {
		b, err := json.Marshal(record.ContactOf(c.Contact, nil))
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, err
		}
	} else {
		m = map[string]any{"persona_id": c.Contact.PersonaID, "name": c.Contact.Name, "title": optional(c.Contact.Title),
			"domain": c.Contact.Domain, "company_name": c.Contact.CompanyName}
	}
	m["match_score"] = c.Score
	return m, nil
}

func (s *Server) registerDatasetLookup(ep lookupEndpoint) {
	reg := s.api.OpenAPI().Components.Schemas
	row := reg.Schema(reflect.TypeOf(ep.row), true, reflect.TypeOf(ep.row).Name())
	if ep.set == datasets.Growth {
		if r := reg.SchemaFromRef(row.Ref); r != nil {
			r.AdditionalProperties = &huma.Schema{Type: huma.TypeInteger, Nullable: true, Description: "score_YYYYqN and subdomains_YYYYqN: the quarter's value, null outside the domain's history"}
		}
	}
	op := huma.Operation{
		OperationID: ep.id,
		Method:      http.MethodGet,
		Path:        ep.path,
		Summary:     ep.summary,
		Description: ep.desc + " One row per distinct domain, in request order, with the fields append returns for the dataset (unprefixed); an unindexed domain has null fields.",
		Tags:        []string{"Companies"},
		Security:    authRequired,
		Errors:      []int{http.StatusUnauthorized, http.StatusPaymentRequired, http.StatusForbidden, http.StatusUnprocessableEntity, http.StatusTooManyRequests},
		Responses: map[string]*huma.Response{"200": {
			Description: "One row per domain",
			Content:     map[string]*huma.MediaType{"application/json": {Schema: &huma.Schema{Type: huma.TypeArray, Items: row}}},
		}},
	}
	if ep.match == "" {
		huma.Register(s.api, op, func(ctx context.Context, in *domainsInput) (*lookupOutput, error) {
			return s.lookupDataset(ctx, ep, in.Domain, "")
		})
		return
	}
	huma.Register(s.api, op, func(ctx context.Context, in *domainsMatchInput) (*lookupOutput, error) {
		return s.lookupDataset(ctx, ep, in.Domain, in.Match)
	})
}

// lookupDataset answers a per-domain dataset lookup: append's rows for
// the domains, billed as append bills them, with the match column.
func (s *Server) lookupDataset(ctx context.Context, ep lookupEndpoint, values []string, match string) (*lookupOutput, error) {
	p, err := s.paid(ctx, store.PlanStarter)
	if err != nil {
		return nil, err
	}
	domains, err := query.LookupDomains(values)
	if err != nil {
		return nil, huma.NewError(http.StatusUnprocessableEntity, "domain: "+err.Error(),
			&huma.ErrorDetail{Location: "query.domain", Message: err.Error()})
	}
	var m string
	if match = strings.TrimSpace(match); match != "" {
		if m, err = domain.Normalize(match); err != nil {
			return nil, huma.NewError(http.StatusUnprocessableEntity, fmt.Sprintf("match: not a %s domain: %v", ep.match, err),
				&huma.ErrorDetail{Location: "query.match", Message: err.Error(), Value: match})
		}
	}
	t, err := s.companies.LookupDataset(ctx, domains, ep.set)
	if err != nil {
		return nil, s.serviceError(ctx, ep.id, err)
	}
	out := &lookupOutput{ContentType: "application/json"}
	if out.CreditsBilled, out.CreditsRemaining, out.Withheld, err = s.billTable(ctx, p, ep.id, &t, []datasets.Name{ep.set}); err != nil {
		return nil, err
	}
	if m != "" {
		if err := s.companies.AddMatchColumn(ctx, &t, ep.set, m); err != nil {
			return nil, s.internal(ctx, "redirect match", err)
		}
	}
	if ep.columns != nil {
		t = t.Select(ep.columns...)
	}
	var body bytes.Buffer
	if err := t.WriteJSON(&body); err != nil {
		return nil, s.internal(ctx, "encode "+ep.id, err)
	}
	out.Body = body.Bytes()
	return out, nil
}
