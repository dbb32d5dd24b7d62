package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/namematch"
	"github.com/openprospect/prospectd/query"
	"github.com/openprospect/prospectd/query/datasets"
	"github.com/openprospect/prospectd/record"
	"github.com/openprospect/prospectd/record/domain"
	"github.com/openprospect/prospectd/record/geo"
	"github.com/openprospect/prospectd/store"
)

// datasetLookup is one per-domain dataset tool (GET /v1/score, /status,
// /redirects, /growth, /vendors, /subdomains).
type datasetLookup struct {
	name, title, op, what string
	set                   datasets.Name
	columns               []string // kept columns; all when nil
	match                 string   // what match asks ("" when the tool has none)
}

var datasetLookups = []datasetLookup{
	{name: "get_score", title: "Digital footprint score of domains", op: "score", set: datasets.Bizdata, columns: []string{"domain", "score", "update_date"},
		what: "The profile's digital footprint score (1-800) and its date. Billed as bizdata: once per indexed domain, free again for 90 days."},
	{name: "get_domain_status", title: "HTTP status of domains", op: "domain-status", set: datasets.DomainStatus,
		what: "The HTTP status of each domain's latest home-page fetch. Billed one record per domain with a status, every time."},
	{name: "get_redirects", title: "Domains redirecting to domains", op: "redirects", set: datasets.Redirects, match: "redirect source",
		what: "Domains redirecting to each domain (at most 1,000) and their true count; match (a domain) adds whether it redirects there. Billed one record per domain with redirects, every time."},
	{name: "get_growth", title: "Quarterly footprint history of domains", op: "growth", set: datasets.Growth,
		what: "Quarterly score and subdomain counts and their 3-month growth. Billed one record per domain with a history, every time."},
	{name: "get_vendors", title: "Technology vendors of domains", op: "vendors", set: datasets.Vendors, match: "vendor",
		what: "Technology vendor domains of each domain (at most 100); match (a vendor domain) adds whether the domain uses it. Billed one record per domain with vendors, every time."},
	{name: "get_subdomains", title: "Subdomains of domains", op: "subdomains", set: datasets.Subdomains,
		what: "Subdomains of each domain, most popular first (at most 300). Billed one record per domain with subdomains, every time."},
}

// lookupTools are the single-record lookups.
func (s *Server) lookupTools() []*tool {
	var out []*tool
	if s.cfg.Names != nil {
		out = append(out, &tool{name: "match_company", title: "Match one company name to its domain", op: "match",
			description: "The best company for a name with optional country, state, city, zip and phone: its profile and match_confidence, from the same matcher as match_companies. An error 404 when none reaches min_match_confidence. Bills the company's profile (free again for 90 days).",
			estimate:    s.estimateMatchCompany, run: s.matchCompany})
	}
	out = append(out, &tool{name: "match_contact", title: "Match one person to contacts", op: "contacts-match",
		description: "One query of match_contacts answered at once: matches ranked (an exact email first with match_score 100). Without enrich the lookup subset and free; with enrich full contact records, each billed as a contact (free again for 90 days).",
		estimate:    s.estimateMatchContact, run: s.matchContact})
	for _, l := range datasetLookups {
		out = append(out, &tool{name: l.name, title: l.title, op: l.op,
			description: l.what + " One row per distinct domain (1-100), in request order; an unindexed domain has null fields.",
			estimate:    s.estimateDataset(l), run: s.datasetLookup(l)})
	}
	out = append(out, &tool{name: "get_site_text", title: "Crawled site text and languages of a domain", op: "extract",
		description: "What the crawler stored for one company's site: the visible text of its home page, the languages detected in it, and when and where the last crawl went. Never fetches the site: an error 404 when the domain is not indexed or its site was never crawled. Bills one record when the answer carries site text, every time.",
		estimate:    s.estimateSiteText, run: s.getSiteText})
	return out
}

// --- match_company

type matchCompanyArgs struct {
	Name               string `json:"name"`
	Country            string `json:"country"`
	State              string `json:"state"`
	City               string `json:"city"`
	Zip                string `json:"zip"`
	Phone              string `json:"phone"`
	MinMatchConfidence *int   `json:"min_match_confidence"`
	Strict             bool   `json:"strict"`
}

func maxLen(field, v string, n int) error {
	if len(v) > n {
		return invalid(field, fmt.Sprintf("at most %d characters", n))
	}
	return nil
}

// findCompany matches as GET /v1/match does.
func (s *Server) findCompany(ctx context.Context, c *call) (record.Company, int, error) {
	var a matchCompanyArgs
	if err := decode(c, &a); err != nil {
		return record.Company{}, 0, err
	}
	if err := errors.Join(maxLen("name", a.Name, 500), maxLen("country", a.Country, 60), maxLen("state", a.State, 100),
		maxLen("city", a.City, 100), maxLen("zip", a.Zip, 20), maxLen("phone", a.Phone, 40)); err != nil {
		return record.Company{}, 0, firstRefusal(err)
	}
	if strings.TrimSpace(a.Name) == "" {
		return record.Company{}, 0, invalid("name", "required")
	}
	minConf := 50
	if a.MinMatchConfidence != nil {
		minConf = *a.MinMatchConfidence
		if minConf < 50 || minConf > 100 {
			return record.Company{}, 0, invalid("min_match_confidence", "must be 50-100")
		}
	}
	var country string
	if strings.TrimSpace(a.Country) != "" {
		co, ok := geo.LookupCountry(a.Country)
		if !ok {
			return record.Company{}, 0, invalid("country", "not an ISO-3166-1 alpha-2 code or country name")
		}
		country = co.Code
	}
	if a.Strict && country == "" {
		return record.Company{}, 0, invalid("country", "required when strict is true")
	}
	r, err := s.cfg.Names.MatchOne(ctx, namematch.Query{Name: a.Name, Country: a.Country, State: a.State, City: a.City, Zip: a.Zip, Phone: a.Phone})
	switch {
	case errors.Is(err, index.ErrUnsupported):
		return record.Company{}, 0, refuse(http.StatusNotImplemented, "name matching needs an engine that can list its companies")
	case err != nil:
		return record.Company{}, 0, fmt.Errorf("match: %w", err)
	case errors.Is(r.Err, namematch.ErrNoName):
		return record.Company{}, 0, invalid("name", "has no letters or digits to match")
	case r.Err != nil:
		return record.Company{}, 0, fmt.Errorf("match: %w", r.Err)
	}
	notFound := func() error {
		where := ""
		if a.Strict {
			where = " in " + country
		}
		return refuse(http.StatusNotFound, "name: no company%s matches %q with match_confidence >= %d", where, a.Name, minConf)
	}
	if r.Domain == "" || r.Confidence < minConf {
		return record.Company{}, 0, notFound()
	}
	got, err := s.cfg.Companies.Engine.GetCompanies(ctx, []string{r.Domain})
	if err != nil {
		return record.Company{}, 0, fmt.Errorf("get matched company: %w", err)
	}
	// A company deleted since the name index was built is no match.
	if len(got) == 0 || a.Strict && got[0].Address.Country != country {
		return record.Company{}, 0, notFound()
	}
	return got[0], r.Confidence, nil
}

func (s *Server) estimateMatchCompany(ctx context.Context, c *call) (Estimate, error) {
	if _, _, err := s.findCompany(ctx, c); err != nil {
		return Estimate{}, err
	}
	return Estimate{Records: 1, Credits: 1}, nil
}

// MatchCompanyResult is match_company's answer.
type MatchCompanyResult struct {
	Company         record.Profile `json:"company"`
	MatchConfidence int            `json:"match_confidence"`
	billed
}

func (s *Server) matchCompany(ctx context.Context, c *call) (any, error) {
	co, conf, err := s.findCompany(ctx, c)
	if err != nil {
		return nil, err
	}
	r, err := s.bill(ctx, c, "match", []store.Charge{companyCharge(co.Domain)})
	if err != nil {
		return nil, err
	}
	return MatchCompanyResult{Company: record.ProfileOf(co), MatchConfidence: conf, billed: billed{r.Billed, r.Left}}, nil
}

// --- match_contact

type matchContactArgs struct {
	query.MatchQuery
	Limit  *int `json:"limit"`
	Enrich bool `json:"enrich"`
}

// findContacts matches as GET /v1/contacts/match does.
func (s *Server) findContacts(ctx context.Context, c *call) (query.MatchQuery, []query.ContactCandidate, bool, error) {
	var a matchContactArgs
	if err := decode(c, &a); err != nil {
		return query.MatchQuery{}, nil, false, err
	}
	limit := 10
	if a.Limit != nil {
		limit = *a.Limit
	}
	te := refuse(http.StatusUnprocessableEntity, "invalid query")
	if limit < 1 || limit > 20 {
		te.Errors = append(te.Errors, paramError{Location: "limit", Message: "must be 1-20"})
	}
	mq := query.MatchQuery{Name: strings.TrimSpace(a.Name), Email: strings.ToLower(strings.TrimSpace(a.Email)), CompanyName: strings.TrimSpace(a.CompanyName)}
	if mq.Name == "" && mq.Email == "" {
		te.Errors = append(te.Errors, paramError{Location: "name", Message: "give a name or an email"})
	}
	if mq.Email != "" && !plainEmail(mq.Email) {
		te.Errors = append(te.Errors, paramError{Location: "email", Message: "not an email address", Value: a.Email})
	}
	if a.Domain != "" {
		d, err := domain.Normalize(a.Domain)
		if err != nil {
			te.Errors = append(te.Errors, paramError{Location: "domain", Message: err.Error(), Value: a.Domain})
		}
		mq.Domain = d
	}
	if a.PersonCountry != "" {
		co, ok := geo.LookupCountry(a.PersonCountry)
		if !ok {
			te.Errors = append(te.Errors, paramError{Location: "person_country", Message: "not an ISO-3166-1 alpha-2 code or country name", Value: a.PersonCountry})
		}
		mq.PersonCountry = co.Code
	}
	if len(te.Errors) > 0 {
		parts := make([]string, len(te.Errors))
		for i, e := range te.Errors {
			parts[i] = e.Location + ": " + e.Message
		}
		te.Detail = "invalid query: " + strings.Join(parts, "; ")
		return mq, nil, false, te
	}
	found, err := s.cfg.Contacts.MatchContact(ctx, mq, limit)
	if _, ok := err.(*query.Error); ok {
		return mq, nil, false, queryError(err, "")
	}
	if err != nil {
		return mq, nil, false, fmt.Errorf("contact match: %w", err)
	}
	return mq, found, a.Enrich, nil
}

func (s *Server) estimateMatchContact(ctx context.Context, c *call) (Estimate, error) {
	_, found, enrich, err := s.findContacts(ctx, c)
	if err != nil || !enrich {
		return Estimate{}, err // the lookup subset is free
	}
	return Estimate{Records: len(found), Credits: len(found), Note: "enriched matches are billed as contacts"}, nil
}

// MatchContactResult is match_contact's answer.
type MatchContactResult struct {
	Query    query.MatchQuery `json:"query"`
	Matches  []map[string]any `json:"matches"`
	Withheld int              `json:"records_withheld"`
	billed
}

func (s *Server) matchContact(ctx context.Context, c *call) (any, error) {
	mq, found, enrich, err := s.findContacts(ctx, c)
	if err != nil {
		return nil, err
	}
	out := MatchContactResult{Query: mq, Matches: make([]map[string]any, 0, len(found))}
	covered := make([]bool, len(found))
	if enrich && len(found) > 0 {
		r, err := account.BillRecords(ctx, s.cfg.Biller, c.caller.Principal.Org, "contacts_match", found,
			func(cc query.ContactCandidate) []store.Charge {
				return []store.Charge{contactCharge(cc.Contact.PersonaID)}
			})
		if errors.Is(err, account.ErrNoCredits) {
			return nil, refuse(http.StatusPaymentRequired, "no credits left this period (%d used); records retrieved in the last 90 days stay free; see get_usage", r.Used)
		}
		if err != nil {
			return nil, err
		}
		out.billed, out.Withheld = billed{r.Billed, r.Left}, r.Withheld
		copy(covered, r.Mask)
	} else {
		u, err := s.cfg.Biller.Usage(ctx, c.caller.Principal.Org)
		if err != nil {
			return nil, fmt.Errorf("usage: %w", err)
		}
		out.Left = u.CreditsLeft
	}
	for i, cc := range found {
		var m map[string]any
		if covered[i] {
			b, err := json.Marshal(record.ContactOf(cc.Contact, nil))
			if err != nil {
				return nil, err
			}
			if err := json.Unmarshal(b, &m); err != nil {
				return nil, err
			}
		} else {
			m = map[string]any{"persona_id": cc.Contact.PersonaID, "name": cc.Contact.Name, "title": record.OptionalText(cc.Contact.Title),
				"domain": cc.Contact.Domain, "company_name": cc.Contact.CompanyName}
		}
		m["match_score"] = cc.Score
		out.Matches = append(out.Matches, m)
	}
	return out, nil
}

// --- per-domain datasets

type datasetArgs struct {
	Domain []string `json:"domain"`
	Match  string   `json:"match"`
}

func (s *Server) datasetTable(ctx context.Context, c *call, l datasetLookup) (datasets.Table, string, error) {
	names := []string{"domain"}
	if l.match != "" {
		names = append(names, "match")
	}
	if err := onlyArgs(c.args, names...); err != nil {
		return datasets.Table{}, "", err
	}
	v, err := c.args.values() // a string or an array, as the repeated parameter
	if err != nil {
		return datasets.Table{}, "", err
	}
	domains, err := query.LookupDomains(v["domain"])
	if err != nil {
		return datasets.Table{}, "", invalid("domain", err.Error())
	}
	var m string
	if len(v["match"]) > 0 {
		if raw := strings.TrimSpace(v["match"][0]); raw != "" {
			if m, err = domain.Normalize(raw); err != nil {
				return datasets.Table{}, "", invalid("match", fmt.Sprintf("not a %s domain: %v", l.match, err))
			}
		}
	}
	t, err := s.cfg.Companies.LookupDataset(ctx, domains, l.set)
	if _, ok := err.(*query.Error); ok {
		return t, m, queryError(err, "")
	}
	if err != nil {
		return t, m, fmt.Errorf("%s: %w", l.op, err)
	}
	return t, m, nil
}

func (s *Server) estimateDataset(l datasetLookup) func(context.Context, *call) (Estimate, error) {
	return func(ctx context.Context, c *call) (Estimate, error) {
		t, _, err := s.datasetTable(ctx, c, l)
		if err != nil {
			return Estimate{}, err
		}
		n := len(t.Charges([]datasets.Name{l.set}))
		return Estimate{Records: n, Credits: n}, nil
	}
}

// DatasetResult is a dataset lookup's answer: the REST route's rows.
type DatasetResult struct {
	Rows     json.RawMessage `json:"rows"`
	Withheld int             `json:"records_withheld"`
	billed
}

func (s *Server) datasetLookup(l datasetLookup) func(context.Context, *call) (any, error) {
	return func(ctx context.Context, c *call) (any, error) {
		t, m, err := s.datasetTable(ctx, c, l)
		if err != nil {
			return nil, err
		}
		out := DatasetResult{}
		sets := []datasets.Name{l.set}
		if owners := t.Charges(sets); len(owners) > 0 {
			r, err := account.BillRecords(ctx, s.cfg.Biller, c.caller.Principal.Org, l.op, owners,
				func(o datasets.Charge) []store.Charge { return []store.Charge{o.Charge} })
			if errors.Is(err, account.ErrNoCredits) {
				return nil, refuse(http.StatusPaymentRequired, "no credits left this period (%d used); see get_usage", r.Used)
			}
			if err != nil {
				return nil, err
			}
			for k, ok := range r.Mask {
				if !ok {
					t.Withhold(owners[k].Row, owners[k].Set)
				}
			}
			out.billed, out.Withheld = billed{r.Billed, r.Left}, r.Withheld
		} else {
			u, err := s.cfg.Biller.Usage(ctx, c.caller.Principal.Org)
			if err != nil {
				return nil, fmt.Errorf("usage: %w", err)
			}
			out.Left = u.CreditsLeft
		}
		if m != "" {
			if err := s.cfg.Companies.AddMatchColumn(ctx, &t, l.set, m); err != nil {
				return nil, fmt.Errorf("match: %w", err)
			}
		}
		if l.columns != nil {
			t = t.Select(l.columns...)
		}
		var b bytes.Buffer
		if err := t.WriteJSON(&b); err != nil {
			return nil, fmt.Errorf("encode %s: %w", l.op, err)
		}
		out.Rows = b.Bytes()
		return out, nil
	}
}

// --- get_site_text

// siteText reads what the crawler stored for the domain, as GET
// /v1/extract does.
func (s *Server) siteText(ctx context.Context, c *call) (query.SiteExtract, error) {
	co, err := s.company(ctx, c)
	if err != nil {
		return query.SiteExtract{}, err
	}
	e, err := query.SiteExtractOf(co)
	if errors.Is(err, query.ErrNotCrawled) {
		return e, refuse(http.StatusNotFound, "domain: the site of %q has not been crawled", co.Domain)
	}
	return e, err
}

func (s *Server) estimateSiteText(ctx context.Context, c *call) (Estimate, error) {
	e, err := s.siteText(ctx, c)
	if err != nil {
		return Estimate{}, err
	}
	if !e.Billable() {
		return Estimate{Note: "the last crawls read no page: nothing to bill"}, nil
	}
	return Estimate{Records: 1, Credits: 1}, nil
}

// SiteTextResult is get_site_text's answer.
type SiteTextResult struct {
	query.SiteExtract
	billed
}

func (s *Server) getSiteText(ctx context.Context, c *call) (any, error) {
	e, err := s.siteText(ctx, c)
	if err != nil {
		return nil, err
	}
	out := SiteTextResult{SiteExtract: e}
	if e.Billable() {
		r, err := s.bill(ctx, c, "extract", []store.Charge{{Kind: store.KindRow, Key: "extract:" + e.Domain, NoCache: true}})
		if err != nil {
			return nil, err
		}
		out.billed = billed{r.Billed, r.Left}
		return out, nil
	}
	u, err := s.cfg.Biller.Usage(ctx, c.caller.Principal.Org)
	if err != nil {
		return nil, fmt.Errorf("usage: %w", err)
	}
	out.Left = u.CreditsLeft
	return out, nil
}
