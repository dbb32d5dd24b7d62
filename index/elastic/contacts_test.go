package elastic

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/embedded"
	"github.com/openprospect/prospectd/index/enginetest"
	"github.com/openprospect/prospectd/mappings"
	"github.com/openprospect/prospectd/record"
)

func mustContactCount(t *testing.T, f index.Filter) countBody {
	t.Helper()
	q, err := translateContact(f)
	if err != nil {
		t.Fatalf("translateContact: %v", err)
	}
	return countBody{Query: q}
}

func TestContactGoldenBodies(t *testing.T) {
	terms := func(f index.Field, v ...string) index.Filter { return index.Terms{Field: f, Values: v} }
	cases := []struct {
		name string
		body func(t *testing.T) any
	}{
		{"template_contacts", func(t *testing.T) any {
			b, err := mappings.Contacts(mappings.ContactsParams{IndexPattern: "prospect-contacts-v*", Dims: 256})
			if err != nil {
				t.Fatal(err)
			}
			return b
		}},
		{"contact_document", func(t *testing.T) any { return newContactDoc(enginetest.ContactFixtures()[0]) }},
		{"contact_search_knn", func(t *testing.T) any {
			// Persona filters (seniority, department, has email, title,
			// not a person country) and company filters (country, size).
			s := index.ContactSearch{Vector: queryVec, MinSimilarity: 0.2, PerCompany: 3, MaxCompanies: 10, Limit: 25,
				Filter: index.And{
					terms(index.SeniorityField, "executive", "vp"),
					terms(index.DepartmentField, "Technology"),
					index.Exists{Field: index.ContactEmailField},
					index.Phrase{Field: index.TitleField, Text: "security"},
					index.Not{Filter: terms(index.PersonCountryField, "RU")},
					terms(index.CountryField, "US", "CA"),
					terms(index.EmployeesField, "51-200", "201-500"),
				}}
			s, err := normalizeContactSearch(s, enginetest.Dim)
			if err != nil {
				t.Fatal(err)
			}
			q, err := translateContact(s.Filter)
			if err != nil {
				t.Fatal(err)
			}
			return buildContactKnn(s, q, contactWindow(s), contactWindow(s))
		}},
		{"contact_search_knn_total", func(t *testing.T) any {
			s := index.ContactSearch{Vector: queryVec, MinSimilarity: -2, Limit: 10}
			return buildContactKnn(s, matchAll(), maxWindow, 1)
		}},
		{"contact_search_filter", func(t *testing.T) any {
			q, err := translateContact(index.And{terms(index.SkillField, "Go", "KUBERNETES"), index.Exists{Field: index.MobileField}})
			if err != nil {
				t.Fatal(err)
			}
			return buildContactFilterPage(q, 100, nil)
		}},
		{"contact_search_filter_next_page", func(t *testing.T) any {
			after := []json.RawMessage{json.RawMessage("0"), json.RawMessage("2500"), json.RawMessage("9007199254740993")}
			return buildContactFilterPage(matchAll(), 400, after)
		}},
		{"contact_count_title_alternatives", func(t *testing.T) any {
			// What query.TitleFilter builds for "CTO" or "+head of": an
			// acronym with its spelled-out form, each a phrase.
			return mustContactCount(t, index.And{
				index.Or{
					index.Phrase{Field: index.TitleField, Text: "cto"},
					index.Phrase{Field: index.TitleField, Text: "chief technology officer"},
				},
				index.Not{Filter: index.Or{index.Phrase{Field: index.TitleField, Text: "assistant"}}},
			})
		}},
		{"contact_count_name", func(t *testing.T) any {
			return mustContactCount(t, index.Or{
				index.Phrase{Field: index.NameField, Text: "Müll"},
				index.Phrase{Field: index.NameField, Text: "  O'Brien-Straße "},
			})
		}},
		{"contact_count_every_field", func(t *testing.T) any {
			var and index.And
			for _, f := range index.ContactKeywordFields {
				and = append(and, index.Terms{Field: f, Values: []string{"V-" + string(f)}})
			}
			for _, f := range []index.Field{index.ContactEmailField, index.EmailValidatedField, index.PhoneField, index.MobileField,
				index.LinkedInField, index.JobStartField, index.RevenueField} {
				and = append(and, index.Exists{Field: f})
			}
			and = append(and,
				index.Range{Field: index.ConnectionsField, Min: index.IntPtr(500), Max: index.IntPtr(5000)},
				index.DateRange{Field: index.JobStartField, From: "2015-01-01", To: "2020-12-31"},
				index.DateRange{Field: index.JobStartField})
			// Persona ids are parsed: "V-persona_id" above matches nothing.
			and[6] = index.Terms{Field: index.PersonaIDField, Values: []string{"3", "+20", "x", "3"}}
			return mustContactCount(t, and)
		}},
		{"contact_employer_refresh", func(t *testing.T) any {
			fx := enginetest.Fixtures()
			acme := fx[0].Company
			acme.Employees = "201-500"
			acme.Address.Country, acme.Address.State = "CA", "CA-ON"
			bare := record.Company{Domain: "bare.example", Name: "Bare"}
			return buildEmployerRefresh([]record.Company{acme, bare, fx[1].Company})
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { golden(t, tc.name, tc.body(t)) })
	}
}

func TestContactTranslateErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    index.Filter
		want error
	}{
		{"company-only score", index.Range{Field: index.ScoreField}, index.ErrInvalid},
		{"company-only vendor", index.Terms{Field: index.VendorField, Values: []string{"x"}}, index.ErrInvalid},
		{"company-only text", index.Phrase{Field: index.TextField, Text: "x"}, index.ErrInvalid},
		{"company start date", index.DateRange{Field: index.StartDateField}, index.ErrInvalid},
		{"exists on a keyword", index.Exists{Field: index.SeniorityField}, index.ErrInvalid},
		{"deep", index.Not{Filter: index.Or{index.And{index.Exists{Field: index.RedirectField}}}}, index.ErrInvalid},
		{"malformed date", index.DateRange{Field: index.JobStartField, From: "2020-02-30"}, index.ErrInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := translateContact(tc.f); !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
		})
	}
}

func TestContactTranslateShapes(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    index.Filter
		want string
	}{
		{"nil", nil, `{"match_all":{}}`},
		{"skills lower-cased, deduplicated", index.Terms{Field: index.SkillField, Values: []string{"GO", "go", ""}}, `{"terms":{"skill_terms":["go"]}}`},
		{"email lower-cased", index.Terms{Field: index.ContactEmailField, Values: []string{"ANA@Acme.com"}}, `{"terms":{"email_lc":["ana@acme.com"]}}`},
		{"department kept as is", index.Terms{Field: index.DepartmentField, Values: []string{"Sales - Marketing"}}, `{"terms":{"department":["Sales - Marketing"]}}`},
		{"company country", index.Terms{Field: index.CountryField, Values: []string{"US"}}, `{"terms":{"company_country":["US"]}}`},
		{"person country", index.Terms{Field: index.PersonCountryField, Values: []string{"US"}}, `{"terms":{"country":["US"]}}`},
		{"persona ids parsed", index.Terms{Field: index.PersonaIDField, Values: []string{"007", "x"}}, `{"terms":{"persona_id":["7"]}}`},
		{"no valid persona id", index.Terms{Field: index.PersonaIDField, Values: []string{"x"}}, `{"match_none":{}}`},
		{"unbounded connections", index.Range{Field: index.ConnectionsField}, `{"match_all":{}}`},
		{"open job start", index.DateRange{Field: index.JobStartField}, `{"exists":{"field":"jobstart_date"}}`},
		{"validated email", index.Exists{Field: index.EmailValidatedField}, `{"bool":{"filter":[{"term":{"has_email":{"value":true}}},{"term":{"email_validated":{"value":true}}}]}}`},
		{"mobile flag", index.Exists{Field: index.MobileField}, `{"term":{"has_mobile":{"value":true}}}`},
		{"name folded", index.Phrase{Field: index.NameField, Text: "Jürgen  MÜLL"}, `{"wildcard":{"name_folded":{"value":"*jurgen mull*"}}}`},
		{"name without words", index.Phrase{Field: index.NameField, Text: " - "}, `{"match_none":{}}`},
		{"title phrase", index.Phrase{Field: index.TitleField, Text: "Geschäftsführer"}, `{"match_phrase":{"title":{"query":"Geschäftsführer"}}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q, err := translateContact(tc.f)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(q)
			if string(b) != tc.want {
				t.Errorf("got  %s\nwant %s", b, tc.want)
			}
		})
	}
}

// TestContactMappingCoversQueries checks that every field the contact
// translator, sort or aggregation names is mapped with a type that supports
// the clause, and that every key of a stored document is either mapped or
// deliberately left to _source.
func TestContactMappingCoversQueries(t *testing.T) {
	raw, err := mappings.Contacts(mappings.ContactsParams{IndexPattern: "p-contacts-v*", Dims: enginetest.Dim})
	if err != nil {
		t.Fatal(err)
	}
	var tmpl struct {
		Template struct {
			Mappings struct {
				Properties map[string]struct {
					Type     string `json:"type"`
					Analyzer string `json:"analyzer"`
				} `json:"properties"`
			} `json:"mappings"`
		} `json:"template"`
	}
	if err := json.Unmarshal(raw, &tmpl); err != nil {
		t.Fatal(err)
	}
	mapped := tmpl.Template.Mappings.Properties
	want := map[string]string{}
	for _, f := range contactTermsFields {
		want[f] = "keyword"
	}
	want[personaIDField] = "long"
	for _, f := range contactFlagFields {
		want[f] = "boolean"
	}
	want[emailValidatedField] = "boolean"
	want[seniorityRankField] = "byte"
	want[connectionsField] = "integer"
	want[jobStartField] = "date"
	want[contactTitleField] = "text"
	want[nameFoldedField] = "wildcard"
	want[vectorField] = "dense_vector"
	for field, typ := range want {
		if m, ok := mapped[field]; !ok || m.Type != typ {
			t.Errorf("field %s is mapped as %q, queries need %q", field, m.Type, typ)
		}
	}
	if mapped[contactTitleField].Analyzer != "prospect_folding" {
		t.Errorf("title analyzer %q", mapped[contactTitleField].Analyzer)
	}
	// Every key of a fully populated document.
	d := enginetest.ContactFixtures()[0]
	d.Contact.RevenueRange = "10-100M"
	b, _ := json.Marshal(newContactDoc(d))
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(b, &keys); err != nil {
		t.Fatal(err)
	}
	// Kept for hydration only: each is filtered through a derived field
	// (name_folded, skill_terms, email_lc, has_phone/has_mobile,
	// has_linkedin/linkedin_handle) or not filtered at all.
	sourceOnly := []string{"name", "skills", "email", "phones", "social_urls", "company_name"}
	var missing []string
	for k := range keys {
		if _, ok := mapped[k]; !ok && !slices.Contains(sourceOnly, k) {
			missing = append(missing, k)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("document fields neither mapped nor source-only: %v", missing)
	}
	// The employer refresh only writes mapped or source-only fields.
	for k := range employerFields(enginetest.Fixtures()[0].Company) {
		if _, ok := mapped[k]; !ok && !slices.Contains(sourceOnly, k) {
			t.Errorf("employer refresh writes unknown field %s", k)
		}
	}
}

// TestContactDoc checks the derived fields against the embedded engine's
// rules and that _source decodes back into the record.
func TestContactDoc(t *testing.T) {
	for _, d := range enginetest.ContactFixtures() {
		doc := newContactDoc(d)
		b, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		var back record.Contact
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back, d.Contact) {
			t.Errorf("%d: record does not round-trip:\n got %+v\nwant %+v", d.Contact.PersonaID, back, d.Contact)
		}
		if !strings.Contains(string(b), `"connections":`) {
			t.Errorf("%d: connections omitted", d.Contact.PersonaID)
		}
	}
	fx := enginetest.ContactFixtures()
	ana, jurgen, priya := newContactDoc(fx[0]), newContactDoc(fx[3]), newContactDoc(fx[5])
	if ana.SeniorityRank != 0 || !ana.HasMobile || !ana.HasLinkedIn || ana.LinkedInHandle != "ana-garcia-1" ||
		!reflect.DeepEqual(ana.SkillTerms, []string{"security", "go"}) || ana.EmailLC != "ana@acme.com" || !ana.HasRevenue || ana.NameFolded != "ana garcia" {
		t.Errorf("ana: %+v", ana)
	}
	if jurgen.NameFolded != "jurgen muller" || jurgen.HasRevenue || jurgen.HasPhone || jurgen.LinkedInHandle != "juergen-mueller" {
		t.Errorf("jürgen: %+v", jurgen)
	}
	if priya.HasLinkedIn || priya.LinkedInHandle != "" || priya.HasMobile {
		t.Errorf("priya (x.com only, no phone): %+v", priya)
	}
	if r := seniorityRank("nope"); r != len(record.Seniorities) {
		t.Errorf("unknown seniority rank %d", r)
	}
	if got := newContactDoc(index.ContactDoc{Contact: record.Contact{Phones: []string{"+15125550100"}}}); got.HasMobile || !got.HasPhone {
		t.Errorf("+1 number: %+v", got)
	}
}

func contactIDs(rs []rankedContact) []int64 {
	out := make([]int64, len(rs))
	for i, r := range rs {
		out[i] = r.id
	}
	return out
}

func cosine(a, b []float32) float64 {
	var d, na, nb float64
	for i := range a {
		d += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	return d / math.Sqrt(na*nb)
}

// fixtureRanking ranks the contact fixtures as the reference does: by
// cosine to q, or without q by seniority, connections, persona id.
func fixtureRanking(q []float32) []rankedContact {
	var out []rankedContact
	ranks := map[int64][3]int{}
	for _, d := range enginetest.ContactFixtures() {
		c := d.Contact
		r := rankedContact{id: c.PersonaID, domain: c.Domain}
		if q != nil {
			r.score = (1 + cosine(q, d.Vector)) / 2
		}
		ranks[c.PersonaID] = [3]int{seniorityRank(c.Seniority), -c.Connections, int(c.PersonaID)}
		out = append(out, r)
	}
	if q != nil {
		sortByScore(out)
		return out
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := ranks[out[i].id], ranks[out[j].id]
		return slices.Compare(a[:], b[:]) < 0
	})
	return out
}

// TestGroupContactsReference runs the grouping on the cases of the contact
// conformance suite (enginetest/contacts.go).
func TestGroupContactsReference(t *testing.T) {
	q := enginetest.ContactFixtures()[0].Vector
	for _, tc := range []struct {
		name string
		q    []float32
		s    index.ContactSearch
		want []int64
	}{
		{"vector, limit 4", q, index.ContactSearch{Limit: 4}, []int64{1, 2, 3, 21}},
		{"vector, 1 per company, 2 companies", q, index.ContactSearch{Limit: 100, PerCompany: 1, MaxCompanies: 2}, []int64{1, 21}},
		{"filter order", nil, index.ContactSearch{Limit: 100}, []int64{20, 21, 1, 2, 3, 10, 11}},
		{"offset 1 limit 2", nil, index.ContactSearch{Offset: 1, Limit: 2}, []int64{1, 10}},
		{"2 per company, limit 5", nil, index.ContactSearch{Limit: 5, PerCompany: 2}, []int64{20, 21, 1, 2, 10}},
		{"2 companies, no per-company cap", nil, index.ContactSearch{Limit: 100, MaxCompanies: 2}, []int64{20, 21, 1, 2, 3}},
		{"offset past the end", nil, index.ContactSearch{Offset: 7, Limit: 3}, []int64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, final := groupContacts(fixtureRanking(tc.q), tc.s, true)
			if !final || !slices.Equal(contactIDs(got), tc.want) {
				t.Errorf("got %v (final %v), want %v", contactIDs(got), final, tc.want)
			}
		})
	}
}

// TestGroupContactsFinal checks the widening rule on random rankings: a
// prefix of the ranking whose grouping is reported final gives the same
// result as the whole ranking, and a whole ranking is always final.
func TestGroupContactsFinal(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	finals := 0
	for iter := 0; iter < 3000; iter++ {
		n := rng.IntN(40)
		ranked := make([]rankedContact, n)
		companies := 1 + rng.IntN(6)
		for i := range ranked {
			ranked[i] = rankedContact{id: int64(i + 1), domain: fmt.Sprintf("d%d.com", rng.IntN(companies))}
		}
		s := index.ContactSearch{Limit: 1 + rng.IntN(12), PerCompany: rng.IntN(4), MaxCompanies: rng.IntN(4)}
		if rng.IntN(3) == 0 {
			s.Offset = rng.IntN(5)
		}
		want, final := groupContacts(ranked, s, true)
		if !final {
			t.Fatal("a complete ranking is not final")
		}
		for p := 0; p < n; p++ {
			got, final := groupContacts(ranked[:p], s, false)
			if !final {
				continue
			}
			finals++
			if !slices.Equal(contactIDs(got), contactIDs(want)) {
				t.Fatalf("%+v: prefix %d of %v reported final with %v, whole ranking gives %v", s, p, ranked, contactIDs(got), contactIDs(want))
			}
		}
	}
	if finals == 0 {
		t.Fatal("no prefix was ever final: the early stop is dead code")
	}
}

func TestContactWindow(t *testing.T) {
	for _, tc := range []struct {
		s    index.ContactSearch
		want int
	}{
		{index.ContactSearch{Limit: 25}, 25},
		{index.ContactSearch{Offset: 100, Limit: 25}, 125},
		{index.ContactSearch{Limit: 25, PerCompany: 5}, 100},
		{index.ContactSearch{Limit: 10000, PerCompany: 2, MaxCompanies: 10}, 80},
		{index.ContactSearch{Limit: 10000, MaxCompanies: 10}, maxWindow},
		{index.ContactSearch{Offset: 9999, Limit: 10}, maxWindow},
	} {
		if got := contactWindow(tc.s); got != tc.want {
			t.Errorf("contactWindow(%+v) = %d, want %d", tc.s, got, tc.want)
		}
		if k := contactWindow(tc.s); numCandidates(k) < k {
			t.Errorf("num_candidates below k for %+v", tc.s)
		}
	}
	for _, tc := range []struct {
		s    index.ContactSearch
		want error
	}{
		{index.ContactSearch{Limit: -1}, index.ErrInvalid},
		{index.ContactSearch{PerCompany: -1}, index.ErrInvalid},
		{index.ContactSearch{Limit: maxWindow + 1}, index.ErrUnsupported},
		{index.ContactSearch{Vector: []float32{1, 0}}, index.ErrVectorMismatch},
	} {
		if _, err := normalizeContactSearch(tc.s, enginetest.Dim); !errors.Is(err, tc.want) {
			t.Errorf("%+v: err %v, want %v", tc.s, err, tc.want)
		}
	}
	if s, _ := normalizeContactSearch(index.ContactSearch{}, enginetest.Dim); s.Limit != maxWindow {
		t.Errorf("limit 0 became %d", s.Limit)
	}
}

// fakeContactRanking answers the contact ranking requests from the fake's
// stored contacts, as Elasticsearch would for a match-all filter (the fake
// evaluates no queries): the kNN section (k, similarity, size; the k cut
// between equal scores by id, as the embedded engine orders them, but the
// hits of equal score answered in reverse id order, which the engine must
// re-sort — a real cluster cuts ties in index order), or the filter-mode sort
// with search_after; totals and the companies aggregation when asked.
// bodies collects the decoded requests.
func fakeContactRanking(t *testing.T, f *fakeES, bodies *[]map[string]json.RawMessage) func(string, []byte) (int, any) {
	return func(endpoint string, raw []byte) (int, any) {
		var req struct {
			Query *json.RawMessage `json:"query"`
			Knn   *struct {
				QueryVector   []float32        `json:"query_vector"`
				K             int              `json:"k"`
				NumCandidates int              `json:"num_candidates"`
				Similarity    *float64         `json:"similarity"`
				Filter        *json.RawMessage `json:"filter"`
			} `json:"knn"`
			Size        int               `json:"size"`
			SearchAfter []json.RawMessage `json:"search_after"`
			Aggs        json.RawMessage   `json:"aggs"`
		}
		if err := json.Unmarshal(raw, &req); err != nil {
			t.Errorf("contact search body: %v", err)
			return 400, esErr("parse_exception", err.Error(), 400)
		}
		var all map[string]json.RawMessage
		_ = json.Unmarshal(raw, &all)
		*bodies = append(*bodies, all)
		if endpoint != "_search" || (req.Query != nil && string(*req.Query) != `{"match_all":{}}`) || (req.Knn != nil && req.Knn.Filter != nil) {
			t.Errorf("fake ranking cannot answer %s %s", endpoint, raw)
			return 400, esErr("fake", "unsupported", 400)
		}
		f.mu.Lock()
		var docs []contactDoc
		for _, src := range f.docs[f.resolve("t-contacts")] {
			var d contactDoc
			if err := json.Unmarshal(src, &d); err != nil {
				panic(err)
			}
			docs = append(docs, d)
		}
		f.mu.Unlock()
		type hit struct {
			d     contactDoc
			score float64
		}
		var hits []hit
		if req.Knn != nil {
			if req.Knn.NumCandidates < req.Knn.K {
				t.Errorf("num_candidates %d < k %d", req.Knn.NumCandidates, req.Knn.K)
			}
			for _, d := range docs {
				cos := cosine(req.Knn.QueryVector, d.Vector)
				if req.Knn.Similarity != nil && cos < *req.Knn.Similarity {
					continue
				}
				hits = append(hits, hit{d, float64(float32((1 + cos) / 2))})
			}
			sort.Slice(hits, func(i, j int) bool {
				if hits[i].score != hits[j].score {
					return hits[i].score > hits[j].score
				}
				return hits[i].d.PersonaID < hits[j].d.PersonaID
			})
			hits = hits[:min(len(hits), req.Knn.K)]
			for i := 0; i < len(hits); {
				j := i + 1
				for j < len(hits) && hits[j].score == hits[i].score {
					j++
				}
				slices.Reverse(hits[i:j])
				i = j
			}
		} else {
			for _, d := range docs {
				hits = append(hits, hit{d: d})
			}
			key := func(d contactDoc) []int64 { return []int64{int64(d.SeniorityRank), -int64(d.Connections), d.PersonaID} }
			sort.Slice(hits, func(i, j int) bool { return slices.Compare(key(hits[i].d), key(hits[j].d)) < 0 })
		}
		total := len(hits)
		domains := map[string]bool{}
		for _, h := range hits {
			domains[h.d.Domain] = true
		}
		if req.SearchAfter != nil {
			var after []int64
			for _, v := range req.SearchAfter {
				var x int64
				_ = json.Unmarshal(v, &x)
				after = append(after, x)
			}
			after[1] = -after[1]
			i := sort.Search(len(hits), func(i int) bool {
				d := hits[i].d
				return slices.Compare([]int64{int64(d.SeniorityRank), -int64(d.Connections), d.PersonaID}, after) > 0
			})
			hits = hits[i:]
		}
		hits = hits[:min(len(hits), req.Size)]
		out := []any{}
		for _, h := range hits {
			m := map[string]any{"_index": "t-contacts-v1", "_id": fmt.Sprint(h.d.PersonaID), "fields": map[string]any{"domain": []string{h.d.Domain}}}
			if req.Knn != nil {
				m["_score"] = h.score
			} else {
				m["_score"] = nil
				m["sort"] = []int64{int64(h.d.SeniorityRank), int64(h.d.Connections), h.d.PersonaID}
			}
			out = append(out, m)
		}
		ans := map[string]any{
			"took": 1, "timed_out": false,
			"_shards": map[string]int{"total": 1, "successful": 1, "failed": 0},
			"hits":    map[string]any{"total": map[string]any{"value": total, "relation": "eq"}, "hits": out},
		}
		if req.Aggs != nil {
			ans["aggregations"] = map[string]any{"companies": map[string]any{"value": len(domains)}}
		}
		return 200, ans
	}
}

func openFakeContacts(t *testing.T) (*fakeES, *Engine) {
	t.Helper()
	f := newFakeES(t)
	e := openFake(t, f)
	if failed, err := e.UpsertContacts(context.Background(), enginetest.ContactFixtures()); err != nil || len(failed) > 0 {
		t.Fatalf("UpsertContacts: %v %v", failed, err)
	}
	return f, e
}

func TestContactsLayout(t *testing.T) {
	f := newFakeES(t)
	e := openFake(t, f)
	want, err := mappings.Contacts(mappings.ContactsParams{IndexPattern: "t-contacts-v*", Dims: enginetest.Dim})
	if err != nil {
		t.Fatal(err)
	}
	if got := f.templates["t-contacts"]; string(got) != string(want) {
		t.Errorf("installed contacts template differs from the rendered mapping:\n%s", got)
	}
	if f.aliases["t-contacts"] != "t-contacts-v1" || e.ContactsAlias() != "t-contacts" {
		t.Errorf("contacts alias -> %q (%s)", f.aliases["t-contacts"], e.ContactsAlias())
	}
}

func TestContactsCRUDOffline(t *testing.T) {
	f, e := openFakeContacts(t)
	ctx := context.Background()
	docs := enginetest.ContactFixtures()
	if bulks := f.requests("POST /t-contacts/_bulk"); len(bulks) != 1 {
		t.Errorf("bulk requests %v", bulks)
	}
	got, err := e.GetContacts(ctx, []int64{20, 999, 0, 1, 20})
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, c := range got {
		ids = append(ids, c.PersonaID)
	}
	if !slices.Equal(ids, []int64{20, 1, 20}) || !reflect.DeepEqual(got[1], docs[0].Contact) {
		t.Fatalf("GetContacts = %v", ids)
	}
	for _, r := range f.requests("POST /t-contacts/_mget") {
		if !strings.Contains(r, "_source_excludes=vector") {
			t.Errorf("GetContacts fetched vectors: %s", r)
		}
	}
	vecs, err := e.ContactVectors(ctx, []int64{1, 999})
	if err != nil || len(vecs) != 1 || !reflect.DeepEqual(vecs[1], docs[0].Vector) {
		t.Fatalf("ContactVectors = %v, %v", vecs, err)
	}
	n, err := e.DeleteContacts(ctx, []int64{2, 2, 999, -1})
	if err != nil || n != 1 {
		t.Fatalf("DeleteContacts = %d, %v", n, err)
	}
	f.onSearch = func(endpoint string, raw []byte) (int, any) {
		if endpoint != "_count" || string(raw) != `{"query":{"term":{"has_mobile":{"value":true}}}}` {
			t.Errorf("count sent %s %s", endpoint, raw)
		}
		return 200, map[string]any{"count": 1, "_shards": map[string]int{"total": 1, "successful": 1}}
	}
	if n, err := e.CountContacts(ctx, index.Exists{Field: index.MobileField}); err != nil || n != 1 {
		t.Fatalf("CountContacts = %d, %v", n, err)
	}
	if _, err := e.CountContacts(ctx, index.Range{Field: index.ScoreField}); !errors.Is(err, index.ErrInvalid) {
		t.Fatalf("company-only field: %v", err)
	}
}

func TestContactUpsertFailures(t *testing.T) {
	f := newFakeES(t)
	e := openFake(t, f)
	docs := enginetest.ContactFixtures()
	nan := docs[2]
	nan.Vector = slices.Clone(nan.Vector)
	nan.Vector[0] = float32(math.NaN())
	f.onBulkItem = func(action, id string) (int, string) {
		if id == "10" {
			return 400, "document_parsing_exception"
		}
		return 0, ""
	}
	failed, err := e.UpsertContacts(context.Background(), []index.ContactDoc{
		{Contact: record.Contact{PersonaID: 50}, Vector: []float32{1}},
		{Contact: record.Contact{PersonaID: 0, Domain: "x.com"}, Vector: docs[0].Vector},
		nan, docs[3], docs[4],
	})
	if err != nil {
		t.Fatal(err)
	}
	reasons := map[string]string{}
	for _, d := range failed {
		reasons[d.Domain] = d.Reason
	}
	for id, want := range map[string]string{"50": "vector dimension mismatch", "0": "positive", "3": "encode document", "10": "document_parsing_exception"} {
		if !strings.Contains(reasons[id], want) {
			t.Errorf("reason for %s = %q, want %q", id, reasons[id], want)
		}
	}
	if len(failed) != 4 {
		t.Errorf("failed = %+v", failed)
	}
	if _, ok := f.docs["t-contacts-v1"]["11"]; !ok || len(f.docs["t-contacts-v1"]) != 1 {
		t.Errorf("stored %d contacts, want only 11", len(f.docs["t-contacts-v1"]))
	}
	f.onBulkItem = nil
	f.onBulk = func() int { return 500 }
	if _, err := e.UpsertContacts(context.Background(), docs[:1]); err == nil {
		t.Error("a failed bulk request did not fail the call")
	}
}

// TestSearchContactsMatchesEmbedded runs the same searches on the embedded
// engine and on the engine against the fake ranking: same contacts, same
// order, same totals.
func TestSearchContactsMatchesEmbedded(t *testing.T) {
	f, e := openFakeContacts(t)
	var bodies []map[string]json.RawMessage
	f.onSearch = fakeContactRanking(t, f, &bodies)
	ref, err := embedded.Open(t.TempDir(), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ref.Close() })
	ctx := context.Background()
	if err := ref.SetMeta(ctx, index.Meta{EmbedderID: "test", Dimension: enginetest.Dim}); err != nil {
		t.Fatal(err)
	}
	if _, err := ref.UpsertContacts(ctx, enginetest.ContactFixtures()); err != nil {
		t.Fatal(err)
	}
	check := func(s index.ContactSearch) {
		t.Helper()
		want, err := ref.SearchContacts(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		got, err := e.SearchContacts(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := hitIDs(got.Hits), hitIDs(want.Hits); !slices.Equal(g, w) || got.Total != want.Total || got.Companies != want.Companies {
			t.Fatalf("%+v (factor %d):\n got %v total %d companies %d\nwant %v total %d companies %d",
				s, contactWindowFactor, g, got.Total, got.Companies, w, want.Total, want.Companies)
		}
		for i, h := range got.Hits {
			if math.Abs(h.Similarity-want.Hits[i].Similarity) > 0.02 || (h.Vector != nil) != s.WithVectors ||
				!reflect.DeepEqual(h.Contact, want.Hits[i].Contact) {
				t.Fatalf("%+v: hit %d = %+v, want %+v", s, i, h, want.Hits[i])
			}
		}
	}
	old := contactWindowFactor
	t.Cleanup(func() { contactWindowFactor = old })
	fx := enginetest.ContactFixtures()
	vectors := [][]float32{nil, fx[0].Vector, fx[3].Vector, fx[6].Vector}
	for _, factor := range []int{old, 1} {
		contactWindowFactor = factor
		for vi, q := range vectors {
			for limit := 1; limit <= 8; limit++ {
				for per := 0; per <= 3; per++ {
					for maxC := 0; maxC <= 3; maxC++ {
						for _, off := range []int{0, 1, 3} {
							s := index.ContactSearch{Vector: q, Limit: limit, PerCompany: per, MaxCompanies: maxC, Offset: off,
								WithVectors: (limit+per+off)%2 == 0}
							if vi == 3 {
								s.MinSimilarity = 0.5
							}
							check(s)
						}
					}
				}
			}
		}
	}
}

func hitIDs(hits []index.ContactHit) []int64 {
	out := []int64{}
	for _, h := range hits {
		out = append(out, h.Contact.PersonaID)
	}
	return out
}

// TestSearchContactsWidens checks the requests of a grouping that needs
// more than its first window: search_after pages in filter mode, a larger
// k with a vector.
func TestSearchContactsWidens(t *testing.T) {
	old := contactWindowFactor
	contactWindowFactor = 1
	t.Cleanup(func() { contactWindowFactor = old })
	f, e := openFakeContacts(t)
	var bodies []map[string]json.RawMessage
	f.onSearch = fakeContactRanking(t, f, &bodies)
	ctx := context.Background()

	// Ranked 20 (bank), 1, 10, 2, 21 (bank), 11, 3: the bank's second
	// contact is fifth, past the first window of 2.
	res, err := e.SearchContacts(ctx, index.ContactSearch{Limit: 2, PerCompany: 2, MaxCompanies: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := hitIDs(res.Hits); !slices.Equal(got, []int64{20, 21}) || res.Total != 7 || res.Companies != 3 {
		t.Fatalf("filter mode: %v total %d companies %d", got, res.Total, res.Companies)
	}
	str := func(b json.RawMessage) string { return string(b) }
	if len(bodies) != 2 || bodies[0]["search_after"] != nil || str(bodies[1]["search_after"]) != "[0,2500,1]" ||
		str(bodies[0]["size"]) != "2" || str(bodies[1]["size"]) != "8" || bodies[1]["aggs"] != nil || str(bodies[1]["track_total_hits"]) != "false" {
		for _, b := range bodies {
			t.Logf("%s %s %s", b["size"], b["search_after"], b["track_total_hits"])
		}
		t.Fatalf("filter-mode requests")
	}

	bodies = nil
	q := enginetest.ContactFixtures()[0].Vector
	res, err = e.SearchContacts(ctx, index.ContactSearch{Vector: q, Limit: 3, PerCompany: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := hitIDs(res.Hits); !slices.Equal(got, []int64{1, 21, 10}) || res.Total != 7 || res.Companies != 3 {
		t.Fatalf("vector mode: %v total %d companies %d", got, res.Total, res.Companies)
	}
	var ks []int
	for _, b := range bodies {
		var knn struct {
			K int `json:"k"`
		}
		_ = json.Unmarshal(b["knn"], &knn)
		ks = append(ks, knn.K)
	}
	if !slices.Equal(ks, []int{3, 12}) {
		t.Fatalf("kNN k of the requests: %v, want [3 12]", ks)
	}

	// A filled k that is final at once: a wide request counts the total.
	bodies = nil
	res, err = e.SearchContacts(ctx, index.ContactSearch{Vector: q, Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	ks = nil
	for _, b := range bodies {
		var knn struct {
			K int `json:"k"`
		}
		_ = json.Unmarshal(b["knn"], &knn)
		ks = append(ks, knn.K)
	}
	if got := hitIDs(res.Hits); !slices.Equal(got, []int64{1, 21}) || res.Total != 7 || !slices.Equal(ks, []int{2, maxWindow}) {
		t.Fatalf("limit 2: %v total %d, k %v", got, res.Total, ks)
	}

	if _, err := e.SearchContacts(ctx, index.ContactSearch{Vector: []float32{1, 0}, Limit: 1}); !errors.Is(err, index.ErrVectorMismatch) {
		t.Fatalf("wrong dimension: %v", err)
	}
	if _, err := e.SearchContacts(ctx, index.ContactSearch{Filter: index.Exists{Field: index.SocialURLField}, Limit: 1}); !errors.Is(err, index.ErrInvalid) {
		t.Fatalf("company-only field: %v", err)
	}
}

func TestSearchContactsErrors(t *testing.T) {
	f, e := openFakeContacts(t)
	f.onSearch = func(string, []byte) (int, any) {
		return 200, map[string]any{"timed_out": false, "_shards": map[string]int{"total": 2, "successful": 1, "failed": 1},
			"hits": map[string]any{"total": map[string]any{"value": 0}, "hits": []any{}}}
	}
	if _, err := e.SearchContacts(context.Background(), index.ContactSearch{Limit: 1}); err == nil || !strings.Contains(err.Error(), "shards failed") {
		t.Fatalf("shard failure: %v", err)
	}
	f.onSearch = func(string, []byte) (int, any) {
		return 200, map[string]any{"timed_out": false, "_shards": map[string]int{"total": 1, "successful": 1},
			"hits": map[string]any{"total": map[string]any{"value": 1}, "hits": []any{map[string]any{"_id": "abc", "_score": 1}}}}
	}
	if _, err := e.SearchContacts(context.Background(), index.ContactSearch{Vector: enginetest.ContactFixtures()[0].Vector, Limit: 1}); err == nil {
		t.Fatal("a non-numeric id was accepted")
	}
}

// TestEmployerRefreshOffline follows the conformance test through the
// fake, which applies the update-by-query's params as the script does.
func TestEmployerRefreshOffline(t *testing.T) {
	f, e := openFakeContacts(t)
	ctx := context.Background()
	acme := enginetest.Fixtures()[0]
	acme.Company.Employees = "201-500"
	acme.Company.Address.Country, acme.Company.Address.State = "CA", "CA-ON"
	acme.Company.RevenueRange = ""
	if failed, err := e.UpsertCompanies(ctx, []index.CompanyDoc{acme}); err != nil || len(failed) > 0 {
		t.Fatal(failed, err)
	}
	if n := len(f.requests("POST /t-contacts/_update_by_query?conflicts=proceed&wait_for_completion=true")); n != 1 {
		t.Fatalf("%d update-by-query requests: %v", n, f.requests("POST"))
	}
	got, err := e.GetContacts(ctx, []int64{1, 10})
	if err != nil || len(got) != 2 {
		t.Fatal(got, err)
	}
	want := enginetest.ContactFixtures()[0].Contact
	want.SetEmployer(acme.Company)
	if !reflect.DeepEqual(got[0], want) || got[0].RevenueRange != "" || got[0].CompanyState != "CA-ON" {
		t.Errorf("refreshed contact:\n got %+v\nwant %+v", got[0], want)
	}
	var doc contactDoc
	_ = json.Unmarshal(f.docs["t-contacts-v1"]["1"], &doc)
	if doc.HasRevenue {
		t.Error("has_revenue not refreshed")
	}
	if !reflect.DeepEqual(got[1], enginetest.ContactFixtures()[3].Contact) {
		t.Errorf("a contact of another company changed: %+v", got[1])
	}

	// A failing update is reported (the companies are written).
	f.onUpdateByQuery = func([]byte) (int, any) {
		return 200, map[string]any{"total": 3, "updated": 2, "failures": []any{map[string]any{"id": "2", "cause": map[string]any{"type": "x"}}}}
	}
	if _, err := e.UpsertCompanies(ctx, []index.CompanyDoc{acme}); err == nil || !strings.Contains(err.Error(), "refreshing their contacts") {
		t.Fatalf("failed refresh: %v", err)
	}
	// No contact index (a layout from before contacts): a no-op.
	f.onUpdateByQuery = func([]byte) (int, any) {
		return 404, esErr("index_not_found_exception", "no such index [t-contacts]", 404)
	}
	if _, err := e.UpsertCompanies(ctx, []index.CompanyDoc{acme}); err != nil {
		t.Fatalf("missing contact index: %v", err)
	}
	// Only written companies refresh their contacts.
	f.onUpdateByQuery = func([]byte) (int, any) {
		t.Error("refresh of a refused company")
		return 500, nil
	}
	f.onBulkItem = func(string, string) (int, string) { return 400, "document_parsing_exception" }
	if failed, err := e.UpsertCompanies(ctx, []index.CompanyDoc{acme}); err != nil || len(failed) != 1 {
		t.Fatalf("refused company: %v %v", failed, err)
	}
}

// TestNameMatchParity checks the name filter against the embedded engine:
// the wildcard pattern over name_folded (simulated here as the substring
// test a wildcard field makes) matches the same contacts.
func TestNameMatchParity(t *testing.T) {
	ref, err := embedded.Open(t.TempDir(), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ref.Close() })
	ctx := context.Background()
	if err := ref.SetMeta(ctx, index.Meta{EmbedderID: "test", Dimension: enginetest.Dim}); err != nil {
		t.Fatal(err)
	}
	names := []string{"Jürgen Müller", "Seán O'Brien-Straße", "ANA  GARCÍA", "Zoë Ünal", "李小龍", "Łukasz Żółw", "d'Artagnan", "Ole Ærø"}
	vec := enginetest.ContactFixtures()[0].Vector
	var docs []index.ContactDoc
	for i, n := range names {
		docs = append(docs, index.ContactDoc{Contact: record.Contact{PersonaID: int64(i + 1), Domain: "x.com", Name: n}, Vector: vec})
	}
	if _, err := ref.UpsertContacts(ctx, docs); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"mull", "MÜLLER", "o brien", "o'brien-strasse", "brien strasse", "garcia", "ana garcia", "zoe", "unal", "小龍", "lukasz", "zolw", "artagnan", "d artagnan", "ole aero", "ole", " ", "x"} {
		want, err := ref.CountContacts(ctx, index.Phrase{Field: index.NameField, Text: q})
		if err != nil {
			t.Fatal(err)
		}
		clause, err := translateContact(index.Phrase{Field: index.NameField, Text: q})
		if err != nil {
			t.Fatal(err)
		}
		got := 0
		if clause.Wildcard != nil {
			sub := strings.TrimSuffix(strings.TrimPrefix(clause.Wildcard.Value, "*"), "*")
			for _, d := range docs {
				if strings.Contains(newContactDoc(d).NameFolded, sub) {
					got++
				}
			}
		}
		if got != want {
			t.Errorf("name %q: %d matches, embedded %d", q, got, want)
		}
	}
}

func TestReindexContacts(t *testing.T) {
	old := reindexPoll
	reindexPoll = time.Millisecond
	t.Cleanup(func() { reindexPoll = old })
	f, e := openFakeContacts(t)
	res, err := e.ReindexContacts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.From != "t-contacts-v1" || res.To != "t-contacts-v2" || res.Documents != len(enginetest.ContactFixtures()) {
		t.Fatalf("ReindexContacts = %+v", res)
	}
	if f.aliases["t-contacts"] != "t-contacts-v2" || f.aliases["t-companies"] != "t-companies-v1" {
		t.Fatalf("aliases after ReindexContacts: %v", f.aliases)
	}
	if got, _ := e.GetContacts(context.Background(), []int64{10}); len(got) != 1 {
		t.Fatal("contacts not reachable through the moved alias")
	}
}
