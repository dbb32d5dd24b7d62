package embedded

import (
	"context"
	"errors"
	"testing"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/enginetest"
)

func openTemp(t *testing.T) *Engine {
	t.Helper()
	e, err := Open(t.TempDir(), Options{})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// openFixtures is openTemp holding the conformance fixtures.
func openFixtures(t *testing.T) (*Engine, []index.CompanyDoc) {
	t.Helper()
	e := openTemp(t)
	ctx := context.Background()
	if err := e.SetMeta(ctx, index.Meta{EmbedderID: "x", Dimension: enginetest.Dim}); err != nil {
		t.Fatal(err)
	}
	docs := enginetest.Fixtures()
	if _, err := e.UpsertCompanies(ctx, docs); err != nil {
		t.Fatal(err)
	}
	return e, docs
}

func TestConformance(t *testing.T) {
	enginetest.RunAll(t, func(t *testing.T) index.Engine { return openTemp(t) })
}

func TestReopenKeepsEverything(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	e, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.SetMeta(ctx, index.Meta{EmbedderID: "x", Dimension: enginetest.Dim, Model: []byte("model")}); err != nil {
		t.Fatal(err)
	}
	docs := enginetest.Fixtures()
	if _, err := e.UpsertCompanies(ctx, docs); err != nil {
		t.Fatal(err)
	}
	if _, err := e.DeleteCompanies(ctx, []string{"tinyleads.net"}); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir, Options{}); !errors.Is(err, index.ErrLocked) {
		t.Fatalf("second Open of a held dir: err = %v, want ErrLocked", err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}

	e2, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e2.Close()
	m, err := e2.Meta(ctx)
	if err != nil || m.EmbedderID != "x" || string(m.Model) != "model" {
		t.Fatalf("meta after reopen: %+v %v", m, err)
	}
	if n, _ := e2.CountCompanies(ctx, nil); n != len(docs)-1 {
		t.Fatalf("count after reopen = %d, want %d", n, len(docs)-1)
	}
	n, _ := e2.CountCompanies(ctx, index.Terms{Field: index.IndustryField, Values: []string{"CYBERSECURITY"}})
	if n != 3 {
		t.Fatalf("industry postings after reopen: %d, want 3", n)
	}
	res, err := e2.SearchCompanies(ctx, index.Search{Vector: docs[2].Vector, Limit: 1})
	if err != nil || len(res.Hits) != 1 || res.Hits[0].Company.Domain != "brightbank.co.uk" {
		t.Fatalf("vector search after reopen: %+v %v", res.Hits, err)
	}
}

func TestSetMetaRefusesDimensionChange(t *testing.T) {
	e := openTemp(t)
	ctx := context.Background()
	if err := e.SetMeta(ctx, index.Meta{EmbedderID: "a", Dimension: enginetest.Dim}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.UpsertCompanies(ctx, enginetest.Fixtures()); err != nil {
		t.Fatal(err)
	}
	if err := e.SetMeta(ctx, index.Meta{EmbedderID: "b", Dimension: 16}); !errors.Is(err, index.ErrVectorMismatch) {
		t.Fatalf("dimension change on a non-empty index: %v", err)
	}
}

func TestUpsertWithoutMeta(t *testing.T) {
	e := openTemp(t)
	if _, err := e.UpsertCompanies(context.Background(), enginetest.Fixtures()); !errors.Is(err, index.ErrInvalid) {
		t.Fatalf("upsert before SetMeta: %v", err)
	}
}

func FuzzEntryCodec(f *testing.F) {
	en := entry{vector: []float32{1, 2}, score: 5, start: 100, flags: 3}
	en.terms[0] = []string{"a.com"}
	f.Add(en.marshal(nil))
	f.Add([]byte{1, 200, 1})
	f.Fuzz(func(t *testing.T, b []byte) {
		var e entry
		if err := e.unmarshal(b); err != nil {
			return
		}
		var back entry
		if err := back.unmarshal(e.marshal(nil)); err != nil {
			t.Fatalf("re-decode of a decoded entry failed: %v", err)
		}
	})
}

// TestConformanceCachedRanges runs the suite with every range filter
// answered from the whole-index cache, and checks that writes clear it.
func TestConformanceCachedRanges(t *testing.T) {
	old := numericCacheMin
	numericCacheMin = 0
	t.Cleanup(func() { numericCacheMin = old })
	enginetest.RunAll(t, func(t *testing.T) index.Engine { return openTemp(t) })

	e, docs := openFixtures(t)
	ctx := context.Background()
	high := index.Range{Field: index.ScoreField, Min: index.IntPtr(500)}
	before, err := e.CountCompanies(ctx, high)
	if err != nil {
		t.Fatal(err)
	}
	docs[0].Company.Score = 799 // acme.com: 420 -> 799
	if _, err := e.UpsertCompanies(ctx, docs[:1]); err != nil {
		t.Fatal(err)
	}
	after, err := e.CountCompanies(ctx, high)
	if err != nil || after != before+1 {
		t.Fatalf("after raising a score: %d (was %d), %v: a stale cached range", after, before, err)
	}
}

func TestContactConformance(t *testing.T) {
	enginetest.RunContacts(t, func(t *testing.T) enginetest.ContactBackend { return openTemp(t) })
}

func TestContactsSurviveReopen(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	e, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.SetMeta(ctx, index.Meta{EmbedderID: "x", Dimension: enginetest.Dim}); err != nil {
		t.Fatal(err)
	}
	docs := enginetest.ContactFixtures()
	if _, err := e.UpsertContacts(ctx, docs); err != nil {
		t.Fatal(err)
	}
	if _, err := e.DeleteContacts(ctx, []int64{2}); err != nil {
		t.Fatal(err)
	}
	e.Close()
	e, err = Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if err := e.LoadContacts(); err != nil {
		t.Fatal(err)
	}
	if n, _ := e.CountContacts(ctx, index.Exists{Field: index.MobileField}); n != 1 {
		t.Errorf("mobile after reopen: %d", n)
	}
	if n, _ := e.CountContacts(ctx, nil); n != len(docs)-1 {
		t.Errorf("%d contacts after reopen, want %d", n, len(docs)-1)
	}
	res, err := e.SearchContacts(ctx, index.ContactSearch{Vector: docs[0].Vector, Limit: 1})
	if err != nil || len(res.Hits) != 1 || res.Hits[0].Contact.PersonaID != 1 {
		t.Fatalf("search after reopen: %+v %v", res, err)
	}
}

// TestFound holds found to its contract with many reads in flight: the
// records in key order, the missing ones skipped, the first error (in key
// order) returned.
func TestFound(t *testing.T) {
	boom := errors.New("boom")
	for _, tc := range []struct {
		name    string
		n       int
		missing func(k int) bool
		failAt  int // -1: none
		want    int
	}{
		{"empty", 0, func(int) bool { return false }, -1, 0},
		{"one", 1, func(int) bool { return false }, -1, 1},
		{"many", 500, func(int) bool { return false }, -1, 500},
		{"some missing", 500, func(k int) bool { return k%3 == 0 }, -1, 333},
		{"an error", 500, func(int) bool { return false }, 321, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			keys := make([]int, tc.n)
			for i := range keys {
				keys[i] = i
			}
			got, err := found(keys, func(k int) (int, error) {
				switch {
				case k == tc.failAt:
					return 0, boom
				case tc.missing(k):
					return 0, index.ErrNotFound
				}
				return 10 * k, nil
			})
			if tc.failAt >= 0 {
				if !errors.Is(err, boom) {
					t.Fatalf("err = %v, want boom", err)
				}
				return
			}
			if err != nil || len(got) != tc.want {
				t.Fatalf("got %d records, err %v; want %d", len(got), err, tc.want)
			}
			prev := -1
			for _, v := range got {
				if v%10 != 0 || v <= prev || tc.missing(v/10) {
					t.Fatalf("record %d after %d: out of order or a missing key", v, prev)
				}
				prev = v
			}
		})
	}
}
