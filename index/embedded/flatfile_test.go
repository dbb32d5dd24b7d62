package embedded

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/record"
)

const flatTestDim = 16

func flatDocs(r *rand.Rand, from, n int) []index.CompanyDoc {
	docs := make([]index.CompanyDoc, n)
	for i := range docs {
		v := make([]float32, flatTestDim)
		for j := range v {
			v[j] = float32(r.NormFloat64())
		}
		docs[i] = index.CompanyDoc{Vector: v, Company: record.Company{Domain: fmt.Sprintf("c%04d.com", from+i), Name: "C"}}
	}
	return docs
}

// checkFlat holds the vector file to the store: every live slot holds its
// domain's stored binary16 vector, and the running sum is theirs.
func checkFlat(t *testing.T, e *Engine) {
	t.Helper()
	e.mu.RLock()
	defer e.mu.RUnlock()
	if e.flat == nil {
		t.Fatal("no vector file")
	}
	var sum uint64
	got := make([]byte, 2*e.dim)
	scratch := make([]byte, 2*e.dim)
	for id := range uint32(e.domains.slots()) {
		domain := e.domains.get(id)
		if domain == "" {
			continue // free
		}
		v, ok, err := e.stored(prefixEntry, domain)
		if err != nil || !ok {
			t.Fatalf("entry of %s: %v %v", domain, ok, err)
		}
		var en entry
		if err := en.unmarshal(v); err != nil {
			t.Fatal(err)
		}
		want := en.halfBytes(scratch)
		if !e.flat.read(id, got) || !bytes.Equal(got, want) {
			t.Fatalf("slot %d of %s: file holds %x, store %x", id, domain, got, want)
		}
		sum += slotHash(id, want)
	}
	if sum != e.flat.sum {
		t.Fatalf("file sum %x, live slots sum to %x", e.flat.sum, sum)
	}
}

func reopen(t *testing.T, e *Engine, dir string) *Engine {
	t.Helper()
	if e != nil {
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
	}
	e, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// builds counts the vector files written (tests compare before and after).
func builds() int64 { return flatBuilds.Load() }

// TestFlatFileFollowsWrites upserts, updates, deletes and reopens, checking
// the vector file against the store after each step, and that a reopen
// rewrites it only when the slots moved (companies added or deleted) or it
// cannot be trusted.
func TestFlatFileFollowsWrites(t *testing.T) {
	defer func(n int) { flatMinRoom = n }(flatMinRoom)
	flatMinRoom = 4 // new slots remap the file often
	ctx := context.Background()
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(1, 2))
	e := reopen(t, nil, dir)
	if err := e.SetMeta(ctx, index.Meta{EmbedderID: "x", Dimension: flatTestDim}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, flatFile)
	upsert := func(docs []index.CompanyDoc) {
		t.Helper()
		if _, err := e.UpsertCompanies(ctx, docs); err != nil {
			t.Fatal(err)
		}
	}
	upsert(flatDocs(r, 0, 300))
	checkFlat(t, e)
	upsert(flatDocs(r, 100, 50)) // new vectors for existing companies
	checkFlat(t, e)
	if _, err := e.DeleteCompanies(ctx, []string{"c0003.com", "c0200.com", "c0299.com"}); err != nil {
		t.Fatal(err)
	}
	checkFlat(t, e)
	upsert(flatDocs(r, 1000, 5)) // into the freed slots and beyond
	checkFlat(t, e)

	steps := []struct {
		name    string
		before  func() // with the engine closed
		write   func() // after the reopen
		rebuilt bool
		// unchecked: write leaves the file behind the store.
		unchecked bool
	}{
		// The close after adds and deletes keeps the session's slots in
		// the resident snapshot and marks the file clean for it.
		{name: "companies added and deleted", rebuilt: false},
		{name: "the same without the snapshot", rebuilt: true, before: func() { os.Remove(filepath.Join(dir, snapFile)) }},
		{name: "clean close", rebuilt: false},
		{name: "after in-place updates", rebuilt: false, write: func() { upsert(flatDocs(r, 10, 20)) }},
		{name: "missing file", rebuilt: true, before: func() { os.Remove(path) }},
		{name: "header not clean", rebuilt: true, before: func() {
			f, _ := os.OpenFile(path, os.O_RDWR, 0)
			h, err := readFlatHeader(f)
			if err != nil || !h.clean {
				t.Fatalf("header after close: %+v %v", h, err)
			}
			h.clean = false
			f.WriteAt(h.marshal(), 0)
			f.Close()
		}},
		{name: "a store write behind the engine", rebuilt: false, write: func() {
			// A write the engine does not see (another program, an
			// older binary): the sum at the next open differs.
			v, _, _ := e.stored(prefixEntry, "c0006.com")
			var en entry
			if err := en.unmarshal(v); err != nil {
				t.Fatal(err)
			}
			en.setVector(flatDocs(r, 0, 1)[0].Vector)
			if err := e.db.Set([]byte(prefixEntry+"c0006.com"), en.marshal(nil), nil); err != nil {
				t.Fatal(err)
			}
		}, unchecked: true},
		{name: "store written behind a clean file", rebuilt: true},
		{name: "corrupt header", rebuilt: true, before: func() {
			f, _ := os.OpenFile(path, os.O_RDWR, 0)
			f.WriteAt([]byte{0xff}, 20)
			f.Close()
		}},
	}
	for _, s := range steps {
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
		if s.before != nil {
			s.before()
		}
		n := builds()
		e = reopen(t, nil, dir)
		if got := builds() > n; got != s.rebuilt {
			t.Errorf("%s: rebuilt %v, want %v", s.name, got, s.rebuilt)
		}
		checkFlat(t, e)
		if s.write != nil {
			s.write()
			if !s.unchecked {
				checkFlat(t, e)
			}
		}
	}
}

// TestFlatFileCrash stops an engine without Close after writes (the store
// has them, the file's header was marked dirty): the reopen rebuilds.
func TestFlatFileCrash(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(3, 4))
	e := reopen(t, nil, dir)
	if err := e.SetMeta(ctx, index.Meta{EmbedderID: "x", Dimension: flatTestDim}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.UpsertCompanies(ctx, flatDocs(r, 0, 100)); err != nil {
		t.Fatal(err)
	}
	e = reopen(t, e, dir)
	if _, err := e.UpsertCompanies(ctx, flatDocs(r, 0, 10)); err != nil {
		t.Fatal(err)
	}
	// The "crash": the store closes, the file is left as it is.
	e.closed = true
	e.flat.f.Close()
	if err := e.db.Close(); err != nil {
		t.Fatal(err)
	}
	n := builds()
	e = reopen(t, nil, dir)
	if builds() == n {
		t.Error("reopen after a crash trusted the vector file")
	}
	checkFlat(t, e)
}

// TestFlatFileFallback: without the file the final pass reads the store
// and ranks the same.
func TestFlatFileFallback(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(5, 6))
	e := openTemp(t)
	if err := e.SetMeta(ctx, index.Meta{EmbedderID: "x", Dimension: flatTestDim}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.UpsertCompanies(ctx, flatDocs(r, 0, 500)); err != nil {
		t.Fatal(err)
	}
	queries := flatDocs(r, 5000, 20)
	search := func() [][]index.Hit {
		var out [][]index.Hit
		for _, q := range queries {
			res, err := e.SearchCompanies(ctx, index.Search{Vector: q.Vector, Limit: 10, MinSimilarity: -2})
			if err != nil || len(res.Hits) != 10 {
				t.Fatalf("search: %d hits, %v", len(res.Hits), err)
			}
			out = append(out, res.Hits)
		}
		return out
	}
	withFile := search()
	e.mu.Lock()
	flat := e.flat
	e.flat = nil
	e.mu.Unlock()
	withStore := search()
	e.mu.Lock()
	e.flat = flat
	e.mu.Unlock()
	for i := range withFile {
		for j := range withFile[i] {
			a, b := withFile[i][j], withStore[i][j]
			if a.Company.Domain != b.Company.Domain || a.Similarity != b.Similarity {
				t.Fatalf("query %d hit %d: file %s %v, store %s %v", i, j, a.Company.Domain, a.Similarity, b.Company.Domain, b.Similarity)
			}
		}
	}
}

// TestFlatFileLoadOnly: a loading command drops the file (it writes the
// store without slots); the next serving open writes it again.
func TestFlatFileLoadOnly(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(7, 8))
	e := reopen(t, nil, dir)
	if err := e.SetMeta(ctx, index.Meta{EmbedderID: "x", Dimension: flatTestDim}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.UpsertCompanies(ctx, flatDocs(r, 0, 50)); err != nil {
		t.Fatal(err)
	}
	e = reopen(t, e, dir) // clean
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	l, err := Open(dir, Options{LoadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, flatFile)); !os.IsNotExist(err) {
		t.Errorf("vector file kept by a loading command: %v", err)
	}
	if _, err := l.UpsertCompanies(ctx, flatDocs(r, 0, 60)); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	e = reopen(t, nil, dir)
	checkFlat(t, e)
}

// TestFlatFileRefit: a refit writes the new vectors' file with the new
// codes.
func TestFlatFileRefit(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(9, 10))
	e := reopen(t, nil, dir)
	if err := e.SetMeta(ctx, index.Meta{EmbedderID: "x", Dimension: flatTestDim}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.UpsertCompanies(ctx, flatDocs(r, 0, 200)); err != nil {
		t.Fatal(err)
	}
	e = reopen(t, e, dir)
	_, err := e.Refit(ctx, index.Refit{
		Meta:      index.Meta{EmbedderID: "y", Dimension: flatTestDim},
		BatchSize: 50,
		Companies: func(_ context.Context, cs []record.Company) ([][]float32, error) {
			out := make([][]float32, len(cs))
			for i := range out {
				out[i] = flatDocs(r, 0, 1)[0].Vector
			}
			return out, nil
		},
		Contacts: func(_ context.Context, cs []record.Contact) ([][]float32, error) {
			return make([][]float32, len(cs)), nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	checkFlat(t, e)
	if e.flat.embedder != "y" {
		t.Errorf("file embedder %q after refit, want y", e.flat.embedder)
	}
	n := builds()
	e = reopen(t, e, dir)
	if builds() != n {
		t.Error("the refit's file was rebuilt at the next open")
	}
	checkFlat(t, e)
}

// BenchmarkFlatRead compares the two ways of reading a random slot's
// vector from a page-cached file of PROSPECT_BENCH_N (default 200,000)
// 256-dimension binary16 vectors: pread (ReadAt) and a shared mapping.
func BenchmarkFlatRead(b *testing.B) {
	n := benchN()
	if n == 50_000 {
		n = 200_000
	}
	const dim = 256
	path := filepath.Join(b.TempDir(), "v")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 1<<20)
	for i := range buf {
		buf[i] = byte(i)
	}
	for off := 0; off < n*2*dim; off += len(buf) {
		f.Write(buf)
	}
	r := rand.New(rand.NewPCG(1, 1))
	slots := make([]int64, 4096)
	for i := range slots {
		slots[i] = int64(r.IntN(n))
	}
	dst := make([]byte, 2*dim)
	b.Run("pread", func(b *testing.B) {
		// Warm the page cache the same way the mapping sees it.
		for _, s := range slots {
			f.ReadAt(dst, s*2*dim)
		}
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, err := f.ReadAt(dst, slots[i%len(slots)]*2*dim); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("mmap-first-touch", func(b *testing.B) {
		// Each iteration maps the file anew, so every read faults its
		// page in (page cache warm): the cost of a slot a process has not
		// read before.
		var total time.Duration
		reads := 0
		for i := 0; i < b.N; i += len(slots) {
			m, err := syscall.Mmap(int(f.Fd()), 0, n*2*dim, syscall.PROT_READ, syscall.MAP_SHARED)
			if err != nil {
				b.Fatal(err)
			}
			start := time.Now()
			for _, s := range slots[:min(len(slots), b.N-i)] {
				copy(dst, m[s*2*dim:(s+1)*2*dim])
				reads++
			}
			total += time.Since(start)
			syscall.Munmap(m)
		}
		b.ReportMetric(float64(total.Nanoseconds())/float64(reads), "ns/read")
	})
	b.Run("mmap-touched", func(b *testing.B) {
		m, err := syscall.Mmap(int(f.Fd()), 0, n*2*dim, syscall.PROT_READ, syscall.MAP_SHARED)
		if err != nil {
			b.Fatal(err)
		}
		defer syscall.Munmap(m)
		for _, s := range slots {
			copy(dst, m[s*2*dim:(s+1)*2*dim])
		}
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			s := slots[i%len(slots)]
			copy(dst, m[s*2*dim:(s+1)*2*dim])
		}
	})
	_ = slices.Max(slots)
}

// BenchmarkFinalPass times the full-precision pass alone (rescoreFull of
// the rescoreK(100) = 220 best int8 candidates) on PROSPECT_BENCH_INDEX,
// reading the vector file and, for comparison, the store: the part of a
// search's latency the pass adds.
//
//	PROSPECT_BENCH_INDEX=/path/to/index go test -run '^$' -bench FinalPass -benchtime 200x ./index/embedded/
func BenchmarkFinalPass(b *testing.B) {
	if os.Getenv("PROSPECT_BENCH_INDEX") == "" {
		b.Skip("PROSPECT_BENCH_INDEX not set")
	}
	e := benchEngine(b)
	ctx := context.Background()
	queries := benchQueries(e, 256, false, 9)
	tops := make([][]scored, len(queries))
	e.mu.RLock()
	for i, q := range queries {
		tops[i], _ = e.scanVectors(ctx, e.live, q, -2, 100)
	}
	e.mu.RUnlock()
	for _, src := range []string{"file", "store"} {
		b.Run(src, func(b *testing.B) {
			e.mu.Lock()
			flat := e.flat
			if src == "store" {
				e.flat = nil
			}
			e.mu.Unlock()
			defer func() {
				e.mu.Lock()
				e.flat = flat
				e.mu.Unlock()
			}()
			lat := make([]time.Duration, 0, b.N)
			for i := 0; i < b.N; i++ {
				start := time.Now()
				e.mu.RLock()
				_, err := e.rescoreFull(ctx, tops[i%len(tops)], queries[i%len(queries)], -2, 100)
				e.mu.RUnlock()
				lat = append(lat, time.Since(start))
				if err != nil {
					b.Fatal(err)
				}
			}
			slices.Sort(lat)
			b.ReportMetric(float64(len(tops[0])), "candidates")
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-us")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-us")
		})
	}
}
