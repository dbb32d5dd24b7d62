package refit_test

import (
	"context"
	"errors"
	"io"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/embedded"
	"github.com/openprospect/prospectd/index/embedding"
	"github.com/openprospect/prospectd/index/refit"
	"github.com/openprospect/prospectd/ingest"
	"github.com/openprospect/prospectd/internal/demo"
	"github.com/openprospect/prospectd/record"
	"github.com/openprospect/prospectd/store"
)

type sliceSource struct {
	cs []record.Company
	i  int
}

func (s *sliceSource) Next() (record.Company, int, error) {
	if s.i >= len(s.cs) {
		return record.Company{}, 0, io.EOF
	}
	s.i++
	return s.cs[s.i-1], s.i, nil
}

func (s *sliceSource) Close() error { return nil }

func load(t *testing.T, e ingest.Target, cs []record.Company) error {
	t.Helper()
	_, err := (&ingest.Loader{Engine: e}).Load(context.Background(), &sliceSource{cs: cs})
	return err
}

func TestDue(t *testing.T) {
	tests := []struct {
		id   string
		fit  int
		n    int
		want bool
	}{
		{"hashing-v1-256-abcd", 0, 3, false},
		{"hashing-v1-256-abcd", 0, 999, false},
		{"hashing-v1-256-abcd", 0, 1000, true},
		{"tfidf-svd-v1-256-abcd", 1500, 2999, false},
		{"tfidf-svd-v1-256-abcd", 1500, 3000, true},
		{"tfidf-svd-v1-256-abcd", 0, 1e6, false},
		{"tfidf-svd-v1-256-abcd", 20000, 1e6, false},
		{"openai-compatible-x", 0, 1e6, false},
	}
	for _, tc := range tests {
		if got, why := refit.Due(index.Meta{EmbedderID: tc.id, FitRecords: tc.fit}, tc.n); got != tc.want || why == "" {
			t.Errorf("Due(%s fit %d, %d) = %v (%s), want %v", tc.id, tc.fit, tc.n, got, why, tc.want)
		}
	}
}

func cosine(a, b []float32) float64 {
	var d, na, nb float64
	for i := range a {
		d += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	return d / math.Sqrt(na*nb)
}

// TestHashingThenGrown loads 3 companies (hashing embedder), then 2,000
// more, and refits while readers search and a load writes: the model id
// changes, every answer during the refit is whole, and every stored
// vector afterwards is the fitted model's.
func TestHashingThenGrown(t *testing.T) {
	ctx := context.Background()
	e, all := demoEngine(t, 2503, 7)
	if err := load(t, e, all[:3]); err != nil {
		t.Fatal(err)
	}
	m0, _ := e.Meta(ctx)
	if !strings.HasPrefix(m0.EmbedderID, "hashing-") {
		t.Fatalf("first load of 3: embedder %s, want hashing", m0.EmbedderID)
	}
	svc := &refit.Service{Engine: e}
	if out, err := svc.Run(ctx, refit.Input{}, nil); err != nil || out.Refitted {
		t.Fatalf("refit of 3 companies: %+v %v, want not due", out, err)
	}
	if err := load(t, e, all[3:2003]); err != nil {
		t.Fatal(err)
	}
	if m, _ := e.Meta(ctx); m.EmbedderID != m0.EmbedderID {
		t.Fatalf("a later load changed the embedder to %s", m.EmbedderID)
	}

	stop := make(chan struct{})
	var wg sync.WaitGroup
	var reads atomic.Int64
	errs := make(chan error, 8)
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				emb, err := embedding.Open(ctx, e)
				if err != nil {
					errs <- err
					return
				}
				res, err := e.SearchCompanies(ctx, index.Search{Vector: emb.EmbedText("cloud software security"), Limit: 10})
				if err == nil && len(res.Hits) != 10 {
					err = errors.New("a search during the refit came back short")
				}
				if err != nil {
					errs <- err
					return
				}
				reads.Add(1)
			}
		}()
	}
	// A load arrives while the refit runs: what it writes before the swap
	// is embedded with the new model by the engine; after the swap its
	// batches name the old embedder and are refused, and running it again
	// finishes it with the new one.
	var loadErr error
	var loaded sync.WaitGroup
	var once sync.Once
	progress := func(int) {
		once.Do(func() {
			loaded.Add(1)
			go func() {
				defer loaded.Done()
				loadErr = load(t, e, all[2003:])
			}()
		})
	}
	start := time.Now()
	out, err := svc.Run(ctx, refit.Input{}, progress)
	took := time.Since(start)
	loaded.Wait()
	time.Sleep(10 * time.Millisecond)
	close(stop)
	wg.Wait()
	if err != nil {
		t.Fatalf("refit: %v", err)
	}
	select {
	case err := <-errs:
		t.Fatalf("reader during the refit: %v", err)
	default:
	}
	if loadErr != nil {
		if !errors.Is(loadErr, index.ErrEmbedderChanged) {
			t.Fatalf("load during the refit: %v", loadErr)
		}
		if err := load(t, e, all[2003:]); err != nil {
			t.Fatalf("load again after the refit: %v", err)
		}
	}
	t.Logf("refit of %d companies in %s, %d searches meanwhile, %d writes embedded during it; load during it: %v",
		out.Companies, took, reads.Load(), out.Concurrent, loadErr)
	if !out.Refitted || reads.Load() == 0 {
		t.Fatalf("refit output %+v, %d reads", out, reads.Load())
	}
	m1, err := e.Meta(ctx)
	if err != nil || !strings.HasPrefix(m1.EmbedderID, "tfidf-svd-") || m1.EmbedderID == m0.EmbedderID || m1.FitRecords < 2003 {
		t.Fatalf("meta after the refit: %s fit %d, %v", m1.EmbedderID, m1.FitRecords, err)
	}
	emb, err := embedding.Open(ctx, e)
	if err != nil {
		t.Fatal(err)
	}
	domains := make([]string, len(all))
	for i := range all {
		domains[i] = all[i].Domain
	}
	vecs, err := e.CompanyVectors(ctx, domains)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := e.GetCompanies(ctx, domains)
	if err != nil {
		t.Fatal(err)
	}
	if len(vecs) != len(all) || len(stored) != len(all) {
		t.Fatalf("%d vectors, %d profiles, want %d", len(vecs), len(stored), len(all))
	}
	for _, c := range stored {
		if cos := cosine(vecs[c.Domain], emb.Embed(embedding.DocOf(c))); cos < 0.999 {
			t.Fatalf("%s: stored vector has cos %.4f to the new model's: mixed generations", c.Domain, cos)
		}
	}
	if out, err := svc.Run(ctx, refit.Input{}, nil); err != nil || out.Refitted {
		t.Fatalf("second refit: %+v %v, want not due", out, err)
	}
}

// TestAfterLoadQueuesOnce: a grown index queues one refit task; while it
// waits no second one is queued; once it ran, nothing is due.
func TestAfterLoadQueuesOnce(t *testing.T) {
	ctx := context.Background()
	e, err := embedded.Open(t.TempDir(), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	g := demo.New(demo.Options{Companies: 1000, Seed: 11})
	all := make([]record.Company, g.Len())
	for i := range all {
		all[i] = g.Company(i)
	}
	var submitted []refit.Input
	svc := &refit.Service{Engine: e, OrgID: "op", Submit: func(_ context.Context, org, kind string, in any) (store.Task, error) {
		if org != "op" || kind != refit.Kind {
			t.Errorf("submitted %s for %s", kind, org)
		}
		submitted = append(submitted, in.(refit.Input))
		return store.Task{ID: "t1"}, nil
	}}
	if err := load(t, e, all[:10]); err != nil {
		t.Fatal(err)
	}
	if queued, err := svc.AfterLoad(ctx); err != nil || queued {
		t.Fatalf("10 companies: queued %v, %v", queued, err)
	}
	if err := load(t, e, all[10:]); err != nil {
		t.Fatal(err)
	}
	for i, want := range []bool{true, false} {
		if queued, err := svc.AfterLoad(ctx); err != nil || queued != want {
			t.Fatalf("check %d at 1,000 companies: queued %v (%v), want %v", i, queued, err, want)
		}
	}
	out, err := svc.Task(ctx, store.Task{ID: "t1"}, submitted[0], nil)
	if err != nil || !out.Refitted || out.Companies != 1000 {
		t.Fatalf("task: %+v %v", out, err)
	}
	if queued, err := svc.AfterLoad(ctx); err != nil || queued || len(submitted) != 1 {
		t.Fatalf("after the refit: queued %v, %v, %d submitted", queued, err, len(submitted))
	}
}

// TestFitOptions: a refit fits the built-in model with the service's
// FitOptions (label directions from the demo corpus's industry labels), and
// the same options give the same model again.
func TestFitOptions(t *testing.T) {
	ctx := context.Background()
	e, all := demoEngine(t, 1200, 3)
	if err := load(t, e, all); err != nil {
		t.Fatal(err)
	}
	ids := map[string]string{}
	for _, tc := range []struct {
		name string
		opt  embedding.Options
	}{
		{"off", embedding.Options{}},
		{"labels", embedding.Options{LabelDims: 16}},
		{"off again", embedding.Options{}},
	} {
		svc := &refit.Service{Engine: e, FitOptions: tc.opt}
		out, err := svc.Run(ctx, refit.Input{Force: true}, nil)
		if err != nil || !out.Refitted {
			t.Fatalf("%s: %+v %v", tc.name, out, err)
		}
		m, _ := e.Meta(ctx)
		if m.EmbedderID != out.To {
			t.Fatalf("%s: index has %s, refit says %s", tc.name, m.EmbedderID, out.To)
		}
		ids[tc.name] = out.To
	}
	if ids["labels"] == ids["off"] || ids["off again"] != ids["off"] {
		t.Fatalf("models %v: want label directions to change the fit, and the same options to give the same model", ids)
	}
}

// demoEngine opens an empty embedded engine (closed at the test's end) and
// returns it with n demo companies of the seed, not loaded.
func demoEngine(t *testing.T, n int, seed int64) (*embedded.Engine, []record.Company) {
	t.Helper()
	e, err := embedded.Open(t.TempDir(), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	g := demo.New(demo.Options{Companies: n, Seed: seed})
	all := make([]record.Company, g.Len())
	for i := range all {
		all[i] = g.Company(i)
	}
	return e, all
}
