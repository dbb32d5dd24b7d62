package embedded

import (
	"context"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/internal/cputime"
	"github.com/openprospect/prospectd/record"
)

// sketchCorpus opens an engine of n contacts of dim dimensions spread over
// companies employers, with vectors around a few dozen centres (so the
// neighbourhoods are flat, as the demo's are), half of them "vp".
func sketchCorpus(t *testing.T, dim, n, companies int) (*Engine, *contactIndex) {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	e, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.SetMeta(ctx, index.Meta{EmbedderID: "test-embedder", Dimension: dim}); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	centres := make([][]float32, 40)
	for i := range centres {
		centres[i] = make([]float32, dim)
		for k := range centres[i] {
			centres[i][k] = float32(rng.NormFloat64())
		}
	}
	docs := make([]index.ContactDoc, n)
	for i := range docs {
		c := centres[rng.IntN(len(centres))]
		v := make([]float32, dim)
		var norm float64
		for k := range v {
			v[k] = c[k] + 0.8*float32(rng.NormFloat64())
			norm += float64(v[k]) * float64(v[k])
		}
		for k := range v {
			v[k] /= float32(math.Sqrt(norm))
		}
		seniority := "vp"
		if i%2 == 1 {
			seniority = "manager"
		}
		docs[i] = index.ContactDoc{Vector: v, Contact: record.Contact{PersonaID: int64(i + 1), Name: "P " + strconv.Itoa(i),
			Seniority: seniority, Department: record.Departments[rng.IntN(4)], Domain: "c" + strconv.Itoa(rng.IntN(companies)) + ".example"}}
	}
	// A twentieth is written after the reopening (the next slots).
	late := n - n/20
	for lo := 0; lo < late; lo += 1000 {
		if _, err := e.UpsertContacts(ctx, docs[lo:min(late, lo+1000)]); err != nil {
			t.Fatal(err)
		}
	}
	// Reopened, the sketches come from the load (slots by department and
	// seniority); then a tenth of the contacts move elsewhere (replaced in
	// place, some to another department) and their sketches with them, a
	// few are deleted, and the late ones are added.
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if e, err = Open(dir, Options{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	moved := docs[:n/10]
	for i := range moved {
		slices.Reverse(moved[i].Vector)
		if i%3 == 0 {
			moved[i].Contact.Department = record.Departments[5]
		}
	}
	if _, err := e.UpsertContacts(ctx, append(slices.Clone(moved), docs[late:]...)); err != nil {
		t.Fatal(err)
	}
	if _, err := e.DeleteContacts(ctx, []int64{int64(n / 2), int64(late + 1)}); err != nil {
		t.Fatal(err)
	}
	x, err := e.contactIdx()
	if err != nil {
		t.Fatal(err)
	}
	return e, x
}

// TestSignLayout checks the slots a load lays out: one per contact, each
// (department, seniority) group a run of slots in id order, and the
// contacts written after the load in the slots that follow.
func TestSignLayout(t *testing.T) {
	const n = 3000
	e, x := sketchCorpus(t, 16, n, 200)
	type key struct {
		dept string
		rank uint8
	}
	group := map[uint32]key{} // slot -> group of the live loaded contacts
	seen := map[uint32]bool{}
	for id := range x.persona {
		s := x.signAt[id]
		if s == noSign || s >= x.signN || seen[s] {
			t.Fatalf("contact %d: slot %d (of %d), taken before: %v", x.persona[id], s, x.signN, seen[s])
		}
		seen[s] = true
		pid := x.persona[id]
		switch {
		case uint32(id) >= x.loaded:
			if s < x.loaded {
				t.Errorf("contact %d, written after the load, in the load's slot %d", pid, s)
			}
			continue
		case !x.live.Contains(uint32(id)), pid <= n/10 && (pid-1)%3 == 0:
			continue // deleted, or moved to another department since the load
		}
		cs, err := e.GetContacts(context.Background(), []int64{pid})
		if err != nil || len(cs) != 1 {
			t.Fatalf("contact %d: %v, %v", pid, cs, err)
		}
		group[s] = key{cs[0].Department, x.rank[id]}
	}
	slots := slices.Sorted(maps.Keys(group))
	done := map[key]bool{}
	for i, s := range slots {
		g := group[s]
		if i > 0 && group[slots[i-1]] != g {
			if done[g] {
				t.Fatalf("group %v: slots in two runs", g)
			}
			done[group[slots[i-1]]] = true
		}
	}
	if len(done) < 7 {
		t.Fatalf("%d groups, want 8 (four departments, two seniorities)", len(done)+1)
	}
	// In id order within a group.
	last := map[key]int64{}
	for id := 0; id < int(x.loaded); id++ {
		if g, ok := group[x.signAt[id]]; ok {
			if prev, ok := last[g]; ok && x.signAt[id] <= uint32(prev) {
				t.Fatalf("group %v: slots out of id order", g)
			}
			last[g] = int64(x.signAt[id])
		}
	}
}

// withContactPlan runs fn with the sketch plan's thresholds set.
func withContactPlan(exactMax, poolMin int, fn func()) {
	em, pm := contactExactMax, contactPoolMin
	contactExactMax, contactPoolMin = exactMax, poolMin
	defer func() { contactExactMax, contactPoolMin = em, pm }()
	fn()
}

// TestSketchPlanMatchesExact runs grouped searches through the sketch plan
// and the exact one. The totals must be equal; every employer the sketch
// plan returns must hold exactly its best contacts (in the exact order);
// with a pool of every candidate the results must be the exact ones; and
// with a small pool the grouped recall must stay high.
func TestSketchPlanMatchesExact(t *testing.T) {
	for _, c := range []struct {
		name      string
		dim       int
		n         int
		companies int
		minRecall float64
	}{
		{"256 dims", 256, 12_000, 900, 0.9},
		{"8 dims", 8, 6000, 500, 0.6}, // the generic sketch path; 8 signs rank poorly
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			e, x := sketchCorpus(t, c.dim, c.n, c.companies)
			// Every sketch is its codes' (loaded, or placed after the load).
			want := make([]uint64, signWords(c.dim))
			for _, id := range x.live.ToArray() {
				sketch(x.vecOf(id), want)
				if !slices.Equal(x.signOf(id), want) {
					t.Fatalf("contact %d: sketch %x, its codes' %x", x.persona[id], x.signOf(id), want)
				}
			}
			var sum float64
			runs := 0
			for q := 0; q < 8; q++ {
				pid := int64(1 + q*97)
				vecs, err := e.ContactVectors(ctx, []int64{pid})
				if err != nil || vecs[pid] == nil {
					t.Fatal(err)
				}
				var f index.Filter
				if q%2 == 1 {
					f = index.Terms{Field: index.SeniorityField, Values: []string{"vp"}}
				}
				s := index.ContactSearch{Filter: f, Vector: vecs[pid], MinSimilarity: -2, PerCompany: 1 + q%2*2, MaxCompanies: 20, Limit: 10_000}
				var exact, all, small index.ContactResult
				withContactPlan(math.MaxInt, 0, func() { exact, err = e.SearchContacts(ctx, s) })
				if err != nil {
					t.Fatal(err)
				}
				cand, _ := x.eval(f, x.live)
				withContactPlan(0, c.n, func() { all, err = e.SearchContacts(ctx, s) })
				if err != nil {
					t.Fatal(err)
				}
				if !slices.EqualFunc(all.Hits, exact.Hits, sameHit) || all.Total != exact.Total || all.Companies != exact.Companies {
					t.Fatalf("query %d: a pool of every candidate differs from the exact plan", q)
				}
				withContactPlan(0, 100, func() { small, err = e.SearchContacts(ctx, s) })
				if err != nil {
					t.Fatal(err)
				}
				if small.Total != exact.Total || small.Companies != exact.Companies {
					t.Fatalf("query %d: totals %d/%d, exact %d/%d", q, small.Total, small.Companies, exact.Total, exact.Companies)
				}
				checkGroups(t, x, cand, s, small.Hits)
				sum += groupedRecall(small.Hits, exact.Hits)
				runs++
			}
			t.Logf("grouped recall %.3f", sum/float64(runs))
			if r := sum / float64(runs); r < c.minRecall {
				t.Errorf("grouped recall with a small pool %.3f, want >= %.2f", r, c.minRecall)
			}
		})
	}
}

func sameHit(a, b index.ContactHit) bool {
	return a.Contact.PersonaID == b.Contact.PersonaID && a.Similarity == b.Similarity
}

// groupedRecall is the share of want's contacts that got holds.
func groupedRecall(got, want []index.ContactHit) float64 {
	if len(want) == 0 {
		return 1
	}
	in := map[int64]bool{}
	for _, h := range got {
		in[h.Contact.PersonaID] = true
	}
	n := 0
	for _, h := range want {
		if in[h.Contact.PersonaID] {
			n++
		}
	}
	return float64(n) / float64(len(want))
}

// checkGroups checks that hits are MaxCompanies groups, in order of their
// best contact, each holding its employer's best PerCompany candidates by
// exact score.
func checkGroups(t *testing.T, x *contactIndex, cand *roaring.Bitmap, s index.ContactSearch, hits []index.ContactHit) {
	t.Helper()
	byDomain := map[string][]cScored{}
	for _, r := range x.score(context.Background(), cand, s.Vector, -2) {
		d := x.domNames[x.domID[r.id]]
		byDomain[d] = append(byDomain[d], r)
	}
	var order []string
	got := map[string][]int64{}
	for _, h := range hits {
		d := h.Contact.Domain
		if len(got[d]) == 0 {
			if len(order) > 0 && order[len(order)-1] != d && slices.Contains(order, d) {
				t.Fatalf("employer %s's contacts are not together", d)
			}
			order = append(order, d)
		}
		got[d] = append(got[d], h.Contact.PersonaID)
	}
	if len(order) != s.MaxCompanies {
		t.Fatalf("%d employers, want %d", len(order), s.MaxCompanies)
	}
	var prevBest float32 = 2
	for _, d := range order {
		rs := byDomain[d]
		slices.SortFunc(rs, x.compare(true))
		var want []int64
		for _, r := range rs[:min(len(rs), s.PerCompany)] {
			want = append(want, x.persona[r.id])
		}
		if !slices.Equal(got[d], want) {
			t.Fatalf("employer %s: contacts %v, want its best %v", d, got[d], want)
		}
		if rs[0].score > prevBest {
			t.Fatalf("employer %s is out of order", d)
		}
		prevBest = rs[0].score
	}
}

// TestSketchPlanApplies lists the searches the sketch plan takes: grouped,
// from the first result, with a query vector and no similarity floor, over
// more than contactExactMax candidates.
func TestSketchPlanApplies(t *testing.T) {
	x := newContactIndex()
	x.signs = [][]uint64{{0}}
	q := []float32{1}
	grouped := index.ContactSearch{Vector: q, MinSimilarity: -2, PerCompany: 5, MaxCompanies: 100, Limit: 10_000}
	for _, c := range []struct {
		name string
		edit func(s *index.ContactSearch)
		n    int
		want bool
	}{
		{"grouped, broad", func(*index.ContactSearch) {}, contactExactMax + 1, true},
		{"grouped, narrow", func(*index.ContactSearch) {}, contactExactMax, false},
		{"no vector", func(s *index.ContactSearch) { s.Vector = nil }, contactExactMax + 1, false},
		{"similarity floor", func(s *index.ContactSearch) { s.MinSimilarity = 0.2 }, contactExactMax + 1, false},
		{"offset", func(s *index.ContactSearch) { s.Offset = 10 }, contactExactMax + 1, false},
		{"no company cap", func(s *index.ContactSearch) { s.MaxCompanies = 0 }, contactExactMax + 1, false},
		{"no per-company cap", func(s *index.ContactSearch) { s.PerCompany = 0 }, contactExactMax + 1, false},
	} {
		s := grouped
		c.edit(&s)
		if got := x.sketchPlan(s, c.n); got != c.want {
			t.Errorf("%s: sketchPlan = %v, want %v", c.name, got, c.want)
		}
	}
}

// BenchmarkContactSketchPass times the sketch plan's estimate pass and the
// exact int8 scoring over the same candidates of PROSPECT_BENCH_CONTACTS
// synthetic contacts (5M by default) in 100 sketch groups (as a load's
// departments × seniorities), per candidate (wall, and CPU: on a shared
// machine the wall time is the other sessions' too): the sign sketch is
// half a cache line, the codes four. The candidates are either scattered
// (1 in 25 at random) or a persona filter's (40% of two groups' contacts),
// whose sketches are read from the group layout (slots by group, as a load
// lays them out) and from the id layout (the slots before it).
func BenchmarkContactSketchPass(b *testing.B) {
	n := 5_000_000
	if v, err := strconv.Atoi(os.Getenv("PROSPECT_BENCH_CONTACTS")); err == nil {
		n = v
	}
	const dim = 256
	rng := rand.New(rand.NewPCG(1, 1))
	x, groups := randomContactCodes(rng, n, dim)
	x.scale = make([]float32, n)
	x.domID = make([]uint32, n)
	for i := range x.domID {
		x.scale[i] = 0.01
		x.domID[i] = uint32(i / 5)
	}
	x.domNames = make([]string, n/5+1)
	// A persona filter's groups: 2 of the 100 (PROSPECT_BENCH_PERSONA_GROUPS:
	// 10 is the p95 request's share at 15M contacts, 4% of them).
	personaGroups := uint16(1)
	if v, err := strconv.Atoi(os.Getenv("PROSPECT_BENCH_PERSONA_GROUPS")); err == nil && v >= 2 {
		personaGroups = uint16(v / 2)
	}
	scattered, persona := roaring.New(), roaring.New()
	for i := 0; i < n; i++ {
		if rng.IntN(25) == 0 {
			scattered.Add(uint32(i))
		}
		if groups[i]%50 < personaGroups && rng.IntN(5) < 2 {
			persona.Add(uint32(i))
		}
	}
	byID := &contactIndex{dim: dim, vecs: x.vecs, domID: x.domID, signAt: make([]uint32, len(x.signAt))}
	byID.layoutSigns(make([]uint16, len(x.signAt)))
	q := make([]float32, dim)
	for i := range q {
		q[i] = float32(rng.NormFloat64())
	}
	qp := newQPlanes(q, refinePlanes)
	ctx := context.Background()
	perCandidate := func(b *testing.B, ids []uint32, run func()) {
		cpu := cputime.Process()
		for b.Loop() {
			run()
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(ids)), "ns/candidate")
		b.ReportMetric(float64((cputime.Process()-cpu).Nanoseconds())/float64(b.N*len(ids)), "cpu-ns/candidate")
	}
	for _, c := range []struct {
		name string
		x    *contactIndex
		cand *roaring.Bitmap
	}{{"sketch/scattered", x, scattered}, {"sketch/persona", x, persona}, {"sketch/persona-id-layout", byID, persona}} {
		ids := c.cand.ToArray()
		est, doms := make([]uint16, len(ids)), make([]uint32, len(ids))
		b.Run(c.name, func(b *testing.B) {
			perCandidate(b, ids, func() { c.x.estimateAll(ctx, qp, ids, est, doms, nil) })
		})
	}
	ids := scattered.ToArray()
	b.Run("int8", func(b *testing.B) {
		perCandidate(b, ids, func() { x.scoreIDs(ctx, ids, q, -2) })
	})
}

// TestEstimateBlocks holds the blocked estimate of 4-word sketches (copy a
// block, then score it) to the one-candidate-at-a-time estimate of
// qplanes, across block boundaries.
func TestEstimateBlocks(t *testing.T) {
	const dim, n = 256, 3 * chunkDocs / 2
	rng := rand.New(rand.NewPCG(5, 6))
	x, _ := randomContactCodes(rng, n, dim)
	x.domID = make([]uint32, len(x.vecs)*chunkDocs)
	for i := range x.domID {
		x.domID[i] = uint32(rng.IntN(5000))
	}
	q := make([]float32, dim)
	for i := range q {
		q[i] = float32(rng.NormFloat64())
	}
	qp := newQPlanes(q, refinePlanes)
	if qp.words != 4 || len(qp.planes) != 3 {
		t.Fatalf("%d words, %d planes: not the blocked path", qp.words, len(qp.planes))
	}
	for _, c := range []int{0, 1, sketchBlock - 1, sketchBlock, sketchBlock + 1, 1<<14 + 3, 40_000} {
		t.Run(strconv.Itoa(c), func(t *testing.T) {
			ids := make([]uint32, 0, c)
			for _, i := range rng.Perm(n)[:c] {
				ids = append(ids, uint32(i))
			}
			slices.Sort(ids)
			est, doms := make([]uint16, c), make([]uint32, c)
			hist := make([]int32, qp.max+1)
			x.estimate(context.Background(), qp, ids, est, doms, hist)
			want := make([]int32, qp.max+1)
			for i, id := range ids {
				v := qp.estimate(x.signOf(id))
				if int(est[i]) != v || doms[i] != x.domID[id] {
					t.Fatalf("candidate %d (id %d): estimate %d, employer %d; want %d, %d", i, id, est[i], doms[i], v, x.domID[id])
				}
				want[v]++
			}
			if !slices.Equal(hist, want) {
				t.Fatal("histograms differ")
			}
			// Every core's share: the histogram and the employer count.
			seen := make([][]uint64, runtime.GOMAXPROCS(0))
			for w := range seen {
				seen[w] = make([]uint64, (5000+63)/64)
				seen[w][0] = ^uint64(0) // a previous search's marks
			}
			all, companies := x.estimateAll(context.Background(), qp, ids, est, doms, seen)
			employers := map[uint32]bool{}
			for _, id := range ids {
				employers[x.domID[id]] = true
			}
			if !slices.Equal(all, want) || companies != len(employers) {
				t.Fatalf("estimateAll: %d employers, want %d (or the histograms differ)", companies, len(employers))
			}
		})
	}
}

// randomContactCodes returns a contact index holding only the int8 codes
// (uniform at random) and sign sketches of n contacts, whole chunks, with
// each contact's sketch group (100 of them, at random).
func randomContactCodes(rng *rand.Rand, n, dim int) (*contactIndex, []uint16) {
	x := newContactIndex()
	x.dim = dim
	for c := 0; c*chunkDocs < n; c++ {
		v := make([]int8, chunkDocs*dim)
		for i := range v {
			v[i] = int8(rng.IntN(255) - 127)
		}
		x.vecs = append(x.vecs, v)
	}
	// Slots in an order other than the ids' (layoutSigns), as a load
	// leaves them.
	groups := make([]uint16, len(x.vecs)*chunkDocs)
	for id := range groups {
		groups[id] = uint16(rng.IntN(100))
	}
	x.signAt = make([]uint32, len(groups))
	x.layoutSigns(groups)
	return x, groups
}
