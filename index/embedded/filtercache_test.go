package embedded

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/openprospect/prospectd/index"
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
