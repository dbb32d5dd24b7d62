package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/namematch"
	"github.com/openprospect/prospectd/query"
	"github.com/openprospect/prospectd/record"
	"github.com/openprospect/prospectd/record/domain"
	"github.com/openprospect/prospectd/record/geo"
	"github.com/openprospect/prospectd/store"
)

// catalog is every tool. A new capability adds one entry: the REST
// operation whose input it shares (or an input type), readOnly or an
// estimate, and the call into the capability's service.
func (s *Server) catalog() []*tool {
	return []*tool{
		{name: "get_company", title: "Company profile", op: "get-bizdata",
			description: "The profile of one company by domain or URL (normalized to the registrable root domain). Bills one company record (free when retrieved in the last 90 days).",
			estimate:    s.estimateCompany, run: s.getCompany},
		{name: "discover_companies", title: "Discover companies", op: "discover",
			description: "Finds companies by lookalike domains, ICP text, a natural-language icp_prompt, phrase matches or filters, ranked by similarity. Arrays are JSON arrays. Bills each company returned.",
			estimate:    s.estimateDiscover, run: s.discover},
		{name: "count_companies", title: "Count companies", op: "count", readOnly: true,
			description: "Takes the arguments of discover_companies and returns how many companies match. Free.",
			run:         s.countCompanies},
		{name: "discover_contacts", title: "Discover contacts", op: "contacts-discover",
			description: "Searches contacts by similarity (persona_id, icp_text, icp_prompt), by domain or by filters, grouped by employer with the employer's email pattern. Takes the parameters of POST /v1/contacts/discover. Bills each company group and each contact returned.",
			estimate:    s.estimateContacts, run: s.discoverContacts},
		{name: "count_contacts", title: "Count contacts", op: "contacts-count", readOnly: true,
			description: "Takes the contact discovery filters (as discover_contacts) and returns how many contacts match. Free.",
			run:         s.countContacts},
		{name: "lookup_contact", title: "Look up a contact", op: "contacts-lookup",
			description: "One contact by exactly one of persona_id, linkedin (profile URL or handle) or email. Bills one contact.",
			estimate:    s.estimateLookup, run: s.lookupContact},
		{name: "segment_companies", title: "Segment a list of domains", input: SegmentArgs{},
			description: "Clusters up to 10,000 domains into segments (a task). Returns a task_id; with a progress token the call waits for the result, reporting progress. Bills each segmented company like a profile.",
			estimate:    s.estimateSegment, run: s.segment},
		{name: "match_companies", title: "Match company names to domains", input: CompanyMatchArgs{},
			description: "Matches up to 10,000 company names (with optional country, state, city, zip, phone) to domains (a task). Returns a task_id; with a progress token the call waits. Bills each matched company.",
			estimate:    s.estimateCompanyMatch, run: s.matchCompanies},
		{name: "match_contacts", title: "Match people to contacts", op: "contacts-bulk-match",
			description: "Matches 1-500 people (name or email, with company or domain) to contacts (a task). Returns a task_id; with a progress token the call waits. With enrich, bills each matched contact.",
			estimate:    s.estimateContactMatch, run: s.matchContacts},
		{name: "append_datasets", title: "Append datasets to domains", input: AppendArgs{},
			description: "The REST append for a list of domains: one row per domain with the chosen datasets (bizdata, domain_status, redirects, growth, vendors, subdomains). Bills bizdata per indexed domain and other datasets per row with data.",
			estimate:    s.estimateAppend, run: s.appendDatasets},
		{name: "get_task_status", title: "Task status", input: TaskArgs{}, readOnly: true,
			description: "Status, progress (0-100) and, when completed, the results of a task of the caller's organization. With a progress token the call waits for the task, reporting progress.",
			run:         s.taskStatus},
		{name: "get_usage", title: "Plan and credit usage", readOnly: true,
			description: "The organization's plan, price, billing period, credits used and left, and records billed by kind.",
			run:         s.usage},
	}
}

// billed is a result that knows the credits it cost (for the spending
// cap).
type billed struct {
	Credits int `json:"credits_billed"`
	Left    int `json:"credits_remaining"`
}

func (b billed) credits() int { return b.Credits }

func (s *Server) bill(ctx context.Context, c *call, endpoint string, charges []store.Charge) (account.Covered[store.Charge], error) {
	r, err := account.BillRecords(ctx, s.cfg.Biller, c.caller.Principal.Org, endpoint, charges, func(ch store.Charge) []store.Charge { return []store.Charge{ch} })
	if errors.Is(err, account.ErrNoCredits) {
		return r, refuse(http.StatusPaymentRequired, "no credits left this period (%d used); records retrieved in the last 90 days stay free; see get_usage", r.Used)
	}
	return r, err
}

func companyCharge(d string) store.Charge { return store.Charge{Kind: store.KindCompany, Key: d} }
func contactCharge(id int64) store.Charge {
	return store.Charge{Kind: store.KindContact, Key: strconv.FormatInt(id, 10)}
}

// --- company profile

func (s *Server) company(ctx context.Context, c *call) (record.Company, error) {
	raw, err := c.args.str("domain")
	if err != nil {
		return record.Company{}, err
	}
	if err := onlyArgs(c.args, "domain"); err != nil {
		return record.Company{}, err
	}
	if raw == "" {
		return record.Company{}, &toolError{Status: http.StatusUnprocessableEntity, Title: "Unprocessable Entity", Detail: "domain: required",
			Errors: []paramError{{Location: "domain", Message: "required"}}}
	}
	d, err := domain.Normalize(raw)
	if err != nil {
		return record.Company{}, &toolError{Status: http.StatusUnprocessableEntity, Title: "Unprocessable Entity", Detail: fmt.Sprintf("domain: %v", err),
			Errors: []paramError{{Location: "domain", Message: err.Error(), Value: raw}}}
	}
	got, err := s.cfg.Companies.Engine.GetCompanies(ctx, []string{d})
	if err != nil {
		return record.Company{}, fmt.Errorf("get company: %w", err)
	}
	if len(got) == 0 {
		return record.Company{}, refuse(http.StatusNotFound, "domain: no company profile for %q", d)
	}
	return got[0], nil
}

func (s *Server) estimateCompany(ctx context.Context, c *call) (Estimate, error) {
	if _, err := s.company(ctx, c); err != nil {
		return Estimate{}, err
	}
	return Estimate{Records: 1, Credits: 1}, nil
}

// CompanyResult is get_company's answer.
type CompanyResult struct {
	Company record.Profile `json:"company"`
	billed
}

func (s *Server) getCompany(ctx context.Context, c *call) (any, error) {
	co, err := s.company(ctx, c)
	if err != nil {
		return nil, err
	}
	r, err := s.bill(ctx, c, "bizdata", []store.Charge{companyCharge(co.Domain)})
	if err != nil {
		return nil, err
	}
	return CompanyResult{Company: record.ProfileOf(co), billed: billed{r.Billed, r.Left}}, nil
}

// --- discovery

func (s *Server) parseDiscover(c *call) (query.Discover, error) {
	v, err := c.args.values()
	if err != nil {
		return query.Discover{}, err
	}
	d, err := query.ParseDiscover(url.Values(v))
	if err != nil {
		return d, queryError(err, "")
	}
	return d, nil
}

func (s *Server) runDiscover(ctx context.Context, c *call) (query.Discover, query.Result, error) {
	d, err := s.parseDiscover(c)
	if err != nil {
		return d, query.Result{}, err
	}
	res, err := s.cfg.Companies.Discover(ctx, d)
	if err != nil {
		if _, ok := err.(*query.Error); ok {
			return d, res, queryError(err, "")
		}
		return d, res, err
	}
	return d, res, nil
}

func (s *Server) estimateDiscover(ctx context.Context, c *call) (Estimate, error) {
	_, res, err := s.runDiscover(ctx, c)
	if err != nil {
		return Estimate{}, err
	}
	n := len(res.Matches)
	return Estimate{Records: n, Credits: n, Note: fmt.Sprintf("%d companies match in all; this page returns %d", res.Total, n)}, nil
}

// DiscoveredCompany is a profile with the discovery fields.
type DiscoveredCompany struct {
	record.Profile
	Similarity   float64  `json:"similarity"`
	Vendors      []string `json:"vendors,omitempty"`
	SiteText     *string  `json:"site_text,omitempty"`
	MatchReasons []string `json:"match_reasons,omitempty"`
}

// DiscoverResult is discover_companies' answer.
type DiscoverResult struct {
	Companies []DiscoveredCompany `json:"companies"`
	Applied   query.Applied       `json:"applied_filters"`
	billed
}

func (s *Server) discover(ctx context.Context, c *call) (any, error) {
	d, res, err := s.runDiscover(ctx, c)
	if err != nil {
		return nil, err
	}
	charges := make([]store.Charge, len(res.Matches))
	for i, m := range res.Matches {
		charges[i] = companyCharge(m.Company.Domain)
	}
	r, err := s.bill(ctx, c, "discover", charges)
	if err != nil {
		return nil, err
	}
	out := DiscoverResult{Applied: res.Applied, billed: billed{r.Billed, r.Left}, Companies: []DiscoveredCompany{}}
	for i, m := range res.Matches {
		if !r.Mask[i] {
			continue
		}
		dc := DiscoveredCompany{Profile: record.ProfileOf(m.Company), Similarity: m.Similarity, MatchReasons: m.Reasons}
		if len(d.TechStack) > 0 || len(res.Applied.TechStack) > 0 {
			dc.Vendors = record.List(m.Company.Vendors)
		}
		if d.Retrieval {
			t := m.Company.SiteText
			dc.SiteText = &t
		}
		out.Companies = append(out.Companies, dc)
	}
	return out, nil
}

// CountResult is a count tool's answer.
type CountResult struct {
	Count   int            `json:"count"`
	Applied *query.Applied `json:"applied_filters,omitempty"`
}

func (s *Server) countCompanies(ctx context.Context, c *call) (any, error) {
	if err := paid(c.caller); err != nil {
		return nil, err
	}
	d, err := s.parseDiscover(c)
	if err != nil {
		return nil, err
	}
	n, applied, err := s.cfg.Companies.Count(ctx, d)
	if err != nil {
		if _, ok := err.(*query.Error); ok {
			return nil, queryError(err, "")
		}
		return nil, err
	}
	return CountResult{Count: n, Applied: &applied}, nil
}

// --- contacts

func (s *Server) runContacts(ctx context.Context, c *call) (query.ContactResults, error) {
	d, err := query.ParseContactBody(c.raw)
	if err != nil {
		return query.ContactResults{}, queryError(err, "")
	}
	res, err := s.cfg.Contacts.Discover(ctx, d)
	if _, ok := err.(*query.Error); ok {
		return res, queryError(err, "")
	}
	return res, err
}

func contactCharges(groups []query.ContactGroup) []store.Charge {
	var out []store.Charge
	for _, g := range groups {
		out = append(out, companyCharge(g.Domain))
		for _, m := range g.Contacts {
			out = append(out, contactCharge(m.Contact.PersonaID))
		}
	}
	return out
}

func (s *Server) estimateContacts(ctx context.Context, c *call) (Estimate, error) {
	res, err := s.runContacts(ctx, c)
	if err != nil {
		return Estimate{}, err
	}
	n := len(contactCharges(res.Groups))
	return Estimate{Records: n, Credits: n, Note: fmt.Sprintf("%d companies and %d contacts on this page; %d contacts at %d companies match in all",
		len(res.Groups), n-len(res.Groups), res.TotalContacts, res.TotalDomains)}, nil
}

// ContactGroup is a company group of discover_contacts.
type ContactGroup struct {
	Domain                 string              `json:"domain"`
	Name                   string              `json:"name"`
	Employees              string              `json:"employees"`
	RevenueRange           string              `json:"revenue_range"`
	IndustryGroups         map[string]float64  `json:"industry_groups"`
	Country                string              `json:"country"`
	State                  string              `json:"state"`
	EmailPattern           string              `json:"email_pattern"`
	EmailPatternConfidence float64             `json:"email_pattern_confidence"`
	EmailPatternGuess      string              `json:"email_pattern_guess"`
	Contacts               []record.ContactOut `json:"contacts"`
}

// ContactsResult is discover_contacts' answer; groups are best first.
type ContactsResult struct {
	Groups        []ContactGroup `json:"groups"`
	TotalContacts int            `json:"total_contacts"`
	TotalDomains  int            `json:"total_domains"`
	Notes         []string       `json:"notes,omitempty"`
	billed
}

func (s *Server) discoverContacts(ctx context.Context, c *call) (any, error) {
	res, err := s.runContacts(ctx, c)
	if err != nil {
		return nil, err
	}
	r, err := s.bill(ctx, c, "contacts_discover", contactCharges(res.Groups))
	if err != nil {
		return nil, err
	}
	out := ContactsResult{TotalContacts: res.TotalContacts, TotalDomains: res.TotalDomains, Notes: res.Notes,
		billed: billed{r.Billed, r.Left}, Groups: []ContactGroup{}}
	k := 0
	for _, g := range res.Groups {
		companyCovered := r.Mask[k]
		k++
		og := ContactGroup{Domain: g.Domain, Name: g.Name, Employees: g.Employees, RevenueRange: g.RevenueRange,
			IndustryGroups: record.Scores(g.IndustryGroups), Country: g.Country, State: g.State,
			EmailPattern: g.EmailPattern, EmailPatternConfidence: g.EmailPatternConfidence, EmailPatternGuess: g.EmailPatternGuess,
			Contacts: []record.ContactOut{}}
		for _, m := range g.Contacts {
			if r.Mask[k] && companyCovered {
				og.Contacts = append(og.Contacts, record.ContactOf(m.Contact, m.Similarity))
			}
			k++
		}
		if companyCovered && len(og.Contacts) > 0 {
			out.Groups = append(out.Groups, og)
		}
	}
	return out, nil
}

func (s *Server) countContacts(ctx context.Context, c *call) (any, error) {
	if err := paid(c.caller); err != nil {
		return nil, err
	}
	v, err := c.args.values()
	if err != nil {
		return nil, err
	}
	d, err := query.ParseContactQuery(url.Values(v))
	if err != nil {
		return nil, queryError(err, "")
	}
	n, err := s.cfg.Contacts.Count(ctx, d)
	if _, ok := err.(*query.Error); ok {
		return nil, queryError(err, "")
	}
	if err != nil {
		return nil, err
	}
	return CountResult{Count: n}, nil
}

var linkedInHandle = regexp.MustCompile(`^[A-Za-z0-9\-_%.]{3,100}$`)

// lookupArgs reads exactly one of persona_id, linkedin or email, with the
// REST route's rules.
func (s *Server) lookup(ctx context.Context, c *call) (record.Contact, error) {
	if err := onlyArgs(c.args, "persona_id", "linkedin", "email"); err != nil {
		return record.Contact{}, err
	}
	v, err := c.args.values()
	if err != nil {
		return record.Contact{}, err
	}
	get := func(k string) string {
		if len(v[k]) == 0 {
			return ""
		}
		return strings.TrimSpace(v[k][0])
	}
	pid, li, em := get("persona_id"), get("linkedin"), get("email")
	given := 0
	for _, x := range []string{pid, li, em} {
		if x != "" {
			given++
		}
	}
	if given != 1 {
		return record.Contact{}, refuse(http.StatusUnprocessableEntity, "give exactly one of persona_id, linkedin or email")
	}
	var id int64
	var handle, email string
	switch {
	case pid != "":
		id, err = strconv.ParseInt(pid, 10, 64)
		if err != nil || id <= 0 {
			return record.Contact{}, refuse(http.StatusBadRequest, "persona_id: must be a positive integer")
		}
	case li != "":
		handle = li
		if i := strings.Index(strings.ToLower(handle), "linkedin.com/in/"); i >= 0 {
			handle = strings.Trim(handle[i+len("linkedin.com/in/"):], "/")
			if j := strings.IndexAny(handle, "/?#"); j >= 0 {
				handle = handle[:j]
			}
		} else if strings.Contains(handle, "/") || strings.Contains(handle, ".") && strings.Contains(strings.ToLower(handle), "linkedin") {
			return record.Contact{}, refuse(http.StatusUnprocessableEntity, "linkedin: not a LinkedIn profile URL (https://www.linkedin.com/in/<handle>) or handle")
		}
		if !linkedInHandle.MatchString(handle) {
			return record.Contact{}, refuse(http.StatusUnprocessableEntity, "linkedin: a profile handle has 3-100 letters, digits, '-' or '_'")
		}
		handle = strings.ToLower(handle)
	default:
		email = em
		if !plainEmail(email) {
			return record.Contact{}, refuse(http.StatusUnprocessableEntity, "email: not an email address")
		}
	}
	ct, err := s.cfg.Contacts.Lookup(ctx, id, handle, email)
	if errors.Is(err, query.ErrContactNotFound) {
		return ct, refuse(http.StatusNotFound, "no contact matches")
	}
	return ct, err
}

func plainEmail(s string) bool {
	at := strings.LastIndexByte(s, '@')
	return at > 0 && at < len(s)-1 && !strings.ContainsAny(s, " <>,;")
}

func (s *Server) estimateLookup(ctx context.Context, c *call) (Estimate, error) {
	if _, err := s.lookup(ctx, c); err != nil {
		return Estimate{}, err
	}
	return Estimate{Records: 1, Credits: 1}, nil
}

// LookupResult is lookup_contact's answer: the lookup subset.
type LookupResult struct {
	PersonaID   int64   `json:"persona_id"`
	Name        string  `json:"name"`
	Title       *string `json:"title"`
	Domain      string  `json:"domain"`
	CompanyName string  `json:"company_name"`
	Summary     *string `json:"summary"`
	billed
}

func (s *Server) lookupContact(ctx context.Context, c *call) (any, error) {
	ct, err := s.lookup(ctx, c)
	if err != nil {
		return nil, err
	}
	r, err := s.bill(ctx, c, "contacts_lookup", []store.Charge{contactCharge(ct.PersonaID)})
	if err != nil {
		return nil, err
	}
	return LookupResult{PersonaID: ct.PersonaID, Name: ct.Name, Title: record.OptionalText(ct.Title), Domain: ct.Domain,
		CompanyName: ct.CompanyName, Summary: record.OptionalText(ct.Summary), billed: billed{r.Billed, r.Left}}, nil
}

// onlyArgs refuses arguments other than names, as the REST routes refuse
// unknown parameters.
func onlyArgs(a args, names ...string) error {
	var unknown []string
	for k := range a {
		ok := false
		for _, n := range names {
			ok = ok || k == n
		}
		if !ok {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		te := refuse(http.StatusUnprocessableEntity, "unknown arguments: %s (accepted: %s)", strings.Join(unknown, ", "), strings.Join(names, ", "))
		for _, u := range unknown {
			te.Errors = append(te.Errors, paramError{Location: u, Message: "unknown parameter"})
		}
		return te
	}
	return nil
}

// decode reads the arguments into a Go value, refusing unknown fields.
func decode(c *call, v any) error {
	dec := json.NewDecoder(strings.NewReader(string(c.raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return refuse(http.StatusUnprocessableEntity, "arguments: %v", err)
	}
	return nil
}

// --- tasks

// SegmentArgs are segment_companies' arguments.
type SegmentArgs struct {
	Domains     []string `json:"domains" jsonschema:"Domains or URLs to segment, 1-10,000"`
	MaxSegments int      `json:"max_segments,omitempty" jsonschema:"Most segments, 2-100; chosen by silhouette when omitted"`
}

const maxTaskRows = 10_000

func (s *Server) segmentInput(c *call) (query.SegmentInput, error) {
	var a SegmentArgs
	if err := decode(c, &a); err != nil {
		return query.SegmentInput{}, err
	}
	in := query.SegmentInput{MaxSegments: a.MaxSegments}
	if a.MaxSegments != 0 && (a.MaxSegments < 2 || a.MaxSegments > 100) {
		return in, refuse(http.StatusUnprocessableEntity, "max_segments: must be an integer between 2 and 100")
	}
	if len(a.Domains) == 0 || len(a.Domains) > maxTaskRows {
		return in, refuse(http.StatusUnprocessableEntity, "domains: give 1-%d domains (got %d)", maxTaskRows, len(a.Domains))
	}
	seen := map[string]bool{}
	var bad []string
	for i, v := range a.Domains {
		d, err := domain.Normalize(v)
		if err != nil {
			bad = append(bad, fmt.Sprintf("domains[%d]: %q", i, v))
			continue
		}
		if !seen[d] {
			seen[d] = true
			in.Domains = append(in.Domains, d)
		}
	}
	if len(bad) > 0 {
		if len(bad) > 5 {
			bad = append(bad[:5], fmt.Sprintf("and %d more", len(bad)-5))
		}
		return in, refuse(http.StatusUnprocessableEntity, "not domains: %s", strings.Join(bad, "; "))
	}
	return in, nil
}

func (s *Server) estimateSegment(_ context.Context, c *call) (Estimate, error) {
	in, err := s.segmentInput(c)
	if err != nil {
		return Estimate{}, err
	}
	return Estimate{Records: len(in.Domains), Credits: len(in.Domains), Note: "only active indexed companies are segmented and billed"}, nil
}

func (s *Server) segment(ctx context.Context, c *call) (any, error) {
	in, err := s.segmentInput(c)
	if err != nil {
		return nil, err
	}
	return s.submit(ctx, c, query.KindSegment, in, len(in.Domains))
}

// CompanyMatchArgs are match_companies' arguments.
type CompanyMatchArgs struct {
	Companies          []CompanyName `json:"companies" jsonschema:"1-10,000 companies to match"`
	MinMatchConfidence int           `json:"min_match_confidence,omitempty" jsonschema:"Lowest match confidence, 50-100 (default 50)"`
}

// CompanyName is one company to match.
type CompanyName struct {
	Name    string `json:"name" jsonschema:"Company name"`
	Country string `json:"country,omitempty"`
	State   string `json:"state,omitempty"`
	City    string `json:"city,omitempty"`
	Zip     string `json:"zip,omitempty"`
	Phone   string `json:"phone,omitempty"`
}

func (s *Server) companyMatchInput(c *call) (namematch.BulkMatchInput, error) {
	var a CompanyMatchArgs
	if err := decode(c, &a); err != nil {
		return namematch.BulkMatchInput{}, err
	}
	in := namematch.BulkMatchInput{MinConfidence: 50, Header: []string{"name", "country", "state", "city", "zip", "phone"},
		Name: 0, Country: 1, State: 2, City: 3, Zip: 4, Phone: 5}
	if a.MinMatchConfidence != 0 {
		if a.MinMatchConfidence < 50 || a.MinMatchConfidence > 100 {
			return in, refuse(http.StatusUnprocessableEntity, "min_match_confidence: must be an integer between 50 and 100")
		}
		in.MinConfidence = a.MinMatchConfidence
	}
	if len(a.Companies) == 0 || len(a.Companies) > maxTaskRows {
		return in, refuse(http.StatusUnprocessableEntity, "companies: give 1-%d companies (got %d)", maxTaskRows, len(a.Companies))
	}
	for i, co := range a.Companies {
		if strings.TrimSpace(co.Name) == "" {
			return in, refuse(http.StatusUnprocessableEntity, "companies[%d].name: required", i)
		}
		in.Rows = append(in.Rows, []string{co.Name, co.Country, co.State, co.City, co.Zip, co.Phone})
	}
	return in, nil
}

func (s *Server) estimateCompanyMatch(_ context.Context, c *call) (Estimate, error) {
	in, err := s.companyMatchInput(c)
	if err != nil {
		return Estimate{}, err
	}
	return Estimate{Records: len(in.Rows), Credits: len(in.Rows), Note: "only matched companies are billed"}, nil
}

func (s *Server) matchCompanies(ctx context.Context, c *call) (any, error) {
	in, err := s.companyMatchInput(c)
	if err != nil {
		return nil, err
	}
	return s.submit(ctx, c, namematch.KindBulkMatch, in, len(in.Rows))
}

type contactMatchArgs struct {
	Queries []query.MatchQuery `json:"queries"`
	Enrich  bool               `json:"enrich,omitempty"`
	Limit   int                `json:"limit,omitempty"`
}

// contactMatchInput validates as POST /v1/contacts/bulk-match does.
func (s *Server) contactMatchInput(c *call) (query.ContactMatchInput, error) {
	var a contactMatchArgs
	if err := decode(c, &a); err != nil {
		return query.ContactMatchInput{}, err
	}
	in := query.ContactMatchInput{Enrich: a.Enrich, Limit: a.Limit}
	if in.Limit == 0 {
		in.Limit = 10
	}
	te := refuse(http.StatusUnprocessableEntity, "invalid queries")
	if in.Limit < 1 || in.Limit > 20 {
		te.Errors = append(te.Errors, paramError{Location: "limit", Message: "must be 1-20"})
	}
	if len(a.Queries) < 1 || len(a.Queries) > 500 {
		te.Errors = append(te.Errors, paramError{Location: "queries", Message: fmt.Sprintf("give 1-500 queries (got %d)", len(a.Queries))})
	}
	for i, q := range a.Queries {
		loc := fmt.Sprintf("queries[%d]", i)
		mq := query.MatchQuery{Name: strings.TrimSpace(q.Name), Email: strings.ToLower(strings.TrimSpace(q.Email)), CompanyName: strings.TrimSpace(q.CompanyName)}
		if mq.Name == "" && mq.Email == "" {
			te.Errors = append(te.Errors, paramError{Location: loc, Message: "give a name or an email"})
		}
		if mq.Email != "" && !plainEmail(mq.Email) {
			te.Errors = append(te.Errors, paramError{Location: loc + ".email", Message: "not an email address", Value: q.Email})
		}
		if q.Domain != "" {
			d, err := domain.Normalize(q.Domain)
			if err != nil {
				te.Errors = append(te.Errors, paramError{Location: loc + ".domain", Message: err.Error(), Value: q.Domain})
			}
			mq.Domain = d
		}
		if q.PersonCountry != "" {
			co, ok := geo.LookupCountry(q.PersonCountry)
			if !ok {
				te.Errors = append(te.Errors, paramError{Location: loc + ".person_country", Message: "not an ISO-3166-1 alpha-2 code or country name", Value: q.PersonCountry})
			}
			mq.PersonCountry = co.Code
		}
		in.Queries = append(in.Queries, mq)
	}
	if len(te.Errors) > 0 {
		parts := make([]string, len(te.Errors))
		for i, e := range te.Errors {
			parts[i] = e.Location + ": " + e.Message
		}
		te.Detail = "invalid queries: " + strings.Join(parts, "; ")
		return in, te
	}
	return in, nil
}

func (s *Server) estimateContactMatch(_ context.Context, c *call) (Estimate, error) {
	in, err := s.contactMatchInput(c)
	if err != nil {
		return Estimate{}, err
	}
	if !in.Enrich {
		return Estimate{}, nil // the lookup subset is free
	}
	n := len(in.Queries) * in.Limit
	return Estimate{Records: n, Credits: n, Note: "enriched matches are billed as contacts; at most limit per query"}, nil
}

func (s *Server) matchContacts(ctx context.Context, c *call) (any, error) {
	in, err := s.contactMatchInput(c)
	if err != nil {
		return nil, err
	}
	n := 0
	if in.Enrich {
		n = len(in.Queries) * in.Limit
	}
	return s.submit(ctx, c, query.KindContactMatch, in, n)
}

// TaskResult is a task's status; results when completed.
type TaskResult struct {
	TaskID   string          `json:"task_id"`
	Kind     string          `json:"kind"`
	Status   string          `json:"status"`
	Progress int             `json:"progress"`
	Results  json.RawMessage `json:"results,omitempty"`
	Error    string          `json:"error,omitempty"`
	// reserved counts a submitted task's estimate against the spending
	// cap: it bills later, in the background.
	reserved int
}

func (t TaskResult) credits() int { return t.reserved }

func taskResult(t store.Task) TaskResult {
	out := TaskResult{TaskID: t.ID, Kind: t.Kind, Status: t.Status, Progress: t.Progress, Error: t.Error}
	if t.Status == store.TaskCompleted && len(t.Result) > 0 {
		out.Results = json.RawMessage(t.Result)
	}
	return out
}

func (s *Server) submit(ctx context.Context, c *call, kind string, input any, reserve int) (any, error) {
	t, err := s.cfg.Tasks.Submit(ctx, c.caller.Principal.Org.ID, kind, input)
	if err != nil {
		return nil, fmt.Errorf("submit %s: %w", kind, err)
	}
	out, err := s.await(ctx, c, t)
	out.reserved = reserve
	return out, err
}

// await waits for a task while the client asked for progress (a progress
// token), reporting it, up to TaskWait; otherwise it reports at once.
func (s *Server) await(ctx context.Context, c *call, t store.Task) (TaskResult, error) {
	token := c.req.Params.GetProgressToken()
	if token == nil {
		return taskResult(t), nil
	}
	deadline := time.NewTimer(s.cfg.TaskWait)
	defer deadline.Stop()
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	last := -1
	for {
		if t.Progress != last {
			last = t.Progress
			_ = c.req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: token,
				Progress: float64(t.Progress), Total: 100, Message: fmt.Sprintf("task %s: %s", t.ID, t.Status)})
		}
		if t.Finished() {
			return taskResult(t), nil
		}
		select {
		case <-ctx.Done():
			return TaskResult{}, ctx.Err()
		case <-deadline.C:
			return taskResult(t), nil
		case <-tick.C:
		}
		var err error
		if t, err = s.cfg.TaskState.GetTask(ctx, c.caller.Principal.Org.ID, t.ID); err != nil {
			return TaskResult{}, fmt.Errorf("read task: %w", err)
		}
	}
}

// TaskArgs are get_task_status' arguments.
type TaskArgs struct {
	TaskID string `json:"task_id" jsonschema:"The task_id a task tool returned"`
}

func (s *Server) taskStatus(ctx context.Context, c *call) (any, error) {
	var a TaskArgs
	if err := decode(c, &a); err != nil {
		return nil, err
	}
	if a.TaskID == "" || len(a.TaskID) > 100 {
		return nil, refuse(http.StatusUnprocessableEntity, "task_id: required, at most 100 characters")
	}
	t, err := s.cfg.TaskState.GetTask(ctx, c.caller.Principal.Org.ID, a.TaskID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, refuse(http.StatusNotFound, "task_id: no task %q for this organization", a.TaskID)
	}
	if err != nil {
		return nil, fmt.Errorf("read task: %w", err)
	}
	return s.await(ctx, c, t)
}

// UsageResult is get_usage's answer.
type UsageResult struct {
	Plan           string         `json:"plan"`
	PricePer1K     float64        `json:"price_per_1k_usd"`
	RateMultiplier float64        `json:"rate_limit_multiplier"`
	PeriodStart    time.Time      `json:"period_start"`
	PeriodEnd      time.Time      `json:"period_end"`
	CreditsQuota   int            `json:"credits_quota"`
	CreditsUsed    int            `json:"credits_used"`
	CreditsLeft    int            `json:"credits_left"`
	EstimatedCost  float64        `json:"estimated_cost_usd"`
	RecordsBilled  map[string]int `json:"records_billed"`
	RecordsFree    map[string]int `json:"records_free"`
}

func (s *Server) usage(ctx context.Context, c *call) (any, error) {
	if err := onlyArgs(c.args); err != nil {
		return nil, err
	}
	u, err := s.cfg.Biller.Usage(ctx, c.caller.Principal.Org)
	if err != nil {
		return nil, fmt.Errorf("usage: %w", err)
	}
	return UsageResult{Plan: string(u.Plan), PricePer1K: u.Config.PricePer1K, RateMultiplier: u.Config.RateMultiplier,
		PeriodStart: u.PeriodStart, PeriodEnd: u.PeriodEnd, CreditsQuota: u.Config.Credits, CreditsUsed: u.CreditsUsed,
		CreditsLeft: u.CreditsLeft, EstimatedCost: u.EstimatedCost, RecordsBilled: u.RecordsBilled, RecordsFree: u.RecordsFree}, nil
}
