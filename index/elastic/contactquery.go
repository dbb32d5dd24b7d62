package elastic

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/textfold"
	"github.com/openprospect/prospectd/record"
)

// This file is the contact side of query.go: the stored contact document,
// the translation of contact filters, the request bodies of the contact
// calls, and the grouping of ranked contacts by employer. Like the company
// side it is pure (no I/O) and pinned by testdata/contact_*.golden.

// contactDoc is the stored contact: the record's own JSON fields at the top
// level (so _source decodes straight back into record.Contact), plus the
// fields derived for filtering and sorting, and the vector. The derived
// values are computed here exactly as the embedded engine computes its
// postings (index/embedded/contacts.go), so both engines match the same
// contacts.
type contactDoc struct {
	record.Contact
	// Connections shadows the record's omitempty field: every document has
	// the value, so a range from 0 matches contacts without connections and
	// the filter-mode sort sees 0 rather than a missing value. Clamped to
	// the integer mapping (the embedded engine ranks by the same clamp).
	Connections   int    `json:"connections"`
	NameFolded    string `json:"name_folded,omitempty"`
	SeniorityRank int    `json:"seniority_rank"`
	// SkillTerms, EmailLC and LinkedInHandle are the lower-cased values
	// Terms filters match; the record keeps the original spelling.
	SkillTerms     []string  `json:"skill_terms,omitempty"`
	EmailLC        string    `json:"email_lc,omitempty"`
	LinkedInHandle string    `json:"linkedin_handle,omitempty"`
	HasEmail       bool      `json:"has_email"`
	HasPhone       bool      `json:"has_phone"`
	HasMobile      bool      `json:"has_mobile"`
	HasLinkedIn    bool      `json:"has_linkedin"`
	HasJobStart    bool      `json:"has_jobstart"`
	HasRevenue     bool      `json:"has_revenue"`
	Vector         []float32 `json:"vector"`
}

func newContactDoc(d index.ContactDoc) contactDoc {
	c := d.Contact
	doc := contactDoc{
		Contact:       c,
		Connections:   max(math.MinInt32, min(c.Connections, math.MaxInt32)),
		NameFolded:    textfold.Words(c.Name),
		SeniorityRank: seniorityRank(c.Seniority),
		SkillTerms:    lowerAll(c.Skills),
		EmailLC:       strings.ToLower(c.Email),
		HasEmail:      c.Email != "",
		HasPhone:      len(c.Phones) > 0,
		HasJobStart:   c.JobStartDate != "",
		HasRevenue:    c.RevenueRange != "",
		Vector:        d.Vector,
	}
	for _, p := range c.Phones {
		if record.PhoneType(p) == record.PhoneMobile {
			doc.HasMobile = true
			break
		}
	}
	for _, u := range c.SocialURLs {
		if record.SocialNetworkOf(u) == "linkedin" {
			doc.HasLinkedIn = true
			if doc.LinkedInHandle == "" {
				doc.LinkedInHandle = linkedInHandle(u)
			}
		}
	}
	return doc
}

// seniorityRank orders seniorities for the filter-mode sort: executive 0,
// then record.Seniorities in order; unknown last.
func seniorityRank(s string) int {
	if i := slices.Index(record.Seniorities, s); i >= 0 {
		return i
	}
	return len(record.Seniorities)
}

func lowerAll(in []string) []string {
	out := make([]string, 0, len(in))
	for _, s := range in {
		if s = strings.ToLower(strings.TrimSpace(s)); s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// linkedInHandle is the lower-cased profile handle of a LinkedIn URL.
func linkedInHandle(u string) string {
	i := strings.Index(strings.ToLower(u), "/in/")
	if i < 0 {
		return ""
	}
	h := u[i+4:]
	if j := strings.IndexAny(h, "/?#"); j >= 0 {
		h = h[:j]
	}
	return strings.ToLower(h)
}

// Mapped field names (mappings/contacts-v1.json) of the contact fields.
const (
	contactDomainField      = "domain"
	personaIDField          = "persona_id"
	seniorityRankField      = "seniority_rank"
	connectionsField        = "connections"
	jobStartField           = "jobstart_date"
	contactTitleField       = "title"
	nameFoldedField         = "name_folded"
	emailValidatedField     = "email_validated"
	companiesAgg            = "companies"
	cardinalityPrecision    = 40000
	contactHasEmailField    = "has_email"
	contactHasRevenueField  = "has_revenue"
	contactCompanyNameField = "company_name"
)

var contactTermsFields = map[index.Field]string{
	index.DomainField:        contactDomainField,
	index.IndustryField:      "industry",
	index.CountryField:       "company_country",
	index.StateField:         "company_state",
	index.EmployeesField:     "employees",
	index.RevenueField:       "revenue_range",
	index.PersonaIDField:     personaIDField,
	index.SeniorityField:     "seniority",
	index.DepartmentField:    "department",
	index.SkillField:         "skill_terms",
	index.PersonCountryField: "country",
	index.PersonStateField:   "state",
	index.ContactEmailField:  "email_lc",
	index.LinkedInField:      "linkedin_handle",
}

// contactLowerFields hold lower-cased values; their filter values are
// lower-cased too.
var contactLowerFields = []index.Field{index.SkillField, index.ContactEmailField, index.LinkedInField}

// contactFlagFields are the boolean flags Exists tests.
// EmailValidatedField is absent: it is has_email AND email_validated.
var contactFlagFields = map[index.Field]string{
	index.ContactEmailField: contactHasEmailField,
	index.PhoneField:        "has_phone",
	index.MobileField:       "has_mobile",
	index.LinkedInField:     "has_linkedin",
	index.JobStartField:     "has_jobstart",
	index.RevenueField:      contactHasRevenueField,
}

type matchPhraseQuery struct {
	Field string
	Query string
}

func (q matchPhraseQuery) MarshalJSON() ([]byte, error) {
	return marshalKeyed(q.Field, struct {
		Query string `json:"query"`
	}{q.Query})
}

type wildcardQuery struct {
	Field string
	Value string
}

func (q wildcardQuery) MarshalJSON() ([]byte, error) {
	return marshalKeyed(q.Field, struct {
		Value string `json:"value"`
	}{q.Value})
}

func flagTrue(field string) esQuery { return esQuery{Term: &termQuery{Field: field, Value: true}} }

// translateContact turns a contact filter into a query clause for filter
// context. Company-only fields are refused with index.ErrInvalid.
func translateContact(f index.Filter) (esQuery, error) {
	if err := index.ValidateContact(f); err != nil {
		return esQuery{}, err
	}
	return translateTree(f, contactLeaf)
}

func contactLeaf(f index.Filter) (esQuery, error) {
	switch n := f.(type) {
	case index.Terms:
		field, ok := contactTermsFields[n.Field]
		if !ok {
			return esQuery{}, fmt.Errorf("%w: terms on contact field %q", index.ErrUnsupported, n.Field)
		}
		lower := slices.Contains(contactLowerFields, n.Field)
		values := make([]string, 0, len(n.Values))
		for _, v := range n.Values {
			if n.Field == index.PersonaIDField {
				// Ids that are not integers match nothing (as in the
				// embedded engine) rather than failing the long field.
				id, err := strconv.ParseInt(v, 10, 64)
				if err != nil {
					continue
				}
				v = strconv.FormatInt(id, 10)
			}
			if lower {
				v = strings.ToLower(v)
			}
			if v != "" && !slices.Contains(values, v) {
				values = append(values, v)
			}
		}
		return termsOf(field, n.Field, values)
	case index.Range:
		// ValidateContact allows only ConnectionsField; every document has
		// connections (0 when unknown).
		return intRange(connectionsField, n), nil
	case index.DateRange:
		return dateRange(jobStartField, n)
	case index.Exists:
		if n.Field == index.EmailValidatedField {
			return esQuery{Bool: &boolQuery{Filter: []esQuery{flagTrue(contactHasEmailField), flagTrue(emailValidatedField)}}}, nil
		}
		field, ok := contactFlagFields[n.Field]
		if !ok {
			return esQuery{}, fmt.Errorf("%w: exists on contact field %q", index.ErrUnsupported, n.Field)
		}
		return flagTrue(field), nil
	case index.Phrase:
		if n.Field == index.NameField {
			// Any part of the folded name: the name and the text are folded
			// the same way here, so the pattern holds only letters, digits
			// and single spaces (no wildcard characters to escape).
			p := textfold.Words(n.Text)
			if p == "" {
				return matchNone(), nil
			}
			return esQuery{Wildcard: &wildcardQuery{Field: nameFoldedField, Value: "*" + p + "*"}}, nil
		}
		// The title: consecutive words through the prospect_folding
		// analyzer; a text without words matches nothing.
		return esQuery{MatchPhrase: &matchPhraseQuery{Field: contactTitleField, Query: n.Text}}, nil
	}
	return esQuery{}, fmt.Errorf("%w: filter node %T", index.ErrUnsupported, f)
}

// contactSearchBody is a _search body of the contact ranking: ids, domains
// and sort values only (hits are hydrated by _mget once grouped).
type contactSearchBody struct {
	Query          *esQuery          `json:"query,omitempty"`
	Knn            *knnSection       `json:"knn,omitempty"`
	Size           int               `json:"size"`
	Sort           []sortClause      `json:"sort,omitempty"`
	SearchAfter    []json.RawMessage `json:"search_after,omitempty"`
	Source         bool              `json:"_source"`
	DocvalueFields []string          `json:"docvalue_fields,omitempty"`
	TrackTotalHits bool              `json:"track_total_hits"`
	Aggs           *contactAggs      `json:"aggs,omitempty"`
	Rescore        *rescoreSection   `json:"rescore,omitempty"`
}

// contactAggs counts the distinct employer domains of the matches.
// Cardinality is HyperLogLog++: exact in practice below precision_threshold
// (40,000, its maximum), approximate above (typically within a few
// percent). Beside a kNN section it counts the domains of the k hits.
type contactAggs struct {
	Companies struct {
		Cardinality struct {
			Field              string `json:"field"`
			PrecisionThreshold int    `json:"precision_threshold"`
		} `json:"cardinality"`
	} `json:"companies"`
}

func companiesAggregation() *contactAggs {
	var a contactAggs
	a.Companies.Cardinality.Field = contactDomainField
	a.Companies.Cardinality.PrecisionThreshold = cardinalityPrecision
	return &a
}

// contactSort is the filter-mode order: seniority (executives first), then
// connections, then persona id. The id makes it total, so search_after
// pages through it without gaps or repeats.
var contactSort = []sortClause{
	{Field: seniorityRankField, Order: "asc"},
	{Field: connectionsField, Order: "desc"},
	{Field: personaIDField, Order: "asc"},
}

// contactWindowFactor multiplies the contacts a grouped search keeps to
// size the first ranking window: per-company and company caps skip
// contacts, so the greedy grouping usually reads deeper than it keeps. A
// window that falls short is widened (×4) until the grouping is complete.
var contactWindowFactor = 4

// maxContactScan bounds how deep a filter-mode search pages (search_after)
// for a grouping that keeps skipping contacts; a kNN search is bounded by
// k <= 10,000.
var maxContactScan = 10 * maxWindow

// normalizeContactSearch checks paging and gives Limit its Elasticsearch
// meaning: 0 (no limit in the embedded engine) is the 10,000-contact
// window.
func normalizeContactSearch(s index.ContactSearch, dim int) (index.ContactSearch, error) {
	if s.Offset < 0 || s.Limit < 0 || s.PerCompany < 0 || s.MaxCompanies < 0 {
		return s, fmt.Errorf("%w: negative paging", index.ErrInvalid)
	}
	if s.Limit > maxWindow {
		return s, fmt.Errorf("%w: limit %d exceeds Elasticsearch's result window of %d", index.ErrUnsupported, s.Limit, maxWindow)
	}
	if s.Limit == 0 {
		s.Limit = maxWindow
	}
	if s.Vector != nil {
		if err := checkVector(s.Vector, dim); err != nil {
			return s, err
		}
	}
	return s, nil
}

// contactWindow is the first ranking window of s: exact (Offset+Limit)
// without caps, Offset + factor × the contacts wanted with them.
func contactWindow(s index.ContactSearch) int {
	if s.PerCompany == 0 && s.MaxCompanies == 0 {
		return max(1, min(maxWindow, s.Offset+s.Limit))
	}
	want := s.Limit
	if s.PerCompany > 0 && s.MaxCompanies > 0 {
		want = min(want, s.PerCompany*s.MaxCompanies)
	}
	return max(1, min(maxWindow, s.Offset+contactWindowFactor*want))
}

// buildContactFilterPage returns the body of one filter-mode page: the
// filter sorted by contactSort, after the sort values of the previous
// page's last hit. The first page also counts the matches and their
// companies.
func buildContactFilterPage(q esQuery, size int, after []json.RawMessage) contactSearchBody {
	b := contactSearchBody{
		Query:          &q,
		Size:           size,
		Sort:           contactSort,
		SearchAfter:    after,
		DocvalueFields: []string{contactDomainField},
	}
	if after == nil {
		b.TrackTotalHits = true
		b.Aggs = companiesAggregation()
	}
	return b
}

// buildContactKnn returns the body of a kNN ranking of k contacts
// (num_candidates per numCandidates, so >= k), pre-filtered, above the
// similarity threshold, with the total and the companies of the k hits.
// size is the hits returned: k for a ranking, 1 for a count.
func buildContactKnn(s index.ContactSearch, q esQuery, k, size int) contactSearchBody {
	b := contactSearchBody{
		Knn: &knnSection{
			Field:         vectorField,
			QueryVector:   s.Vector,
			K:             k,
			NumCandidates: numCandidates(k),
			Similarity:    threshold(s.MinSimilarity),
			Filter:        knnFilter(q),
		},
		Size:           size,
		TrackTotalHits: true,
		Aggs:           companiesAggregation(),
	}
	if size > 1 {
		b.DocvalueFields = []string{contactDomainField}
	}
	return b
}

// rankedContact is one contact of a ranking window.
type rankedContact struct {
	id     int64
	domain string
	score  float64 // kNN _score; 0 in filter mode
}

// sortByScore orders kNN hits by score, ties by persona id (the embedded
// engine's order; Elasticsearch leaves ties in shard order).
func sortByScore(r []rankedContact) {
	sort.SliceStable(r, func(i, j int) bool {
		if r[i].score != r[j].score {
			return r[i].score > r[j].score
		}
		return r[i].id < r[j].id
	})
}

// groupContacts is the embedded engine's grouping (contactIndex.group):
// skip Offset ranked contacts, then walk the ranking keeping a contact
// unless its company is over PerCompany or a new company would exceed
// MaxCompanies, until Limit are kept; return them grouped by company in
// order of each company's best contact.
//
// ranked is a prefix of the full ranking, all of it when complete. final
// reports whether more of the ranking could change the result: false only
// when the prefix ran out before the grouping finished.
func groupContacts(ranked []rankedContact, s index.ContactSearch, complete bool) (picked []rankedContact, final bool) {
	if s.Offset < len(ranked) {
		ranked = ranked[s.Offset:]
	} else {
		ranked = nil
	}
	var order []string
	groups := map[string][]rankedContact{}
	total := 0
	for _, r := range ranked {
		if s.Limit > 0 && total >= s.Limit {
			final = true
			break
		}
		g, seen := groups[r.domain]
		if !seen {
			if s.MaxCompanies > 0 && len(order) >= s.MaxCompanies {
				continue
			}
			order = append(order, r.domain)
		}
		if s.PerCompany > 0 && len(g) >= s.PerCompany {
			continue
		}
		groups[r.domain] = append(g, r)
		total++
	}
	if s.Limit > 0 && total >= s.Limit {
		final = true
	}
	if !final && s.MaxCompanies > 0 && s.PerCompany > 0 && len(order) >= s.MaxCompanies {
		// Every company that can appear is known; once each is full,
		// nothing further down is kept.
		full := true
		for _, d := range order {
			if len(groups[d]) < s.PerCompany {
				full = false
				break
			}
		}
		final = full
	}
	picked = make([]rankedContact, 0, total)
	for _, d := range order {
		picked = append(picked, groups[d]...)
	}
	return picked, final || complete
}

// employerBatch bounds the domains of one _update_by_query.
const employerBatch = 500

// employerScript copies params.employers[<domain>] onto a contact: each
// field is set, or removed when null (the record omits empty values), and
// a contact already up to date is a noop (not rewritten).
const employerScript = `def e = params.employers[ctx._source.domain];
boolean changed = false;
if (e != null) {
  for (def f : e.entrySet()) {
    def k = f.getKey();
    def v = f.getValue();
    if (v == null) {
      if (ctx._source.containsKey(k)) {
        ctx._source.remove(k);
        changed = true;
      }
    } else if (ctx._source[k] != v) {
      ctx._source[k] = v;
      changed = true;
    }
  }
}
if (!changed) {
  ctx.op = 'noop';
}`

// updateByQueryBody is an _update_by_query body.
type updateByQueryBody struct {
	Query  esQuery      `json:"query"`
	Script scriptSource `json:"script"`
}

type scriptSource struct {
	Lang   string         `json:"lang"`
	Source string         `json:"source"`
	Params map[string]any `json:"params"`
}

// employerFields are the contact fields copied from a company
// (record.Contact.SetEmployer) and the flag derived from them, nil for the
// empty ones.
func employerFields(co record.Company) map[string]any {
	var c record.Contact
	c.SetEmployer(co)
	str := func(s string) any {
		if s == "" {
			return nil
		}
		return s
	}
	var industry any
	if len(c.Industry) > 0 {
		industry = c.Industry
	}
	return map[string]any{
		contactCompanyNameField: str(c.CompanyName),
		"industry":              industry,
		"employees":             str(c.Employees),
		"revenue_range":         str(c.RevenueRange),
		"company_country":       str(c.CompanyCountry),
		"company_state":         str(c.CompanyState),
		contactHasRevenueField:  c.RevenueRange != "",
	}
}

// buildEmployerRefresh returns the _update_by_query body that copies the
// companies' firmographics onto their contacts: the contacts at those
// domains, one painless script with each domain's fields in its params.
func buildEmployerRefresh(companies []record.Company) updateByQueryBody {
	domains := make([]string, 0, len(companies))
	employers := make(map[string]map[string]any, len(companies))
	for _, co := range companies {
		if co.Domain == "" {
			continue
		}
		if _, dup := employers[co.Domain]; !dup {
			domains = append(domains, co.Domain)
		}
		employers[co.Domain] = employerFields(co)
	}
	return updateByQueryBody{
		Query: esQuery{Terms: &termsQuery{Field: contactDomainField, Values: domains}},
		Script: scriptSource{
			Lang:   "painless",
			Source: employerScript,
			Params: map[string]any{"employers": employers},
		},
	}
}
