package query

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Contact discovery limits (spec: Contacts, Limits).
const (
	MaxPersonaIDs          = 10
	MinContactRecords      = 20
	MaxContactRecords      = 10_000
	DefaultContactRecords  = 100
	MaxCompaniesLimit      = 10_000
	DefaultPerCompany      = 5
	MaxPerCompany          = 100
	maxContactListItems    = 100
	maxContactTextChars    = 4000
	maxContactNameChars    = 200
	maxContactTitleEntries = 50
)

// ContactParams names every parameter contact discovery accepts (the JSON
// body of POST /v1/contacts/discover, and the query string of GET
// /v1/contacts and GET /v1/contacts/count). revenue_range and revenue are
// the deprecated revenue filter: accepted and ignored.
var ContactParams = ContactTable.Names()

// ContactDiscover is a validated contact discovery request.
type ContactDiscover struct {
	PersonaIDs             []int64
	ICPPrompt, ICPText     string
	Domains                []string
	InclusionQueryIDs      []string
	ExclusionQueryIDs      []string
	Seniority              []string
	NegateSeniority        []string
	Department             []string
	NegateDepartment       []string
	Skills                 []string
	Name                   string
	Title, NegateTitle     []TitleTerm
	Summary, NegateSummary string
	PersonCountry          []string
	NegatePersonCountry    []string
	PersonState            []string
	HasEmail, EmailValid   bool
	HasPhone, HasMobile    bool
	HasLinkedIn            bool
	MinConnections         int
	JobFrom, JobTo         string
	Industry, NegateInd    []string
	Country, NegateCountry []string
	State, NegateState     []string
	Employees              *IntRange
	RevenueIgnored         bool // the deprecated revenue parameter was given
	MaxRecords             int  // 0 when max_companies is used
	MaxCompanies           int
	Offset                 int
	PerCompany             int
	IncludeSearchContacts  bool
	Consensus              int
}

// Similarity reports whether contacts rank by vector (similarity mode).
func (c *ContactDiscover) Similarity() bool {
	return len(c.PersonaIDs) > 0 || c.ICPText != "" || c.ICPPrompt != "" || c.Summary != ""
}

// ParseContactBody validates a POST /v1/contacts/discover JSON body. Each
// field must have the JSON type ContactTable declares (an array field may
// also be a single item); a wrong type is refused, never coerced. A body
// that is not a JSON object is a 400, every other problem a 422.
func ParseContactBody(body []byte) (ContactDiscover, error) {
	if len(bytes.TrimSpace(body)) == 0 {
		return parseContacts(url.Values{})
	}
	raw := map[string]json.RawMessage{}
	if err := json.Unmarshal(body, &raw); err != nil {
		return ContactDiscover{}, &Error{Status: http.StatusBadRequest, Params: []ParamError{{Param: "body", Rule: "must be a JSON object: " + err.Error()}}}
	}
	v := url.Values{}
	var errs []ParamError
	for k, m := range raw {
		sp, ok := ContactTable.Lookup(k)
		if !ok {
			v[k] = []string{""} // reported as unknown by parseContacts
			continue
		}
		vals, err := jsonValues(sp, m)
		if err != nil {
			errs = append(errs, ParamError{Param: k, Rule: err.Error()})
			continue
		}
		if vals != nil {
			v[k] = vals
		}
	}
	slices.SortFunc(errs, func(a, b ParamError) int { return strings.Compare(a.Param, b.Param) })
	d, err := parseContacts(v)
	if len(errs) > 0 {
		qe, _ := err.(*Error)
		if qe == nil {
			qe = &Error{Status: http.StatusUnprocessableEntity}
		}
		qe.Params = append(errs, qe.Params...)
		return ContactDiscover{}, qe
	}
	return d, err
}

// jsonValues turns a JSON value into parameter strings after checking it
// has the declared type: a scalar is one value, an array (for an array
// parameter) several, null none.
func jsonValues(sp Param, m json.RawMessage) ([]string, error) {
	var x any
	dec := json.NewDecoder(bytes.NewReader(m))
	dec.UseNumber()
	if err := dec.Decode(&x); err != nil {
		return nil, err
	}
	want := "a " + string(sp.Type)
	if sp.Type == Integer {
		want = "an integer"
	}
	if sp.Array {
		want += " or an array of them"
	}
	scalar := func(x any) (string, bool) {
		switch t := x.(type) {
		case string:
			return t, sp.Type == String
		case json.Number:
			_, err := strconv.ParseInt(t.String(), 10, 64)
			return t.String(), sp.Type == Integer && err == nil
		case bool:
			return strconv.FormatBool(t), sp.Type == Boolean
		}
		return "", false
	}
	switch t := x.(type) {
	case nil:
		return nil, nil
	case []any:
		if !sp.Array {
			return nil, fmt.Errorf("must be %s, not an array", want)
		}
		out := make([]string, 0, len(t))
		for _, e := range t {
			s, ok := scalar(e)
			if !ok {
				return nil, fmt.Errorf("must be %s", want)
			}
			out = append(out, s)
		}
		return out, nil
	default:
		s, ok := scalar(x)
		if !ok {
			return nil, fmt.Errorf("must be %s", want)
		}
		return []string{s}, nil
	}
}

// ParseContactQuery validates the query-string form (GET /v1/contacts,
// GET /v1/contacts/count): the same vocabulary, arrays repeated.
func ParseContactQuery(v url.Values) (ContactDiscover, error) { return parseContacts(v) }

func parseContacts(v url.Values) (ContactDiscover, error) {
	p := newParams(v, ContactTable)
	var d ContactDiscover
	for _, s := range p.list("persona_id") {
		id, err := strconv.ParseInt(s, 10, 64)
		if err != nil || id < int64(p.spec("persona_id").Min) {
			p.fail("persona_id", s, "must be a positive integer")
			continue
		}
		if !slices.Contains(d.PersonaIDs, id) {
			d.PersonaIDs = append(d.PersonaIDs, id)
		}
	}
	d.ICPPrompt = p.text("icp_prompt")
	d.ICPText = p.text("icp_text")
	d.Domains = p.domains("domain")
	d.InclusionQueryIDs = p.list("inclusion_query_id")
	d.ExclusionQueryIDs = p.list("exclusion_query_id")

	d.Seniority = p.enum("seniority", strings.ToLower)
	d.NegateSeniority = p.enum("negate_seniority", strings.ToLower)
	d.Department = p.department("department")
	d.NegateDepartment = p.department("negate_department")
	for _, s := range p.list("skills") {
		d.Skills = appendNew(d.Skills, strings.ToLower(s))
	}
	d.Name = p.text("name")
	d.Title = p.titles("title")
	d.NegateTitle = p.titles("negate_title")
	d.Summary = p.text("summary")
	d.NegateSummary = p.text("negate_summary")
	d.PersonCountry = p.countries("person_country")
	d.NegatePersonCountry = p.countries("negate_person_country")
	d.PersonState = p.states("person_state", d.PersonCountry)

	d.HasEmail = p.boolean("has_email")
	d.EmailValid = p.boolean("email_validated")
	d.HasPhone = p.boolean("has_phone")
	d.HasMobile = p.boolean("has_mobile")
	d.HasLinkedIn = p.boolean("has_linkedin")
	d.MinConnections, _ = p.integer("min_connections")
	d.JobFrom, d.JobTo = p.dateRange("jobstart_date")

	d.Industry = p.enum("filter_industry", industryKey)
	d.NegateInd = p.enum("negate_filter_industry", industryKey)
	d.Country = p.countries("filter_country")
	d.NegateCountry = p.countries("negate_filter_country")
	d.State = p.states("filter_state", d.Country)
	d.NegateState = p.states("negate_filter_state", d.Country)
	d.Employees = p.intRange("employee_range")
	for _, name := range []string{"revenue_range", "revenue"} {
		if _, ok := p.scalar(name); ok {
			d.RevenueIgnored = true
		}
	}

	_, recordsGiven := v["max_records"]
	_, companiesGiven := v["max_companies"]
	if recordsGiven && companiesGiven {
		p.fail("max_companies", "", "give max_records or max_companies, not both")
	}
	d.MaxRecords, _ = p.integer("max_records")
	d.MaxCompanies, _ = p.integer("max_companies")
	if companiesGiven {
		d.MaxRecords = 0
	}
	d.Offset, _ = p.integer("offset")
	d.PerCompany, _ = p.integer("results_by_company")
	if d.PerCompany != 0 {
		d.Offset = 0 // the spec: any non-zero results_by_company forces offset to 0
	}
	d.IncludeSearchContacts = p.boolean("include_search_contacts")
	d.Consensus, _ = p.integer("consensus")

	if err := p.err(); err != nil {
		return ContactDiscover{}, err
	}
	return d, nil
}

// department accepts only the 15 canonical values, exactly.
func (p *params) department(name string) []string {
	var out []string
	allowed := p.spec(name).Enum
	for _, s := range p.list(name) {
		if !slices.Contains(allowed, s) {
			p.fail(name, s, "must be one of the canonical departments (exact, case-sensitive): %s", strings.Join(allowed, ", "))
			continue
		}
		out = appendNew(out, s)
	}
	return out
}

func (p *params) titles(name string) []TitleTerm {
	items := p.list(name)
	if len(items) == 0 {
		return nil
	}
	terms, err := ParseTitles(items)
	if err != nil {
		p.fail(name, "", "%v", err)
		return nil
	}
	return terms
}
