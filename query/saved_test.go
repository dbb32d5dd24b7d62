package query

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"testing"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/embedding"
)

// savedLists is a fake of the saved-query store: id -> list.
func savedLists(lists map[string]SavedQuery) func(context.Context, string) (SavedQuery, bool, error) {
	return func(_ context.Context, id string) (SavedQuery, bool, error) {
		q, ok := lists[id]
		return q, ok, nil
	}
}

func domainsOf(res Result) []string {
	var out []string
	for _, m := range res.Matches {
		out = append(out, m.Company.Domain)
	}
	return out
}

func TestSavedQueryScopes(t *testing.T) {
	base, _ := corpus(t)
	const filters = "min_digital_footprint=0&exclude_leadgen=false&redirect=true"
	ctx := context.Background()
	for _, search := range []string{"", "&icp_text=payroll+software+for+small+businesses"} {
		t.Run("search"+search, func(t *testing.T) {
			all := discover(t, base, filters+search+"&max_records=10000")
			n := all.Total
			if n < 100 {
				t.Fatalf("corpus too small: %d", n)
			}
			top := domainsOf(all)[:40] // the best results: an exclusion must refill the page
			incl := append(slices.Clone(domainsOf(all)[200:207]), "not-indexed-anywhere.com")
			svc := &Companies{Engine: base.Engine, Saved: savedLists(map[string]SavedQuery{
				"top":     {Domains: top},
				"incl":    {Domains: incl},
				"over":    {Domains: top, OverCap: true},
				"persons": {PersonaIDs: []int64{1, 2}},
			})}

			res := discover(t, svc, filters+search+"&exclusion_query_id=top&max_records=10")
			if len(res.Matches) != 10 {
				t.Fatalf("page of %d after excluding the top 40, want a full page of 10", len(res.Matches))
			}
			if res.Total != n-40 {
				t.Fatalf("total %d with exclusion, want %d - 40", res.Total, n)
			}
			for _, d := range domainsOf(res) {
				if slices.Contains(top, d) {
					t.Fatalf("excluded %s returned", d)
				}
			}
			if want := domainsOf(all)[40:50]; !slices.Equal(domainsOf(res), want) {
				t.Fatalf("page %v, want the next results %v", domainsOf(res), want)
			}
			cnt, _, err := svc.Count(ctx, mustParse(t, filters+search+"&exclusion_query_id=top"))
			if err != nil || cnt != n-40 {
				t.Fatalf("count with exclusion = %d (%v), want %d", cnt, err, n-40)
			}

			res = discover(t, svc, filters+search+"&inclusion_query_id=incl&max_records=100")
			if got := domainsOf(res); len(got) != 7 || res.Total != 7 {
				t.Fatalf("inclusion gave %v (total %d), want the 7 indexed domains of the list", got, res.Total)
			}
			res = discover(t, svc, filters+search+"&inclusion_query_id=incl,top&exclusion_query_id=top&max_records=100")
			if res.Total != 7 {
				t.Fatalf("inclusion of two lists minus one: total %d, want 7", res.Total)
			}
			if res = discover(t, svc, filters+search+"&inclusion_query_id=persons"); res.Total != 0 {
				t.Fatalf("a persona-only list scopes no company: total %d", res.Total)
			}
			if res = discover(t, svc, filters+search+"&inclusion_query_id=over&max_records=100"); res.Total != 40 {
				t.Fatalf("an over-cap list may include: total %d", res.Total)
			}

			_, err = svc.Discover(ctx, mustParse(t, filters+search+"&exclusion_query_id=over"))
			var qe *Error
			if !errors.As(err, &qe) || qe.Status != http.StatusBadRequest || qe.Params[0].Param != "exclusion_query_id" {
				t.Fatalf("over-cap exclusion: %v", err)
			}
			_, err = svc.Discover(ctx, mustParse(t, filters+search+"&exclusion_query_id=nope&inclusion_query_id=incl&exclusion_query_id=gone"))
			if !errors.As(err, &qe) || qe.Status != http.StatusNotFound || len(qe.Params) != 2 {
				t.Fatalf("unknown ids: %v", err)
			}
			// Without a resolver every id is unknown, never ignored.
			if _, err := base.Discover(ctx, mustParse(t, filters+search+"&inclusion_query_id=incl")); !errors.As(err, &qe) || qe.Status != http.StatusNotFound {
				t.Fatalf("no resolver: %v", err)
			}
		})
	}
}

// contactCorpus is the query corpus with the contacts of its first 300
// companies loaded.
func contactCorpus(t *testing.T) (*Companies, index.ContactEngine) {
	t.Helper()
	base, _ := corpus(t)
	ce := base.Engine.(index.ContactEngine)
	if n, _ := ce.CountContacts(context.Background(), nil); n == 0 {
		var docs []index.ContactDoc
		emb, err := base.embedder(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 300; i++ {
			for _, c := range fixture.gen.ContactsOf(i) {
				docs = append(docs, index.ContactDoc{Contact: c, Vector: emb.Embed(embedding.ContactDocOf(c))})
			}
		}
		if _, err := ce.UpsertContacts(context.Background(), docs); err != nil {
			t.Fatal(err)
		}
	}
	return base, ce
}

func TestSavedQueryContactScopes(t *testing.T) {
	base, ce := contactCorpus(t)
	ctx := context.Background()
	total, err := ce.CountContacts(ctx, nil)
	if err != nil || total < 100 {
		t.Fatalf("%d contacts (%v)", total, err)
	}
	page, err := ce.SearchContacts(ctx, index.ContactSearch{Limit: 60})
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	var doms []string
	for _, h := range page.Hits {
		if len(ids) < 5 {
			ids = append(ids, h.Contact.PersonaID)
		}
		if !slices.Contains(doms, h.Contact.Domain) && len(doms) < 3 {
			doms = append(doms, h.Contact.Domain)
		}
	}
	atDoms, _ := ce.CountContacts(ctx, index.Terms{Field: index.DomainField, Values: doms})
	persons := make([]string, len(ids))
	for i, id := range ids {
		persons[i] = strconv.FormatInt(id, 10)
	}
	overlap, _ := ce.CountContacts(ctx, index.And{index.Terms{Field: index.DomainField, Values: doms}, index.Terms{Field: index.PersonaIDField, Values: persons}})
	svc := &ContactService{Engine: ce, Companies: &Companies{Engine: base.Engine, Saved: savedLists(map[string]SavedQuery{
		"people":    {PersonaIDs: ids, Domains: []string{"unrelated.com"}},
		"companies": {Domains: doms},
		"over":      {Domains: doms, OverCap: true},
	})}}
	for _, tc := range []struct {
		body string
		want int
	}{
		{`{}`, total},
		{`{"exclusion_query_id": "people"}`, total - len(ids)},
		{`{"exclusion_query_id": ["companies"]}`, total - atDoms},
		{`{"exclusion_query_id": "people,companies"}`, total - atDoms - len(ids) + overlap},
		{`{"inclusion_query_id": "people"}`, len(ids)},
		{`{"inclusion_query_id": "companies"}`, atDoms},
		{`{"inclusion_query_id": ["people", "companies"]}`, atDoms + len(ids) - overlap},
		{`{"inclusion_query_id": "people", "exclusion_query_id": "people"}`, 0},
	} {
		d, err := ParseContactBody([]byte(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		got, err := svc.Count(ctx, d)
		if err != nil || got != tc.want {
			t.Errorf("%s: count %d (%v), want %d", tc.body, got, err, tc.want)
		}
	}
	d, _ := ParseContactBody([]byte(`{"exclusion_query_id": "people", "max_records": 20}`))
	res, err := svc.Discover(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, g := range res.Groups {
		for _, c := range g.Contacts {
			n++
			if slices.Contains(ids, c.Contact.PersonaID) {
				t.Fatalf("excluded contact %d returned", c.Contact.PersonaID)
			}
		}
	}
	if n != 20 || res.TotalContacts != total-len(ids) {
		t.Fatalf("%d contacts returned (total %d), want a full page of 20 of %d", n, res.TotalContacts, total-len(ids))
	}
	for _, body := range []string{`{"exclusion_query_id": "over"}`, `{"inclusion_query_id": "nope"}`} {
		d, _ := ParseContactBody([]byte(body))
		_, err := svc.Count(ctx, d)
		var qe *Error
		if !errors.As(err, &qe) || (qe.Status != http.StatusBadRequest && qe.Status != http.StatusNotFound) {
			t.Errorf("%s: %v", body, err)
		}
	}
}
