package embedded

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/openprospect/prospectd/index"
)

// companyImage is what the engine holds for one company, by domain rather
// than slot, so that two numberings compare.
type companyImage struct {
	Codes  []int8
	Sign   []uint64
	Scale  float32
	Score  int16
	Start  int32
	Half   []byte
	List   uint16
	Values []string // keyword postings and exists bits that hold it
}

func imageByDomain(t *testing.T, e *Engine) map[string]companyImage {
	t.Helper()
	e.mu.RLock()
	defer e.mu.RUnlock()
	out := map[string]companyImage{}
	a := e.ann.idx
	scratch := make([]byte, 2*e.dim)
	e.live.Iterate(func(id uint32) bool {
		d := e.domains.get(id)
		if got, ok := e.domains.lookup(d); !ok || got != id {
			t.Fatalf("lookup(%s) = %d %v, want %d", d, got, ok, id)
		}
		im := companyImage{Codes: slices.Clone(e.int8Of(id)), Sign: slices.Clone(e.signOf(id)), Scale: e.scales[id],
			Score: e.scores[id], Start: e.starts[id], Half: slices.Clone(e.flat.vec(id, scratch)), List: annNone}
		if int(id) < len(a.assign) {
			im.List = a.assign[id]
		}
		if im.List != annNone && !a.lists[im.List].Contains(id) {
			t.Fatalf("%s: assigned to list %d, not in it", d, im.List)
		}
		out[d] = im
		return true
	})
	add := func(d, what string) {
		im := out[d]
		im.Values = append(im.Values, what)
		out[d] = im
	}
	for slot := range e.post {
		p := &e.post[slot]
		for v, id := range p.one {
			add(e.domains.get(id), fmt.Sprintf("%d=%s", slot, v))
		}
		for v, bm := range p.many {
			bm.Iterate(func(id uint32) bool { add(e.domains.get(id), fmt.Sprintf("%d=%s", slot, v)); return true })
		}
		if p.self != nil {
			p.self.Iterate(func(id uint32) bool { add(e.domains.get(id), fmt.Sprintf("%d=self", slot)); return true })
		}
	}
	for bit, bm := range e.exists {
		bm.Iterate(func(id uint32) bool { add(e.domains.get(id), fmt.Sprintf("bit%d", bit)); return true })
	}
	for d, im := range out {
		slices.Sort(im.Values)
		out[d] = im
	}
	return out
}

// searchDigest runs broad and filtered lookalikes and keyword searches and
// lists what they return, domain and similarity.
func searchDigest(t *testing.T, e *Engine, queries [][]float32) []string {
	t.Helper()
	ctx := context.Background()
	filters := []index.Filter{nil,
		index.Terms{Field: index.CountryField, Values: []string{"US"}},
		index.Terms{Field: index.CountryField, Values: []string{"GB"}},
		index.Range{Field: index.ScoreField, Min: index.IntPtr(700)},
	}
	var out []string
	for fi, f := range filters {
		for qi, q := range queries {
			res, err := e.SearchCompanies(ctx, index.Search{Vector: q, Limit: 20, Filter: f, MinSimilarity: -1})
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range res.Hits {
				out = append(out, fmt.Sprintf("f%d q%d %s %.5f", fi, qi, h.Company.Domain, h.Similarity))
			}
		}
		res, err := e.SearchCompanies(ctx, index.Search{Filter: f, Limit: 50})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("f%d total %d", fi, res.Total))
		for _, h := range res.Hits {
			out = append(out, fmt.Sprintf("f%d %s", fi, h.Company.Domain))
		}
	}
	return out
}

// ownDigest searches each even doc's own city (a value of one company)
// and its own domain as a vendor (a self posting).
func ownDigest(t *testing.T, e *Engine, docs []index.CompanyDoc) []string {
	t.Helper()
	var out []string
	for i, d := range docs {
		if i%2 != 0 {
			continue
		}
		for _, f := range []index.Filter{
			index.Terms{Field: index.CityField, Values: []string{d.Company.Address.City}},
			index.Terms{Field: index.VendorField, Values: []string{d.Company.Domain}},
		} {
			res, err := e.SearchCompanies(context.Background(), index.Search{Filter: f, Limit: 5})
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range res.Hits {
				out = append(out, h.Company.Domain)
			}
		}
	}
	return out
}

// listRuns reports whether every list is one run of slots, the runs
// following each other in list order.
func listRuns(e *Engine) error {
	e.mu.RLock()
	defer e.mu.RUnlock()
	next := uint32(0)
	for l, bm := range e.ann.idx.lists {
		if bm.IsEmpty() {
			continue
		}
		lo, hi, n := bm.Minimum(), bm.Maximum(), bm.GetCardinality()
		if lo != next || uint64(hi-lo+1) != n {
			return fmt.Errorf("list %d: %d slots over [%d, %d], want a run from %d", l, n, lo, hi, next)
		}
		next = hi + 1
	}
	return nil
}

// TestRenumberAtClose: a Close after a session that wrote companies puts
// the slots in ANN list order, and the next open, from the snapshot, holds
// the same companies, postings, vectors and lists and answers the same,
// with each list a run of slots; a quiet session after it renumbers
// nothing.
func TestRenumberAtClose(t *testing.T) {
	n := 20_000
	dir := t.TempDir()
	e := buildANN(t, dir, n, 21)
	ctx := context.Background()
	var del []string
	for id := uint32(0); id < 60; id++ {
		del = append(del, e.domains.get(id*131))
	}
	if _, err := e.DeleteCompanies(ctx, del); err != nil {
		t.Fatal(err)
	}
	// Values of one company alone (postings' one map) and companies that
	// list their own domain (self), as well as shared ones.
	docs := synthDocs(rand.New(rand.NewPCG(5, 6)), n, 30)
	for i := range docs {
		c := &docs[i].Company
		c.Address.City = fmt.Sprintf("Town %d", i)
		if i%2 == 0 {
			c.Vendors = append(c.Vendors, c.Domain)
		}
	}
	if _, err := e.UpsertCompanies(ctx, docs); err != nil {
		t.Fatal(err)
	}
	waitANN(t, e)
	queries := append(benchQueries(e, 8, false, 3), benchQueries(e, 8, true, 4)...)
	wantOwn := ownDigest(t, e, docs)
	if len(wantOwn) != len(docs) {
		t.Fatalf("city and own-vendor searches found %d, want %d", len(wantOwn), len(docs))
	}
	wantImage := imageByDomain(t, e)
	wantSearch := searchDigest(t, e, queries)
	e.mu.RLock()
	order := e.listOrder()
	e.mu.RUnlock()
	if order == nil {
		t.Fatal("slots in key order are not list order: want a renumbering")
	}
	if listRuns(e) == nil {
		t.Fatal("lists already runs before the renumbering")
	}
	builds := flatBuilds.Load()
	closeSnap(t, e)
	if got := flatBuilds.Load() - builds; got != 1 {
		t.Fatalf("%d vector files written at Close, want 1 (the renumbered one)", got)
	}

	e = openSnap(t, dir, Options{ANN: true})
	if !e.snapshotLoaded() || !e.annReady() {
		t.Fatalf("reopen: from snapshot %v, ANN whole %v", e.snapshotLoaded(), e.annReady())
	}
	if got := flatBuilds.Load() - builds; got != 1 {
		t.Fatalf("the open rebuilt the vector file")
	}
	if err := listRuns(e); err != nil {
		t.Fatal(err)
	}
	e.mu.RLock()
	free, slots := len(e.free), e.domains.slots()
	e.mu.RUnlock()
	if free != 0 || slots != len(wantImage) {
		t.Fatalf("%d slots, %d free after the renumbering; want %d, none", slots, free, len(wantImage))
	}
	if got := imageByDomain(t, e); !maps.EqualFunc(got, wantImage, func(a, b companyImage) bool { return reflect.DeepEqual(a, b) }) {
		for d, w := range wantImage {
			if !reflect.DeepEqual(got[d], w) {
				t.Fatalf("%s: %+v after the renumbering, %+v before", d, got[d], w)
			}
		}
		t.Fatalf("%d companies after the renumbering, %d before", len(got), len(wantImage))
	}
	if got := ownDigest(t, e, docs); !slices.Equal(got, wantOwn) {
		t.Fatalf("city and own-vendor searches after the renumbering: %v, want %v", got, wantOwn)
	}
	if got := searchDigest(t, e, queries); !slices.Equal(got, wantSearch) {
		t.Fatalf("searches differ after the renumbering:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wantSearch, "\n"))
	}
	e.mu.RLock()
	again := e.listOrder()
	e.mu.RUnlock()
	if again != nil {
		t.Fatal("list order wants another renumbering right after one")
	}

	// A quiet session: nothing renumbered, no file written.
	closeSnap(t, e)
	if got := flatBuilds.Load() - builds; got != 1 {
		t.Fatalf("a quiet Close wrote a vector file")
	}
	e = openSnap(t, dir, Options{ANN: true})
	if !e.snapshotLoaded() {
		t.Fatal("the quiet session lost the snapshot")
	}

	// A few writes stay under the share: kept out of order, searched right.
	if _, err := e.UpsertCompanies(ctx, synthDocs(rand.New(rand.NewPCG(7, 8)), 2*n, 20)); err != nil {
		t.Fatal(err)
	}
	waitANN(t, e)
	e.mu.RLock()
	few := e.listOrder()
	e.mu.RUnlock()
	if few != nil {
		t.Fatal("20 new companies of 20,000 want a renumbering")
	}
	r10, _ := recallAt(t, e, nil, queries)
	if r10 < 0.95 {
		t.Errorf("recall@10 %.3f after writes on the renumbered index", r10)
	}
}

// TestRenumberShare: the share of companies out of list order decides.
func TestRenumberShare(t *testing.T) {
	n := 20_000
	e := buildANN(t, t.TempDir(), n, 22)
	defer e.Close()
	renumberInListOrder(t, e)
	for _, tc := range []struct {
		moved int
		want  bool
	}{{0, false}, {n / 100, false}, {n / 10, true}} {
		e.mu.Lock()
		a := e.ann.idx
		// Reassign moved companies spread over the slots to the next list.
		for i := range tc.moved {
			id := uint32(i * (n / tc.moved))
			l := a.assign[id]
			a.unlist(id)
			a.place(id, (l+1)%uint16(a.nlist))
		}
		got := e.listOrder() != nil
		e.mu.Unlock()
		if got != tc.want {
			t.Errorf("%d moved: renumber %v, want %v", tc.moved, got, tc.want)
		}
	}
}

// renumberInListOrder renumbers e's slots into ANN list order as Close
// does, with the builder stopped first (no batch in flight across it).
func renumberInListOrder(t *testing.T, e *Engine) {
	t.Helper()
	e.writeMu.Lock()
	e.stopANN()
	e.writeMu.Unlock()
	e.mu.RLock()
	order := e.listOrder()
	e.mu.RUnlock()
	if order == nil {
		t.Fatal("no order")
	}
	if err := e.renumber(order); err != nil {
		t.Fatal(err)
	}
	// The engine goes on serving after it (tests only: Close renumbers).
	if err := listRuns(e); err != nil {
		t.Fatal(err)
	}
	imageByDomain(t, e) // lookups by the rebuilt cells
	if r10, _ := recallAt(t, e, nil, benchQueries(e, 10, true, 5)); r10 < 0.95 {
		t.Errorf("recall@10 %.3f on the renumbered engine", r10)
	}
}

// TestNoRenumber: with Options.NoRenumber, Close keeps the slots (and still
// writes the snapshot of them).
func TestNoRenumber(t *testing.T) {
	dir := t.TempDir()
	e := buildANN(t, dir, 20_000, 23)
	closeSnap(t, e)
	// buildANN's engine renumbered at Close; put the slots out of list
	// order again with a session that moves companies to other lists.
	e = openSnap(t, dir, Options{ANN: true, NoRenumber: true})
	if err := listRuns(e); err != nil {
		t.Fatal(err)
	}
	e.writeMu.Lock()
	e.stopANN()
	e.writeMu.Unlock()
	e.mu.Lock()
	a := e.ann.idx
	for id := uint32(0); id < 2000; id++ {
		l := a.assign[id*7]
		a.unlist(id * 7)
		a.place(id*7, (l+1)%uint16(a.nlist))
	}
	want := e.listOrder() != nil
	e.mu.Unlock()
	if !want {
		t.Fatal("moving 2,000 of 20,000 companies wants no renumbering")
	}
	builds := flatBuilds.Load()
	closeSnap(t, e)
	if flatBuilds.Load() != builds {
		t.Fatal("Close rewrote the vector file with NoRenumber")
	}
}
