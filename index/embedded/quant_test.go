package embedded

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/cockroachdb/pebble"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/enginetest"
)

func TestQuantizeRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	unit := make([]float32, 256)
	for i := range unit {
		unit[i] = float32(r.NormFloat64())
	}
	normalize(unit)
	for _, tc := range []struct {
		name  string
		v     []float32
		scale float32 // 0: scale = max|v| / 127
		zero  bool    // every code 0 and scale 0
	}{
		{name: "unit 256", v: unit},
		{name: "one value", v: []float32{-0.5}},
		{name: "mixed", v: []float32{1, -1, 0.5, -0.25, 0.004, 0}},
		{name: "tiny", v: []float32{1e-30, -3e-31, 0}},
		{name: "empty", v: []float32{}, zero: true},
		{name: "zero", v: []float32{0, 0, 0}, zero: true},
		{name: "NaN", v: []float32{0.5, float32(math.NaN())}, zero: true},
		{name: "Inf", v: []float32{0.5, float32(math.Inf(-1))}, zero: true},
		{name: "scale underflows", v: []float32{math.SmallestNonzeroFloat32}, zero: true},
	} {
		s, q := quantize(tc.v)
		if len(q) != len(tc.v) {
			t.Fatalf("%s: %d codes for %d values", tc.name, len(q), len(tc.v))
		}
		if tc.zero {
			if s != 0 || slices.ContainsFunc(q, func(c int8) bool { return c != 0 }) {
				t.Errorf("%s: scale %g codes %v, want all zero", tc.name, s, q)
			}
			continue
		}
		var m float32
		for _, x := range tc.v {
			m = max(m, abs32(x))
		}
		if s != m/127 {
			t.Errorf("%s: scale %g, want %g", tc.name, s, m/127)
		}
		back := make([]float32, len(q))
		dequantize(back, q, s)
		peak := false
		for i, x := range tc.v {
			if d := math.Abs(float64(back[i] - x)); d > float64(s)/2*1.0001 {
				t.Errorf("%s: value %d: %g came back %g (error %g > scale/2 %g)", tc.name, i, x, back[i], d, s/2)
			}
			peak = peak || q[i] == 127 || q[i] == -127
		}
		if !peak {
			t.Errorf("%s: no code reaches ±127: %v", tc.name, q)
		}
	}
}

// TestDotInt8 holds the kernel to a float64 sum, and the quantized
// similarity of unit vectors to the exact one within the bound the recall
// measurements rely on.
func TestDotInt8(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{0, 1, 3, 4, 5, 17, 256, 257} {
		q, v := make([]float32, n), make([]float32, n)
		for i := range q {
			q[i], v[i] = float32(r.NormFloat64()), float32(r.NormFloat64())
		}
		if n > 0 {
			normalize(q)
			normalize(v)
		}
		s, codes := quantize(v)
		var want, exact float64
		for i := range q {
			want += float64(q[i]) * float64(codes[i])
			exact += float64(q[i]) * float64(v[i])
		}
		if got := dotInt8(q, codes); math.Abs(float64(got)-want) > 1e-4*math.Max(1, math.Abs(want)) {
			t.Errorf("n=%d: dotInt8 = %g, want %g", n, got, want)
		}
		if got := dotInt8Go(q, codes); math.Abs(float64(got)-want) > 1e-4*math.Max(1, math.Abs(want)) {
			t.Errorf("n=%d: dotInt8Go = %g, want %g", n, got, want)
		}
		if got := dotInt8(q, codes) * s; math.Abs(float64(got)-exact) > 0.01 {
			t.Errorf("n=%d: quantized similarity %g, exact %g", n, got, exact)
		}
	}
}

// TestOldFormatIndexOpens writes entries as an index from before int8
// vectors did (codec 2, binary16 only) and checks it opens, searches and
// returns the stored vectors; an upsert rewrites an entry in the current
// codec.
func TestOldFormatIndexOpens(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	e, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.SetMeta(ctx, index.Meta{EmbedderID: "x", Dimension: enginetest.Dim}); err != nil {
		t.Fatal(err)
	}
	docs := enginetest.Fixtures()
	if _, err := e.UpsertCompanies(ctx, docs); err != nil {
		t.Fatal(err)
	}
	b := e.db.NewBatch()
	for _, d := range docs {
		v, _, err := e.stored(prefixEntry, d.Company.Domain)
		if err != nil {
			t.Fatal(err)
		}
		var en entry
		if err := en.unmarshal(v); err != nil {
			t.Fatal(err)
		}
		full := en.full()
		old := binary.AppendUvarint([]byte{codecHalfV2}, uint64(len(full)))
		old = append(old, make([]byte, 2*len(full))...)
		putHalfs(old[len(old)-2*len(full):], full)
		// The rest of a v3 entry (score to terms) is laid out as v2's.
		rest := v[1+len(binary.AppendUvarint(nil, uint64(len(full))))+4+len(full) : len(v)-2*len(full)]
		_ = b.Set([]byte(prefixEntry+d.Company.Domain), append(old, rest...), nil)
	}
	if err := b.Commit(pebble.Sync); err != nil {
		t.Fatal(err)
	}
	e.Close()

	e, err = Open(dir, Options{})
	if err != nil {
		t.Fatalf("open an index of codec 2 entries: %v", err)
	}
	defer e.Close()
	if n := e.Len(); n != len(docs) {
		t.Fatalf("Len = %d, want %d", n, len(docs))
	}
	checkFlat(t, e) // built from the old entries' vectors
	q := docs[0].Vector
	res, err := e.SearchCompanies(ctx, index.Search{Vector: q, Limit: 3, MinSimilarity: -1})
	if err != nil || len(res.Hits) == 0 || res.Hits[0].Company.Domain != docs[0].Company.Domain {
		t.Fatalf("search of %s's vector: %+v %v", docs[0].Company.Domain, res.Hits, err)
	}
	vecs, err := e.CompanyVectors(ctx, []string{docs[0].Company.Domain})
	if err != nil {
		t.Fatal(err)
	}
	want := make([]float32, len(q))
	roundHalf(want, q)
	if !slices.Equal(vecs[docs[0].Company.Domain], want) {
		t.Errorf("CompanyVectors = %v, want the stored binary16 %v", vecs[docs[0].Company.Domain], want)
	}
	if _, err := e.UpsertCompanies(ctx, docs[:1]); err != nil {
		t.Fatal(err)
	}
	v, _, _ := e.stored(prefixEntry, docs[0].Company.Domain)
	if v[0] != codecVersion {
		t.Errorf("rewritten entry has codec %d, want %d", v[0], codecVersion)
	}
}

// BenchmarkDot compares the int8 kernel with the float32 one it replaced
// (gonum's SSE Sdot) on 256-dimension vectors.
func BenchmarkDot(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	q, v := make([]float32, benchDim), make([]float32, benchDim)
	for i := range q {
		q[i], v[i] = float32(r.NormFloat64()), float32(r.NormFloat64())
	}
	_, codes := quantize(v)
	var sink float32
	var blas32 gonum.Implementation
	b.Run("int8", func(b *testing.B) {
		for b.Loop() {
			sink += dotInt8(q, codes)
		}
	})
	b.Run("int8-go", func(b *testing.B) {
		for b.Loop() {
			sink += dotInt8Go(q, codes)
		}
	})
	b.Run("float32-gonum", func(b *testing.B) {
		for b.Loop() {
			sink += blas32.Sdot(len(q), q, 1, v, 1)
		}
	})
	_ = sink
}

func TestHugeInterior(t *testing.T) {
	buf := make([]byte, 8*hugePage)
	a0 := int((hugePage - uintptr(unsafe.Pointer(&buf[0]))%hugePage) % hugePage)
	for _, tc := range []struct {
		name     string
		from, to int // offsets from the first huge page boundary in buf
		wantLen  int
	}{
		{"aligned both ends", 0, 4 * hugePage, 4 * hugePage},
		{"unaligned start", 1, 4 * hugePage, 3 * hugePage},
		{"unaligned end", 0, 4*hugePage - 1, 3 * hugePage},
		{"unaligned both", 4096, 5*hugePage + 4096, 4 * hugePage},
		{"exactly one page inside", hugePage - 1, 2*hugePage + 1, hugePage},
		{"no whole page", 1, 2*hugePage - 1, 0},
		{"shorter than a page", 8192, 8192 + 4096, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := buf[a0+tc.from : a0+tc.to]
			in := hugeInterior(b)
			if len(in) != tc.wantLen {
				t.Fatalf("interior %d bytes, want %d", len(in), tc.wantLen)
			}
			if len(in) == 0 {
				return
			}
			lo := uintptr(unsafe.Pointer(&in[0])) - uintptr(unsafe.Pointer(&b[0]))
			if uintptr(unsafe.Pointer(&in[0]))%hugePage != 0 || len(in)%hugePage != 0 {
				t.Fatalf("interior at offset %d, %d bytes: not on huge page boundaries", lo, len(in))
			}
			if lo >= hugePage || len(b)-int(lo)-len(in) >= hugePage {
				t.Fatalf("interior at offset %d, %d bytes of %d: not the largest", lo, len(in), len(b))
			}
		})
	}
}

func TestReleaseChunkTails(t *testing.T) {
	const dim = 64
	for _, n := range []int{1, 1000, chunkDocs - 1, chunkDocs, chunkDocs + 4097} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			e := &Engine{dim: dim, domains: newDomainTable()}
			e.domains.add(uint32(n-1), "last.example") // slots() == n
			for range (n + chunkDocs - 1) / chunkDocs {
				e.chunks = append(e.chunks, allocInt8(chunkDocs*dim))
				e.signs = append(e.signs, make([]uint64, chunkDocs*signWords(dim)))
			}
			for id := range n {
				e.int8Of(uint32(id))[dim-1] = 1
				e.signOf(uint32(id))[0] = 1
			}
			e.releaseChunkTails()
			for id := range len(e.chunks) * chunkDocs {
				want := int8(0)
				if id < n {
					want = 1
				}
				if got := e.int8Of(uint32(id))[dim-1]; got != want {
					t.Fatalf("slot %d: code %d, want %d", id, got, want)
				}
				if got := e.signOf(uint32(id))[0]; got != uint64(want) {
					t.Fatalf("slot %d: sketch %d, want %d", id, got, want)
				}
			}
			// The released pages take writes again.
			last := uint32(len(e.chunks)*chunkDocs - 1)
			e.int8Of(last)[0] = 3
			if e.int8Of(last)[0] != 3 {
				t.Fatal("write to a released page lost")
			}
		})
	}
}
