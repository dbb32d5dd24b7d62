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

	"github.com/openprospect/prospectd/record"
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
var ContactParams = []string{
	"persona_id", "icp_prompt", "icp_text", "domain", "inclusion_query_id", "exclusion_query_id",
	"seniority", "negate_seniority", "department", "negate_department", "skills", "name", "title", "negate_title",
	"summary", "negate_summary", "person_country", "negate_person_country", "person_state",
	"has_email", "email_validated", "has_phone", "has_mobile", "has_linkedin", "min_connections", "jobstart_date",
	"filter_industry", "negate_filter_industry", "filter_country", "negate_filter_country", "filter_state",
	"negate_filter_state", "employee_range", "revenue_range", "revenue",
	"max_records", "max_companies", "offset", "results_by_company", "include_search_contacts", "consensus",
}

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

// ParseContactBody validates a POST /v1/contacts/discover JSON body.
// Arrays may also be given as a single value.
func ParseContactBody(body []byte) (ContactDiscover, error) {
	raw := map[string]json.RawMessage{}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if len(bytes.TrimSpace(body)) == 0 {
		return parseContacts(url.Values{})
	}
	if err := dec.Decode(&raw); err != nil {
		return ContactDiscover{}, &Error{Status: http.StatusBadRequest, Params: []ParamError{{Param: "body", Rule: "must be a JSON object: " + err.Error()}}}
	}
	v := url.Values{}
	var errs []ParamError
	for k, m := range raw {
		vals, err := jsonValues(m)
		if err != nil {
			errs = append(errs, ParamError{Param: k, Rule: err.Error()})
			continue
		}
		if vals != nil {
			v[k] = vals
		}
	}
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

// jsonValues turns a JSON value into parameter strings: a string, number
// or boolean is one value, an array of them several, null none.
func jsonValues(m json.RawMessage) ([]string, error) {
	var x any
	dec := json.NewDecoder(bytes.NewReader(m))
	dec.UseNumber()
	if err := dec.Decode(&x); err != nil {
		return nil, err
	}
	scalar := func(x any) (string, error) {
		switch t := x.(type) {
		case string:
			return t, nil
		case json.Number:
			return t.String(), nil
		case bool:
			return strconv.FormatBool(t), nil
		}
		return "", fmt.Errorf("must be a string, number, boolean or an array of them")
	}
	switch t := x.(type) {
	case nil:
		return nil, nil
	case []any:
		out := make([]string, 0, len(t))
		for _, e := range t {
			s, err := scalar(e)
			if err != nil {
				return nil, err
			}
			out = append(out, s)
		}
		return out, nil
	default:
		s, err := scalar(x)
		if err != nil {
			return nil, err
		}
		return []string{s}, nil
	}
}

// ParseContactQuery validates the query-string form (GET /v1/contacts,
// GET /v1/contacts/count): the same vocabulary, arrays repeated.
func ParseContactQuery(v url.Values) (ContactDiscover, error) { return parseContacts(v) }

func parseContacts(v url.Values) (ContactDiscover, error) {
	p := newParams(v)
	var d ContactDiscover
	var badID []string
	for _, s := range p.list("persona_id", true, MaxPersonaIDs) {
		id, err := strconv.ParseInt(s, 10, 64)
		if err != nil || id <= 0 {
			badID = append(badID, s)
			continue
		}
		if !slices.Contains(d.PersonaIDs, id) {
			d.PersonaIDs = append(d.PersonaIDs, id)
		}
	}
	d.ICPPrompt = p.text("icp_prompt", 1, MaxPromptChars)
	d.ICPText = p.text("icp_text", 1, maxContactTextChars)
	d.Domains = p.domains("domain", maxContactListItems)
	d.InclusionQueryIDs = p.list("inclusion_query_id", true, MaxQueryIDs)
	d.ExclusionQueryIDs = p.list("exclusion_query_id", true, MaxQueryIDs)

	d.Seniority = p.enum("seniority", record.Seniorities, strings.ToLower)
	d.NegateSeniority = p.enum("negate_seniority", record.Seniorities, strings.ToLower)
	d.Department = p.department("department")
	d.NegateDepartment = p.department("negate_department")
	for _, s := range p.list("skills", false, maxContactListItems) {
		d.Skills = appendNew(d.Skills, strings.ToLower(s))
	}
	d.Name = p.text("name", 2, maxContactNameChars)
	d.Title = p.titles("title")
	d.NegateTitle = p.titles("negate_title")
	d.Summary = p.text("summary", 3, maxContactTextChars)
	d.NegateSummary = p.text("negate_summary", 3, maxContactTextChars)
	d.PersonCountry = p.countries("person_country")
	d.NegatePersonCountry = p.countries("negate_person_country")
	d.PersonState = p.states("person_state", d.PersonCountry)

	d.HasEmail = p.boolean("has_email", false)
	d.EmailValid = p.boolean("email_validated", false)
	d.HasPhone = p.boolean("has_phone", false)
	d.HasMobile = p.boolean("has_mobile", false)
	d.HasLinkedIn = p.boolean("has_linkedin", false)
	d.MinConnections, _ = p.integer("min_connections", 0, 1<<31-1, 0)
	d.JobFrom, d.JobTo = p.dateRange("jobstart_date")

	d.Industry = p.enum("filter_industry", record.Industries, industryKey)
	d.NegateInd = p.enum("negate_filter_industry", record.Industries, industryKey)
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
	d.MaxRecords, _ = p.integer("max_records", MinContactRecords, MaxContactRecords, DefaultContactRecords)
	d.MaxCompanies, _ = p.integer("max_companies", 1, MaxCompaniesLimit, 0)
	if companiesGiven {
		d.MaxRecords = 0
	}
	d.Offset, _ = p.integer("offset", 0, MaxContactRecords, 0)
	d.PerCompany, _ = p.integer("results_by_company", 0, MaxPerCompany, DefaultPerCompany)
	if d.PerCompany != 0 {
		d.Offset = 0 // the spec: any non-zero results_by_company forces offset to 0
	}
	d.IncludeSearchContacts = p.boolean("include_search_contacts", false)
	d.Consensus, _ = p.integer("consensus", 1, MaxConsensus, 1)

	err := p.err(ContactParams)
	if len(badID) > 0 {
		// The spec: a non-integer persona_id is a 400.
		e := &Error{Status: http.StatusBadRequest}
		for _, b := range badID {
			e.Params = append(e.Params, ParamError{Param: "persona_id", Rule: "must be a positive integer", Value: b})
		}
		if qe, ok := err.(*Error); ok {
			e.Params = append(e.Params, qe.Params...)
		}
		return ContactDiscover{}, e
	}
	if err != nil {
		return ContactDiscover{}, err
	}
	return d, nil
}

// department accepts only the 15 canonical values, exactly.
func (p *params) department(name string) []string {
	var out []string
	for _, s := range p.list(name, false, maxContactListItems) {
		if !record.IsDepartment(s) {
			p.fail(name, s, "must be one of the canonical departments (exact, case-sensitive): %s", strings.Join(record.Departments, ", "))
			continue
		}
		out = appendNew(out, s)
	}
	return out
}

func (p *params) titles(name string) []TitleTerm {
	items := p.list(name, false, maxContactTitleEntries)
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
