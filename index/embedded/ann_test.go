package embedded

import (
	"context"
	"fmt"
	"maps"
	"math"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/record"
)

// annScale lowers the planner's thresholds to the same shares of a small
// index as of a 1M one, so tests go through every plan.
func annScale(t *testing.T, n int) {
	t.Helper()
	oldExact, oldPool := exactMax, poolMin
	oldDocs, oldMin, oldPerK, oldTail, oldLists := annMinDocs, annGatherMin, annGatherPerK, annTailMax, annGatherLists
	t.Cleanup(func() {
		exactMax, poolMin = oldExact, oldPool
		annMinDocs, annGatherMin, annGatherPerK, annTailMax, annGatherLists = oldDocs, oldMin, oldPerK, oldTail, oldLists
	})
	// The shares of a 10M index: the exact scan up to 1% (0.6% there), the
	// screen between that and annMinSel, the ANN index above.
	exactMax, poolMin = n/100, n/200
	annMinDocs = n / 4
	annGatherMin = n / 200
	annGatherPerK = 10
	annTailMax = n / 50
	// A small index has few lists (142 at 20,000): 10 of them are the
	// share of the candidates that 20 are of 1,000 lists at 1M, and the
	// plan is taken for candidate sets 8 times that.
	annGatherLists = 10
}

// annEngine builds an n-company clustered index at the 1M planner shares
// (annScale) and waits for its ANN index.
func annEngine(t *testing.T, n int, seed uint64) *Engine {
	t.Helper()
	annScale(t, n)
	e, err := buildClustered(t.TempDir(), n, 256, seed)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	waitANN(t, e)
	return e
}

// waitANN waits until the builder has assigned every company.
func waitANN(t testing.TB, e *Engine) {
	t.Helper()
	limit := time.Minute
	if _, ok := t.(*testing.B); ok {
		limit = time.Hour // a 10M-company build on a busy machine
	}
	deadline := time.Now().Add(limit)
	for !e.annReady() {
		if time.Now().After(deadline) {
			t.Fatalf("ANN index not built within %v", limit)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// planCounts returns how many searches took each plan so far.
func planCounts(e *Engine) [3]uint64 {
	var out [3]uint64
	for i := range out {
		out[i] = e.ann.plans[i].Load()
	}
	return out
}

// planOf runs f and returns the plan its searches took (-1 for a mix).
func planOf(e *Engine, f func()) int {
	before := planCounts(e)
	f()
	after := planCounts(e)
	plan := -1
	for i := range after {
		if after[i] != before[i] {
			if plan != -1 {
				return -1
			}
			plan = i
		}
	}
	return plan
}

var planNames = []string{"exact", "screen", "ann"}

// TestANNRecall checks recall@10 and @100 against an exact scan for each
// plan the planner takes at selectivities from 0.2% to 100%, with
// stored-company and mixture queries, and that the planner takes the
// expected plan.
func TestANNRecall(t *testing.T) {
	e := annEngine(t, 40_000, 11)
	for _, tc := range []struct {
		name   string
		filter index.Filter
		plan   int
	}{
		{"all", nil, planANN},
		{"country 30%", index.Terms{Field: index.CountryField, Values: []string{"US"}}, planANN},
		{"country 10%", index.Terms{Field: index.CountryField, Values: []string{"GB"}}, planANN},
		{"industries 5%", index.Terms{Field: index.IndustryField, Values: []string{"SAAS", "SOFTWARE", "RETAIL"}}, planANN},
		{"industry 1.9%", index.Terms{Field: index.IndustryField, Values: []string{"SAAS"}}, planScreen},
		{"country+industry 0.6%", index.And{index.Terms{Field: index.CountryField, Values: []string{"US"}}, index.Terms{Field: index.IndustryField, Values: []string{"SAAS"}}}, planExact},
		{"country+industry 0.2%", index.And{index.Terms{Field: index.CountryField, Values: []string{"GB"}}, index.Terms{Field: index.IndustryField, Values: []string{"SAAS"}}}, planExact},
	} {
		for _, mix := range []bool{false, true} {
			var r10 float64
			// Limit 10: at this scale a larger limit makes the rescored
			// pool (20 a hit) most of a 2% filter, which is then scanned
			// exactly.
			plan := planOf(e, func() { r10, _ = recallLimit(t, e, tc.filter, benchQueries(e, 20, mix, 5), 10) })
			t.Logf("%s mix=%v: plan %s, recall@10 %.3f", tc.name, mix, planNames[max(0, plan)], r10)
			if plan != tc.plan {
				t.Errorf("%s: plan %d, want %s", tc.name, plan, planNames[tc.plan])
			}
			if r10 < 0.95 {
				t.Errorf("%s mix=%v: recall@10 %.3f, want >= 0.95", tc.name, mix, r10)
			}
		}
	}
	// Total with a similarity floor: estimated from a sample of all the
	// candidates (an estimate: within a third of the exact count).
	for _, minSim := range []float64{0, 0.3, 0.6} {
		q := benchQueries(e, 1, true, 8)[0]
		var res index.Result
		var err error
		plan := planOf(e, func() {
			res, err = e.SearchCompanies(context.Background(), index.Search{Vector: q, Limit: 10, MinSimilarity: minSim})
		})
		if err != nil {
			t.Fatal(err)
		}
		e.mu.RLock()
		_, want := e.exact(context.Background(), e.live.ToArray(), q, float32(minSim), 0)
		e.mu.RUnlock()
		t.Logf("min %.1f: plan %s total %d, exact count %d", minSim, planNames[max(0, plan)], res.Total, want)
		if plan != planANN || float64(res.Total) < 0.65*float64(want) || float64(res.Total) > 1.35*float64(want)+10 {
			t.Errorf("min %.1f: plan %d total %d, exact count %d", minSim, plan, res.Total, want)
		}
	}
	// With the index switched off the broad queries take the screen, at
	// the same recall.
	e.mu.Lock()
	saved := e.ann.idx
	e.ann.idx = nil
	e.mu.Unlock()
	var r10 float64
	plan := planOf(e, func() { r10, _ = recallLimit(t, e, nil, benchQueries(e, 20, true, 5), 10) })
	if plan != planScreen || r10 < 0.95 {
		t.Errorf("without the index: plan %d recall@10 %.3f, want screen and >= 0.95", plan, r10)
	}
	e.mu.Lock()
	e.ann.idx = saved
	e.mu.Unlock()
}

// TestANNPersist checks that the index saved at Close is loaded whole by
// the next open (no training, no assignment), and that a file that no
// longer matches the companies keeps its centroids and reassigns them.
func TestANNPersist(t *testing.T) {
	n := 20_000
	dir := t.TempDir()
	e := buildANN(t, dir, n, 12)
	assigned := annAssignments(e)
	cent := append([]float32(nil), e.ann.idx.cent...)
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, annFile)); err != nil {
		t.Fatalf("no ANN file after Close: %v", err)
	}

	// A warm restart: Open installs the saved index before the builder
	// starts, so it is whole at once, with the saved centroids.
	e, err := Open(dir, Options{ANN: true})
	if err != nil {
		t.Fatal(err)
	}
	if !e.annReady() {
		t.Fatal("reopened index has unassigned companies")
	}
	e.mu.RLock()
	same := slices.Equal(e.ann.idx.cent, cent)
	e.mu.RUnlock()
	if !same {
		t.Fatal("reopened index has other centroids than the saved ones")
	}
	got := annAssignments(e)
	for d, l := range assigned {
		if got[d] != l {
			t.Fatalf("%s: list %d after reopen, %d before", d, got[d], l)
		}
	}
	if len(got) != len(assigned) {
		t.Fatalf("%d assigned after reopen, %d before", len(got), len(assigned))
	}
	r10, _ := recallAt(t, e, nil, benchQueries(e, 20, false, 3))
	if r10 < 0.95 {
		t.Errorf("recall@10 after reopen %.3f", r10)
	}
	e.Close()

	// Companies added by a loading command (no in-memory index, no ANN
	// file written) leave the file stale: centroids kept, all reassigned.
	lo, err := Open(dir, Options{LoadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	extra := synthDocs(rand.New(rand.NewPCG(9, 9)), n, 100)
	if _, err := lo.UpsertCompanies(context.Background(), extra); err != nil {
		t.Fatal(err)
	}
	lo.Close()
	e, err = Open(dir, Options{ANN: true})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	waitANN(t, e)
	e.mu.RLock()
	same = slices.Equal(e.ann.idx.cent, cent)
	e.mu.RUnlock()
	if !same {
		t.Error("stale file: centroids were retrained, want kept")
	}
	if got := len(annAssignments(e)); got != n+100 {
		t.Errorf("%d companies assigned, want %d", got, n+100)
	}
}

// TestANNPersistAfterWrites: after a session that deleted and added
// companies, Close keeps its slots in the resident snapshot, and the next
// open reads the ANN file's assignments (listed by slot) onto those
// slots whole: nothing is assigned again.
func TestANNPersistAfterWrites(t *testing.T) {
	n := 20_000
	dir := t.TempDir()
	e := buildANN(t, dir, n, 13)
	ctx := context.Background()
	var del []string
	for id := uint32(0); id < 40; id++ {
		del = append(del, e.domains.get(id*97))
	}
	if _, err := e.DeleteCompanies(ctx, del); err != nil {
		t.Fatal(err)
	}
	if _, err := e.UpsertCompanies(ctx, synthDocs(rand.New(rand.NewPCG(5, 5)), n, 25)); err != nil {
		t.Fatal(err)
	}
	waitANN(t, e)
	e.mu.RLock()
	free := len(e.free)
	e.mu.RUnlock()
	if free == 0 {
		t.Fatal("no free slots: the test wants slots out of key order")
	}
	assigned := annAssignments(e)
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	e, err := Open(dir, Options{ANN: true})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if !e.snapshotLoaded() {
		t.Fatal("not opened from the snapshot")
	}
	if !e.annReady() {
		t.Fatal("the reopened index reassigns companies")
	}
	if got := annAssignments(e); !maps.Equal(got, assigned) {
		t.Fatalf("%d assignments after reopen differ from the %d before", len(got), len(assigned))
	}
}

// buildANN builds an n-company clustered index in dir at the 1M planner
// shares and waits for its ANN index; the caller closes it.
func buildANN(t *testing.T, dir string, n int, seed uint64) *Engine {
	t.Helper()
	annScale(t, n)
	e, err := buildClustered(dir, n, 256, seed)
	if err != nil {
		t.Fatal(err)
	}
	waitANN(t, e)
	return e
}

// annAssignments maps each domain to its list.
func annAssignments(e *Engine) map[string]uint16 {
	e.mu.RLock()
	defer e.mu.RUnlock()
	out := map[string]uint16{}
	a := e.ann.idx
	for id, l := range a.assign {
		if l != annNone {
			out[e.domains.get(uint32(id))] = l
		}
	}
	return out
}

// TestANNRefit checks that a refit drops the index built from the old
// vectors, that queries meanwhile rank the new vectors (on the screen),
// and that the builder trains a new index they then use.
func TestANNRefit(t *testing.T) {
	n := 20_000
	annScale(t, n)
	dir := t.TempDir()
	e, err := buildClustered(dir, n, 256, 13)
	if err != nil {
		t.Fatal(err)
	}
	// A refit needs an index opened for serving.
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if e, err = Open(dir, Options{ANN: true}); err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	waitANN(t, e)
	ctx := context.Background()
	all, err := e.CompanyVectors(ctx, allDomains(e))
	if err != nil {
		t.Fatal(err)
	}
	// The new embedder reverses the order of the components: the old
	// centroids would send every query to the wrong lists.
	flip := func(v []float32) []float32 {
		out := make([]float32, len(v))
		for i, x := range v {
			out[len(v)-1-i] = x
		}
		return out
	}
	_, err = e.Refit(ctx, index.Refit{
		Meta:      index.Meta{EmbedderID: "flipped", Dimension: 256},
		BatchSize: 1000,
		Companies: func(_ context.Context, cs []record.Company) ([][]float32, error) {
			out := make([][]float32, len(cs))
			for i, c := range cs {
				out[i] = flip(all[c.Domain])
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
	// Right after the swap there is no index (or a fresh one still
	// filling): broad queries take the screen, on the new vectors.
	e.mu.RLock()
	a := e.ann.idx
	fresh := a == nil || a.metaKey == e.annMetaKey()
	e.mu.RUnlock()
	if !fresh {
		t.Fatal("the index built from the old vectors survived the refit")
	}
	r10, _ := recallAt(t, e, nil, benchQueries(e, 20, false, 4))
	if r10 < 0.95 {
		t.Errorf("recall@10 during the rebuild %.3f", r10)
	}
	waitANN(t, e)
	var r10b float64
	plan := planOf(e, func() { r10b, _ = recallAt(t, e, nil, benchQueries(e, 20, true, 4)) })
	if plan != planANN || r10b < 0.95 {
		t.Errorf("after the rebuild: plan %d recall@10 %.3f, want ann and >= 0.95", plan, r10b)
	}
}

func allDomains(e *Engine) []string {
	e.mu.RLock()
	defer e.mu.RUnlock()
	out := make([]string, 0, e.domains.len())
	for id := range uint32(e.domains.slots()) {
		if d := e.domains.get(id); d != "" {
			out = append(out, d)
		}
	}
	return out
}

// TestANNConcurrentUpserts writes companies while broad queries run (run
// it with -race): a company is found by its own vector as soon as its
// write returns, indexed yet or not, and updates and deletes leave no
// stale list entry.
func TestANNConcurrentUpserts(t *testing.T) {
	e := annEngine(t, 20_000, 14)
	ctx := context.Background()
	base, err := e.CompanyVectors(ctx, allDomains(e)[:200])
	if err != nil {
		t.Fatal(err)
	}
	var bases [][]float32
	for _, v := range base {
		bases = append(bases, v)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 77))
			for i := 0; i < 60; i++ {
				// A new company near an existing one, or an update of an
				// earlier one with a new vector.
				v := append([]float32(nil), bases[r.IntN(len(bases))]...)
				for j := range v {
					v[j] += float32(r.NormFloat64() * 0.02)
				}
				normalize(v)
				domain := fmt.Sprintf("new-%d-%d.com", w, i)
				if i > 10 && i%5 == 0 {
					domain = fmt.Sprintf("new-%d-%d.com", w, i-10)
				}
				if _, err := e.UpsertCompanies(ctx, []index.CompanyDoc{{Vector: v, Company: record.Company{Domain: domain, Name: "N"}}}); err != nil {
					errs <- err
					return
				}
				res, err := e.SearchCompanies(ctx, index.Search{Vector: v, Limit: 10})
				if err != nil {
					errs <- err
					return
				}
				if len(res.Hits) == 0 || res.Hits[0].Company.Domain != domain {
					errs <- fmt.Errorf("%s not the top hit of its own vector", domain)
					return
				}
				if i%7 == 3 {
					if _, err := e.DeleteCompanies(ctx, []string{domain}); err != nil {
						errs <- err
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
	waitANN(t, e)
	// Every live company is in exactly the list it is assigned to, and no
	// list holds a deleted one.
	e.mu.RLock()
	defer e.mu.RUnlock()
	a := e.ann.idx
	total := 0
	for l, bm := range a.lists {
		total += int(bm.GetCardinality())
		it := bm.Iterator()
		for it.HasNext() {
			id := it.Next()
			if !e.live.Contains(id) || a.assign[id] != uint16(l) {
				t.Fatalf("slot %d in list %d: live %v, assigned %d", id, l, e.live.Contains(id), a.assign[id])
			}
		}
	}
	if total != int(e.live.GetCardinality()) {
		t.Errorf("lists hold %d, %d live", total, e.live.GetCardinality())
	}
}

// TestANNTrainCentroids checks the k-means on two well separated groups.
func TestANNTrainCentroids(t *testing.T) {
	const dim = 64
	r := rand.New(rand.NewPCG(1, 1))
	var sample []float32
	for i := 0; i < 400; i++ {
		v := make([]float32, dim)
		for j := range v {
			v[j] = float32(r.NormFloat64() * 0.05)
		}
		v[i%2] += 1 // group 0 points along axis 0, group 1 along axis 1
		normalize(v)
		sample = append(sample, v...)
	}
	cent := trainCentroids(sample, dim, 2, 1, func() bool { return false })
	a := newANN(dim, cent, 0, 0)
	w := signWords(dim)
	for i := 0; i < 400; i++ {
		v := sample[i*dim : (i+1)*dim]
		s := make([]uint64, w)
		sketch(v, s)
		l := a.nearest(v, s, nil)
		if got := cent[int(l)*dim+i%2]; got < 0.8 {
			t.Fatalf("point %d (axis %d) assigned to a centroid with %.2f on its axis", i, i%2, got)
		}
	}
}

// TestANNRankLists checks the list ranking: by the centroid without member
// statistics, and with them by the dot product the members reach — a list
// spread toward the query outranks a tight one whose centroid is nearer.
func TestANNRankLists(t *testing.T) {
	const dim = 4
	cent := []float32{1, 0, 0, 0, 0, 1, 0, 0}
	q := []float32{0.6, 0, 0.8, 0}
	for _, tc := range []struct {
		name       string
		mean, vari []float32
		want       []int
	}{
		{"centroid only", nil, nil, []int{0, 1}},
		{"tight lists", []float32{0.9, 0, 0, 0, 0, 0.9, 0, 0}, []float32{0.001, 0.001, 0.001, 0.001, 0.001, 0.001, 0.001, 0.001}, []int{0, 1}},
		{"list 1 spread toward q", []float32{0.9, 0, 0, 0, 0, 0.7, 0, 0}, []float32{0.001, 0.001, 0.001, 0.001, 0.001, 0.001, 0.2, 0.001}, []int{1, 0}},
	} {
		a := newANN(dim, cent, 0, 0)
		a.mean, a.vari = tc.mean, tc.vari
		if got := a.rankLists(q); !slices.Equal(got, tc.want) {
			t.Errorf("%s: order %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestANNListStats checks the member statistics of a two-list sample.
func TestANNListStats(t *testing.T) {
	const dim = 2
	a := newANN(dim, []float32{1, 0, 0, 1}, 0, 0)
	// List 0: (1,0) and (0.8,0.6); list 1: (0,1) twice.
	sample := []float32{1, 0, 0.8, 0.6, 0, 1, 0, 1}
	mean, vari := listStats(sample, dim, a)
	want := []float32{0.9, 0.3, 0, 1}
	wantV := []float32{0.01, 0.09, 0, 0}
	for i := range want {
		if d := mean[i] - want[i]; d > 1e-6 || d < -1e-6 {
			t.Errorf("mean[%d] = %v, want %v", i, mean[i], want[i])
		}
		if d := vari[i] - wantV[i]; d > 1e-6 || d < -1e-6 {
			t.Errorf("vari[%d] = %v, want %v", i, vari[i], wantV[i])
		}
	}
}

// nearestRef is the assignment as first written (the worst kept entry of
// the shortlist found again at every centroid): nearest must pick the same
// list.
func nearestRef(a *annIndex, v []float32, sign []uint64) uint16 {
	w := len(sign)
	var short []int32
	var agree [annShortlist]int
	for l := range a.nlist {
		c := a.csign[l*w : (l+1)*w]
		d := 0
		for i, x := range sign {
			d += 64 - bits.OnesCount64(x^c[i])
		}
		if len(short) < annShortlist {
			short = append(short, int32(l))
			agree[len(short)-1] = d
			continue
		}
		worst := 0
		for i := 1; i < len(short); i++ {
			if agree[i] < agree[worst] {
				worst = i
			}
		}
		if d > agree[worst] {
			short[worst], agree[worst] = int32(l), d
		}
	}
	best, bestS := uint16(0), float32(-2)
	for _, l := range short {
		if s := fullDot(v, a.cent[int(l)*a.dim:int(l+1)*a.dim]); s > bestS {
			best, bestS = uint16(l), s
		}
	}
	return best
}

// annRandom returns an index of nlist random unit centroids and n random
// unit vectors with their sketches.
func annRandom(nlist, n, dim int, seed uint64) (a *annIndex, vecs []float32, signs []uint64) {
	r := rand.New(rand.NewPCG(seed, seed))
	unit := func() []float32 {
		v := make([]float32, dim)
		for j := range v {
			v[j] = float32(r.NormFloat64())
		}
		normalize(v)
		return v
	}
	var cent []float32
	for range nlist {
		cent = append(cent, unit()...)
	}
	w := signWords(dim)
	signs = make([]uint64, n*w)
	for i := range n {
		v := unit()
		vecs = append(vecs, v...)
		sketch(v, signs[i*w:(i+1)*w])
	}
	return newANN(dim, cent, 0, 0), vecs, signs
}

// TestANNNearest checks the assignment against its plain definition
// (nearestRef), for list counts below, at and above the shortlist.
func TestANNNearest(t *testing.T) {
	const dim = 256
	w := signWords(dim)
	for _, nlist := range []int{1, 20, annShortlist, 100, 1000} {
		a, vecs, signs := annRandom(nlist, 300, dim, uint64(nlist))
		for i := range 300 {
			v, s := vecs[i*dim:(i+1)*dim], signs[i*w:(i+1)*w]
			if got, want := a.nearest(v, s, nil), nearestRef(a, v, s); got != want {
				t.Fatalf("nlist %d, vector %d: list %d, want %d", nlist, i, got, want)
			}
		}
	}
}

// BenchmarkANNNearest times one assignment with the list count of a 10M
// index (3,163 lists): what the builder pays per company.
func BenchmarkANNNearest(b *testing.B) {
	const dim = 256
	w := signWords(dim)
	a, vecs, signs := annRandom(annLists(10_000_000), 1024, dim, 1)
	short := make([]int32, 0, annShortlist)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		j := i % 1024
		a.nearest(vecs[j*dim:(j+1)*dim], signs[j*w:(j+1)*w], short)
	}
}

// BenchmarkANNRankLists times the list ranking of one query at the list
// count of a 10M index (3,163 lists), with the int8 statistics and with
// the float32 ones.
func BenchmarkANNRankLists(b *testing.B) {
	const dim = 256
	a, vecs, _ := annRandom(annLists(10_000_000), 1, dim, 1)
	vari := make([]float32, len(a.cent))
	for i := range vari {
		vari[i] = 0.001
	}
	a.setStats(slices.Clone(a.cent), vari)
	b.Run("int8", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			a.rankLists(vecs)
		}
	})
	b.Run("float32", func(b *testing.B) {
		f := *a
		f.meanQ = nil
		for i := 0; i < b.N; i++ {
			f.rankLists(vecs)
		}
	})
}

// TestANNRankListsInt8 checks that the int8 statistics rank the lists as
// the float32 ones do, up to near-ties: every list's position moves by at
// most a few places among 1,000 random lists.
func TestANNRankListsInt8(t *testing.T) {
	const dim = 256
	a, vecs, _ := annRandom(1000, 20, dim, 3)
	r := rand.New(rand.NewPCG(4, 4))
	vari := make([]float32, len(a.cent))
	for i := range vari {
		vari[i] = float32(r.Float64() * 0.002)
	}
	a.setStats(slices.Clone(a.cent), vari)
	f := *a
	f.meanQ = nil
	for i := range 20 {
		q := vecs[i*dim : (i+1)*dim]
		got, want := a.rankLists(q), f.rankLists(q)
		pos := make([]int, len(want))
		for p, l := range want {
			pos[l] = p
		}
		for p, l := range got[:50] {
			if d := p - pos[l]; d > 5 || d < -5 {
				t.Fatalf("query %d: list %d at %d, float32 ranking has it at %d", i, l, p, pos[l])
			}
		}
	}
}

// TestDescBits checks that descBits orders floats descending.
func TestDescBits(t *testing.T) {
	fs := []float32{3, 1.5, 0.001, 0, -0.001, -1, -1e9}
	for i := 1; i < len(fs); i++ {
		if descBits(fs[i-1]) >= descBits(fs[i]) {
			t.Errorf("descBits(%v) = %#x not below descBits(%v) = %#x", fs[i-1], descBits(fs[i-1]), fs[i], descBits(fs[i]))
		}
	}
	if negZero := float32(math.Copysign(0, -1)); descBits(negZero) != descBits(0) {
		t.Errorf("-0 and +0 order apart")
	}
}

// TestPlanScales checks the planner's choice at the list counts of a 1M
// and a 10M index: the ANN plan where the walk covers at most annMaxWalk
// lists' worth, the screen between that and exactMax, the exact scan
// below.
func TestPlanScales(t *testing.T) {
	for _, tc := range []struct {
		live, c, k, want int
	}{
		{1_000_000, 1_000_000, 100, planANN},
		{1_000_000, 300_754, 100, planANN},
		{1_000_000, 250_000, 100, planScreen},
		{1_000_000, 60_000, 100, planScreen},
		{1_000_000, 20_000, 100, planExact},
		{10_000_000, 10_000_000, 10, planANN},
		{10_000_000, 3_000_000, 100, planANN},
		{10_000_000, 1_000_000, 100, planANN},
		{10_000_000, 500_000, 100, planScreen},
		{10_000_000, 100_000, 10, planScreen},
		{10_000_000, 50_000, 100, planScreen},
		{10_000_000, 10_000, 100, planExact},
		{10_000_000, 50_000, 2000, planExact}, // the pool would be most of them
	} {
		e := &Engine{}
		e.ann.idx = &annIndex{nlist: annLists(tc.live)}
		if got := e.plan(tc.c, tc.k); got != tc.want {
			t.Errorf("%d of %d (%d lists), top %d: plan %s (walk %.0f lists), want %s", tc.c, tc.live, e.ann.idx.nlist, tc.k,
				planNames[got], annWalk(tc.c, tc.k, e.ann.idx.nlist), planNames[tc.want])
		}
	}
}

// TestANNFarFilter checks that a filter whose companies all lie in the
// lists ranked last for the query stops the walk and takes the screen,
// with the screen's recall.
func TestANNFarFilter(t *testing.T) {
	e := annEngine(t, 40_000, 12)
	q := benchQueries(e, 1, false, 9)[0]
	e.mu.RLock()
	a := e.ann.idx
	order := a.rankLists(q)
	far := roaring.New()
	for _, l := range order[len(order)*2/3:] {
		far.Or(a.lists[l])
	}
	var domains []string
	it := far.Iterator()
	for it.HasNext() {
		domains = append(domains, e.domains.get(it.Next()))
	}
	walk := annWalk(len(domains), 10, a.nlist)
	e.mu.RUnlock()
	if walk > annMaxWalk {
		t.Fatalf("the filter's %d companies would not take the ANN plan (walk %.0f)", len(domains), walk)
	}
	f := index.Terms{Field: index.DomainField, Values: domains}
	var r10 float64
	plan := planOf(e, func() { r10, _ = recallLimit(t, e, f, [][]float32{q}, 10) })
	if plan != planScreen {
		t.Errorf("plan %s, want the screen after the walk stopped", planNames[max(0, plan)])
	}
	if r10 < 0.9 {
		t.Errorf("recall@10 %.2f", r10)
	}
}

func TestANNProbesGrowWithLists(t *testing.T) {
	for _, tc := range []struct {
		nlist int
		want  float64
	}{
		{16, annGatherLists}, {448, annGatherLists}, {1000, annGatherLists},
		{4000, 2 * annGatherLists}, {3163, annGatherLists * 1.7785},
	} {
		if got := annProbes(tc.nlist); math.Abs(got-tc.want) > 0.01 {
			t.Errorf("annProbes(%d) = %.3f, want %.3f", tc.nlist, got, tc.want)
		}
	}
	// The 1M plans are unchanged: 1,000 lists probe annGatherLists.
	if got, want := annTarget(1_000_000, 100, 1000), int(annGatherLists*1000); got != want {
		t.Errorf("annTarget at 1M = %d, want %d", got, want)
	}
}
