package embedded

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/enginetest"
	"github.com/openprospect/prospectd/record"
)

// residentImage is a copy of what loadAll builds, slot by slot, to compare
// an engine opened from the snapshot with one that decoded the store.
type residentImage struct {
	Dim             int
	Domains         []string
	Free            []uint32
	Scores          []int16
	Starts          []int32
	Scales          []float32
	Codes           [][]int8
	Signs           [][]uint64
	Live            []uint32
	One             [numKeyword]map[string]uint32
	Many            [numKeyword]map[string][]uint32
	Self            [numKeyword][]uint32
	Exists          map[uint8][]uint32
	FlatSum         uint64
	FlatSlots       int
	ArenaLive, Dead int
}

func imageOf(t *testing.T, e *Engine) residentImage {
	t.Helper()
	e.mu.RLock()
	defer e.mu.RUnlock()
	n := e.domains.slots()
	im := residentImage{Dim: e.dim, Free: append([]uint32{}, e.free...), Live: e.live.ToArray(), Exists: map[uint8][]uint32{},
		Scores: e.scores[:n], Starts: e.starts[:n], Scales: e.scales[:n], ArenaLive: e.domains.live, Dead: e.domains.dead}
	for id := range uint32(n) {
		d := e.domains.get(id)
		im.Domains = append(im.Domains, d)
		if d != "" {
			if got, ok := e.domains.lookup(d); !ok || got != id {
				t.Fatalf("lookup(%s) = %d %v, want slot %d", d, got, ok, id)
			}
		}
		im.Codes = append(im.Codes, append([]int8{}, e.int8Of(id)...))
		im.Signs = append(im.Signs, append([]uint64{}, e.signOf(id)...))
	}
	if e.domains.len() != int(e.live.GetCardinality()) {
		t.Fatalf("domain table holds %d, live %d", e.domains.len(), e.live.GetCardinality())
	}
	for slot := range e.post {
		p := &e.post[slot]
		im.One[slot] = maps.Clone(p.one)
		im.Many[slot] = map[string][]uint32{}
		for v, bm := range p.many {
			im.Many[slot][v] = bm.ToArray()
		}
		if p.self != nil {
			im.Self[slot] = p.self.ToArray()
		}
		if len(im.Self[slot]) == 0 {
			im.Self[slot] = nil
		}
	}
	for bit, bm := range e.exists {
		im.Exists[bit] = bm.ToArray()
	}
	if e.flat != nil {
		im.FlatSum, im.FlatSlots = e.flat.sum, e.flat.slots
	}
	return im
}

// snapDocs derives n companies from the conformance fixtures (every
// filterable field), each with its own domain and vector.
func snapDocs(r *rand.Rand, from, n int) []index.CompanyDoc {
	fx := enginetest.Fixtures()
	docs := make([]index.CompanyDoc, n)
	for i := range docs {
		d := fx[(from+i)%len(fx)]
		d.Company.Domain = fmt.Sprintf("s%05d-%s", from+i, d.Company.Domain)
		if (from+i)%3 == 0 {
			d.Company.MXProvider = d.Company.Domain // a posting in self
		}
		if (from+i)%5 == 0 {
			// A value of one company alone.
			d.Company.Vendors = slices.Concat(d.Company.Vendors, []string{fmt.Sprintf("v%05d.com", from+i)})
		}
		v := make([]float32, len(d.Vector))
		for j := range v {
			v[j] = d.Vector[j] + float32(r.NormFloat64())*0.2
		}
		d.Vector = v
		docs[i] = d
	}
	return docs
}

func openSnap(t *testing.T, dir string, opt Options) *Engine {
	t.Helper()
	e, err := Open(dir, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

func closeSnap(t *testing.T, e *Engine) {
	t.Helper()
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
}

// snapIndex builds an index whose last Close wrote a snapshot, and returns
// the image of its in-memory index.
func snapIndex(t *testing.T, dir string, n int) residentImage {
	t.Helper()
	ctx := context.Background()
	r := rand.New(rand.NewPCG(7, 8))
	e := openSnap(t, dir, Options{})
	if err := e.SetMeta(ctx, index.Meta{EmbedderID: "x", Dimension: enginetest.Dim, Model: []byte("m")}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.UpsertCompanies(ctx, snapDocs(r, 0, n)); err != nil {
		t.Fatal(err)
	}
	if _, err := e.DeleteCompanies(ctx, []string{"s00003-closedco.com", "s00010-acme.com"}); err != nil {
		t.Fatal(err)
	}
	closeSnap(t, e)
	// The close after the writes kept this session's slots in a snapshot
	// (TestSnapshotAfterAddsAndDeletes); without it, the open decodes the
	// store into key order, which the snapshot below then describes.
	if err := os.Remove(filepath.Join(dir, snapFile)); err != nil {
		t.Fatal("a close after companies were added and deleted wrote no snapshot:", err)
	}
	e = openSnap(t, dir, Options{})
	if e.snapshotLoaded() {
		t.Fatal("opened from a removed snapshot")
	}
	im := imageOf(t, e)
	w := snapWrites.Load()
	closeSnap(t, e)
	if snapWrites.Load() != w+1 {
		t.Fatal("a clean close after a full load wrote no snapshot")
	}
	return im
}

// TestSnapshotMatchesLoadAll: an open from the snapshot builds exactly
// what decoding the store builds, and answers the same.
func TestSnapshotMatchesLoadAll(t *testing.T) {
	for _, n := range []int{300, chunkDocs + 1000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			if n > chunkDocs && testing.Short() {
				t.Skip("short")
			}
			dir := t.TempDir()
			want := snapIndex(t, dir, n)
			self, one, many := 0, 0, 0
			for slot := range want.Self {
				self, one, many = self+len(want.Self[slot]), one+len(want.One[slot]), many+len(want.Many[slot])
			}
			if self == 0 || one == 0 || many == 0 {
				t.Fatalf("the test index lacks a kind of posting: self %d, one %d, many %d", self, one, many)
			}
			e := openSnap(t, dir, Options{})
			if !e.snapshotLoaded() {
				t.Fatal("not opened from the snapshot")
			}
			if got := imageOf(t, e); !reflect.DeepEqual(got, want) {
				t.Fatal("the snapshot's in-memory index differs from loadAll's")
			}
			checkFlat(t, e)
			ctx := context.Background()
			if c, _ := e.CountCompanies(ctx, index.Terms{Field: index.IndustryField, Values: []string{"CYBERSECURITY"}}); c == 0 {
				t.Fatal("no industry postings after the snapshot open")
			}
			q := index.Search{Vector: snapDocs(rand.New(rand.NewPCG(9, 9)), 0, 1)[0].Vector, Limit: 5}
			hits := func() []string {
				res, err := e.SearchCompanies(ctx, q)
				if err != nil || len(res.Hits) != 5 {
					t.Fatalf("search: %d hits, %v", len(res.Hits), err)
				}
				var ds []string
				for _, h := range res.Hits {
					ds = append(ds, h.Company.Domain)
				}
				return ds
			}
			fromSnap := hits()
			closeSnap(t, e)
			os.Remove(filepath.Join(dir, snapFile))
			e = openSnap(t, dir, Options{})
			if e.snapshotLoaded() {
				t.Fatal("opened from a removed snapshot")
			}
			if got := hits(); !reflect.DeepEqual(got, fromSnap) {
				t.Fatalf("search from the snapshot %v, from the store %v", fromSnap, got)
			}
			// Writes after a snapshot open: the domain table (rebuilt
			// cells) and columns take them.
			if _, err := e.UpsertCompanies(ctx, snapDocs(rand.New(rand.NewPCG(1, 1)), n, 3)); err != nil {
				t.Fatal(err)
			}
			if _, err := e.DeleteCompanies(ctx, []string{"s00004-tinyleads.net"}); err != nil {
				t.Fatal(err)
			}
			after := imageOf(t, e)
			e = reopenFromSnapshot(t, e, dir)
			if got := imageOf(t, e); len(got.Live) != len(after.Live) {
				t.Fatal("companies lost after the writes")
			}
		})
	}
}

// TestSnapshotAfterAddsAndDeletes: a session that adds and deletes
// companies leaves a snapshot of its own slots (not the store's key
// order) and a vector file marked clean for that snapshot only. The next
// open reads both without decoding the store or rewriting the file, and
// answers as before; an open without the snapshot rebuilds the file in
// key order and answers the same.
func TestSnapshotAfterAddsAndDeletes(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	snapIndex(t, dir, 300)
	e := openSnap(t, dir, Options{})
	if !e.snapshotLoaded() {
		t.Fatal("not opened from the snapshot")
	}
	if _, err := e.UpsertCompanies(ctx, snapDocs(rand.New(rand.NewPCG(3, 3)), 300, 5)); err != nil {
		t.Fatal(err)
	}
	if _, err := e.DeleteCompanies(ctx, []string{"s00004-tinyleads.net", "s00020-closedco.com"}); err != nil {
		t.Fatal(err)
	}
	e.mu.RLock()
	free, ordered := len(e.free), e.flat.ordered
	e.mu.RUnlock()
	if ordered {
		t.Fatal("the vector file still counts as in key order after adds and deletes")
	}
	queries := snapDocs(rand.New(rand.NewPCG(9, 9)), 0, 4)
	results := func(e *Engine) []string {
		t.Helper()
		var out []string
		for _, q := range queries {
			res, err := e.SearchCompanies(ctx, index.Search{Vector: q.Vector, Limit: 8})
			if err != nil || len(res.Hits) != 8 {
				t.Fatalf("search: %d hits, %v", len(res.Hits), err)
			}
			for _, h := range res.Hits {
				out = append(out, fmt.Sprintf("%s %.5f", h.Company.Domain, h.Similarity))
			}
		}
		return out
	}
	want := results(e)
	w, b := snapWrites.Load(), builds()
	e = reopenFromSnapshot(t, e, dir) // the image, field by field, free list included
	if snapWrites.Load() != w+1 {
		t.Fatal("the close after the writes wrote no snapshot")
	}
	if builds() != b {
		t.Fatal("the open from the snapshot rewrote the vector file")
	}
	e.mu.RLock()
	gotFree := len(e.free)
	e.mu.RUnlock()
	if free == 0 || gotFree != free {
		t.Fatalf("free slots %d after the open, %d before (the test wants some)", gotFree, free)
	}
	checkFlat(t, e)
	if got := results(e); !reflect.DeepEqual(got, want) {
		t.Fatalf("after the snapshot open %v, before %v", got, want)
	}
	// A session without writes keeps both files as they are.
	w = snapWrites.Load()
	closeSnap(t, e)
	f, err := os.Open(filepath.Join(dir, flatFile))
	if err != nil {
		t.Fatal(err)
	}
	h, err := readFlatHeader(f)
	f.Close()
	if err != nil || h.clean || !h.snapLayout {
		t.Fatalf("vector file header %+v %v: want clean for the snapshot's layout only", h, err)
	}
	e = openSnap(t, dir, Options{})
	if !e.snapshotLoaded() || snapWrites.Load() != w {
		t.Fatal("a close without writes did not keep the snapshot")
	}
	closeSnap(t, e)

	// Without the snapshot, loadAll must not trust a file in its layout.
	os.Remove(filepath.Join(dir, snapFile))
	e = openSnap(t, dir, Options{})
	if e.snapshotLoaded() {
		t.Fatal("opened from a removed snapshot")
	}
	if builds() != b+1 {
		t.Fatal("loadAll trusted a vector file laid out for a snapshot")
	}
	checkFlat(t, e)
	if got := results(e); !reflect.DeepEqual(got, want) {
		t.Fatalf("after decoding the store %v, before %v", got, want)
	}
	e.mu.RLock()
	ordered = e.flat.ordered
	e.mu.RUnlock()
	if !ordered {
		t.Fatal("the rebuilt vector file is not in key order")
	}
	e = reopenFromSnapshot(t, e, dir)
	checkFlat(t, e)
}

// reopenFromSnapshot closes e and opens dir again, which must read the
// snapshot Close wrote and build exactly e's in-memory index.
func reopenFromSnapshot(t *testing.T, e *Engine, dir string) *Engine {
	t.Helper()
	want := imageOf(t, e)
	closeSnap(t, e)
	e = openSnap(t, dir, Options{})
	if !e.snapshotLoaded() {
		t.Fatal("the clean close wrote no usable snapshot")
	}
	if got := imageOf(t, e); !reflect.DeepEqual(got, want) {
		t.Fatal("the snapshot differs from the index that wrote it")
	}
	return e
}

func snapHead(t *testing.T, dir string) snapHeader {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, snapFile))
	if err != nil {
		t.Fatal(err)
	}
	h, err := unmarshalSnapHeader(b)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestSnapshotFallbacks: every way the file can fail to describe the store
// falls back to decoding it, and the next clean close writes the file again.
func TestSnapshotFallbacks(t *testing.T) {
	ctx := context.Background()
	path := func(dir string) string { return filepath.Join(dir, snapFile) }
	// behind runs a session that writes, with the old snapshot put back
	// after it: the store moved on behind the file.
	behind := func(t *testing.T, dir string, write func(e *Engine)) {
		old, err := os.ReadFile(path(dir))
		if err != nil {
			t.Fatal(err)
		}
		e := openSnap(t, dir, Options{})
		write(e)
		closeSnap(t, e)
		if err := os.WriteFile(path(dir), old, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	changed := func(e *Engine) index.CompanyDoc {
		// Same vector (the vector file's sum does not move), another
		// industry: only the entries changed.
		vs, err := e.CompanyVectors(ctx, []string{"s00005-cloudguard.io"})
		if err != nil {
			t.Fatal(err)
		}
		d := snapDocs(rand.New(rand.NewPCG(1, 1)), 5, 1)[0]
		d.Vector = vs[d.Company.Domain]
		d.Company.IndustryGroups = map[string]float64{"BEEKEEPING": 1}
		return d
	}
	cases := []struct {
		name   string
		before func(t *testing.T, dir string) // with the engine closed
		loaded bool
		check  func(t *testing.T, e *Engine)
	}{
		{name: "clean", loaded: true},
		{name: "crash after a write", before: func(t *testing.T, dir string) {
			e := openSnap(t, dir, Options{})
			if !e.snapshotLoaded() {
				t.Fatal("not opened from the snapshot")
			}
			if _, err := e.UpsertCompanies(ctx, []index.CompanyDoc{changed(e)}); err != nil {
				t.Fatal(err)
			}
			if snapHead(t, dir).clean {
				t.Fatal("a write left the snapshot clean")
			}
			// The "crash": the store closes, the files stay as they are.
			e.closed = true
			e.flat.f.Close()
			if err := e.db.Close(); err != nil {
				t.Fatal(err)
			}
		}, check: beekeeping(1)},
		{name: "crash with the flag still set", before: func(t *testing.T, dir string) {
			// As if clearing the flag had been lost: the fingerprint
			// (the log replayed at open lands in a new sstable) still
			// tells.
			h := snapHead(t, dir)
			e := openSnap(t, dir, Options{})
			if _, err := e.UpsertCompanies(ctx, []index.CompanyDoc{changed(e)}); err != nil {
				t.Fatal(err)
			}
			e.closed = true
			e.flat.f.Close()
			if err := e.db.Close(); err != nil {
				t.Fatal(err)
			}
			if err := rewriteSnapHeader(path(dir), h); err != nil {
				t.Fatal(err)
			}
		}, check: beekeeping(1)},
		{name: "store written behind the engine", before: func(t *testing.T, dir string) {
			behind(t, dir, func(e *Engine) {
				if _, err := e.UpsertCompanies(ctx, []index.CompanyDoc{changed(e)}); err != nil {
					t.Fatal(err)
				}
			})
		}, check: beekeeping(1)},
		{name: "other embedder", before: func(t *testing.T, dir string) {
			behind(t, dir, func(e *Engine) {
				if err := e.SetMeta(ctx, index.Meta{EmbedderID: "y", Dimension: enginetest.Dim}); err != nil {
					t.Fatal(err)
				}
			})
		}, check: func(t *testing.T, e *Engine) {
			if m, _ := e.Meta(ctx); m.EmbedderID != "y" {
				t.Fatalf("embedder %q", m.EmbedderID)
			}
		}},
		{name: "refit behind the file", before: func(t *testing.T, dir string) {
			behind(t, dir, func(e *Engine) {
				if _, err := e.Refit(ctx, refitTo(enginetest.Dim+4)); err != nil {
					t.Fatal(err)
				}
			})
		}, check: func(t *testing.T, e *Engine) {
			if e.dim != enginetest.Dim+4 {
				t.Fatalf("dim %d after the refit", e.dim)
			}
		}},
		{name: "corrupt body", before: func(t *testing.T, dir string) {
			f, _ := os.OpenFile(path(dir), os.O_RDWR, 0)
			fi, _ := f.Stat()
			f.WriteAt([]byte{0x5a}, snapHeaderSize+(fi.Size()-snapHeaderSize)/2)
			f.Close()
		}},
		{name: "corrupt counts", before: func(t *testing.T, dir string) {
			// A slot count that would allocate far more than the file
			// holds is refused before the CRC is known.
			f, _ := os.OpenFile(path(dir), os.O_RDWR, 0)
			f.WriteAt([]byte{0, 0, 0, 0, 0, 1}, snapHeaderSize)
			f.Close()
		}},
		{name: "truncated", before: func(t *testing.T, dir string) {
			fi, _ := os.Stat(path(dir))
			os.Truncate(path(dir), fi.Size()-100)
		}},
		{name: "corrupt header", before: func(t *testing.T, dir string) {
			f, _ := os.OpenFile(path(dir), os.O_RDWR, 0)
			f.WriteAt([]byte{0xff}, 30)
			f.Close()
		}},
		{name: "header of another embedder", before: func(t *testing.T, dir string) {
			h := snapHead(t, dir)
			h.metaKey++
			rewriteSnapHeader(path(dir), h)
		}},
		{name: "other layout", before: func(t *testing.T, dir string) {
			h := snapHead(t, dir)
			h.layout++
			rewriteSnapHeader(path(dir), h)
		}},
		{name: "vector file missing", before: func(t *testing.T, dir string) {
			os.Remove(filepath.Join(dir, flatFile))
		}},
		{name: "loading command", before: func(t *testing.T, dir string) {
			e := openSnap(t, dir, Options{LoadOnly: true})
			closeSnap(t, e)
			if _, err := os.Stat(path(dir)); err == nil {
				t.Fatal("a loading command left the snapshot")
			}
		}},
		{name: "compaction only", loaded: true, before: func(t *testing.T, dir string) {
			// A compaction while nothing was written (Pebble's own, at
			// open or after reads) changes the sstables, not the
			// entries: Close records the new fingerprint. Pebble
			// compacts this small store by itself already, so the test
			// moves the recorded fingerprint instead.
			e := openSnap(t, dir, Options{})
			if !e.snapshotLoaded() {
				t.Fatal("not opened from the snapshot")
			}
			e.snap.head.store++
			if err := rewriteSnapHeader(path(dir), e.snap.head); err != nil {
				t.Fatal(err)
			}
			closeSnap(t, e)
			fp := snapHead(t, dir).store
			e = openSnap(t, dir, Options{})
			if now, _ := e.storeFingerprint(); now != fp {
				t.Fatal("close did not record the store's fingerprint")
			}
			closeSnap(t, e)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			snapIndex(t, dir, 200)
			if c.before != nil {
				c.before(t, dir)
			}
			e := openSnap(t, dir, Options{})
			if e.snapshotLoaded() != c.loaded {
				t.Fatalf("opened from the snapshot: %v, want %v", e.snapshotLoaded(), c.loaded)
			}
			checkFlat(t, e)
			if c.check != nil {
				c.check(t, e)
			}
			// The next clean close wrote it again, and it is trusted.
			e = reopenFromSnapshot(t, e, dir)
			if c.check != nil {
				c.check(t, e)
			}
		})
	}
}

// beekeeping checks the changed company's new industry is indexed.
func beekeeping(want int) func(t *testing.T, e *Engine) {
	return func(t *testing.T, e *Engine) {
		t.Helper()
		n, err := e.CountCompanies(context.Background(), index.Terms{Field: index.IndustryField, Values: []string{"BEEKEEPING"}})
		if err != nil || n != want {
			t.Fatalf("BEEKEEPING companies: %d %v, want %d", n, err, want)
		}
	}
}

func refitTo(dim int) index.Refit {
	vecs := func(n int) [][]float32 {
		out := make([][]float32, n)
		for i := range out {
			out[i] = constVec(dim, float32(i%5)+1)
		}
		return out
	}
	return index.Refit{
		Meta:      index.Meta{EmbedderID: "refitted", Dimension: dim},
		Companies: func(_ context.Context, cs []record.Company) ([][]float32, error) { return vecs(len(cs)), nil },
		Contacts:  func(_ context.Context, cs []record.Contact) ([][]float32, error) { return vecs(len(cs)), nil },
	}
}

// TestSnapshotAfterRefit: a refit's new vectors reach the snapshot at the
// close after it.
func TestSnapshotAfterRefit(t *testing.T) {
	dir := t.TempDir()
	snapIndex(t, dir, 200)
	e := openSnap(t, dir, Options{})
	if _, err := e.Refit(context.Background(), refitTo(enginetest.Dim+4)); err != nil {
		t.Fatal(err)
	}
	e = reopenFromSnapshot(t, e, dir)
	checkFlat(t, e)
}

// TestSnapshotKeptAfterContactWrites: in a session that writes only
// contacts (a contact refresh), a compaction that rewrites the company
// entries' sstables changes the fingerprint but no entry, so Close keeps
// the snapshot (it used to drop it: the store had been written, by whom it
// could not tell) and the next open still reads it; a write that is not
// the engine's (TestFlatFileFollowsWrites' write behind the engine) still
// drops it.
func TestSnapshotKeptAfterContactWrites(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	want := snapIndex(t, dir, 300)
	e := openSnap(t, dir, Options{})
	if !e.snapshotLoaded() {
		t.Fatal("not opened from the snapshot")
	}
	docs := enginetest.ContactFixtures()
	if _, err := e.UpsertContacts(ctx, docs); err != nil {
		t.Fatal(err)
	}
	if _, err := e.DeleteContacts(ctx, []int64{docs[0].Contact.PersonaID}); err != nil {
		t.Fatal(err)
	}
	// The compaction: Pebble leaves this small store's entries alone, so
	// the recorded fingerprint moves instead (as in TestSnapshotFallbacks'
	// "compaction only").
	e.snap.head.store++
	if err := rewriteSnapHeader(filepath.Join(dir, snapFile), e.snap.head); err != nil {
		t.Fatal(err)
	}
	if got := imageOf(t, e); !reflect.DeepEqual(got, want) {
		t.Fatal("the session's index differs from the snapshot it opened")
	}
	e = reopenFromSnapshot(t, e, dir)
	n, err := e.CountContacts(ctx, nil)
	if err != nil || n != len(docs)-1 {
		t.Fatalf("%d contacts after the reopen (%v), want %d", n, err, len(docs)-1)
	}
}
