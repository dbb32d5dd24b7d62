package embedded

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/record"
)

// discoveryDefaults is the shape of discovery's default filter: a group
// evalAll keeps, plus the request's own example domains and a phrase.
func discoveryDefaults(extra ...index.Filter) index.And {
	f := index.And{
		index.Terms{Field: index.StatusField, Values: []string{"active"}},
		index.Or{index.Range{Field: index.ScoreField, Min: index.IntPtr(50), Max: index.IntPtr(800)},
			index.Not{Filter: index.Exists{Field: index.ScoreField}}},
		index.Not{Filter: index.Exists{Field: index.RedirectField}},
	}
	return append(f, extra...)
}

func TestEvalAllKeepsTheGroup(t *testing.T) {
	e, docs := openFixtures(t)
	ctx := context.Background()
	// domainsOf evaluates f over every live company, through eval (which
	// keeps the group) or evalAnd (which does not).
	domainsOf := func(f index.Filter, viaCache bool) []string {
		t.Helper()
		e.mu.RLock()
		defer e.mu.RUnlock()
		var bm *roaring.Bitmap
		var err error
		if viaCache {
			bm, err = e.eval(f, e.live)
		} else {
			bm, err = e.evalAnd(f.(index.And), e.live)
		}
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, id := range bm.ToArray() {
			out = append(out, e.domains.get(id))
		}
		slices.Sort(out)
		return out
	}
	matches := func(f index.Filter) []string { return domainsOf(f, true) }
	direct := func(f index.And) []string { return domainsOf(f, false) }
	for _, tc := range []struct {
		name string
		f    index.And
		want []string
	}{
		{"defaults", discoveryDefaults(), []string{"acme.com", "brightbank.co.uk", "cloudguard.io", "wachdienst.de"}},
		{"seeds excluded", discoveryDefaults(index.Not{Filter: index.Terms{Field: index.DomainField, Values: []string{"acme.com", "nosuch.org"}}}),
			[]string{"brightbank.co.uk", "cloudguard.io", "wachdienst.de"}},
		{"with a phrase", discoveryDefaults(index.Phrase{Field: index.TextField, Text: "bank"}), []string{"brightbank.co.uk"}},
		{"one term", index.And{index.Terms{Field: index.StatusField, Values: []string{"closed"}}}, []string{"closedco.com"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for pass := range 2 { // the second reads the kept group
				if got := matches(tc.f); !slices.Equal(got, tc.want) {
					t.Fatalf("pass %d: %v, want %v", pass, got, tc.want)
				}
			}
			if got := direct(tc.f); !slices.Equal(got, tc.want) {
				t.Fatalf("without the cache: %v, want %v", got, tc.want)
			}
		})
	}
	e.rangeMu.Lock()
	kept := 0
	for k := range e.rangeCache {
		if strings.HasPrefix(k, "f:") {
			kept++
		}
	}
	e.rangeMu.Unlock()
	if kept != 1 {
		t.Fatalf("%d groups kept, want 1 (the defaults, shared by three requests)", kept)
	}

	// A write changes the answer: the kept group must not outlive it.
	docs[1].Company.Status.Status = "closed" // wachdienst.de
	if _, err := e.UpsertCompanies(ctx, docs[1:2]); err != nil {
		t.Fatal(err)
	}
	if got, want := matches(discoveryDefaults()), []string{"acme.com", "brightbank.co.uk", "cloudguard.io"}; !slices.Equal(got, want) {
		t.Fatalf("after a write: %v, want %v", got, want)
	}
}

func TestCacheKey(t *testing.T) {
	key := func(f index.Filter) (string, bool) {
		var b strings.Builder
		ok := cacheKey(&b, f)
		return b.String(), ok
	}
	distinct := []index.Filter{
		index.Terms{Field: index.StatusField, Values: []string{"active"}},
		index.Terms{Field: index.StatusField, Values: []string{"active", "closed"}},
		index.Terms{Field: index.StatusField, Values: []string{"active|closed"}},
		index.Terms{Field: index.CountryField, Values: []string{"active"}},
		index.Terms{Field: index.DomainField, Key: "list-1", Values: []string{"a.com"}},
		index.Range{Field: index.ScoreField, Min: index.IntPtr(50)},
		index.Range{Field: index.ScoreField, Max: index.IntPtr(50)},
		index.DateRange{Field: index.StartDateField, From: "2020-01-01"},
		index.DateRange{Field: index.StartDateField, To: "2020-01-01"},
		index.Exists{Field: index.PhoneField},
		index.Not{Filter: index.Exists{Field: index.PhoneField}},
		index.And{index.Exists{Field: index.PhoneField}, index.Exists{Field: index.EmailField}},
		index.Or{index.Exists{Field: index.PhoneField}, index.Exists{Field: index.EmailField}},
		index.And{index.Or{index.Exists{Field: index.PhoneField}}, index.Exists{Field: index.EmailField}},
		index.And{index.Or{index.Exists{Field: index.PhoneField}, index.Exists{Field: index.EmailField}}},
	}
	seen := map[string]int{}
	for i, f := range distinct {
		k, ok := key(f)
		if !ok {
			t.Fatalf("%d (%#v): not kept", i, f)
		}
		if j, dup := seen[k]; dup {
			t.Fatalf("%d and %d share the key %q", j, i, k)
		}
		seen[k] = i
	}
	for _, f := range []index.Filter{
		index.Terms{Field: index.DomainField, Values: []string{"a.com"}},
		index.Phrase{Field: index.TextField, Text: "bank"},
		index.Not{Filter: index.Phrase{Field: index.TextField, Text: "bank"}},
		index.And{index.Exists{Field: index.PhoneField}, index.Terms{Field: index.DomainField, Values: []string{"a.com"}}},
	} {
		if _, ok := key(f); ok {
			t.Fatalf("%#v kept: it differs per request or reads documents", f)
		}
	}
}

// TestSignCopyScreen checks the screen over a kept set's copy of sketches
// against the screen over the index's own: the same hits, similarities and
// totals for a posting list, a kept group, a group with further terms
// that cut a few of it (and too many), with and without a similarity
// floor; the copies made where they should be, within signCopyMax, and
// dropped by a write, after which a new company is found.
func TestSignCopyScreen(t *testing.T) {
	e := screenFixture(t, 11)
	ctx := context.Background()
	us := index.Terms{Field: index.CountryField, Values: []string{"US"}}
	scored := index.Range{Field: index.ScoreField, Min: index.IntPtr(1), Max: index.IntPtr(600)}
	usIDs, err := e.eval(us, e.live)
	if err != nil {
		t.Fatal(err)
	}
	// Domains of US companies to exclude: a few, and a sixth of them.
	var few, many []string
	for i, id := range usIDs.ToArray() {
		if i%300 == 0 {
			few = append(few, e.domains.get(id))
		}
		if i%6 == 0 {
			many = append(many, e.domains.get(id))
		}
	}
	for _, tc := range []struct {
		name     string
		f        index.Filter
		wantCopy bool
	}{
		{"posting list", us, true},
		{"kept group", index.And{us, scored}, true},
		{"group less a few", index.And{us, scored, index.Not{Filter: index.Terms{Field: index.DomainField, Values: few}}}, true},
		{"posting list less a few", index.And{us, index.Not{Filter: index.Terms{Field: index.DomainField, Values: few}}}, true},
		{"group less a sixth", index.And{us, scored, index.Not{Filter: index.Terms{Field: index.DomainField, Values: many}}}, false},
		{"two countries", index.Terms{Field: index.CountryField, Values: []string{"US", "GB"}}, false},
	} {
		for _, mix := range []bool{false, true} {
			for _, q := range benchQueries(e, 5, mix, 3) {
				// Floors from the query's own ranking: one that cuts within
				// the pool, one far below it (the total then estimated
				// from a sample).
				top, err := e.SearchCompanies(ctx, index.Search{Vector: q, Filter: tc.f, Limit: 100})
				if err != nil || len(top.Hits) < 100 {
					t.Fatalf("%s: %d hits, %v", tc.name, len(top.Hits), err)
				}
				for _, s := range []index.Search{{Limit: 10}, {Limit: 30}, {Limit: 20, MinSimilarity: top.Hits[30].Similarity},
					{Limit: 20, MinSimilarity: top.Hits[99].Similarity - 0.2}} {
					s.Vector, s.Filter = q, tc.f
					want := searchWithoutCopy(t, e, s)
					var plans [3]uint64
					for p := range plans {
						plans[p] = e.ann.plans[p].Load()
					}
					got, err := e.SearchCompanies(ctx, s)
					if err != nil {
						t.Fatal(err)
					}
					if e.ann.plans[planScreen].Load() != plans[planScreen]+1 {
						t.Fatalf("%s: not the screen's plan", tc.name)
					}
					sameHits(t, fmt.Sprintf("%s mix=%v floor %v", tc.name, mix, s.MinSimilarity), got, want)
				}
			}
		}
		e.rangeMu.Lock()
		copies := len(e.signCopies)
		e.rangeMu.Unlock()
		if (copies > 0) != tc.wantCopy {
			t.Errorf("%s: %d copies, want a copy %v", tc.name, copies, tc.wantCopy)
		}
		e.mu.Lock()
		e.dropSignCopies()
		e.mu.Unlock()
	}

	// Within signCopyMax: a second set that would pass it empties the
	// first.
	c := int(usIDs.GetCardinality())
	old := signCopyMax
	signCopyMax = c*signCopyBytes + 100
	q := benchQueries(e, 1, false, 4)[0]
	for _, f := range []index.Filter{us, index.And{us, scored}} {
		if _, err := e.SearchCompanies(ctx, index.Search{Vector: q, Filter: f, Limit: 10}); err != nil {
			t.Fatal(err)
		}
		if e.signCopyUsed > signCopyMax || len(e.signCopies) != 1 {
			t.Fatalf("%d copies of %d bytes, at most %d", len(e.signCopies), e.signCopyUsed, signCopyMax)
		}
	}
	signCopyMax = old

	// A write drops the copies; the new company is found.
	if _, err := e.SearchCompanies(ctx, index.Search{Vector: q, Filter: us, Limit: 10}); err != nil {
		t.Fatal(err)
	}
	doc := index.CompanyDoc{Vector: q, Company: record.Company{Domain: "newcomer.com", Name: "N", Score: 10, Address: record.Address{Country: "US"}}}
	if _, err := e.UpsertCompanies(ctx, []index.CompanyDoc{doc}); err != nil {
		t.Fatal(err)
	}
	if e.signCopies != nil {
		t.Fatal("a write kept the copies")
	}
	res, err := e.SearchCompanies(ctx, index.Search{Vector: q, Filter: us, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) == 0 || res.Hits[0].Company.Domain != "newcomer.com" {
		t.Fatalf("after the write: %d hits, not the new company first", len(res.Hits))
	}
	if len(e.signCopies) != 1 {
		t.Fatalf("after the write: %d copies, want the new one", len(e.signCopies))
	}
}

// TestSignCopyRenumber checks that renumbering the slots (Close's list
// order) drops the copies, whose ids are the old slots: the screen's
// answers after it are those without a copy.
func TestSignCopyRenumber(t *testing.T) {
	e := buildANN(t, t.TempDir(), 20_000, 23)
	defer e.Close()
	lowerScreen(t)
	ctx := context.Background()
	f := index.Terms{Field: index.CountryField, Values: []string{"US"}}
	queries := benchQueries(e, 5, true, 6)
	for _, q := range queries {
		if _, err := e.SearchCompanies(ctx, index.Search{Vector: q, Filter: f, Limit: 10}); err != nil {
			t.Fatal(err)
		}
	}
	if len(e.signCopies) != 1 {
		t.Fatalf("%d copies before the renumbering, want 1", len(e.signCopies))
	}
	renumberInListOrder(t, e)
	if e.signCopies != nil {
		t.Fatal("the renumbering kept the copies")
	}
	for _, q := range queries {
		s := index.Search{Vector: q, Filter: f, Limit: 10}
		want := searchWithoutCopy(t, e, s)
		got, err := e.SearchCompanies(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		sameHits(t, "after the renumbering", got, want)
	}
}

// searchWithoutCopy is SearchCompanies with no copy of sketches made or
// read (signCopyMax 0).
func searchWithoutCopy(t *testing.T, e *Engine, s index.Search) index.Result {
	t.Helper()
	old := signCopyMax
	signCopyMax = 0
	defer func() { signCopyMax = old }()
	res, err := e.SearchCompanies(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// sameHits fails unless got and want have the same total and the same
// hits (domains and similarities) in the same order, at least one.
func sameHits(t *testing.T, what string, got, want index.Result) {
	t.Helper()
	if got.Total != want.Total || len(got.Hits) != len(want.Hits) || len(got.Hits) == 0 {
		t.Fatalf("%s: total %d, %d hits; without the copy %d, %d", what, got.Total, len(got.Hits), want.Total, len(want.Hits))
	}
	for i := range got.Hits {
		if got.Hits[i].Company.Domain != want.Hits[i].Company.Domain || got.Hits[i].Similarity != want.Hits[i].Similarity {
			t.Fatalf("%s: hit %d %s %v, without the copy %s %v", what, i,
				got.Hits[i].Company.Domain, got.Hits[i].Similarity, want.Hits[i].Company.Domain, want.Hits[i].Similarity)
		}
	}
}

// TestSignCopyConcurrent runs screened searches over several kept sets at
// once with room for one copy at a time (each copy empties the others),
// for the race detector, and checks every answer against the search
// without copies.
func TestSignCopyConcurrent(t *testing.T) {
	e := screenFixture(t, 12)
	us := index.Terms{Field: index.CountryField, Values: []string{"US"}}
	filters := []index.Filter{us,
		index.And{us, index.Range{Field: index.ScoreField, Min: index.IntPtr(1), Max: index.IntPtr(600)}},
		index.And{us, index.Range{Field: index.ScoreField, Min: index.IntPtr(100), Max: index.IntPtr(800)}}}
	queries := benchQueries(e, 4, true, 8)
	want := make([][]index.Result, len(filters))
	for i, f := range filters {
		for _, q := range queries {
			want[i] = append(want[i], searchWithoutCopy(t, e, index.Search{Vector: q, Filter: f, Limit: 10}))
		}
	}
	old := signCopyMax
	signCopyMax = 7000 * signCopyBytes // one of the sets at a time
	defer func() { signCopyMax = old }()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range 6 {
				i, j := (g+r)%len(filters), r%len(queries)
				got, err := e.SearchCompanies(context.Background(), index.Search{Vector: queries[j], Filter: filters[i], Limit: 10})
				if err != nil {
					errs <- err
					return
				}
				if len(got.Hits) != len(want[i][j].Hits) || got.Total != want[i][j].Total {
					errs <- fmt.Errorf("filter %d query %d: %d hits total %d, without copies %d, %d", i, j, len(got.Hits), got.Total, len(want[i][j].Hits), want[i][j].Total)
					return
				}
				for h := range got.Hits {
					if got.Hits[h].Company.Domain != want[i][j].Hits[h].Company.Domain {
						errs <- fmt.Errorf("filter %d query %d: hit %d differs", i, j, h)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// screenFixture builds 20,000 clustered companies (closed when the test
// ends) and lowers the planner's thresholds (lowerScreen).
func screenFixture(t *testing.T, seed uint64) *Engine {
	t.Helper()
	e, err := buildClustered(t.TempDir(), 20_000, 256, seed)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	lowerScreen(t)
	return e
}

// lowerScreen makes filters of 2,000 candidates and more (a tenth of
// 20,000) take the screen, until the test ends.
func lowerScreen(t *testing.T) {
	oldExact, oldPool, oldRescore := exactMax, poolMin, rescoreMin
	exactMax, poolMin, rescoreMin = 2000, 800, 40
	t.Cleanup(func() { exactMax, poolMin, rescoreMin = oldExact, oldPool, oldRescore })
}
