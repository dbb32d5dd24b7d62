package enginetest

import (
	"context"
	"math"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/record"
)

// ContactBackend is an engine: every engine has a contact index.
type ContactBackend = index.Engine

// RunContacts runs the contact suite; open must return a fresh, empty
// engine.
func RunContacts(t *testing.T, open func(t *testing.T) ContactBackend) {
	for _, tc := range []struct {
		name string
		fn   func(t *testing.T, e ContactBackend)
	}{
		{"UpsertGetDelete", testContactCRUD},
		{"Filters", testContactFilters},
		{"SearchByVector", testContactVectorSearch},
		{"FilterOrderAndGrouping", testContactGrouping},
		{"CompanyReindexRefreshesContacts", testEmployerRefresh},
		{"SharedAndChangedEmails", testSharedEmails},
		{"SavedLists", testContactSavedLists},
		{"RankedDomains", testContactRanked},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := open(t)
			if err := e.SetMeta(context.Background(), index.Meta{EmbedderID: "test-embedder", Dimension: Dim}); err != nil {
				t.Fatal(err)
			}
			tc.fn(t, e)
		})
	}
}

// ContactFixtures are the suite's contacts: three companies, covering
// every filterable field.
func ContactFixtures() []index.ContactDoc {
	acme := func(c record.Contact) record.Contact {
		c.Domain, c.CompanyName, c.Industry, c.Employees, c.RevenueRange, c.CompanyCountry, c.CompanyState =
			"acme.com", "Acme Security", []string{"CYBERSECURITY", "SOFTWARE"}, "51-200", "10-100M", "US", "US-TX"
		return c
	}
	wach := func(c record.Contact) record.Contact {
		c.Domain, c.CompanyName, c.Industry, c.Employees, c.CompanyCountry, c.CompanyState =
			"wachdienst.de", "Wachdienst GmbH", []string{"CYBERSECURITY"}, "11-50", "DE", "DE-BY"
		return c
	}
	bank := func(c record.Contact) record.Contact {
		c.Domain, c.CompanyName, c.Industry, c.Employees, c.RevenueRange, c.CompanyCountry =
			"brightbank.co.uk", "Bright Bank", []string{"BANKING"}, "1001-5000", ">1B", "GB"
		return c
	}
	return []index.ContactDoc{
		{Vector: axis(0, 0), Contact: acme(record.Contact{PersonaID: 1, Name: "Ana García", Title: "Chief Technology Officer",
			Department: "Executive", Seniority: "executive", Skills: []string{"Security", "Go"}, Email: "ana@acme.com", EmailValidated: true,
			Phones: []string{"+447400123456"}, SocialURLs: []string{"https://www.linkedin.com/in/ana-garcia-1"}, Connections: 2500,
			Country: "US", State: "US-TX", JobStartDate: "2019-04-01", Summary: "Builds security products."})},
		{Vector: axis(0, 0.3), Contact: acme(record.Contact{PersonaID: 2, Name: "Bob Stone", Title: "VP Sales",
			Department: "Sales - Marketing", Seniority: "vp", Skills: []string{"Negotiation"}, Email: "bob@acme.com",
			Phones: []string{"+15125550100"}, Connections: 900, Country: "US", State: "US-CA", JobStartDate: "2021-01-15"})},
		{Vector: axis(0, 0.6), Contact: acme(record.Contact{PersonaID: 3, Name: "Cleo Park", Title: "Senior Software Engineer",
			Department: "Technology", Seniority: "senior_ic", Skills: []string{"go", "Kubernetes"}, Connections: 300, Country: "CA"})},
		{Vector: axis(1, 0), Contact: wach(record.Contact{PersonaID: 10, Name: "Jürgen Müller", Title: "Geschäftsführer",
			Department: "Executive", Seniority: "executive", Email: "jm@wachdienst.de", EmailValidated: true,
			SocialURLs: []string{"https://de.linkedin.com/in/juergen-mueller"}, Connections: 150, Country: "DE", State: "DE-BY", JobStartDate: "2015-06-15"})},
		{Vector: axis(1, 0.2), Contact: wach(record.Contact{PersonaID: 11, Name: "Lena Schmidt", Title: "Sales Manager",
			Department: "Sales - Marketing", Seniority: "manager", Connections: 410, Country: "DE"})},
		{Vector: axis(2, 0), Contact: bank(record.Contact{PersonaID: 20, Name: "Priya Shah", Title: "Chief Financial Officer",
			Department: "Finance", Seniority: "executive", Email: "priya@brightbank.co.uk", Connections: 5000, Country: "GB",
			SocialURLs: []string{"https://x.com/priya"}, JobStartDate: "2010-02-01"})},
		{Vector: axis(0, 0.1), Contact: bank(record.Contact{PersonaID: 21, Name: "Tom Reid", Title: "Head of Security Engineering",
			Department: "Technology", Seniority: "director", Skills: []string{"Security"}, Connections: 700, Country: "GB"})},
	}
}

func loadContacts(t *testing.T, e ContactBackend) []index.ContactDoc {
	t.Helper()
	docs := ContactFixtures()
	failed, err := e.UpsertContacts(context.Background(), docs)
	if err != nil || len(failed) > 0 {
		t.Fatalf("UpsertContacts: %v %v", failed, err)
	}
	if err := e.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	return docs
}

func personaIDs(hits []index.ContactHit) []int64 {
	out := make([]int64, len(hits))
	for i, h := range hits {
		out[i] = h.Contact.PersonaID
	}
	return out
}

func testContactCRUD(t *testing.T, e ContactBackend) {
	ctx := context.Background()
	docs := loadContacts(t, e)
	got, err := e.GetContacts(ctx, []int64{20, 999, 1})
	if err != nil || len(got) != 2 || got[0].PersonaID != 20 || got[1].PersonaID != 1 {
		t.Fatalf("GetContacts: %v %v", got, err)
	}
	if !reflect.DeepEqual(got[1], docs[0].Contact) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got[1], docs[0].Contact)
	}
	// Replace, then delete.
	c := docs[1]
	c.Contact.Title = "Chief Revenue Officer"
	if _, err := e.UpsertContacts(ctx, []index.ContactDoc{c}); err != nil {
		t.Fatal(err)
	}
	e.Refresh(ctx)
	if n, _ := e.CountContacts(ctx, index.Phrase{Field: index.TitleField, Text: "vp sales"}); n != 0 {
		t.Errorf("old title still matches after replace")
	}
	if n, _ := e.CountContacts(ctx, index.Phrase{Field: index.TitleField, Text: "chief revenue officer"}); n != 1 {
		t.Errorf("new title matches %d", n)
	}
	if n, err := e.DeleteContacts(ctx, []int64{2, 2, 999}); err != nil || n != 1 {
		t.Fatalf("DeleteContacts: %d %v", n, err)
	}
	e.Refresh(ctx)
	if n, _ := e.CountContacts(ctx, nil); n != len(docs)-1 {
		t.Errorf("count after delete %d", n)
	}
	vecs, err := e.ContactVectors(ctx, []int64{1, 2})
	if err != nil || len(vecs) != 1 || math.Abs(float64(dot(vecs[1], docs[0].Vector))-1) > 0.01 {
		t.Errorf("ContactVectors: %v %v", vecs, err)
	}
	// Bad documents are refused one by one.
	failed, err := e.UpsertContacts(ctx, []index.ContactDoc{{Contact: record.Contact{PersonaID: 50}, Vector: []float32{1}},
		{Contact: record.Contact{PersonaID: 0, Domain: "x.com"}, Vector: axis(0, 0)}})
	if err != nil || len(failed) != 2 {
		t.Errorf("bad docs: %v %v", failed, err)
	}
}

func assertContacts(t *testing.T, e ContactBackend, f index.Filter, want ...int64) {
	t.Helper()
	ctx := context.Background()
	res, err := e.SearchContacts(ctx, index.ContactSearch{Filter: f, Limit: 100})
	if err != nil {
		t.Fatalf("%#v: %v", f, err)
	}
	got := personaIDs(res.Hits)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("filter %#v: got %v, want %v", f, got, want)
	}
	if n, err := e.CountContacts(ctx, f); err != nil || n != len(want) || res.Total != len(want) {
		t.Errorf("filter %#v: count %d total %d, want %d (%v)", f, n, res.Total, len(want), err)
	}
}

func testContactFilters(t *testing.T, e ContactBackend) {
	loadContacts(t, e)
	terms := func(f index.Field, v ...string) index.Filter { return index.Terms{Field: f, Values: v} }
	assertContacts(t, e, nil, 1, 2, 3, 10, 11, 20, 21)
	assertContacts(t, e, terms(index.SeniorityField, "executive"), 1, 10, 20)
	assertContacts(t, e, terms(index.DepartmentField, "Sales - Marketing"), 2, 11)
	assertContacts(t, e, terms(index.SkillField, "GO"), 1, 3) // skills ignore case
	assertContacts(t, e, terms(index.PersonCountryField, "US", "CA"), 1, 2, 3)
	assertContacts(t, e, terms(index.PersonStateField, "US-TX"), 1)
	assertContacts(t, e, terms(index.DomainField, "wachdienst.de"), 10, 11)
	assertContacts(t, e, terms(index.IndustryField, "SOFTWARE"), 1, 2, 3)
	assertContacts(t, e, terms(index.CountryField, "GB"), 20, 21)
	assertContacts(t, e, terms(index.StateField, "DE-BY"), 10, 11)
	assertContacts(t, e, terms(index.EmployeesField, "51-200", "11-50"), 1, 2, 3, 10, 11)
	assertContacts(t, e, terms(index.RevenueField, ">1B"), 20, 21)
	assertContacts(t, e, index.Not{Filter: index.Exists{Field: index.RevenueField}}, 10, 11)
	assertContacts(t, e, terms(index.PersonaIDField, "3", "20", "77"), 3, 20)
	assertContacts(t, e, terms(index.ContactEmailField, "ANA@acme.com"), 1)
	assertContacts(t, e, terms(index.LinkedInField, "juergen-mueller"), 10)
	assertContacts(t, e, index.Exists{Field: index.ContactEmailField}, 1, 2, 10, 20)
	assertContacts(t, e, index.Exists{Field: index.EmailValidatedField}, 1, 10)
	assertContacts(t, e, index.Exists{Field: index.PhoneField}, 1, 2)
	assertContacts(t, e, index.Exists{Field: index.MobileField}, 1) // +44 74… is a UK mobile; +1 is ambiguous
	assertContacts(t, e, index.Exists{Field: index.LinkedInField}, 1, 10)
	assertContacts(t, e, index.Range{Field: index.ConnectionsField, Min: index.IntPtr(700)}, 1, 2, 20, 21)
	assertContacts(t, e, index.DateRange{Field: index.JobStartField, From: "2015-01-01"}, 1, 2, 10)
	assertContacts(t, e, index.DateRange{Field: index.JobStartField, From: "2000-01-01", To: "2016-01-01"}, 10, 20)
	assertContacts(t, e, index.Phrase{Field: index.TitleField, Text: "chief"}, 1, 20)
	assertContacts(t, e, index.Phrase{Field: index.TitleField, Text: "SECURITY engineering"}, 21)
	assertContacts(t, e, index.Phrase{Field: index.TitleField, Text: "engineering security"})
	assertContacts(t, e, index.Phrase{Field: index.TitleField, Text: "geschaftsfuhrer"}, 10) // accents folded
	assertContacts(t, e, index.Phrase{Field: index.NameField, Text: "mull"}, 10)             // partial, folded
	assertContacts(t, e, index.Phrase{Field: index.NameField, Text: "garcia"}, 1)
	assertContacts(t, e, index.And{terms(index.CountryField, "US"), index.Not{Filter: terms(index.SeniorityField, "executive")}}, 2, 3)
	assertContacts(t, e, index.Or{terms(index.SeniorityField, "vp"), index.Phrase{Field: index.TitleField, Text: "sales"}}, 2, 11)
	if _, err := e.CountContacts(context.Background(), index.Range{Field: index.ScoreField}); err == nil {
		t.Error("a company-only field was accepted in a contact filter")
	}
}

func testContactVectorSearch(t *testing.T, e ContactBackend) {
	loadContacts(t, e)
	ctx := context.Background()
	q := axis(0, 0)
	res, err := e.SearchContacts(ctx, index.ContactSearch{Vector: q, Limit: 4, WithVectors: true})
	if err != nil {
		t.Fatal(err)
	}
	// Ranked 1 (1.0), 21 (0.995), 2, 3 — grouped by company in order of
	// each company's best: acme (1, 2, 3) then the bank (21).
	if got := personaIDs(res.Hits); !slices.Equal(got, []int64{1, 2, 3, 21}) {
		t.Fatalf("grouped ranking %v", got)
	}
	if res.Total != 7 || res.Companies != 3 {
		t.Errorf("total %d companies %d", res.Total, res.Companies)
	}
	for i, h := range res.Hits {
		if len(h.Vector) != Dim || math.Abs(float64(dot(q, h.Vector))-h.Similarity) > 0.02 {
			t.Errorf("hit %d: similarity %.3f, vector %v", i, h.Similarity, h.Vector)
		}
	}
	// Per-company cap and company cap.
	res, _ = e.SearchContacts(ctx, index.ContactSearch{Vector: q, Limit: 100, PerCompany: 1, MaxCompanies: 2})
	if got := personaIDs(res.Hits); !slices.Equal(got, []int64{1, 21}) {
		t.Errorf("per company 1, 2 companies: %v", got)
	}
	// MinSimilarity and filters.
	res, _ = e.SearchContacts(ctx, index.ContactSearch{Vector: q, Limit: 100, MinSimilarity: 0.9,
		Filter: index.Terms{Field: index.CountryField, Values: []string{"US"}}})
	if got := personaIDs(res.Hits); !slices.Equal(got, []int64{1, 2}) || res.Total != 2 {
		t.Errorf("filtered above 0.9: %v total %d", got, res.Total)
	}
	if _, err := e.SearchContacts(ctx, index.ContactSearch{Vector: []float32{1, 0}, Limit: 1}); err == nil {
		t.Error("wrong dimension accepted")
	}
}

func testContactGrouping(t *testing.T, e ContactBackend) {
	loadContacts(t, e)
	ctx := context.Background()
	// Without a vector: seniority first, then connections.
	res, err := e.SearchContacts(ctx, index.ContactSearch{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	// Executives by connections: 20 (5000), 1 (2500), 10 (150); the
	// companies in order of their best: bank, acme, wachdienst.
	want := []int64{20, 21, 1, 2, 3, 10, 11}
	if got := personaIDs(res.Hits); !slices.Equal(got, want) {
		t.Fatalf("filter order %v, want %v", got, want)
	}
	// Offset skips ranked contacts before grouping; Limit caps contacts.
	res, _ = e.SearchContacts(ctx, index.ContactSearch{Offset: 1, Limit: 2})
	if got := personaIDs(res.Hits); !slices.Equal(got, []int64{1, 10}) {
		t.Errorf("offset 1 limit 2: %v", got)
	}
	for _, h := range res.Hits {
		if _, err := strconv.Atoi(strconv.FormatInt(h.Contact.PersonaID, 10)); err != nil || h.Similarity != 0 {
			t.Errorf("filter-mode hit %+v", h)
		}
	}
}

// testContactRanked checks ContactSearch.Ranked: called once, before the
// search returns, with the hits' employers in the order of their first hit
// (with and without a vector, grouped and not), and not at all for a
// search that fails.
func testContactRanked(t *testing.T, e ContactBackend) {
	loadContacts(t, e)
	ctx := context.Background()
	for _, s := range []index.ContactSearch{
		{Limit: 100},
		{Offset: 1, Limit: 3},
		{Vector: axis(0, 0), Limit: 100, PerCompany: 1, MaxCompanies: 2},
		{Vector: axis(0, 0), Limit: 100, MinSimilarity: 0.9},
		{Limit: 100, Filter: index.Terms{Field: index.CountryField, Values: []string{"ZZ"}}},
	} {
		var calls [][]string
		s.Ranked = func(domains []string) { calls = append(calls, domains) }
		res, err := e.SearchContacts(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		want := index.RankedDomains(res.Hits, func(h index.ContactHit) string { return h.Contact.Domain })
		if len(calls) != 1 || !slices.Equal(calls[0], want) {
			t.Errorf("search %+v: Ranked called with %q, want once with %q", s, calls, want)
		}
	}
	called := false
	if _, err := e.SearchContacts(ctx, index.ContactSearch{Vector: []float32{1, 0}, Limit: 1,
		Ranked: func([]string) { called = true }}); err == nil || called {
		t.Errorf("a failing search: err %v, Ranked called %v", err, called)
	}
}

func testEmployerRefresh(t *testing.T, e ContactBackend) {
	ctx := context.Background()
	loadContacts(t, e)
	companies := Fixtures()
	acme := companies[0]
	if acme.Company.Domain != "acme.com" {
		t.Fatalf("fixture order changed: %s", acme.Company.Domain)
	}
	acme.Company.Employees = "201-500"
	acme.Company.Address.Country, acme.Company.Address.State = "CA", "CA-ON"
	if _, err := e.UpsertCompanies(ctx, []index.CompanyDoc{acme}); err != nil {
		t.Fatal(err)
	}
	e.Refresh(ctx)
	assertContacts(t, e, index.And{index.Terms{Field: index.CountryField, Values: []string{"CA"}},
		index.Terms{Field: index.EmployeesField, Values: []string{"201-500"}}}, 1, 2, 3)
	assertContacts(t, e, index.Terms{Field: index.CountryField, Values: []string{"US"}})
	got, _ := e.GetContacts(ctx, []int64{1})
	if len(got) != 1 || got[0].CompanyState != "CA-ON" || got[0].CompanyName != "Acme Security" || got[0].Title != "Chief Technology Officer" {
		t.Fatalf("refreshed contact %+v", got)
	}
}

// testSharedEmails: an address two contacts share finds both; a changed
// address finds only the new owner; a deleted contact is gone from lookups.
func testSharedEmails(t *testing.T, e ContactBackend) {
	ctx := context.Background()
	docs := loadContacts(t, e)
	email := index.Terms{Field: index.ContactEmailField, Values: []string{"bob@acme.com"}}
	dup := docs[2] // Cleo, no address yet
	dup.Contact.Email = "Bob@Acme.com"
	if _, err := e.UpsertContacts(ctx, []index.ContactDoc{dup}); err != nil {
		t.Fatal(err)
	}
	e.Refresh(ctx)
	assertContacts(t, e, email, 2, 3)
	bob := docs[1]
	bob.Contact.Email = "robert@acme.com"
	if _, err := e.UpsertContacts(ctx, []index.ContactDoc{bob}); err != nil {
		t.Fatal(err)
	}
	e.Refresh(ctx)
	assertContacts(t, e, email, 3)
	assertContacts(t, e, index.Terms{Field: index.ContactEmailField, Values: []string{"robert@acme.com"}}, 2)
	if _, err := e.DeleteContacts(ctx, []int64{3}); err != nil {
		t.Fatal(err)
	}
	e.Refresh(ctx)
	assertContacts(t, e, email)
	assertContacts(t, e, index.Terms{Field: index.LinkedInField, Values: []string{"ana-garcia-1"}}, 1)
}
