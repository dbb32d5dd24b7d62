package embedded

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/cockroachdb/pebble"

	"github.com/openprospect/prospectd/index/textfold"
	"github.com/openprospect/prospectd/record"
)

// Entries written before the email-pattern votes were kept have neither
// flagFoldedName nor name parts (contactvotes.go): their contacts' vote is
// voteUnknown, and EmailPatternVotes reads their profiles. The upgrade
// rewrites those entries once, in the background of `serve` after the
// contact index load, so an existing index gets the resident votes
// without re-ingesting its contacts: batch by batch, in id order (the
// persona-id order of the loaded contacts), under the engine's write
// lock, each entry read again, given the name parts of its profile's name
// and written back with the rest of its bytes unchanged. A stopped
// upgrade leaves whole batches written; the next start finds the rest
// unknown again and continues with them.

// ContactUpgrade counts what UpgradeContactEntries did.
type ContactUpgrade struct {
	// Upgraded entries were rewritten with their name parts; their
	// contacts' votes are resident.
	Upgraded int
	// Current entries had been rewritten since the load (a write, or an
	// earlier upgrade the load did not see): only the vote was set.
	Current int
	// Gone contacts were deleted or replaced since the load.
	Gone int
	// Stale entries were left as they were: their profile is missing or
	// cannot be decoded.
	Stale int
}

// contactUpgradeBatch is how many contacts a batch of the upgrade takes:
// the write lock is held for one batch, 15-20 ms (15-18 µs a contact).
var contactUpgradeBatch = 1024

// contactUpgradeHook, when set (tests), runs between the upgrade's
// batches, with no lock held.
var contactUpgradeHook func()

// PendingContactUpgrades returns how many live contacts have entries
// written before the votes were kept (what UpgradeContactEntries would
// rewrite). It loads the contact index when not loaded yet.
func (e *Engine) PendingContactUpgrades() (int, error) {
	x, err := e.contactIdx()
	if err != nil {
		return 0, err
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	n := 0
	it := x.live.ManyIterator()
	var buf [4096]uint32
	for k := it.NextMany(buf[:]); k > 0; k = it.NextMany(buf[:]) {
		for _, id := range buf[:k] {
			if x.votes[id] == voteUnknown {
				n++
			}
		}
	}
	return n, nil
}

// UpgradeContactEntries rewrites the entries of the live contacts whose
// vote is unknown (written before the votes were kept) with their name
// parts, and sets their resident votes, so EmailPatternVotes reads no
// profiles for them. It holds the write lock one batch at a time and
// reads each entry again under it, so a concurrent write is never undone;
// Close stops it between batches (ErrClosed), as does ctx. The counts are
// those of the batches written, also when it stops.
func (e *Engine) UpgradeContactEntries(ctx context.Context) (ContactUpgrade, error) {
	var st ContactUpgrade
	x, err := e.contactIdx()
	if err != nil {
		return st, err
	}
	if !e.beginRead() {
		return st, fmt.Errorf("upgrade contact entries: %w", ErrClosed)
	}
	defer e.reads.Done()
	var ids []uint32
	var pids []int64
	for next := uint32(0); ; {
		if e.stopping.Load() {
			return st, fmt.Errorf("upgrade contact entries: %w", ErrClosed)
		}
		if err := ctx.Err(); err != nil {
			return st, fmt.Errorf("upgrade contact entries: %w", err)
		}
		// The next batch of unknown votes, scanning at most 64 batches'
		// worth of ids under the read lock at a time.
		ids, pids = ids[:0], pids[:0]
		x.mu.RLock()
		n := uint32(len(x.votes))
		for end := min(n, next+uint32(64*contactUpgradeBatch)); next < end && len(ids) < contactUpgradeBatch; next++ {
			if x.votes[next] == voteUnknown && x.live.Contains(next) {
				ids, pids = append(ids, next), append(pids, x.persona[next])
			}
		}
		x.mu.RUnlock()
		if len(ids) > 0 {
			if err := e.upgradeBatch(x, ids, pids, &st); err != nil {
				return st, err
			}
			if contactUpgradeHook != nil {
				contactUpgradeHook()
			}
		} else if next >= n {
			return st, nil
		}
	}
}

// upgradeBatch rewrites the entries of contacts ids (persona ids pids,
// votes unknown when picked) under the write lock.
func (e *Engine) upgradeBatch(x *contactIndex, ids []uint32, pids []int64, st *ContactUpgrade) error {
	e.writeMu.Lock()
	defer e.writeMu.Unlock()
	if e.closed {
		return fmt.Errorf("upgrade contact entries: %w", ErrClosed)
	}
	// Under the write lock no contact is placed, replaced or deleted:
	// what is still the same contact with an unknown vote stays so until
	// the batch is applied.
	still := make([]bool, len(ids))
	x.mu.RLock()
	for i, id := range ids {
		cur, ok := x.idOf(pids[i])
		still[i] = ok && cur == id && x.votes[id] == voteUnknown
	}
	x.mu.RUnlock()
	const (
		gone = iota
		stale
		current
		upgraded
	)
	outcome := make([]int, len(ids))
	entries := make([]*cEntry, len(ids))
	// Each core reads a run of the batch (in persona-id order: the
	// loaded contacts' ids are) through one iterator over the entries and
	// one over the profiles: a seek to a next key costs less than a point
	// read (18.3 µs a contact against 30.6 with Get on a settled store,
	// BenchmarkContactUpgrade at a load of 5).
	read := func(lo, hi int) error {
		entryIt, err := e.db.NewIter(&pebble.IterOptions{LowerBound: []byte(prefixContactEntry), UpperBound: []byte("cx0")})
		if err != nil {
			return err
		}
		defer entryIt.Close()
		profileIt, err := e.db.NewIter(&pebble.IterOptions{LowerBound: []byte(prefixContactProfile), UpperBound: []byte("cp0")})
		if err != nil {
			return err
		}
		defer profileIt.Close()
		for i := lo; i < hi; i++ {
			if !still[i] {
				continue
			}
			v, ok := seekValue(entryIt, contactKey(prefixContactEntry, pids[i]))
			if !ok {
				continue // gone
			}
			en := &cEntry{}
			if err := en.unmarshal(v, nil); err != nil { // copies what it keeps
				return fmt.Errorf("read contact %d: %w", pids[i], err)
			}
			entries[i] = en
			if en.vote != voteUnknown {
				outcome[i] = current
				continue
			}
			// A profile missing or undecodable (GetContacts fails on it
			// too) leaves the entry as it is.
			var c record.Contact
			if v, ok = seekValue(profileIt, contactKey(prefixContactProfile, pids[i])); !ok || decodeStored(bytes.Clone(v), &c) != nil {
				outcome[i] = stale
				continue
			}
			if textfold.Words(c.Name) == en.name {
				en.setNameVote(c.Name) // as newCEntry
			} else {
				// Folded by an older textfold: the parts all the same
				// (the profile's name is the one the votes read).
				en.setPartsOf(c.Name)
				en.vote = en.voteCode()
			}
			outcome[i] = upgraded
		}
		return errors.Join(entryIt.Error(), profileIt.Error())
	}
	workers := max(1, min(runtime.GOMAXPROCS(0), len(ids)/64))
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[w] = read(w*len(ids)/workers, (w+1)*len(ids)/workers)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("upgrade contact entries: %w", err)
	}
	b := e.db.NewBatch()
	defer b.Close()
	var buf []byte
	for i, en := range entries {
		if outcome[i] != upgraded {
			continue
		}
		buf = en.marshal(buf[:0])
		if err := b.Set(contactKey(prefixContactEntry, pids[i]), buf, nil); err != nil {
			return fmt.Errorf("upgrade contact entries: %w", err)
		}
	}
	if !b.Empty() {
		// No fsync (as the refit's staged vectors): a batch lost in a
		// crash leaves entries as they were, upgraded at the next start,
		// and the write-ahead log keeps every later write after it (a
		// later synced write of a contact syncs this batch before it).
		// A sync a batch cost 26.2 µs a contact against 20.5 (point
		// reads, a store not compacted).
		if err := e.commitOwn(b, pebble.NoSync); err != nil {
			return fmt.Errorf("upgrade contact entries: write %d: %w", b.Count(), err)
		}
	}
	x.mu.Lock()
	for i, id := range ids {
		switch outcome[i] {
		case upgraded, current:
			x.votes[id] = entries[i].vote
		}
	}
	x.mu.Unlock()
	for i := range ids {
		switch {
		case !still[i] || outcome[i] == gone:
			st.Gone++
		case outcome[i] == stale:
			st.Stale++
		case outcome[i] == current:
			st.Current++
		default:
			st.Upgraded++
		}
	}
	return nil
}

// seekValue moves it to key and returns its value (valid until it moves
// again), false when key is not stored.
func seekValue(it *pebble.Iterator, key []byte) ([]byte, bool) {
	if !it.SeekGE(key) || !bytes.Equal(it.Key(), key) {
		return nil, false
	}
	return it.Value(), true
}
