package embedded

import (
	"context"
	"errors"
	"fmt"

	"github.com/openprospect/prospectd/index/textfold"
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
	// Stale entries were left as they were: no profile, an unreadable
	// one, or one whose name does not fold to the entry's name (their
	// profiles are read, as before).
	Stale int
}

// contactUpgradeBatch is how many contacts a batch of the upgrade takes
// (the write lock is held for one batch: ~1,000 entry and profile reads
// and a commit, a few milliseconds).
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
	for id, v := range x.votes {
		if v == voteUnknown && x.live.Contains(uint32(id)) {
			n++
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
	type pending struct {
		id  uint32
		pid int64
	}
	var batch []pending
	for next := uint32(0); ; {
		if e.stopping.Load() {
			return st, fmt.Errorf("upgrade contact entries: %w", ErrClosed)
		}
		if err := ctx.Err(); err != nil {
			return st, fmt.Errorf("upgrade contact entries: %w", err)
		}
		// The next batch of unknown votes, scanning at most 64 batches'
		// worth of ids under the read lock at a time.
		batch = batch[:0]
		x.mu.RLock()
		n := uint32(len(x.votes))
		for end := min(n, next+uint32(64*contactUpgradeBatch)); next < end && len(batch) < contactUpgradeBatch; next++ {
			if x.votes[next] == voteUnknown && x.live.Contains(next) {
				batch = append(batch, pending{id: next, pid: x.persona[next]})
			}
		}
		x.mu.RUnlock()
		if len(batch) > 0 {
			pids := make([]int64, len(batch))
			ids := make([]uint32, len(batch))
			for i, p := range batch {
				ids[i], pids[i] = p.id, p.pid
			}
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
	errs := make([]error, len(ids))
	readEach(len(ids), 64, func(i int) bool {
		if !still[i] {
			return true
		}
		en, err := e.storedEntry(pids[i])
		switch {
		case err != nil:
			errs[i] = err
			return false
		case en == nil:
			return true // gone
		}
		entries[i] = en
		if en.vote != voteUnknown {
			outcome[i] = current
			return true
		}
		// A profile missing or undecodable (GetContacts fails on it too)
		// leaves the entry as it is.
		c, err := e.contactProfile(pids[i])
		if err != nil || textfold.Words(c.Name) != en.name {
			outcome[i] = stale
			return true
		}
		en.setNameVote(c.Name)
		outcome[i] = upgraded
		return true
	})
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
		if err := e.commitOwn(b, e.writeOpts); err != nil {
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
