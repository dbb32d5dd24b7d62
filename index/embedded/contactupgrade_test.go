package embedded

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/cockroachdb/pebble"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/internal/demo"
)

// storedBytes returns a contact's stored entry (nil when there is none).
func storedBytes(t *testing.T, e *Engine, pid int64) []byte {
	t.Helper()
	v, closer, err := e.db.Get(contactKey(prefixContactEntry, pid))
	if errors.Is(err, pebble.ErrNotFound) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer closer.Close()
	return bytes.Clone(v)
}

// setUpgradeBatch sets the upgrade's batch size for a test.
func setUpgradeBatch(t *testing.T, n int) {
	was := contactUpgradeBatch
	contactUpgradeBatch = n
	t.Cleanup(func() { contactUpgradeBatch, contactUpgradeHook = was, nil })
}

// upgradeFixture writes the vote fixture into a new index in dir,
// rewrites the entries of every every-th contact (from the first) in the
// old format, and reopens it. It returns the domains to ask for, the
// documents, and the downgraded entries' bytes as written.
func upgradeFixture(t *testing.T, dir string, every int) (*Engine, []string, []index.ContactDoc, map[int64][]byte) {
	t.Helper()
	e, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	asked, docs := voteFixture(t, e, rand.New(rand.NewPCG(5, 6)))
	var old []int64
	for i, d := range docs {
		if i%every == 0 {
			old = append(old, d.Contact.PersonaID)
		}
	}
	was := downgradeEntries(t, e, old)
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if e, err = Open(dir, Options{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	if n, err := e.PendingContactUpgrades(); err != nil || n != len(old) {
		t.Fatalf("pending upgrades: %d, %v; want %d", n, err, len(old))
	}
	return e, asked, docs, was
}

// checkUpgraded checks that every entry in want is stored with those bytes
// and that the resident votes are the entries' — those newCEntry gives
// the contacts' profiles — with none unknown but those of stale.
func checkUpgraded(t *testing.T, e *Engine, want map[int64][]byte, stale map[int64]bool) {
	t.Helper()
	for pid, b := range want {
		if got := storedBytes(t, e, pid); !bytes.Equal(got, b) {
			t.Fatalf("contact %d: entry\n%x\nwant\n%x", pid, got, b)
		}
	}
	x, err := e.contactIdx()
	if err != nil {
		t.Fatal(err)
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	it := x.live.Iterator()
	for it.HasNext() {
		id := it.Next()
		pid := x.persona[id]
		if stale[pid] {
			if x.votes[id] != voteUnknown {
				t.Fatalf("contact %d: stale, resident vote %#x", pid, x.votes[id])
			}
			continue
		}
		c, err := e.contactProfile(pid)
		if err != nil {
			t.Fatal(err)
		}
		if wantVote := newCEntry(&c, x.vector(id)).vote; x.votes[id] != wantVote {
			t.Fatalf("contact %d (%q <%s>): resident vote %#x, want %#x", pid, c.Name, c.Email, x.votes[id], wantVote)
		}
	}
}

// TestUpgradeContactEntries: entries written before the votes were kept
// are rewritten to the bytes the current version writes, their votes are
// resident, EmailPatternVotes equals the search path without reading a
// profile, and a second run (or the next start) has nothing to do. An
// entry whose folded name is not its profile's name's (an older fold)
// gets the parts spelled out; one whose profile cannot be decoded is
// left as it was.
func TestUpgradeContactEntries(t *testing.T) {
	for _, tc := range []struct {
		name   string
		every  int // every every-th entry in the old format
		batch  int
		tamper string // one profile: "renamed" or "undecodable"
	}{
		{"a quarter, one batch", 4, 4096, ""},
		{"all, small batches", 1, 100, ""},
		{"a third, one folded otherwise", 3, 256, "renamed"},
		{"a third, one undecodable", 3, 256, "undecodable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			setUpgradeBatch(t, tc.batch)
			dir := t.TempDir()
			e, asked, _, was := upgradeFixture(t, dir, tc.every)
			stale := map[int64]bool{}
			if tc.tamper != "" {
				pid := slices.Min(slices.Collect(maps.Keys(was)))
				c, err := e.contactProfile(pid)
				if err != nil {
					t.Fatal(err)
				}
				c.Name = "Renamed Person"
				js, _ := json.Marshal(c)
				var en cEntry
				if err := en.unmarshal(storedBytes(t, e, pid), nil); err != nil {
					t.Fatal(err)
				}
				if tc.tamper == "undecodable" {
					js = []byte("{")
					stale[pid] = true
				} else {
					en.parts, en.hasParts = "renamed person", true
				}
				was[pid] = en.marshal(nil)
				if err := e.db.Set(contactKey(prefixContactProfile, pid), js, pebble.Sync); err != nil {
					t.Fatal(err)
				}
			}
			if len(stale) == 0 {
				if reads := checkVotes(t, e, asked, "before"); reads == 0 {
					t.Fatal("no profile read before the upgrade: the fixture has no old entry sampled")
				}
			}
			batches := 0
			contactUpgradeHook = func() { batches++ }
			st, err := e.UpgradeContactEntries(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if want := (ContactUpgrade{Upgraded: len(was) - len(stale), Stale: len(stale)}); st != want {
				t.Fatalf("upgrade: %+v, want %+v", st, want)
			}
			if want := (len(was) + tc.batch - 1) / tc.batch; batches != want {
				t.Errorf("%d batches, want %d", batches, want)
			}
			checkUpgraded(t, e, was, stale)
			if len(stale) == 0 {
				if reads := checkVotes(t, e, asked, "upgraded"); reads != 0 {
					t.Fatalf("EmailPatternVotes read %d profiles after the upgrade", reads)
				}
			}
			if n, _ := e.PendingContactUpgrades(); n != len(stale) {
				t.Fatalf("%d pending after the upgrade, want %d", n, len(stale))
			}
			if st, err := e.UpgradeContactEntries(context.Background()); err != nil || st != (ContactUpgrade{Stale: len(stale)}) {
				t.Fatalf("second upgrade: %+v, %v", st, err)
			}
			if err := e.Close(); err != nil {
				t.Fatal(err)
			}
			if e, err = Open(dir, Options{}); err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			if n, _ := e.PendingContactUpgrades(); n != len(stale) {
				t.Fatalf("%d pending after reopening, want %d", n, len(stale))
			}
			checkUpgraded(t, e, was, stale)
		})
	}
}

// TestUpgradeKeepsConcurrentWrites: contacts replaced or deleted while
// the upgrade runs — between its batches, and from another goroutine at
// any time — keep what those writes stored.
func TestUpgradeKeepsConcurrentWrites(t *testing.T) {
	setUpgradeBatch(t, 64)
	ctx := context.Background()
	e, asked, docs, was := upgradeFixture(t, t.TempDir(), 1)
	rng := rand.New(rand.NewPCG(7, 8))
	domains := asked[:len(asked)-2]
	written := map[int64][]byte{} // the entries of the last writes
	var mu sync.Mutex
	write := func(rng *rand.Rand, pid int64) {
		d := voteDoc(rng, voteContact(rng, pid, domains[rng.IntN(len(domains))]))
		if _, err := e.UpsertContacts(ctx, []index.ContactDoc{d}); err != nil {
			t.Error(err)
			return
		}
		en := newCEntry(&d.Contact, d.Vector)
		mu.Lock()
		written[pid] = en.marshal(nil)
		mu.Unlock()
	}
	var deleted []int64
	first := true
	contactUpgradeHook = func() {
		if !first {
			return
		}
		first = false
		// After the first batch: replace contacts of the first batch
		// (upgraded) and of later ones (not yet), delete some later ones.
		for _, d := range docs[:len(docs)/2] {
			pid := d.Contact.PersonaID
			switch pid % 7 {
			case 0:
				write(rng, pid)
			case 1:
				deleted = append(deleted, pid)
			}
		}
		if _, err := e.DeleteContacts(ctx, deleted); err != nil {
			t.Error(err)
		}
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		rng := rand.New(rand.NewPCG(9, 10))
		for {
			select {
			case <-stop:
				return
			default:
			}
			pid := docs[len(docs)/2+rng.IntN(len(docs)/2)].Contact.PersonaID
			write(rng, pid)
		}
	}()
	st, err := e.UpgradeContactEntries(ctx)
	close(stop)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if len(written) < 20 || len(deleted) < 20 {
		t.Fatalf("%d contacts written and %d deleted during the upgrade: too few to test", len(written), len(deleted))
	}
	// A contact rewritten before its batch was picked is not counted.
	if n := st.Upgraded + st.Gone + st.Current; n > len(was) || n < len(was)-len(written)-len(deleted) || st.Stale != 0 {
		t.Fatalf("upgrade: %+v of %d entries, %d deleted", st, len(was), len(deleted))
	}
	for _, pid := range deleted {
		if b := storedBytes(t, e, pid); b != nil {
			t.Fatalf("deleted contact %d has an entry again", pid)
		}
		delete(was, pid)
	}
	for pid, b := range written {
		was[pid] = b
	}
	checkUpgraded(t, e, was, nil)
	if reads := checkVotes(t, e, asked, "upgraded during writes"); reads != 0 {
		t.Fatalf("EmailPatternVotes read %d profiles after the upgrade", reads)
	}
}

// TestUpgradeStops: Close or a cancelled context stops the upgrade after
// the batch in hand; the entries written stay upgraded and the next run
// (after reopening) upgrades the rest.
func TestUpgradeStops(t *testing.T) {
	for _, tc := range []struct {
		name string
		stop func(e *Engine, cancel context.CancelFunc) error
		want error
	}{
		{"close", func(e *Engine, _ context.CancelFunc) error { return e.Close() }, ErrClosed},
		{"context", func(_ *Engine, cancel context.CancelFunc) error { cancel(); return nil }, context.Canceled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			setUpgradeBatch(t, 100)
			dir := t.TempDir()
			e, asked, _, was := upgradeFixture(t, dir, 1)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			reached, resume := make(chan struct{}), make(chan struct{})
			var once sync.Once
			contactUpgradeHook = func() {
				once.Do(func() {
					close(reached)
					<-resume
				})
			}
			done := make(chan error, 1)
			var st ContactUpgrade
			go func() {
				var err error
				st, err = e.UpgradeContactEntries(ctx)
				done <- err
			}()
			<-reached
			stopped := make(chan error, 1)
			go func() { stopped <- tc.stop(e, cancel) }()
			// Close waits for the batch in hand: let it end once Close
			// has begun (or the context is cancelled).
			for !e.stopping.Load() && ctx.Err() == nil {
				time.Sleep(time.Millisecond)
			}
			close(resume)
			select {
			case err := <-done:
				if !errors.Is(err, tc.want) {
					t.Fatalf("upgrade stopped: %v, want %v", err, tc.want)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the upgrade did not stop")
			}
			if err := <-stopped; err != nil {
				t.Fatal(err)
			}
			if st.Upgraded != 100 {
				t.Fatalf("stopped after %+v, want one batch of 100", st)
			}
			e.Close()
			var err error
			if e, err = Open(dir, Options{}); err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			if n, _ := e.PendingContactUpgrades(); n != len(was)-100 {
				t.Fatalf("%d pending after reopening, want %d", n, len(was)-100)
			}
			contactUpgradeHook = nil
			if st, err = e.UpgradeContactEntries(context.Background()); err != nil || st.Upgraded != len(was)-100 {
				t.Fatalf("resumed upgrade: %+v, %v; want %d upgraded", st, err, len(was)-100)
			}
			checkUpgraded(t, e, was, nil)
			if reads := checkVotes(t, e, asked, "resumed"); reads != 0 {
				t.Fatalf("EmailPatternVotes read %d profiles after the upgrade", reads)
			}
		})
	}
}

// BenchmarkContactUpgrade measures UpgradeContactEntries over an index of
// the demo generator's contacts (100,000, or PROSPECT_BENCH_UPGRADE_CONTACTS;
// 256 dimensions) whose entries are all in the old format, in a
// compacted store: the time a contact (ns/contact) with the store in the
// page cache. It builds the index in a temporary directory (~10 s at
// 100,000):
//
//	go test -run '^$' -bench ContactUpgrade -benchtime 3x ./index/embedded/
func BenchmarkContactUpgrade(b *testing.B) {
	n := 100_000
	if v := os.Getenv("PROSPECT_BENCH_UPGRADE_CONTACTS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil {
			b.Fatal(err)
		}
	}
	ctx := context.Background()
	dir := b.TempDir()
	e, err := Open(dir, Options{})
	if err != nil {
		b.Fatal(err)
	}
	if err := e.SetMeta(ctx, index.Meta{EmbedderID: "x", Dimension: 256}); err != nil {
		b.Fatal(err)
	}
	g := demo.New(demo.Options{Companies: n, Seed: 1})
	rng := rand.New(rand.NewPCG(1, 2))
	var docs []index.ContactDoc
	written := 0
	for i := 0; i < g.Len() && written < n; i++ {
		for _, c := range g.ContactsOf(i) {
			v := make([]float32, 256)
			for k := range v {
				v[k] = rng.Float32() - 0.5
			}
			docs = append(docs, index.ContactDoc{Contact: c, Vector: v})
		}
		if len(docs) >= 2000 || i == g.Len()-1 {
			docs = docs[:min(len(docs), n-written)]
			if _, err := e.UpsertContacts(ctx, docs); err != nil {
				b.Fatal(err)
			}
			written += len(docs)
			docs = docs[:0]
		}
	}
	if err := e.Close(); err != nil {
		b.Fatal(err)
	}
	var st ContactUpgrade
	var entryBytes int
	for b.Loop() {
		b.StopTimer()
		if e, err = Open(dir, Options{}); err != nil {
			b.Fatal(err)
		}
		entryBytes = downgradeAll(b, e)
		// Settled, as a store in service is (and as a contact load
		// leaves it): not piles of level-0 tables.
		if err := e.FinishContactLoad(ctx); err != nil {
			b.Fatal(err)
		}
		e.Close()
		if e, err = Open(dir, Options{}); err != nil {
			b.Fatal(err)
		}
		if err := e.LoadContacts(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if st, err = e.UpgradeContactEntries(ctx); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if err := e.Close(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	if st.Upgraded != written {
		b.Fatalf("upgraded %+v of %d", st, written)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(written), "ns/contact")
	b.ReportMetric(float64(written), "contacts")
	b.ReportMetric(float64(entryBytes)/float64(written), "entry-bytes")
}

// downgradeAll rewrites every contact entry in the old format and returns
// their bytes.
func downgradeAll(b *testing.B, e *Engine) (size int) {
	it, err := e.db.NewIter(&pebble.IterOptions{LowerBound: []byte(prefixContactEntry), UpperBound: []byte("cx0")})
	if err != nil {
		b.Fatal(err)
	}
	defer it.Close()
	batch := e.db.NewBatch()
	for it.First(); it.Valid(); it.Next() {
		var en cEntry
		if err := en.unmarshal(it.Value(), nil); err != nil {
			b.Fatal(err)
		}
		en.flags &^= flagFoldedName
		en.hasParts = false
		v := en.marshal(nil)
		size += len(v)
		batch.Set(it.Key(), v, nil)
	}
	if err := batch.Commit(pebble.Sync); err != nil {
		b.Fatal(err)
	}
	return size
}
