package embedded

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/cockroachdb/pebble"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/record"
)

// benchN is the corpus size of the engine benchmarks; PROSPECT_BENCH_N
// raises it for scale runs (docs/benchmarks.md).
func benchN() int {
	if n, err := strconv.Atoi(os.Getenv("PROSPECT_BENCH_N")); err == nil && n > 0 {
		return n
	}
	return 50_000
}

const benchDim = 256

func synthDocs(r *rand.Rand, from, n int) []index.CompanyDoc {
	docs := make([]index.CompanyDoc, n)
	countries := []string{"US", "GB", "DE", "FR", "IN", "CA", "AU", "BR", "JP", "NL"}
	text := strings.Repeat("industrial automation software for mid-size manufacturers ", 20)
	for i := range docs {
		v := make([]float32, benchDim)
		var s float32
		for j := range v {
			v[j] = float32(r.NormFloat64())
			s += v[j] * v[j]
		}
		for j := range v {
			v[j] /= float32(sqrt(float64(s)))
		}
		id := from + i
		docs[i] = index.CompanyDoc{Vector: v, Company: record.Company{
			Domain: fmt.Sprintf("company-%d.com", id), Name: fmt.Sprintf("Company %d", id), Score: r.IntN(800) + 1,
			Status:  record.Status{Status: "active", Confidence: 1},
			Address: record.Address{Country: countries[r.IntN(len(countries))]}, StartDate: "2010-05-05",
			IndustryGroups: map[string]float64{record.Industries[r.IntN(53)]: 0.9}, Employees: record.EmployeeBuckets[r.IntN(8)],
			Vendors: []string{"stripe.com", "hubspot.com", "cloudflare.com"}, Subdomains: []string{"www", "app"},
			Description: text[:300], SiteText: text, Phones: []string{"+15125550100"},
		}}
	}
	return docs
}

func sqrt(x float64) float64 {
	z := x
	for i := 0; i < 30; i++ {
		z = (z + x/z) / 2
	}
	return z
}

// BenchmarkUpsert measures bulk write throughput in batches of 1,000.
func BenchmarkUpsert(b *testing.B) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(1, 2))
	batches := make([][]index.CompanyDoc, 20)
	for i := range batches {
		batches[i] = synthDocs(r, i*1000, 1000)
	}
	b.ResetTimer()
	for it := 0; it < b.N; it++ {
		b.StopTimer()
		e, err := Open(b.TempDir(), Options{})
		if err != nil {
			b.Fatal(err)
		}
		if err := e.SetMeta(ctx, index.Meta{EmbedderID: "bench", Dimension: benchDim}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start := time.Now()
		for _, batch := range batches {
			if _, err := e.UpsertCompanies(ctx, batch); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(batches)*1000)/time.Since(start).Seconds(), "docs/s")
		b.StopTimer()
		e.Close()
		b.StartTimer()
	}
}

// BenchmarkSearch measures filtered and unfiltered exact vector search and
// counts on a benchN()-company index.
func BenchmarkSearch(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	e, err := Open(dir, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { e.Close() }()
	if err := e.SetMeta(ctx, index.Meta{EmbedderID: "bench", Dimension: benchDim}); err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	n := benchN()
	for from := 0; from < n; from += 5000 {
		if _, err := e.UpsertCompanies(ctx, synthDocs(r, from, min(5000, n-from))); err != nil {
			b.Fatal(err)
		}
	}
	q := synthDocs(r, n, 1)[0].Vector
	filter := index.And{index.Terms{Field: index.CountryField, Values: []string{"US"}}, index.Terms{Field: index.IndustryField, Values: []string{"SAAS"}}}
	for _, bc := range []struct {
		name string
		s    index.Search
	}{
		{"vector/unfiltered", index.Search{Vector: q, Limit: 100}},
		{"vector/country+industry", index.Search{Vector: q, Limit: 100, Filter: filter}},
		{"score/country", index.Search{Limit: 100, Filter: filter[0]}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := e.SearchCompanies(ctx, bc.s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("count/country+industry", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := e.CountCompanies(ctx, filter); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("reopen", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if err := e.Close(); err != nil {
				b.Fatal(err)
			}
			if e, err = Open(dir, Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkOpen measures a warm restart: rebuilding the in-memory index
// from benchN() persisted companies.
func BenchmarkOpen(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	e, err := Open(dir, Options{})
	if err != nil {
		b.Fatal(err)
	}
	if err := e.SetMeta(ctx, index.Meta{EmbedderID: "bench", Dimension: benchDim}); err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 6))
	n := benchN()
	for from := 0; from < n; from += 5000 {
		if _, err := e.UpsertCompanies(ctx, synthDocs(r, from, min(5000, n-from))); err != nil {
			b.Fatal(err)
		}
	}
	e.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e, err := Open(dir, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if e.Len() != n {
			b.Fatalf("reopened with %d companies, want %d", e.Len(), n)
		}
		b.StopTimer()
		e.Close()
		b.StartTimer()
	}
}

// Vector search at scale. With PROSPECT_BENCH_INDEX pointing at an embedded
// index directory (for example one built by `prospectd demo`), the
// benchmarks open it read-only-in-practice (nothing is written) and measure
// SearchCompanies on it; otherwise they build a benchN()-company synthetic
// clustered index.
//
//	PROSPECT_BENCH_INDEX=/path/to/index go test -run '^$' -bench VectorSearch -benchtime 200x -count 3 ./index/embedded/

var (
	benchOnce sync.Once
	benchEng  *Engine
	benchErr  error
)

// PROSPECT_BENCH_ANN=off runs them without the ANN index (the control: the
// planner then takes the sketch screen for broad queries); otherwise they
// wait for the index to be built (or loaded) first and report the plan
// each query took.
//
// PROSPECT_BENCH_EXACTMAX sets exactMax, the largest candidate count the
// planner scans exactly (the A/B of that boundary in one process).
func benchEngine(b *testing.B) *Engine {
	b.Helper()
	benchOnce.Do(func() {
		if benchErr = benchKnobs(os.Getenv("PROSPECT_BENCH_KNOBS")); benchErr != nil {
			return
		}
		if n, err := strconv.Atoi(os.Getenv("PROSPECT_BENCH_EXACTMAX")); err == nil && n > 0 {
			exactMax = n
		}
		annOff := os.Getenv("PROSPECT_BENCH_ANN") == "off"
		if annOff {
			annMinDocs = math.MaxInt
		}
		if dir := os.Getenv("PROSPECT_BENCH_INDEX"); dir != "" {
			start := time.Now()
			benchEng, benchErr = Open(dir, Options{ANN: !annOff})
			if benchErr == nil {
				fmt.Fprintf(os.Stderr, "opened %s: %d companies in %v\n", dir, benchEng.Len(), time.Since(start).Round(time.Millisecond))
			}
		} else {
			dir, err := os.MkdirTemp("", "embedded-bench-")
			if err != nil {
				benchErr = err
				return
			}
			benchEng, benchErr = buildClustered(dir, benchN(), benchDim, 7)
		}
		if benchErr != nil {
			return
		}
		if annOff {
			benchEng.mu.Lock()
			benchEng.ann.idx = nil
			benchEng.mu.Unlock()
			return
		}
		start := time.Now()
		loaded := benchEng.annReady()
		waitANN(b, benchEng)
		if !loaded {
			fmt.Fprintf(os.Stderr, "ANN index built in %v (k-means %v)\n", time.Since(start).Round(time.Millisecond), annTrainTime.Round(time.Millisecond))
			// Saved as Close would (the benchmark engine stays open), so
			// the next run measures a warm restart with the index.
			start = time.Now()
			benchEng.saveANN()
			fmt.Fprintf(os.Stderr, "ANN index saved in %v\n", time.Since(start).Round(time.Millisecond))
		} else {
			fmt.Fprintln(os.Stderr, "ANN index loaded with the index")
		}
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchEng
}

// benchKnobs sets the planner's tuning variables a benchmark run names in
// PROSPECT_BENCH_KNOBS ("annRescoreFloor=220": the setting of an earlier
// build, for a before/after in the same hold).
func benchKnobs(s string) error {
	for _, kv := range strings.Split(s, ",") {
		if kv == "" {
			continue
		}
		name, val, _ := strings.Cut(kv, "=")
		x, err := strconv.ParseFloat(val, 64)
		if err != nil {
			return fmt.Errorf("PROSPECT_BENCH_KNOBS %q: %w", kv, err)
		}
		switch name {
		case "rescoreMin":
			rescoreMin = int(x)
		case "annRescoreFloor":
			annRescoreFloor = int(x)
		default:
			return fmt.Errorf("PROSPECT_BENCH_KNOBS: unknown knob %q", name)
		}
		fmt.Fprintf(os.Stderr, "knob %s = %v\n", name, x)
	}
	return nil
}

// buildClustered writes n synthetic companies whose vectors form clusters
// with a decaying per-dimension spread, like the SVD embeddings of real
// profiles; profiles are minimal so building is quick.
func buildClustered(dir string, n, dim int, seed uint64) (*Engine, error) {
	ctx := context.Background()
	e, err := Open(dir, Options{BulkLoad: true, ANN: true})
	if err != nil {
		return nil, err
	}
	if err := e.SetMeta(ctx, index.Meta{EmbedderID: "bench", Dimension: dim}); err != nil {
		return nil, err
	}
	r := rand.New(rand.NewPCG(seed, seed+1))
	spread := make([]float64, dim)
	for j := range spread {
		spread[j] = 1 / (1 + float64(j)/32)
	}
	centers := make([][]float64, max(1, n/200))
	for i := range centers {
		centers[i] = make([]float64, dim)
		for j := range centers[i] {
			centers[i][j] = r.NormFloat64() * spread[j]
		}
	}
	countries := []string{"US", "US", "US", "GB", "DE", "FR", "IN", "CA", "AU", "BR"}
	batch := make([]index.CompanyDoc, 0, 2000)
	for i := 0; i < n; i++ {
		c := centers[r.IntN(len(centers))]
		v := make([]float32, dim)
		noise := 0.3 + 0.5*r.Float64()
		for j := range v {
			v[j] = float32(c[j] + noise*r.NormFloat64()*spread[j])
		}
		normalize(v)
		batch = append(batch, index.CompanyDoc{Vector: v, Company: record.Company{
			Domain: fmt.Sprintf("c%07d.com", i), Name: "C", Score: r.IntN(800) + 1,
			Address:        record.Address{Country: countries[r.IntN(len(countries))]},
			IndustryGroups: map[string]float64{record.Industries[r.IntN(53)]: 0.9},
		}})
		if len(batch) == cap(batch) || i == n-1 {
			if _, err := e.UpsertCompanies(ctx, batch); err != nil {
				return nil, err
			}
			batch = batch[:0]
		}
	}
	return e, nil
}

// pickFilter returns the country, industry or country+industry filter whose
// match count is closest to frac of the index (nil for frac >= 1).
func pickFilter(e *Engine, frac float64) (index.Filter, int) {
	ctx := context.Background()
	n, _ := e.CountCompanies(ctx, nil)
	if frac >= 1 {
		return nil, n
	}
	want := frac * float64(n)
	var best index.Filter
	bestN, bestD := 0, math.Inf(1)
	try := func(f index.Filter) {
		c, err := e.CountCompanies(ctx, f)
		if err != nil || c == 0 {
			return
		}
		if d := math.Abs(math.Log(float64(c) / want)); d < bestD {
			best, bestN, bestD = f, c, d
		}
	}
	e.mu.RLock()
	var countries, industries []string
	e.post[keywordSlot[index.CountryField]].each(e.domains, func(v string, c uint64) {
		if c > uint64(n/200) {
			countries = append(countries, v)
		}
	})
	e.post[keywordSlot[index.IndustryField]].each(e.domains, func(v string, _ uint64) {
		industries = append(industries, v)
	})
	e.mu.RUnlock()
	sort.Strings(countries)
	sort.Strings(industries)
	for _, c := range countries {
		cf := index.Terms{Field: index.CountryField, Values: []string{c}}
		try(cf)
		for _, in := range industries {
			try(index.And{cf, index.Terms{Field: index.IndustryField, Values: []string{in}}})
		}
	}
	for _, in := range industries {
		try(index.Terms{Field: index.IndustryField, Values: []string{in}})
	}
	return best, bestN
}

// sampleDomains picks n live domains by a seeded hash of the domain, so
// that the same companies are picked whatever their slots (a renumbering
// at Close moves them).
func sampleDomains(e *Engine, n int, seed uint64) []string {
	e.mu.RLock()
	defer e.mu.RUnlock()
	live := int(e.live.GetCardinality())
	if live == 0 {
		return nil
	}
	// Keep about 4n candidates by hash, then the n smallest hashes.
	keep := uint64(math.MaxUint64)
	if 4*n < live {
		keep = uint64(math.MaxUint64) / uint64(live) * uint64(4*n)
	}
	type pick struct {
		h uint64
		d string
	}
	var picks []pick
	e.live.Iterate(func(id uint32) bool {
		d := e.domains.get(id)
		x := 14695981039346656037 ^ seed
		for i := 0; i < len(d); i++ {
			x = (x ^ uint64(d[i])) * 1099511628211
		}
		x ^= x >> 31
		x *= 0x94d049bb133111eb
		x ^= x >> 29
		if x <= keep {
			picks = append(picks, pick{x, strings.Clone(d)})
		}
		return true
	})
	if len(picks) == 0 {
		return nil
	}
	slices.SortFunc(picks, func(a, b pick) int { return cmp.Compare(a.h, b.h) })
	out := make([]string, 0, n)
	for i := 0; len(out) < n; i++ {
		out = append(out, picks[i%len(picks)].d)
	}
	return out
}

// benchQueries returns n query vectors: stored companies' vectors, or
// normalized mixtures of 2-5 random stored vectors.
func benchQueries(e *Engine, n int, mix bool, seed uint64) [][]float32 {
	r := rand.New(rand.NewPCG(seed, 99))
	domains := sampleDomains(e, n*5, seed)
	vecs, _ := e.CompanyVectors(context.Background(), domains)
	out := make([][]float32, n)
	for i := range out {
		if !mix {
			out[i] = vecs[domains[i]]
			continue
		}
		q := make([]float32, e.dim)
		for j := 0; j < 2+r.IntN(4); j++ {
			for x, f := range vecs[domains[i*5+j]] {
				q[x] += f
			}
		}
		normalize(q)
		out[i] = q
	}
	return out
}

// fullVectors holds every stored document's full-precision vector
// (binary16, read from the entries on disk) by slot: the reference recall
// is measured against, not the resident int8 codes.
type fullVectors struct {
	dim  int
	half []byte // 2*dim bytes a slot
	// truths caches truth's answers (guarded by fullMu).
	truths map[string][]scored
}

var (
	fullMu    sync.Mutex
	fullByEng = map[*Engine]*fullVectors{}
)

// fullOf reads (once per engine) the stored full-precision vectors.
func fullOf(tb testing.TB, e *Engine) *fullVectors {
	fullMu.Lock()
	defer fullMu.Unlock()
	if f := fullByEng[e]; f != nil {
		return f
	}
	// A bulk load's buffered entries are not in the store yet.
	if err := e.Refresh(context.Background()); err != nil {
		tb.Fatal(err)
	}
	e.mu.RLock()
	defer e.mu.RUnlock()
	f := &fullVectors{dim: e.dim, half: make([]byte, 2*e.dim*e.domains.slots())}
	// The vector file holds the same binary16 vectors, slot by slot
	// (checked against the store at open), and reads in seconds in one
	// sequential read where the store takes a minute at 10M (and the
	// mapping, advised random, a page at a time); the store is read when
	// there is no file.
	if fv := e.flat; fv != nil && !fv.broken && fv.slots >= e.domains.slots() && fv.dim == e.dim {
		if _, err := fv.f.ReadAt(f.half, flatHeaderSize); err == nil {
			fullByEng[e] = f
			return f
		}
	}
	it, err := e.db.NewIter(&pebble.IterOptions{LowerBound: []byte(prefixEntry), UpperBound: []byte("x0")})
	if err != nil {
		tb.Fatal(err)
	}
	defer it.Close()
	var en entry
	for it.First(); it.Valid(); it.Next() {
		id, ok := e.domains.lookup(string(it.Key()[len(prefixEntry):]))
		if !ok {
			continue
		}
		if err := en.unmarshal(it.Value()); err != nil {
			tb.Fatal(err)
		}
		dst := f.half[int(id)*2*e.dim : (int(id)+1)*2*e.dim]
		if en.vector == nil {
			copy(dst, en.half)
		} else {
			putHalfs(dst, en.vector)
		}
	}
	if err := it.Error(); err != nil {
		tb.Fatal(err)
	}
	fullByEng[e] = f
	return f
}

// truth is the exact full-precision top limit (up to 100) of q among f's
// candidates, computed once per filter and query. Callers hold e.mu.
func (f *fullVectors) truth(e *Engine, filter index.Filter, q []float32, limit int) []scored {
	key := fmt.Sprintf("%v|%x", filter, q[:min(8, len(q))])
	fullMu.Lock()
	top, ok := f.truths[key]
	fullMu.Unlock()
	if !ok || limit > 100 {
		cand, _ := e.eval(filter, e.live)
		top = f.exactFull(e, cand.ToArray(), q, max(limit, 100))
		fullMu.Lock()
		if f.truths == nil {
			f.truths = map[string][]scored{}
		}
		f.truths[key] = top
		fullMu.Unlock()
	}
	return top[:min(limit, len(top))]
}

// exactFull is the reference ranking: the float32 dot product of q with
// each candidate's full-precision vector, best k, in parallel. Callers
// hold e.mu.
func (f *fullVectors) exactFull(e *Engine, ids []uint32, q []float32, k int) []scored {
	heaps := make([]*topK, runtime.GOMAXPROCS(0))
	used := parallel(len(ids), 4096, func(w, lo, hi int) {
		h := &topK{k: k, domains: e.domains}
		v := make([]float32, f.dim)
		for _, id := range ids[lo:hi] {
			getHalfs(v, f.half[int(id)*2*f.dim:])
			h.offer(scored{id: id, score: fullDot(q, v)})
		}
		heaps[w] = h
	})
	merged := &topK{k: k, domains: e.domains}
	for _, h := range heaps[:used] {
		for _, s := range h.items {
			merged.offer(s)
		}
	}
	return merged.sorted()
}

// recallAt compares SearchCompanies with an exact float32 scan of the same
// candidates' full-precision vectors: the mean share of the exact top 10
// and top 100 returned.
func recallAt(tb testing.TB, e *Engine, f index.Filter, queries [][]float32) (r10, r100 float64) {
	return recallLimit(tb, e, f, queries, 100)
}

// recallLimit is recallAt with searches for limit hits (recall@100 is then
// over the first limit).
func recallLimit(tb testing.TB, e *Engine, f index.Filter, queries [][]float32, limit int) (r10, r100 float64) {
	ctx := context.Background()
	full := fullOf(tb, e)
	for _, q := range queries {
		res, err := e.SearchCompanies(ctx, index.Search{Vector: q, Limit: limit, Filter: f, MinSimilarity: -1})
		if err != nil {
			tb.Fatal(err)
		}
		e.mu.RLock()
		top := full.truth(e, f, q, limit)
		want := map[string]int{}
		for i, s := range top {
			want[e.domains.get(s.id)] = i
		}
		e.mu.RUnlock()
		h10, h100 := 0, 0
		for i, h := range res.Hits {
			if _, ok := want[h.Company.Domain]; ok {
				h100++
				if i < 10 {
					if r, ok := want[h.Company.Domain]; ok && r < 10 {
						h10++
					}
				}
			}
		}
		r10 += float64(h10) / float64(min(10, len(top)))
		r100 += float64(h100) / float64(max(1, len(top)))
	}
	return r10 / float64(len(queries)), r100 / float64(len(queries))
}

// exactPass times one exact int8 scan (dotID) of every candidate of f: the
// median of three, in ms.
func exactPass(e *Engine, f index.Filter, q []float32) float64 {
	e.mu.RLock()
	defer e.mu.RUnlock()
	cand, _ := e.eval(f, e.live)
	ids := cand.ToArray()
	var ts []time.Duration
	for range 3 {
		start := time.Now()
		e.exact(context.Background(), ids, q, -2, 100)
		ts = append(ts, time.Since(start))
	}
	slices.Sort(ts)
	return float64(ts[1].Microseconds()) / 1000
}

// recallQueries is the number of queries recall is measured with
// (PROSPECT_BENCH_RECALL_QUERIES, default 20): each costs a full-precision
// scan of the candidates, several seconds at 10M.
func recallQueries() int {
	if n, err := strconv.Atoi(os.Getenv("PROSPECT_BENCH_RECALL_QUERIES")); err == nil && n > 0 {
		return n
	}
	return 20
}

var benchSelectivities = []struct {
	name string
	frac float64
}{{"all", 1}, {"30pct", 0.3}, {"5pct", 0.05}, {"0.5pct", 0.005}, {"0.1pct", 0.001}}

// BenchmarkVectorSearch measures SearchCompanies (Limit 100, profiles
// hydrated) at several filter selectivities, with stored-company and
// mixture queries; it reports p50/p99 latency, recall@10/@100 against an
// exact scan and the share of queries each plan answered (exact, screen,
// ann). exactpass is one exact scan of every vector (the reference of the
// ratio bar: a broad query's engine time <= 10% of it).
func BenchmarkVectorSearch(b *testing.B) {
	e := benchEngine(b)
	ctx := context.Background()
	b.Run("exactpass", func(b *testing.B) {
		q := benchQueries(e, 1, false, 3)[0]
		e.mu.RLock()
		ids := e.live.ToArray()
		e.mu.RUnlock()
		lat := make([]time.Duration, 0, b.N)
		for i := 0; i < b.N; i++ {
			start := time.Now()
			e.mu.RLock()
			e.exact(ctx, ids, q, -2, 100)
			e.mu.RUnlock()
			lat = append(lat, time.Since(start))
		}
		slices.Sort(lat)
		b.ReportMetric(float64(len(ids)), "candidates")
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	})
	for _, sel := range benchSelectivities {
		f, n := pickFilter(e, sel.frac)
		for _, kind := range []string{"stored", "mix"} {
			b.Run(sel.name+"/"+kind, func(b *testing.B) {
				queries := benchQueries(e, 64, kind == "mix", 1)
				r10, r100 := recallAt(b, e, f, benchQueries(e, recallQueries(), kind == "mix", 2))
				pass := exactPass(e, f, queries[0])
				lat := make([]time.Duration, 0, b.N)
				// The control: each query again without the ANN index
				// (the screen), right after, so both see the same load.
				var ctl []time.Duration
				control := e.ann.idx != nil && e.plan(n, 100) == planANN
				search := func(q []float32) time.Duration {
					start := time.Now()
					res, err := e.SearchCompanies(ctx, index.Search{Vector: q, Limit: 100, Filter: f})
					d := time.Since(start)
					if err != nil || len(res.Hits) == 0 {
						b.Fatalf("search: %v (%d hits)", err, len(res.Hits))
					}
					return d
				}
				before := planCounts(e)
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					lat = append(lat, search(queries[i%len(queries)]))
					if control {
						b.StopTimer()
						annOff.Store(true)
						before[planScreen]++
						ctl = append(ctl, search(queries[i%len(queries)]))
						annOff.Store(false)
						b.StartTimer()
					}
				}
				b.StopTimer()
				after := planCounts(e)
				if control {
					slices.Sort(ctl)
					b.ReportMetric(float64(ctl[len(ctl)/2].Microseconds())/1000, "screen-p50-ms")
					b.ReportMetric(float64(ctl[len(ctl)*99/100].Microseconds())/1000, "screen-p99-ms")
				}
				for p, name := range planNames {
					b.ReportMetric(float64(after[p]-before[p])/float64(b.N), name+"-share")
				}
				slices.Sort(lat)
				b.ReportMetric(float64(n), "candidates")
				b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
				b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
				b.ReportMetric(r10, "recall@10")
				b.ReportMetric(r100, "recall@100")
				b.ReportMetric(pass, "exact-int8-ms")
			})
		}
	}
}

// BenchmarkSearchPhases breaks SearchCompanies into its phases (phases.go:
// filter evaluation, plan, ANN list ranking and gathering, the int8
// ranking, the Total estimate, the full-precision pass, hydration) at each
// selectivity, for stored-company and mixture queries, at Limit 10 and 100.
// It reports the p50 of each phase, the p50/p99 of the engine time (every
// phase but hydration: the ranking that decides the hits and their
// similarities) and of the whole call, the plan taken, and recall@10 of the
// same searches against an exact full-precision scan. Every query is a new
// one (no profile read twice), so hydration is as cold as the page cache
// leaves it.
//
//	PROSPECT_BENCH_INDEX=/path/to/index go test -run '^$' -bench SearchPhases -benchtime 50x ./index/embedded/
func BenchmarkSearchPhases(b *testing.B) {
	e := benchEngine(b)
	sels := slices.Insert(slices.Clone(benchSelectivities), 3, struct {
		name string
		frac float64
	}{"1pct", 0.01})
	// PROSPECT_BENCH_SELECT (comma-separated fractions) replaces them:
	// a smaller index reaches the candidate counts of 10M's filters with
	// broader ones (10% of 500k is 0.5% of 10M).
	if v := os.Getenv("PROSPECT_BENCH_SELECT"); v != "" {
		sels = sels[:0]
		for _, f := range strings.Split(v, ",") {
			frac, err := strconv.ParseFloat(f, 64)
			if err != nil || frac <= 0 {
				b.Fatalf("PROSPECT_BENCH_SELECT: bad fraction %q", f)
			}
			sels = append(sels, struct {
				name string
				frac float64
			}{strconv.FormatFloat(100*frac, 'g', -1, 64) + "pct", frac})
		}
	}
	for _, sel := range sels {
		f, n := pickFilter(e, sel.frac)
		for _, kind := range []string{"stored", "mix"} {
			for _, pl := range benchPlans(b) {
				if pl != "auto" && 2*poolSize(n, 100) >= n {
					continue // every plan is the exact scan there
				}
				for _, limit := range []int{10, 100} {
					b.Run(fmt.Sprintf("%s/%s/%s/limit=%d", sel.name, kind, pl, limit), func(b *testing.B) {
						planForce.Store(int32(slices.Index(planNames, pl) + 1))
						defer planForce.Store(0)
						searchPhasesCase(b, e, f, n, kind == "mix", limit, pl == "auto")
					})
				}
			}
		}
	}
}

// searchPhasesCase is one case of BenchmarkSearchPhases. With
// PROSPECT_BENCH_IO_AB set (and ab), every other query reads as before the
// full-precision pass's prefetch and hydration's 16 reads at a time (2 at
// a time, GOMAXPROCS), reported apart as full-/hydrate-serial-p50-ms;
// each query is a new one, so both halves are as cold.
func searchPhasesCase(b *testing.B, e *Engine, f index.Filter, n int, mix bool, limit int, ab bool) {
	ctx := context.Background()
	ab = ab && os.Getenv("PROSPECT_BENCH_IO_AB") != ""
	queries := benchQueries(e, b.N, mix, uint64(7+limit))
	phases := make([][]time.Duration, numPhases)
	var engine, total []time.Duration
	var serial [2][]time.Duration
	var plans [3]int
	reads := hydrateReads
	defer func() { prefetchOff, hydrateReads = false, reads }()
	b.ResetTimer()
	for i, q := range queries {
		old := ab && i%2 == 1
		if old {
			prefetchOff, hydrateReads = true, runtime.GOMAXPROCS(0)
		}
		var p searchPhases
		start := time.Now()
		res, err := e.SearchCompanies(withPhases(ctx, &p), index.Search{Vector: q, Limit: limit, Filter: f})
		d := time.Since(start)
		prefetchOff, hydrateReads = false, reads
		if err != nil || len(res.Hits) == 0 {
			b.Fatalf("search: %v (%d hits)", err, len(res.Hits))
		}
		if old {
			serial[0] = append(serial[0], p.d[phaseFull])
			serial[1] = append(serial[1], p.d[phaseHydrate])
			continue
		}
		for ph := range numPhases {
			phases[ph] = append(phases[ph], p.d[ph])
		}
		engine = append(engine, d-p.d[phaseHydrate])
		total = append(total, d)
		plans[p.plan]++
	}
	b.StopTimer()
	ms := func(ds []time.Duration, q float64) float64 {
		slices.Sort(ds)
		return float64(ds[int(q*float64(len(ds)-1))].Microseconds()) / 1000
	}
	for ph, name := range phaseNames {
		if ms(phases[ph], 0.99) > 0 {
			b.ReportMetric(ms(phases[ph], 0.5), name+"-p50-ms")
		}
	}
	if len(serial[0]) > 0 {
		b.ReportMetric(ms(serial[0], 0.5), "full-serial-p50-ms")
		b.ReportMetric(ms(serial[1], 0.5), "hydrate-serial-p50-ms")
	}
	// The first query's engine time: in the first case of a filter that
	// the screen ranks, it makes the kept set's copy of sketches
	// (signCopy).
	b.ReportMetric(float64(engine[0].Microseconds())/1000, "engine-first-ms")
	b.ReportMetric(ms(engine, 0.5), "engine-p50-ms")
	b.ReportMetric(ms(engine, 0.99), "engine-p99-ms")
	b.ReportMetric(ms(total, 0.5), "total-p50-ms")
	b.ReportMetric(ms(total, 0.99), "total-p99-ms")
	for p, name := range planNames {
		if plans[p] > 0 {
			b.ReportMetric(float64(plans[p])/float64(len(engine)), name+"-share")
		}
	}
	b.ReportMetric(float64(n), "candidates")
	if recallQueries() > 0 {
		r10, r100 := recallLimit(b, e, f, benchQueries(e, recallQueries(), mix, 2), limit)
		b.ReportMetric(r10, "recall@10")
		if limit == 100 {
			b.ReportMetric(r100, "recall@100")
		}
	}
}

// benchPlans is the plans BenchmarkSearchPhases runs each case with:
// PROSPECT_BENCH_PLANS (comma-separated of auto, exact, screen, ann;
// default auto, the planner's choice).
func benchPlans(b *testing.B) []string {
	s := os.Getenv("PROSPECT_BENCH_PLANS")
	if s == "" {
		return []string{"auto"}
	}
	out := strings.Split(s, ",")
	for _, p := range out {
		if p != "auto" && !slices.Contains(planNames, p) {
			b.Fatalf("PROSPECT_BENCH_PLANS: unknown plan %q", p)
		}
	}
	return out
}

// BenchmarkExactRandom times exact over candidates spread over a 1 GB
// index of int8 codes (4M companies' worth, as a filter's or the ANN
// plan's gathered lists are at 10M) and over a dense run of them, to see
// readAhead's effect on both.
//
// PROSPECT_EXACT_N sets the engine's size (default 4M; 10M is 2.9 GB)
// and PROSPECT_EXACT_GATHER the candidates (default 63,000); the
// "scale" cases alternate touchScale off and on, query by query.
func BenchmarkExactRandom(b *testing.B) {
	const dim = 256
	n, want := 4<<20, 63_000
	if x, err := strconv.Atoi(os.Getenv("PROSPECT_EXACT_N")); err == nil && x > 0 {
		n = x &^ (chunkDocs - 1)
	}
	if x, err := strconv.Atoi(os.Getenv("PROSPECT_EXACT_GATHER")); err == nil && x > 0 {
		want = x
	}
	e, r := randomEngine(n, dim)
	q := randomQuery(r, dim)
	spread := make([]uint32, want)
	for i := range spread {
		spread[i] = uint32(r.IntN(n))
	}
	slices.Sort(spread)
	spread = slices.Compact(spread)
	b.Run("scale", func(b *testing.B) {
		var lat [2][]time.Duration
		for i := 0; i < 2*b.N; i++ {
			touchScale = i%2 == 1
			start := time.Now()
			e.exact(context.Background(), spread, q, -2, 220)
			lat[i%2] = append(lat[i%2], time.Since(start))
		}
		touchScale = true
		for j, name := range []string{"without", "with"} {
			slices.Sort(lat[j])
			b.ReportMetric(float64(lat[j][len(lat[j])/2].Microseconds())/1000, name+"-p50-ms")
		}
	})
	// The ANN plan's order: 36 lists, each in id order, one after another.
	grouped := slices.Clone(spread)
	r.Shuffle(len(grouped), func(i, j int) { grouped[i], grouped[j] = grouped[j], grouped[i] })
	for l := range 36 {
		part := grouped[l*len(grouped)/36 : (l+1)*len(grouped)/36]
		slices.Sort(part)
	}
	b.Run("order", func(b *testing.B) {
		var lat [3][]time.Duration
		buf := make([]uint32, len(grouped))
		var scratch []uint32
		for i := 0; i < 3*b.N; i++ {
			start := time.Now()
			switch i % 3 {
			case 0:
				e.exact(context.Background(), spread, q, -2, 220)
			case 1:
				e.exact(context.Background(), grouped, q, -2, 220)
			case 2:
				copy(buf, grouped)
				var ids []uint32
				ids, scratch = sortIDs(buf, scratch)
				e.exact(context.Background(), ids, q, -2, 220)
			}
			lat[i%3] = append(lat[i%3], time.Since(start))
		}
		for j, name := range []string{"sorted", "grouped", "grouped+sortIDs"} {
			slices.Sort(lat[j])
			b.ReportMetric(float64(lat[j][len(lat[j])/2].Microseconds())/1000, name+"-p50-ms")
		}
	})
	dense := make([]uint32, want)
	for i := range dense {
		dense[i] = uint32(1_000_000 + i)
	}
	for _, tc := range []struct {
		name string
		ids  []uint32
	}{{"spread", spread}, {"dense", dense}} {
		for _, ahead := range []int{0, readAhead} {
			b.Run(fmt.Sprintf("%s/ahead=%d", tc.name, ahead), func(b *testing.B) {
				old := readAhead
				readAhead = ahead
				defer func() { readAhead = old }()
				for i := 0; i < b.N; i++ {
					e.exact(context.Background(), tc.ids, q, -2, 220)
				}
			})
		}
	}
}

// randomQuery is a query of dim normal components (not normalized: the
// scans rank by it the same).
func randomQuery(r *rand.Rand, dim int) []float32 {
	q := make([]float32, dim)
	for i := range q {
		q[i] = float32(r.NormFloat64())
	}
	return q
}

// randomEngine is an engine of n random int8 vectors and sketches and
// nothing else (no store, no domains): enough for exact.
func randomEngine(n, dim int) (*Engine, *rand.Rand) {
	e := &Engine{dim: dim, domains: newDomainTable(), scales: make([]float32, n)}
	r := rand.New(rand.NewPCG(1, 1))
	for range n / chunkDocs {
		c := allocInt8(chunkDocs * dim)
		for i := range c {
			c[i] = int8(r.Uint32())
		}
		e.chunks = append(e.chunks, c)
		sg := make([]uint64, chunkDocs*signWords(dim))
		for i := range sg {
			sg[i] = r.Uint64()
		}
		e.signs = append(e.signs, sg)
	}
	for i := range e.scales {
		e.scales[i] = 0.01
	}
	return e, r
}

// BenchmarkRescoreFloor measures the ANN plan's full-precision rescoring
// floors (annRescoreFloor) in PROSPECT_RESCORE_MIN (comma-separated;
// default the rule's, annRescore) on the broad
// cases (no filter and about 30%), stored-company and mixture queries, at
// Limit 10 and 100: the floors take turns query by query, every query a
// new one, so each floor's full-precision pass meets the page cache as
// cold; then the recall@10 (and @100) of the same 20 recall queries at
// each floor. Metrics are named by floor (f400-full-p50-ms).
//
//	PROSPECT_BENCH_INDEX=/path/to/index PROSPECT_RESCORE_MIN=220,400,600 go test -run '^$' -bench RescoreFloor -benchtime 60x ./index/embedded/
func BenchmarkRescoreFloor(b *testing.B) {
	e := benchEngine(b)
	floors := []int{annRescore(e.ann.idx.nlist)}
	if s := os.Getenv("PROSPECT_RESCORE_MIN"); s != "" {
		floors = floors[:0]
		for _, f := range strings.Split(s, ",") {
			x, err := strconv.Atoi(f)
			if err != nil {
				b.Fatal(err)
			}
			floors = append(floors, x)
		}
	}
	defer func() { annRescoreFloor = 0 }()
	ctx := context.Background()
	for _, sel := range benchSelectivities[:2] {
		f, _ := pickFilter(e, sel.frac)
		for _, kind := range []string{"stored", "mix"} {
			for _, limit := range []int{10, 100} {
				b.Run(fmt.Sprintf("%s/%s/limit=%d", sel.name, kind, limit), func(b *testing.B) {
					queries := benchQueries(e, b.N, kind == "mix", uint64(17+limit))
					full := make([][]time.Duration, len(floors))
					engine := make([][]time.Duration, len(floors))
					b.ResetTimer()
					for i, q := range queries {
						j := i % len(floors)
						annRescoreFloor = floors[j]
						var p searchPhases
						start := time.Now()
						res, err := e.SearchCompanies(withPhases(ctx, &p), index.Search{Vector: q, Limit: limit, Filter: f})
						d := time.Since(start)
						if err != nil || len(res.Hits) == 0 {
							b.Fatalf("search: %v (%d hits)", err, len(res.Hits))
						}
						full[j] = append(full[j], p.d[phaseFull])
						engine[j] = append(engine[j], d-p.d[phaseHydrate])
					}
					b.StopTimer()
					ms := func(ds []time.Duration, q float64) float64 {
						slices.Sort(ds)
						return float64(ds[int(q*float64(len(ds)-1))].Microseconds()) / 1000
					}
					for j, floor := range floors {
						if len(full[j]) == 0 {
							continue
						}
						name := fmt.Sprintf("f%d-", floor)
						b.ReportMetric(ms(full[j], 0.5), name+"full-p50-ms")
						b.ReportMetric(ms(full[j], 0.99), name+"full-p99-ms")
						b.ReportMetric(ms(engine[j], 0.5), name+"engine-p50-ms")
						b.ReportMetric(ms(engine[j], 0.99), name+"engine-p99-ms")
						annRescoreFloor = floor
						r10, r100 := recallLimit(b, e, f, benchQueries(e, recallQueries(), kind == "mix", 2), limit)
						b.ReportMetric(r10, name+"recall@10")
						if limit == 100 {
							b.ReportMetric(r100, name+"recall@100")
						}
					}
				})
			}
		}
	}
}

// BenchmarkScreenRandom times the screen's first pass (one sketch a
// candidate) over a filter's candidates spread over 4M sketches, as they
// are at 10M, with the sketches on 4 KiB pages (one allocation a chunk, as
// before allocSigns) and on huge pages (allocSigns).
func BenchmarkScreenRandom(b *testing.B) {
	const dim, n = 256, 4 << 20
	e, r := randomEngine(n, dim)
	small := e.signs
	huge := allocSigns(len(small), signWords(dim))
	for i, s := range small {
		copy(huge[i], s)
	}
	q := randomQuery(r, dim)
	qp := newQTop(q, dim/2)
	for _, frac := range []float64{0.05, 0.01} {
		var ids []uint32
		for i := range n {
			if r.Float64() < frac {
				ids = append(ids, uint32(i))
			}
		}
		for _, pages := range []string{"4k", "huge"} {
			b.Run(fmt.Sprintf("%v/pages=%s", frac, pages), func(b *testing.B) {
				e.signs = small
				if pages == "huge" {
					e.signs = huge
				}
				sc := new(scratch)
				for i := 0; i < b.N; i++ {
					sc.surv = e.screen(context.Background(), sc, qp, ids, len(ids)/screenFrac, sc.surv)
				}
				b.ReportMetric(float64(len(sc.surv)), "kept")
			})
		}
		// The refine pass over every candidate (screenRank below
		// screenOnce), scoring each sketch as it is read or a block of
		// copies at a time (estimate3).
		e.signs = huge
		qw := newQPlanes(q, refinePlanes)
		est := make([]uint16, len(ids))
		for _, gather := range []bool{false, true} {
			b.Run(fmt.Sprintf("%v/refine/gather=%v", frac, gather), func(b *testing.B) {
				old := sketchGather
				sketchGather = gather
				defer func() { sketchGather = old }()
				for i := 0; i < b.N; i++ {
					e.estimateAll(context.Background(), qw, ids, est)
				}
			})
		}
		// The same pass over a kept set's copy of the sketches
		// (signCopy): read in order; and making the copy, which the first
		// search of a kept set pays.
		kept := roaring.BitmapOf(ids...)
		cp := e.signCopyOf(kept, len(ids))
		b.Run(fmt.Sprintf("%v/refine/copy", frac), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				cp.estimateAll(context.Background(), qw, est)
			}
		})
		// The copy through the portable loop (processors without AVX2).
		b.Run(fmt.Sprintf("%v/refine/copy-portable", frac), func(b *testing.B) {
			old := useAVX2
			useAVX2 = false
			defer func() { useAVX2 = old }()
			for i := 0; i < b.N; i++ {
				cp.estimateAll(context.Background(), qw, est)
			}
		})
		b.Run(fmt.Sprintf("%v/copy-make", frac), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				e.dropSignCopies()
				e.signCopyOf(kept, len(ids))
			}
		})
	}
}
