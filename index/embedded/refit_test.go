package embedded

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"testing"

	"github.com/cockroachdb/pebble"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/enginetest"
	"github.com/openprospect/prospectd/record"
)

func TestRefitConformance(t *testing.T) {
	var engines []*Engine
	enginetest.RunRefit(t, func(t *testing.T) index.Engine {
		e := openTemp(t)
		engines = append(engines, e)
		return e
	}, enginetest.RefitOptions{})
	// The contacts' sign sketches (the grouped search's sketch plan) are
	// the new codes'.
	for _, e := range engines {
		x, err := e.contactIdx()
		if err != nil || x.dim == 0 {
			continue
		}
		want := make([]uint64, signWords(x.dim))
		for _, id := range x.live.ToArray() {
			sketch(x.vecOf(id), want)
			if !slices.Equal(x.signOf(id), want) {
				t.Errorf("contact %d after the refit: sketch %x, its codes' %x", x.persona[id], x.signOf(id), want)
			}
		}
	}
}

// refitChildEnv names the data dir of a child process that refits and is
// killed midway (TestRefitKilledMidway).
const refitChildEnv = "PROSPECTD_REFIT_CHILD_DIR"

func constVec(dim int, x float32) []float32 {
	v := make([]float32, dim)
	v[0] = x
	if x == 0 {
		v[1] = 1
	}
	return v
}

func killRefit(where string) index.Refit {
	batches := 0
	vecs := func(n int) [][]float32 {
		out := make([][]float32, n)
		for i := range out {
			out[i] = constVec(12, 1)
		}
		return out
	}
	r := index.Refit{
		Meta:      index.Meta{EmbedderID: "new-embedder", Dimension: 12},
		BatchSize: 10,
		Companies: func(_ context.Context, cs []record.Company) ([][]float32, error) {
			if batches++; where == "staging" && batches == 3 {
				os.Exit(3) // killed with vectors staged
			}
			return vecs(len(cs)), nil
		},
		Contacts: func(_ context.Context, cs []record.Contact) ([][]float32, error) { return vecs(len(cs)), nil },
	}
	if where == "swap" {
		testHookBeforeSwap = func() { os.Exit(3) }
	}
	return r
}

// TestRefitKilledMidway kills a refitting process (while staging, and
// just before the swap's commit), then checks that the reopened index
// serves the old generation whole and that a retry completes.
func TestRefitKilledMidway(t *testing.T) {
	if dir := os.Getenv(refitChildEnv); dir != "" {
		e, err := Open(dir, Options{})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		_, err = e.Refit(context.Background(), killRefit(os.Getenv(refitChildEnv+"_AT")))
		fmt.Fprintln(os.Stderr, "refit returned", err)
		os.Exit(1)
	}
	for _, where := range []string{"staging", "swap"} {
		t.Run(where, func(t *testing.T) {
			ctx := context.Background()
			dir := t.TempDir()
			e, err := Open(dir, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := e.SetMeta(ctx, index.Meta{EmbedderID: "old-embedder", Dimension: enginetest.Dim}); err != nil {
				t.Fatal(err)
			}
			var docs []index.CompanyDoc
			for i := range 100 {
				docs = append(docs, index.CompanyDoc{Vector: constVec(enginetest.Dim, 0), Company: record.Company{Domain: fmt.Sprintf("c%03d.com", i), Name: "C", Score: 100 + i}})
			}
			if _, err := e.UpsertCompanies(ctx, docs); err != nil {
				t.Fatal(err)
			}
			if err := e.Close(); err != nil {
				t.Fatal(err)
			}

			cmd := exec.Command(os.Args[0], "-test.run=^TestRefitKilledMidway$")
			cmd.Env = append(os.Environ(), refitChildEnv+"="+dir, refitChildEnv+"_AT="+where)
			out, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 3 {
				t.Fatalf("child: %v\n%s", err, out)
			}

			e, err = Open(dir, Options{})
			if err != nil {
				t.Fatalf("reopen after the kill: %v", err)
			}
			defer e.Close()
			if m, _ := e.Meta(ctx); m.EmbedderID != "old-embedder" || m.Dimension != enginetest.Dim {
				t.Fatalf("meta after the kill = %+v, want the old generation", m)
			}
			if e.refitMarked() {
				t.Fatal("refit marker left after reopen")
			}
			lo, hi := stagedRange(prefixStagedCompany)
			it, _ := e.db.NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: hi})
			if it.First() {
				t.Fatal("staged vectors left after reopen")
			}
			it.Close()
			res, err := e.SearchCompanies(ctx, index.Search{Vector: constVec(enginetest.Dim, 0), Limit: 200})
			if err != nil || len(res.Hits) != 100 {
				t.Fatalf("old generation after the kill: %d hits, %v", len(res.Hits), err)
			}

			r := killRefit("none")
			if _, err := e.Refit(ctx, r); err != nil {
				t.Fatalf("retry: %v", err)
			}
			if m, _ := e.Meta(ctx); m.EmbedderID != "new-embedder" {
				t.Fatalf("meta after the retry = %+v", m)
			}
			res, err = e.SearchCompanies(ctx, index.Search{Vector: constVec(12, 1), Limit: 200})
			if err != nil || len(res.Hits) != 100 || res.Hits[0].Similarity < 0.99 {
				t.Fatalf("new generation: %d hits, %v", len(res.Hits), err)
			}
		})
	}
}

// TestRefitLoadedContacts refits an index whose contacts were loaded at
// open (found through the sorted persona column, not the map of later
// writes): every one gets its new vector and sketch, and the result counts
// them all.
func TestRefitLoadedContacts(t *testing.T) {
	dir := t.TempDir()
	var docs []index.ContactDoc
	for i := range 50 {
		docs = append(docs, index.ContactDoc{Vector: constVec(enginetest.Dim, 0),
			Contact: record.Contact{PersonaID: int64(i + 1), Domain: fmt.Sprintf("c%d.com", i%5), Name: "Ann Lee"}})
	}
	storeContacts(t, dir, docs)
	e, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ctx := context.Background()
	// One contact written after the load, so both lookups are exercised.
	if _, err := e.UpsertContacts(ctx, []index.ContactDoc{{Vector: constVec(enginetest.Dim, 0),
		Contact: record.Contact{PersonaID: 99, Domain: "c9.com", Name: "Bo Day"}}}); err != nil {
		t.Fatal(err)
	}
	res, err := e.Refit(ctx, killRefit("none"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Contacts != 51 {
		t.Errorf("refit counted %d contacts, want 51", res.Contacts)
	}
	got, err := e.SearchContacts(ctx, index.ContactSearch{Vector: constVec(12, 1), MinSimilarity: -2, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Hits) != 51 {
		t.Fatalf("%d hits after the refit, want 51", len(got.Hits))
	}
	for _, h := range got.Hits {
		if h.Similarity < 0.99 {
			t.Errorf("contact %d: similarity %.3f to its new vector", h.Contact.PersonaID, h.Similarity)
		}
	}
	x, _ := e.contactIdx()
	want := make([]uint64, signWords(x.dim))
	for _, id := range x.live.ToArray() {
		sketch(x.vecOf(id), want)
		if !slices.Equal(x.signOf(id), want) {
			t.Errorf("contact %d: sketch %x, its codes' %x", x.persona[id], x.signOf(id), want)
		}
	}
}
