package embedded

import (
	"context"
	"errors"
	"os"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/enginetest"
)

// BenchmarkLoadContacts measures the warm load of an existing index's
// contacts (what serve does in the background after ready_in) and the
// heap the loaded contact index keeps per contact:
//
//	PROSPECT_BENCH_INDEX=/path/to/data/index go test -run '^$' -bench LoadContacts -benchtime 1x ./index/embedded/
func BenchmarkLoadContacts(b *testing.B) {
	dir := os.Getenv("PROSPECT_BENCH_INDEX")
	if dir == "" {
		b.Skip("PROSPECT_BENCH_INDEX not set")
	}
	for b.Loop() {
		b.StopTimer()
		e, err := Open(dir, Options{})
		if err != nil {
			b.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		rssBefore := vmRSS()
		b.StartTimer()
		start := time.Now()
		x, err := e.contactIdx()
		if err != nil {
			b.Fatal(err)
		}
		took := time.Since(start)
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&after)
		n := len(x.persona)
		b.ReportMetric(float64(n), "contacts")
		b.ReportMetric(took.Seconds(), "load-s")
		if n > 0 {
			b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/float64(n), "heap-B/contact")
			// Resident growth: the heap figure counts the untouched huge-page
			// alignment pad of the vector chunks (allocInt8), RSS does not;
			// RSS also counts the garbage the load leaves until the runtime
			// returns it.
			if rss := vmRSS(); rss > 0 && rssBefore > 0 {
				b.ReportMetric(float64(rss-rssBefore)/float64(n), "rss-B/contact")
			}
		}
		writeHeapProfile(b, os.Getenv("PROSPECT_BENCH_HEAPPROFILE"))
		runtime.KeepAlive(x)
		e.Close()
		b.StartTimer()
	}
}

// TestContactsAfterLoad changes loaded contacts (ids found by binary
// search in the loaded persona column, not the map): replace, delete,
// re-add a deleted one, add a new one with a smaller persona id, and
// checks lookups, filters and a second load.
func TestContactsAfterLoad(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	docs := enginetest.ContactFixtures()
	storeContacts(t, dir, docs)
	var e *Engine
	var err error
	for round := 0; round < 2; round++ {
		if e, err = Open(dir, Options{}); err != nil {
			t.Fatal(err)
		}
		x, err := e.contactIdx()
		if err != nil {
			t.Fatal(err)
		}
		if len(x.ids) != 0 || int(x.loaded) != len(x.persona) {
			t.Fatalf("round %d: %d map entries, %d loaded of %d", round, len(x.ids), x.loaded, len(x.persona))
		}
		want := map[int64]string{}
		for _, d := range docs {
			want[d.Contact.PersonaID] = d.Contact.Title
		}
		// Replace the first, delete the second, add a new persona with
		// the smallest id.
		first, second := docs[0], docs[1]
		first.Contact.Title = "Chief Security Officer " + strconv.Itoa(round)
		added := docs[2]
		added.Contact.PersonaID = int64(1000 + round)
		if round == 1 {
			added.Contact.PersonaID = 1000 // the round-0 one is in the store: replace it
		}
		if _, err := e.UpsertContacts(ctx, []index.ContactDoc{first, added}); err != nil {
			t.Fatal(err)
		}
		if n, err := e.DeleteContacts(ctx, []int64{second.Contact.PersonaID}); err != nil || n != 1 {
			t.Fatalf("round %d: delete = %d, %v", round, n, err)
		}
		want[first.Contact.PersonaID] = first.Contact.Title
		want[added.Contact.PersonaID] = added.Contact.Title
		delete(want, second.Contact.PersonaID)
		check := func(stage string) {
			t.Helper()
			if n, err := e.CountContacts(ctx, nil); err != nil || n != len(want) {
				t.Fatalf("round %d %s: count = %d, %v; want %d", round, stage, n, err, len(want))
			}
			for pid, title := range want {
				f := index.Terms{Field: index.PersonaIDField, Values: []string{strconv.FormatInt(pid, 10)}}
				res, err := e.SearchContacts(ctx, index.ContactSearch{Filter: f, Limit: 5})
				if err != nil || len(res.Hits) != 1 || res.Hits[0].Contact.Title != title {
					t.Fatalf("round %d %s: persona %d: %+v, %v", round, stage, pid, res.Hits, err)
				}
			}
			vecs, err := e.ContactVectors(ctx, []int64{second.Contact.PersonaID, first.Contact.PersonaID})
			if err != nil || len(vecs) != 1 || vecs[first.Contact.PersonaID] == nil {
				t.Fatalf("round %d %s: vectors %v, %v", round, stage, vecs, err)
			}
		}
		check("after the changes")
		// The deleted persona comes back.
		if _, err := e.UpsertContacts(ctx, []index.ContactDoc{second}); err != nil {
			t.Fatal(err)
		}
		want[second.Contact.PersonaID] = second.Contact.Title
		vecs, err := e.ContactVectors(ctx, []int64{second.Contact.PersonaID})
		if err != nil || len(vecs) != 1 {
			t.Fatalf("round %d: re-added persona: %v, %v", round, vecs, err)
		}
		if n, err := e.CountContacts(ctx, nil); err != nil || n != len(want) {
			t.Fatalf("round %d: count after re-adding = %d, %v; want %d", round, n, err, len(want))
		}
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
		// Round 1 loads what round 0 left: the fixtures with the first
		// replaced, and persona 1000 (replaced again in round 1).
		docs = append([]index.ContactDoc{first}, docs[1:]...)
		if round == 0 {
			docs = append(docs, added)
		}
	}
}

// TestCloseStopsContactLoad closes the engine while its contact index
// loads (serve loads it in the background and may be stopped during the
// load, minutes long at 15M contacts): the load stops with ErrClosed and
// Close returns once it has, so nothing reads the closed store (it
// panicked inside Pebble). A load asked for after Close fails the same way.
func TestCloseStopsContactLoad(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	base := enginetest.ContactFixtures()
	docs := make([]index.ContactDoc, 0, 5000) // more than one batch of the reader
	for i := range cap(docs) {
		d := base[i%len(base)]
		d.Contact.PersonaID = int64(10_000 + i)
		docs = append(docs, d)
	}
	storeContacts(t, dir, docs)

	e, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	reached := make(chan struct{})
	var once sync.Once
	contactBatchHook = func() {
		once.Do(func() { close(reached) })
		for !e.stopping.Load() {
			time.Sleep(time.Millisecond)
		}
	}
	defer func() { contactBatchHook = nil }()
	loaded := make(chan error, 1)
	go func() { loaded <- e.LoadContacts() }()
	<-reached
	if err := e.Close(); err != nil {
		t.Fatalf("Close during the contact load: %v", err)
	}
	if err := <-loaded; !errors.Is(err, ErrClosed) {
		t.Fatalf("contact load stopped by Close: %v, want ErrClosed", err)
	}
	contactBatchHook = nil

	// The store is whole: the next open loads every contact.
	if e, err = Open(dir, Options{}); err != nil {
		t.Fatal(err)
	}
	if n, err := e.CountContacts(ctx, nil); err != nil || n != len(docs) {
		t.Fatalf("after reopening: %d contacts, %v; want %d", n, err, len(docs))
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if e, err = Open(dir, Options{}); err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if err := e.LoadContacts(); !errors.Is(err, ErrClosed) {
		t.Fatalf("contact load after Close: %v, want ErrClosed", err)
	}
}

// storeContacts writes docs into a new index in dir and closes it.
func storeContacts(t *testing.T, dir string, docs []index.ContactDoc) {
	t.Helper()
	ctx := context.Background()
	e, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.SetMeta(ctx, index.Meta{EmbedderID: "test-embedder", Dimension: enginetest.Dim}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.UpsertContacts(ctx, docs); err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
}
