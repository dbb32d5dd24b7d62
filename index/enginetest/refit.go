package enginetest

import (
	"context"
	"errors"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/record"
)

// RefitOptions adapt RunRefit to an engine.
type RefitOptions struct {
	// SameDimension: the engine refits only to embedders of the index's
	// dimension (Elasticsearch); otherwise the new vectors have Dim+4
	// values, so a vector of either generation is told apart by length.
	SameDimension bool
	// Settle runs after writes before reads that must see them (an
	// Elasticsearch refresh); may be nil.
	Settle func(t *testing.T, e index.Engine)
}

// keyVector is the new generation's vector of a key: a deterministic
// unit vector of refitDim.
func keyVector(key string, refitDim int) []float32 {
	h := fnv.New64a()
	h.Write([]byte(key))
	r := rand.New(rand.NewPCG(h.Sum64(), 7))
	v := make([]float32, refitDim)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	return unit(v)
}

// RunRefit checks index.Refitter on an engine from open (skipped when the
// engine has no refit): every company and contact re-embedded, a write
// made during the refit in the new generation, reads and counts answering
// throughout, and vectors of the old embedder refused after the swap.
func RunRefit(t *testing.T, open func(t *testing.T) index.Engine, opt RefitOptions) {
	ctx := context.Background()
	refitDim := Dim + 4
	if opt.SameDimension {
		refitDim = Dim
	}
	keyVector := func(key string) []float32 { return keyVector(key, refitDim) }
	e := open(t)
	rf, ok := e.(index.Refitter)
	if !ok {
		t.Skip("engine has no refit")
	}
	if err := e.SetMeta(ctx, index.Meta{EmbedderID: "old-embedder", Dimension: Dim}); err != nil {
		t.Fatal(err)
	}
	docs := Fixtures()
	for i := range docs {
		docs[i].EmbedderID = "old-embedder"
	}
	if failed, err := e.UpsertCompanies(ctx, docs); err != nil || len(failed) > 0 {
		t.Fatalf("upsert: %v %v", failed, err)
	}
	contacts := ContactFixtures()
	for i := range contacts {
		contacts[i].EmbedderID = "old-embedder"
	}
	if failed, err := e.UpsertContacts(ctx, contacts); err != nil || len(failed) > 0 {
		t.Fatalf("upsert contacts: %v %v", failed, err)
	}
	if err := e.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	n := len(docs)

	// Readers run until the refit returns; every answer must be whole.
	stop := make(chan struct{})
	var readers sync.WaitGroup
	var reads atomic.Int64
	readErr := make(chan error, 4)
	for range 2 {
		readers.Add(1)
		go func() {
			defer readers.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				c, err := e.CountCompanies(ctx, nil)
				if err == nil && c < n {
					err = errors.New("count dropped during the refit")
				}
				if err == nil {
					var res index.Result
					res, err = e.SearchCompanies(ctx, index.Search{Limit: 5})
					if err == nil && len(res.Hits) != 5 {
						err = errors.New("search lost hits during the refit")
					}
				}
				if err != nil {
					select {
					case readErr <- err:
					default:
					}
					return
				}
				reads.Add(1)
				time.Sleep(time.Millisecond)
			}
		}()
	}

	during := index.CompanyDoc{EmbedderID: "old-embedder", Vector: axis(3, 0.5), Company: record.Company{
		Domain: "arrived-during-refit.com", Name: "Late Arrival", Score: 300}}
	var wrote atomic.Bool
	companiesFn := func(ctx context.Context, cs []record.Company) ([][]float32, error) {
		if wrote.CompareAndSwap(false, true) {
			// A write while the refit runs, with the old embedder's vector.
			if failed, err := e.UpsertCompanies(ctx, []index.CompanyDoc{during}); err != nil || len(failed) > 0 {
				t.Errorf("write during the refit: %v %v", failed, err)
			}
		}
		out := make([][]float32, len(cs))
		for i := range cs {
			out[i] = keyVector(cs[i].Domain)
		}
		return out, nil
	}
	contactsFn := func(ctx context.Context, cs []record.Contact) ([][]float32, error) {
		out := make([][]float32, len(cs))
		for i := range cs {
			out[i] = keyVector(cs[i].Name)
		}
		return out, nil
	}
	res, err := rf.Refit(ctx, index.Refit{
		Meta:      index.Meta{EmbedderID: "new-embedder", Dimension: refitDim, Model: []byte("new model"), FitRecords: n},
		Companies: companiesFn, Contacts: contactsFn, BatchSize: 2,
	})
	time.Sleep(20 * time.Millisecond)
	close(stop)
	readers.Wait()
	if err != nil {
		t.Fatalf("Refit: %v", err)
	}
	select {
	case err := <-readErr:
		t.Fatalf("reader during the refit: %v", err)
	default:
	}
	if reads.Load() == 0 {
		t.Fatal("no read completed during the refit")
	}
	if res.From != "old-embedder" || res.To != "new-embedder" || res.Companies != n+1 || res.Contacts != len(contacts) || res.Concurrent < 1 {
		t.Fatalf("result = %+v, want old→new, %d companies, %d contacts, ≥1 concurrent", res, n+1, len(contacts))
	}
	if err := e.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if opt.Settle != nil {
		opt.Settle(t, e)
	}
	m, err := e.Meta(ctx)
	if err != nil || m.EmbedderID != "new-embedder" || m.Dimension != refitDim || string(m.Model) != "new model" || m.FitRecords != n {
		t.Fatalf("meta after refit = %+v, %v", m, err)
	}

	// Every company, the late one included, holds its new vector.
	domains := append(domainsOf(docs), during.Company.Domain)
	vecs, err := e.CompanyVectors(ctx, domains)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range domains {
		if got := vecs[d]; len(got) != refitDim || cosine(got, keyVector(d)) < 0.999 {
			t.Errorf("vector of %s after refit: %d dims, cos %.4f to its new vector", d, len(got), cosine(got, keyVector(d)))
		}
	}
	ids := make([]int64, len(contacts))
	for i := range contacts {
		ids[i] = contacts[i].Contact.PersonaID
	}
	cvecs, err := e.ContactVectors(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range contacts {
		if got := cvecs[c.Contact.PersonaID]; len(got) != refitDim || cosine(got, keyVector(c.Contact.Name)) < 0.99 {
			t.Errorf("vector of contact %d after refit: %d dims", c.Contact.PersonaID, len(got))
		}
	}

	// Searches rank by the new vectors; the old dimension is refused.
	top, err := e.SearchCompanies(ctx, index.Search{Vector: keyVector(docs[2].Company.Domain), Limit: 1})
	if err != nil || len(top.Hits) != 1 || top.Hits[0].Company.Domain != docs[2].Company.Domain {
		t.Fatalf("search by a new vector: %+v %v", top.Hits, err)
	}
	if _, err := e.SearchCompanies(ctx, index.Search{Vector: axis(0, 0), Limit: 1}); !opt.SameDimension && !errors.Is(err, index.ErrVectorMismatch) {
		t.Fatalf("search by an old vector: err = %v, want ErrVectorMismatch", err)
	}
	ctop, err := e.SearchContacts(ctx, index.ContactSearch{Vector: keyVector(contacts[0].Contact.Name), Limit: 1, PerCompany: 1})
	if err != nil || len(ctop.Hits) == 0 || ctop.Hits[0].Contact.PersonaID != contacts[0].Contact.PersonaID {
		t.Fatalf("contact search by a new vector: %+v %v", ctop.Hits, err)
	}

	// A writer still holding the old embedder is refused, not mixed in.
	late := during
	late.Company.Domain = "after-refit.com"
	late.Vector = keyVector("whatever")
	if _, err := e.UpsertCompanies(ctx, []index.CompanyDoc{late}); !errors.Is(err, index.ErrEmbedderChanged) {
		t.Fatalf("write with the old embedder's id after the swap: err = %v, want ErrEmbedderChanged", err)
	}
	late.EmbedderID = "new-embedder"
	if failed, err := e.UpsertCompanies(ctx, []index.CompanyDoc{late}); err != nil || len(failed) > 0 {
		t.Fatalf("write with the new embedder: %v %v", failed, err)
	}
}

func domainsOf(docs []index.CompanyDoc) []string {
	out := make([]string, len(docs))
	for i := range docs {
		out[i] = docs[i].Company.Domain
	}
	return out
}

func cosine(a, b []float32) float64 {
	if len(a) != len(b) {
		return -2
	}
	var d, na, nb float64
	for i := range a {
		d += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	return d / math.Sqrt(na*nb)
}
