package enginetest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/record"
)

// exclusionCorpus is how many companies testExclusionList loads.
const exclusionCorpus = 3000

func exclusionDoc(domain string, i int, rng *rand.Rand) index.CompanyDoc {
	v := make([]float32, Dim)
	for j := range v {
		v[j] = float32(rng.NormFloat64())
	}
	return index.CompanyDoc{Vector: unit(v), Company: record.Company{
		Domain: domain, Name: "Company " + domain, Status: record.Status{Status: record.StatusActive, Confidence: 0.9},
		Score: 1 + i%800, Address: record.Address{Country: "US"}, UpdateDate: "2026-10-01",
	}}
}

// testExclusionList holds an engine to the saved exclusion list contract:
// a 250,000-domain list (a quarter of the corpus, the rest not indexed) is
// evaluated by the engine, so counts and totals are exact and every page
// is full; a keyed list gives the same answers as an unkeyed one, also
// after a write that adds a listed company.
func testExclusionList(t *testing.T, e index.Engine) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(15, 15))
	docs := make([]index.CompanyDoc, exclusionCorpus)
	for i := range docs {
		docs[i] = exclusionDoc(fmt.Sprintf("company%04d.com", i), i, rng)
	}
	if r, err := e.UpsertCompanies(ctx, docs); err != nil || len(r) > 0 {
		t.Fatalf("upsert: %v %+v", err, r)
	}
	var list []string
	excluded := map[string]bool{}
	for i := 0; i < exclusionCorpus; i += 4 {
		list = append(list, docs[i].Company.Domain)
		excluded[docs[i].Company.Domain] = true
	}
	for i := 0; len(list) < 250_000; i++ {
		list = append(list, fmt.Sprintf("not-indexed-%d.com", i))
	}
	kept := exclusionCorpus - len(excluded)
	for _, key := range []string{"", "saved-list-1"} {
		not := index.Not{Filter: index.Terms{Field: index.DomainField, Values: list, Key: key}}
		for round := 0; round < 2; round++ { // the second round may be served from an engine cache
			n, err := e.CountCompanies(ctx, not)
			if err != nil || n != kept {
				t.Fatalf("key %q: count excluding the list = %d (%v), want %d", key, n, err, kept)
			}
			in, err := e.CountCompanies(ctx, index.Terms{Field: index.DomainField, Values: list, Key: key})
			if err != nil || in != len(excluded) {
				t.Fatalf("key %q: count of the list = %d (%v), want %d", key, in, err, len(excluded))
			}
			// Score order: the page is the unexcluded order minus the list.
			all, err := e.SearchCompanies(ctx, index.Search{Limit: 400})
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, h := range all.Hits {
				if !excluded[h.Company.Domain] && len(want) < 100 {
					want = append(want, h.Company.Domain)
				}
			}
			page, err := e.SearchCompanies(ctx, index.Search{Filter: not, Limit: 100})
			if err != nil {
				t.Fatal(err)
			}
			if got := hitDomains(page.Hits); !slices.Equal(got, want) || page.Total != kept {
				t.Fatalf("key %q: score-ordered page of %d (total %d), want the %d next unexcluded (total %d)", key, len(got), page.Total, len(want), kept)
			}
			last, err := e.SearchCompanies(ctx, index.Search{Filter: not, Offset: kept - 30, Limit: 100})
			if err != nil || len(last.Hits) != 30 {
				t.Fatalf("key %q: last page has %d hits (%v), want 30", key, len(last.Hits), err)
			}
			// Vector order: a full page, none excluded, an exact total.
			vpage, err := e.SearchCompanies(ctx, index.Search{Filter: not, Vector: axis(2, 0.3), MinSimilarity: -2, Limit: 100})
			if err != nil {
				t.Fatal(err)
			}
			if len(vpage.Hits) != 100 || vpage.Total != kept {
				t.Fatalf("key %q: vector page of %d (total %d), want 100 (total %d)", key, len(vpage.Hits), vpage.Total, kept)
			}
			for i, h := range vpage.Hits {
				if excluded[h.Company.Domain] {
					t.Fatalf("key %q: excluded %s returned", key, h.Company.Domain)
				}
				if i > 0 && h.Similarity > vpage.Hits[i-1].Similarity {
					t.Fatalf("key %q: vector page not in similarity order at %d", key, i)
				}
			}
		}
	}
	// A write adding a listed company and an unlisted one: a keyed list
	// must not answer from a bitmap of the index before the write.
	not := index.Not{Filter: index.Terms{Field: index.DomainField, Values: list, Key: "saved-list-1"}}
	extra := []index.CompanyDoc{exclusionDoc("not-indexed-0.com", 1, rng), exclusionDoc("unlisted-new.com", 2, rng)}
	if r, err := e.UpsertCompanies(ctx, extra); err != nil || len(r) > 0 {
		t.Fatalf("upsert: %v %+v", err, r)
	}
	if n, err := e.CountCompanies(ctx, not); err != nil || n != kept+1 {
		t.Fatalf("after the write: count excluding the list = %d (%v), want %d", n, err, kept+1)
	}
	if n, err := e.CountCompanies(ctx, index.Terms{Field: index.DomainField, Values: list, Key: "saved-list-1"}); err != nil || n != len(excluded)+1 {
		t.Fatalf("after the write: count of the list = %d (%v), want %d", n, err, len(excluded)+1)
	}
}

// testContactSavedLists: keyed Terms filters on employer domain and
// persona id (saved lists) give the answers of unkeyed ones, also after
// writes that change which contacts they match.
func testContactSavedLists(t *testing.T, e ContactBackend) {
	ctx := context.Background()
	docs := loadContacts(t, e)
	total, err := e.CountContacts(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	first := docs[0].Contact
	doms := []string{first.Domain, "not-indexed.example"}
	ids := []string{strconv.FormatInt(first.PersonaID, 10), "999999999"}
	count := func(f index.Filter) int {
		t.Helper()
		n, err := e.CountContacts(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	atDomain := count(index.Terms{Field: index.DomainField, Values: doms})
	for round := 0; round < 2; round++ {
		if n := count(index.Not{Filter: index.Terms{Field: index.DomainField, Values: doms, Key: "list-d"}}); n != total-atDomain {
			t.Fatalf("round %d: excluding the domain list: %d, want %d", round, n, total-atDomain)
		}
		if n := count(index.Terms{Field: index.PersonaIDField, Values: ids, Key: "list-p"}); n != 1 {
			t.Fatalf("round %d: the persona list: %d, want 1", round, n)
		}
	}
	// The listed persona deleted, then a new contact at the listed domain
	// (which may take the deleted contact's slot).
	added := docs[0]
	added.Contact.PersonaID, added.Contact.Name = 987654321, "New Hire"
	added.Contact.Email, added.Contact.SocialURLs = "", nil
	if _, err := e.DeleteContacts(ctx, []int64{first.PersonaID}); err != nil {
		t.Fatal(err)
	}
	if n := count(index.Terms{Field: index.DomainField, Values: doms, Key: "list-d"}); n != atDomain-1 {
		t.Fatalf("after the delete: contacts at the listed domain %d, want %d", n, atDomain-1)
	}
	if n := count(index.Terms{Field: index.PersonaIDField, Values: ids, Key: "list-p"}); n != 0 {
		t.Fatalf("after deleting the listed contact: the persona list matches %d", n)
	}
	if failed, err := e.UpsertContacts(ctx, []index.ContactDoc{added}); err != nil || len(failed) > 0 {
		t.Fatalf("upsert: %v %v", failed, err)
	}
	if n := count(index.Terms{Field: index.DomainField, Values: doms, Key: "list-d"}); n != atDomain {
		t.Fatalf("after the writes: contacts at the listed domain %d, want %d", n, atDomain)
	}
	if n := count(index.Terms{Field: index.PersonaIDField, Values: ids, Key: "list-p"}); n != 0 {
		t.Fatalf("after deleting the listed contact: the persona list matches %d", n)
	}
}
