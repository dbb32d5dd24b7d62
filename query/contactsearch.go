package query

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/openprospect/prospectd/email/patternvote"
	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/record"
)

// ErrContactNotFound: a lookup matched no contact.
var ErrContactNotFound = errors.New("no contact matches")

// ContactService runs contact discovery, counting and lookup.
type ContactService struct {
	Engine    ContactIndex
	Companies *Companies // employer profiles, prompt company signals, the embedder

	patterns sync.Map // domain -> patternEntry
}

// patternTTL is how long an inferred email pattern is reused: patterns
// change only as contacts of the company are loaded.
const patternTTL = 10 * time.Minute

type patternEntry struct {
	p  EmailPattern
	at time.Time
}

// ContactMatch is one contact of a result.
type ContactMatch struct {
	Contact    record.Contact
	Similarity *int // 0-100 in similarity mode
}

// ContactGroup is one employer and its contacts (spec: Company group).
type ContactGroup struct {
	Domain                 string
	Name                   string
	Employees              string
	RevenueRange           string
	IndustryGroups         map[string]float64
	Country, State         string
	EmailPattern           string
	EmailPatternConfidence float64
	EmailPatternGuess      string
	Contacts               []ContactMatch
}

// ContactResults are grouped results; the totals count every matching
// contact and company, not only the page.
type ContactResults struct {
	Groups        []ContactGroup
	TotalContacts int
	TotalDomains  int
	Notes         []string
}

// Discover runs contact discovery.
func (s *ContactService) Discover(ctx context.Context, d ContactDiscover) (ContactResults, error) {
	pl, err := s.plan(ctx, &d)
	if err != nil {
		return ContactResults{}, err
	}
	search := index.ContactSearch{Filter: pl.filter, Vector: pl.vector, MinSimilarity: -2, Offset: d.Offset,
		PerCompany: d.PerCompany, MaxCompanies: d.MaxCompanies, Limit: d.MaxRecords}
	if d.MaxCompanies > 0 {
		// The spec: with max_companies the total is capped at 10,000.
		search.Limit = MaxContactRecords
	}
	// The employers' lookups start as soon as the engine has ranked, and
	// run while it reads the contacts' profiles.
	ectx, cancel := context.WithCancel(ctx)
	defer cancel()
	var employers *employerLookup
	search.Ranked = func(domains []string) { employers = s.lookUpEmployers(ectx, domains) }
	res, err := s.Engine.SearchContacts(ctx, search)
	if err != nil {
		return ContactResults{}, fmt.Errorf("contact discovery: %w", err)
	}
	out := ContactResults{TotalContacts: res.Total, TotalDomains: res.Companies, Notes: pl.notes}
	var domains []string
	byDomain := map[string]int{}
	for _, h := range res.Hits {
		dom := h.Contact.Domain
		gi, ok := byDomain[dom]
		if !ok {
			gi = len(out.Groups)
			byDomain[dom] = gi
			domains = append(domains, dom)
			out.Groups = append(out.Groups, groupOf(h.Contact))
		}
		m := ContactMatch{Contact: h.Contact}
		if pl.vector != nil {
			sim := int(math.Round(Similarity(h.Similarity)))
			m.Similarity = &sim
		}
		out.Groups[gi].Contacts = append(out.Groups[gi].Contacts, m)
	}
	if employers == nil { // an engine that does not call Ranked
		employers = s.lookUpEmployers(ectx, domains)
	}
	if err := employers.fill(out.Groups); err != nil {
		return ContactResults{}, err
	}
	return out, nil
}

// Count counts the contacts a request matches (filters only: similarity
// inputs do not cut contacts).
func (s *ContactService) Count(ctx context.Context, d ContactDiscover) (int, error) {
	pl, err := s.plan(ctx, &d)
	if err != nil {
		return 0, err
	}
	n, err := s.Engine.CountContacts(ctx, pl.filter)
	if err != nil {
		return 0, fmt.Errorf("count contacts: %w", err)
	}
	return n, nil
}

// Lookup finds one contact by exactly one of persona id, LinkedIn profile
// (URL or handle) or email (exact, case-insensitive).
func (s *ContactService) Lookup(ctx context.Context, personaID int64, linkedin, email string) (record.Contact, error) {
	var f index.Filter
	switch {
	case personaID > 0:
		f = index.Terms{Field: index.PersonaIDField, Values: []string{strconv.FormatInt(personaID, 10)}}
	case linkedin != "":
		f = index.Terms{Field: index.LinkedInField, Values: []string{linkedin}}
	default:
		f = index.Terms{Field: index.ContactEmailField, Values: []string{strings.ToLower(email)}}
	}
	res, err := s.Engine.SearchContacts(ctx, index.ContactSearch{Filter: f, Limit: 1, MinSimilarity: -2})
	if err != nil {
		return record.Contact{}, fmt.Errorf("contact lookup: %w", err)
	}
	if len(res.Hits) == 0 {
		return record.Contact{}, ErrContactNotFound
	}
	return res.Hits[0].Contact, nil
}

type contactPlan struct {
	filter index.Filter
	vector []float32
	notes  []string
}

func (s *ContactService) plan(ctx context.Context, d *ContactDiscover) (*contactPlan, error) {
	pl := &contactPlan{}
	sc, err := s.Companies.resolveSaved(ctx, d.InclusionQueryIDs, d.ExclusionQueryIDs)
	if err != nil {
		return nil, err
	}
	if d.RevenueIgnored {
		pl.notes = append(pl.notes, "the revenue filter is deprecated and ignored: filter revenue in company discovery and pass the domains")
	}
	var scope []string
	if d.ICPPrompt != "" {
		var err error
		if scope, err = s.applyPrompt(ctx, d, pl); err != nil {
			return nil, err
		}
	}
	f := contactFilter(d)
	if scope != nil {
		f = append(f, index.Terms{Field: index.DomainField, Values: scope})
	}
	f = append(f, savedContactFilters(sc)...)
	pl.filter = f
	if !d.Similarity() {
		return pl, nil
	}
	var pos, neg [][]float32
	if len(d.PersonaIDs) > 0 {
		vecs, err := s.Engine.ContactVectors(ctx, d.PersonaIDs)
		if err != nil {
			return nil, fmt.Errorf("persona vectors: %w", err)
		}
		var missing []string
		for _, id := range d.PersonaIDs {
			if v, ok := vecs[id]; ok {
				pos = append(pos, v)
			} else {
				missing = append(missing, strconv.FormatInt(id, 10))
			}
		}
		if len(pos) == 0 && d.ICPText == "" && d.ICPPrompt == "" && d.Summary == "" {
			return nil, &Error{Status: http.StatusNotFound, Params: []ParamError{{Param: "persona_id", Rule: "no contact with these ids: " + strings.Join(missing, ", ")}}}
		}
		if len(missing) > 0 {
			pl.notes = append(pl.notes, "persona ids not found: "+strings.Join(missing, ", "))
		}
	}
	var texts []string
	for _, t := range []string{d.ICPText, d.Summary} {
		if t != "" {
			texts = append(texts, t)
		}
	}
	if len(texts) > 0 || d.NegateSummary != "" {
		emb, err := s.Companies.embedder(ctx)
		if err != nil {
			return nil, err
		}
		for _, t := range texts {
			v, err := embedText(ctx, emb, t)
			if err != nil {
				return nil, err
			}
			pos = append(pos, v)
		}
		if d.NegateSummary != "" {
			v, err := embedText(ctx, emb, d.NegateSummary)
			if err != nil {
				return nil, err
			}
			neg = append(neg, v)
		}
	}
	q := mean(pos)
	if q == nil {
		return pl, nil
	}
	q, err = steer(q, neg, d.Consensus, func(q []float32) ([][]float32, error) {
		res, err := s.Engine.SearchContacts(ctx, index.ContactSearch{Filter: pl.filter, Vector: q, MinSimilarity: -2, Limit: d.Consensus, WithVectors: true})
		var top [][]float32
		for _, h := range res.Hits {
			top = append(top, h.Vector)
		}
		return top, err
	})
	if err != nil {
		return nil, err
	}
	pl.vector = q
	return pl, nil
}

// contactFilter builds the engine filter of a request.
func contactFilter(d *ContactDiscover) index.And {
	var f index.And
	terms := func(field index.Field, vals []string) {
		if len(vals) > 0 {
			f = append(f, index.Terms{Field: field, Values: vals})
		}
	}
	not := func(field index.Field, vals []string) {
		if len(vals) > 0 {
			f = append(f, index.Not{Filter: index.Terms{Field: field, Values: vals}})
		}
	}
	terms(index.DomainField, d.Domains)
	terms(index.SeniorityField, d.Seniority)
	not(index.SeniorityField, d.NegateSeniority)
	terms(index.DepartmentField, d.Department)
	not(index.DepartmentField, d.NegateDepartment)
	terms(index.SkillField, d.Skills)
	if d.Name != "" {
		f = append(f, index.Phrase{Field: index.NameField, Text: d.Name})
	}
	if len(d.Title) > 0 {
		f = append(f, TitleFilter(d.Title))
	}
	if len(d.NegateTitle) > 0 {
		f = append(f, NegateTitleFilter(d.NegateTitle))
	}
	terms(index.PersonCountryField, d.PersonCountry)
	not(index.PersonCountryField, d.NegatePersonCountry)
	terms(index.PersonStateField, d.PersonState)
	for _, x := range []struct {
		on    bool
		field index.Field
	}{{d.HasEmail, index.ContactEmailField}, {d.EmailValid, index.EmailValidatedField}, {d.HasPhone, index.PhoneField},
		{d.HasMobile, index.MobileField}, {d.HasLinkedIn, index.LinkedInField}} {
		if x.on {
			f = append(f, index.Exists{Field: x.field})
		}
	}
	if d.MinConnections > 0 {
		f = append(f, index.Range{Field: index.ConnectionsField, Min: index.IntPtr(d.MinConnections)})
	}
	if d.JobFrom != "" || d.JobTo != "" {
		f = append(f, index.DateRange{Field: index.JobStartField, From: d.JobFrom, To: d.JobTo})
	}
	terms(index.IndustryField, d.Industry)
	not(index.IndustryField, d.NegateInd)
	terms(index.CountryField, d.Country)
	not(index.CountryField, d.NegateCountry)
	terms(index.StateField, d.State)
	not(index.StateField, d.NegateState)
	if d.Employees != nil {
		buckets := overlapping(record.EmployeeBuckets, d.Employees, func(b string) (int64, int64) {
			lo, hi, _ := record.EmployeeBucketRange(b)
			return int64(lo), int64(hi)
		})
		f = append(f, index.Terms{Field: index.EmployeesField, Values: buckets})
	}
	if len(d.PersonaIDs) > 0 && !d.IncludeSearchContacts {
		ids := make([]string, len(d.PersonaIDs))
		for i, id := range d.PersonaIDs {
			ids[i] = strconv.FormatInt(id, 10)
		}
		f = append(f, index.Not{Filter: index.Terms{Field: index.PersonaIDField, Values: ids}})
	}
	return f
}

// savedContactFilters scope contacts by saved queries. Persona lists
// scope contacts and domain lists their employers: an inclusion list
// keeps its persona ids when it has any, else its domains' contacts (a
// contact passes if any inclusion list keeps it); an exclusion list drops
// its persona ids and its domains' contacts.
func savedContactFilters(sc savedScope) []index.Filter {
	var out []index.Filter
	if sc.include != nil {
		var ids, doms []string
		var idLists, domLists []SavedQuery
		for _, q := range sc.include {
			if len(q.PersonaIDs) > 0 {
				ids = append(ids, personaTerms(q.PersonaIDs)...)
				idLists = append(idLists, q)
			} else {
				doms = append(doms, q.Domains...)
				domLists = append(domLists, q)
			}
		}
		or := index.Or{}
		if len(ids) > 0 {
			or = append(or, index.Terms{Field: index.PersonaIDField, Values: ids, Key: listsKey(idLists)})
		}
		if len(doms) > 0 {
			or = append(or, index.Terms{Field: index.DomainField, Values: doms, Key: listsKey(domLists)})
		}
		out = append(out, or) // an empty Or (empty lists) matches nothing
	}
	var ids []string
	for _, q := range sc.exclude {
		ids = append(ids, personaTerms(q.PersonaIDs)...)
	}
	if len(ids) > 0 {
		out = append(out, index.Not{Filter: index.Terms{Field: index.PersonaIDField, Values: ids, Key: listsKey(sc.exclude)}})
	}
	if f := excludeDomains(sc.excludedDomains()); f != nil {
		out = append(out, f)
	}
	return out
}

func personaTerms(ids []int64) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = strconv.FormatInt(id, 10)
	}
	return out
}

func groupOf(c record.Contact) ContactGroup {
	g := ContactGroup{Domain: c.Domain, Name: c.CompanyName, Employees: c.Employees, RevenueRange: c.RevenueRange,
		Country: c.CompanyCountry, State: c.CompanyState, IndustryGroups: map[string]float64{}}
	for i, ind := range c.Industry {
		g.IndustryGroups[ind] = 1 - 0.1*float64(i)
	}
	return g
}

// employerLookup is the groups' employer data being read: firmographics
// from the company index and email patterns from the addresses known at
// each domain, the two lookups at the same time.
type employerLookup struct {
	done      chan struct{}
	companies map[string]record.Company
	patterns  map[string]EmailPattern
	err       error
}

// lookUpEmployers starts reading the employers of domains.
func (s *ContactService) lookUpEmployers(ctx context.Context, domains []string) *employerLookup {
	l := &employerLookup{done: make(chan struct{}), companies: map[string]record.Company{}, patterns: map[string]EmailPattern{}}
	if len(domains) == 0 {
		close(l.done)
		return l
	}
	var wg sync.WaitGroup
	var patternErr, companyErr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		ps, err := s.emailPatterns(ctx, domains)
		if patternErr = err; err == nil {
			for i, d := range domains {
				l.patterns[d] = ps[i]
			}
		}
	}()
	if s.Companies != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cs, err := s.Companies.Engine.GetCompanies(ctx, domains)
			if err != nil {
				companyErr = fmt.Errorf("employer profiles: %w", err)
				return
			}
			for _, c := range cs {
				l.companies[c.Domain] = c
			}
		}()
	}
	go func() {
		wg.Wait()
		l.err = errors.Join(companyErr, patternErr)
		close(l.done)
	}()
	return l
}

// fill waits for the lookups and fills each group's firmographics and
// email pattern.
func (l *employerLookup) fill(groups []ContactGroup) error {
	<-l.done
	if l.err != nil {
		return l.err
	}
	for i := range groups {
		g := &groups[i]
		if c, ok := l.companies[g.Domain]; ok {
			g.Name, g.Employees, g.RevenueRange = c.Name, c.Employees, c.RevenueRange
			g.Country, g.State = c.Address.Country, c.Address.State
			if len(c.IndustryGroups) > 0 {
				g.IndustryGroups = c.IndustryGroups
			}
		}
		p := l.patterns[g.Domain]
		g.EmailPattern, g.EmailPatternConfidence, g.EmailPatternGuess = p.Pattern, p.Confidence, p.Guess
	}
	return nil
}

// The email pattern of a domain is inferred from up to patternSample of
// its contacts with addresses. An engine that tallies the votes from
// resident data (index.EmailPatternVoter) is asked for every missing
// domain at once; otherwise they are looked up patternBatch at a time in
// one engine search (patternBatch × patternSample is the 10,000-contact
// window every engine serves).
const (
	patternSample = 200
	patternBatch  = 50
)

// emailPattern infers (or reuses) a domain's email pattern.
func (s *ContactService) emailPattern(ctx context.Context, domain string) (EmailPattern, error) {
	ps, err := s.emailPatterns(ctx, []string{domain})
	if err != nil {
		return EmailPattern{}, err
	}
	return ps[0], nil
}

// emailPatterns returns the email pattern of each domain (in order),
// reusing cached ones and inferring the others together (inferPatterns).
func (s *ContactService) emailPatterns(ctx context.Context, domains []string) ([]EmailPattern, error) {
	out := make([]EmailPattern, len(domains))
	at := map[string][]int{}
	var missing []string
	for i, d := range domains {
		if e, ok := s.patterns.Load(d); ok && time.Since(e.(patternEntry).at) < patternTTL {
			out[i] = e.(patternEntry).p
			continue
		}
		if _, seen := at[d]; !seen {
			missing = append(missing, d)
		}
		at[d] = append(at[d], i)
	}
	if len(missing) == 0 {
		return out, nil
	}
	ps, err := s.inferPatterns(ctx, missing)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	for k, d := range missing {
		s.patterns.Store(d, patternEntry{p: ps[k], at: now})
		for _, i := range at[d] {
			out[i] = ps[k]
		}
	}
	return out, nil
}

// inferPatterns infers the email pattern of each of the distinct domains,
// in order: from the engine's resident tallies when it keeps them,
// otherwise from searches of their contacts with addresses, patternSample
// a company in the contact order, which read for each domain the same
// contacts as a search of that domain alone (one filter evaluation and
// one ranking for up to patternBatch domains instead of one each).
func (s *ContactService) inferPatterns(ctx context.Context, domains []string) ([]EmailPattern, error) {
	out := make([]EmailPattern, 0, len(domains))
	if voter, ok := s.Engine.(index.EmailPatternVoter); ok {
		tallies, err := voter.EmailPatternVotes(ctx, domains, patternSample)
		if err != nil {
			return nil, fmt.Errorf("email patterns of %d domains: %w", len(domains), err)
		}
		for k, d := range domains {
			out = append(out, patternOf(d, &tallies[k]))
		}
		return out, nil
	}
	for len(domains) > 0 {
		batch := domains[:min(len(domains), patternBatch)]
		domains = domains[len(batch):]
		res, err := s.Engine.SearchContacts(ctx, index.ContactSearch{MinSimilarity: -2, PerCompany: patternSample,
			MaxCompanies: len(batch), Limit: patternSample * len(batch),
			Filter: index.And{index.Terms{Field: index.DomainField, Values: batch}, index.Exists{Field: index.ContactEmailField}}})
		if err != nil {
			return nil, fmt.Errorf("email patterns of %s: %w", strings.Join(batch, ", "), err)
		}
		known := map[string][]record.Contact{}
		for _, h := range res.Hits {
			known[h.Contact.Domain] = append(known[h.Contact.Domain], h.Contact)
		}
		for _, d := range batch {
			out = append(out, InferEmailPattern(d, known[d]))
		}
	}
	return out, nil
}

// EmailPattern is a company's inferred address template.
type EmailPattern struct {
	Pattern    string  // "{first}.{last}@acme.com"; "" when unknown
	Confidence float64 // 0-1
	Guess      string  // the pattern applied to a hypothetical Jane Doe
}

// InferEmailPattern finds the template most of the known addresses at the
// domain follow (patternvote: validated addresses count double; the
// confidence is the share of the evidence the winner explains, shrunk for
// small samples: votes / (total + 1)).
func InferEmailPattern(domain string, known []record.Contact) EmailPattern {
	var t patternvote.Tally
	for _, c := range known {
		t.Add(patternvote.VoteOf(domain, c.Email, c.Name, c.EmailValidated))
	}
	return patternOf(domain, &t)
}

// patternOf is the pattern a domain's tally elects.
func patternOf(domain string, t *patternvote.Tally) EmailPattern {
	best, confidence, ok := t.Best()
	if !ok {
		return EmailPattern{}
	}
	return EmailPattern{Pattern: best + "@" + domain, Confidence: confidence,
		Guess: patternvote.Apply(best, "jane", "doe") + "@" + domain}
}
