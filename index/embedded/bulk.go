package embedded

import (
	"container/heap"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/cockroachdb/pebble"
	"github.com/cockroachdb/pebble/objstorage"
	"github.com/cockroachdb/pebble/sstable"

	"github.com/openprospect/prospectd/internal/privatefs"
)

// A bulk load into an empty index bypasses the memtable: upserts collect in
// a run buffer, and a full run is sorted by domain.
//
// Sorted runs are spooled to files (see spool.go), up to holdBytes. When
// the load ends (drain) the spooled runs are merged, newest winning, and
// written once as sorted sstables, a sequence per prefix and key
// partition, which one Ingest adds straight to the bottom level: each byte
// is written once, and FinishLoad has nothing to compact. Writing runs to
// level 0 and compacting them all at the end cost a sixth of a 1M-company
// load's CPU (two writes of every byte, one uncompressed, plus the merge).
//
// A load larger than holdBytes spills: the spooled runs are merged into
// the store then, and every later run is written as level-0 sstables, one
// per key partition, each run ingested atomically in write order (a crash
// keeps a prefix of them). All runs share the partitions chosen from the
// first run's domains, so level 0 holds files that never straddle a
// partition boundary, and FinishLoad compacts the partitions
// independently, in parallel, straight into the bottom level. Spooled
// runs are dropped after a crash; rerunning the idempotent load restores
// them.
//
// Until its run is ingested, an upsert is visible to GetCompanies, search
// hits and later upserts (which read the buffers and spool files), but not
// to phrase filters, which read the store; Refresh ingests the buffers.

const (
	runPartitions = 4 // key partitions per prefix
	bulkTmpDir    = "bulk-tmp"
)

// runBytes is a run's size before it is sorted (a variable for tests).
var runBytes = 64 << 20

// holdBytes bounds the spooled runs merged at the end of a load: a quarter
// of the machine's (or the cgroup's) memory, at most 4 GiB (1M demo
// companies take 3.3 GiB); 1 GiB where the memory size is unknown. Runs
// are on disk, but the merge reads all of them at once, a buffer each. A
// variable for tests.
var holdBytes = func() int64 {
	total := PhysicalMemory()
	if total <= 0 {
		return 1 << 30
	}
	return min(total/4, 4<<30)
}()

// mergeBufBytes is the read buffer memory of one partition's merge, shared
// by the spooled runs.
const mergeBufBytes = 32 << 20

// bulkLoader holds the runs of a bulk load. Its methods other than get are
// called with the engine's writeMu held.
type bulkLoader struct {
	db           *pebble.DB
	dir          string // where sstables and spool files are written
	wopts, final sstable.WriterOptions
	finalSize    int64 // target size of a final sstable

	mu       sync.RWMutex // guards cur, inflight and held for readers
	cur      *run
	inflight *run          // being spooled, or written and ingested
	held     []*spooledRun // spooled runs not merged yet, oldest first
	spare    *run          // a written run, for reuse
	done     chan struct{} // closed when inflight is written
	err      error         // the first failed write; set before done closes

	heldBytes int64
	// spilled: runs go to level 0 as they fill (the load outgrew
	// holdBytes, or the buffers were drained before): FinishLoad compacts.
	spilled bool

	bounds []string // partition boundaries: a domain + "\x00"; set by the first run
	seq    int
}

// keyedRec is a run record with its domain: sorted runs are written
// without a map lookup per key.
type keyedRec struct {
	domain string
	runRec
}

// searchRecs returns the index of the first record whose domain is at
// least d.
func searchRecs(recs []keyedRec, d string) int {
	i, _ := slices.BinarySearchFunc(recs, d, func(r keyedRec, d string) int { return strings.Compare(r.domain, d) })
	return i
}

// run is a buffer of upserts: keys and values in one arena.
type run struct {
	arena []byte
	index map[string]runRec // domain -> its latest entry and profile
	free  func()            // releases the arena's memory
}

type runRec struct{ x, xEnd, p, pEnd int }

func newRun() *run {
	arena, free := allocArena(runBytes + runBytes/16)
	return &run{arena: arena[:0], index: map[string]runRec{}, free: free}
}

func (r *run) release() {
	r.free()
	r.arena, r.index = nil, nil
}

func newBulkLoader(db *pebble.DB, dir string, wopts, final sstable.WriterOptions, finalSize int64) (*bulkLoader, error) {
	tmp := filepath.Join(dir, bulkTmpDir)
	// Runs a crashed load left unwritten are not part of the index.
	if err := os.RemoveAll(tmp); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(tmp, privatefs.DirMode); err != nil {
		return nil, err
	}
	return &bulkLoader{db: db, dir: tmp, wopts: wopts, final: final, finalSize: finalSize, cur: newRun()}, nil
}

// add buffers the entry and profile of a domain.
func (b *bulkLoader) add(domain string, x, profile []byte) {
	b.mu.Lock()
	r := b.cur
	var rec runRec
	rec.x = len(r.arena)
	r.arena = append(r.arena, x...)
	rec.xEnd = len(r.arena)
	rec.p = len(r.arena)
	r.arena = append(r.arena, profile...)
	rec.pEnd = len(r.arena)
	r.index[domain] = rec
	b.mu.Unlock()
}

// full reports whether the current run should be written.
func (b *bulkLoader) full() bool { return len(b.cur.arena) >= runBytes }

// get returns a copy of the entry (profile false) or profile of a domain
// from the buffers and spool files; ok is false when the store must
// answer.
func (b *bulkLoader) get(domain string, profile bool) (v []byte, ok bool, err error) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	for _, r := range []*run{b.cur, b.inflight} {
		if r == nil {
			continue
		}
		if rec, found := r.index[domain]; found {
			if profile {
				return slices.Clone(r.arena[rec.p:rec.pEnd]), true, nil
			}
			return slices.Clone(r.arena[rec.x:rec.xEnd]), true, nil
		}
	}
	for i := len(b.held) - 1; i >= 0; i-- {
		if v, ok, err := b.held[i].read(domain, profile); ok || err != nil {
			return v, ok, err
		}
	}
	return nil, false, nil
}

// wait waits for the run being written, if any, and returns the first
// write error.
func (b *bulkLoader) wait() error {
	if b.done != nil {
		<-b.done
		b.done = nil
	}
	return b.err
}

// rotate sorts the current run, starts writing it (to a spool file, or to
// level 0 once the load has spilled) and opens a new one. It first waits
// for the previous run's write, so at most two runs are in memory. When
// the spooled runs would outgrow holdBytes, they are merged into the store
// first and the load spills.
func (b *bulkLoader) rotate() error {
	if err := b.wait(); err != nil {
		return err
	}
	if len(b.cur.index) == 0 {
		return nil
	}
	r := b.cur
	recs := make([]keyedRec, 0, len(r.index))
	for d, rec := range r.index {
		recs = append(recs, keyedRec{d, rec})
	}
	slices.SortFunc(recs, func(a, b keyedRec) int { return strings.Compare(a.domain, b.domain) })
	if b.bounds == nil {
		for i := 1; i < runPartitions && len(recs) >= 16*runPartitions; i++ {
			b.bounds = append(b.bounds, recs[i*len(recs)/runPartitions].domain+"\x00")
		}
		b.bounds = slices.Compact(b.bounds)
		if b.bounds == nil {
			b.bounds = []string{}
		}
	}
	if !b.spilled && b.heldBytes+int64(len(r.arena)) > holdBytes {
		// Too large to merge at the end: what is spooled goes into the
		// store now (the bottom level), and later runs override it from
		// level 0.
		b.seq++
		if err := b.mergeHeld(b.seq); err != nil {
			return err
		}
		b.spilled = true
	}
	if !b.spilled {
		b.heldBytes += int64(len(r.arena))
	}
	next := b.spare
	if next == nil {
		next = newRun()
	}
	b.mu.Lock()
	b.inflight, b.cur, b.spare = r, next, nil
	b.mu.Unlock()
	done := make(chan struct{})
	b.done = done
	b.seq++
	seq, spilled := b.seq, b.spilled
	go func() {
		var sp *spooledRun
		var err error
		if spilled {
			err = b.ingest(r, recs, seq)
		} else {
			sp, err = b.spool(r, recs, seq)
		}
		b.mu.Lock()
		b.inflight = nil
		if sp != nil {
			b.held = append(b.held, sp)
		}
		if err != nil && b.err == nil {
			b.err = err
		}
		b.mu.Unlock()
		r.arena = r.arena[:0]
		clear(r.index)
		b.spare = r // read by rotate only after done is closed
		close(done)
	}()
	return nil
}

// drain writes every buffered upsert to the store. Spooled runs are merged
// and written to the bottom level; later upserts then go through level 0
// (they may overlap what was just written).
func (b *bulkLoader) drain() error {
	if err := b.rotate(); err != nil {
		return err
	}
	if err := b.wait(); err != nil {
		return err
	}
	if len(b.held) > 0 {
		b.seq++
		if err := b.mergeHeld(b.seq); err != nil {
			return err
		}
	}
	b.spilled = true
	return nil
}

// mergeHeld merges the spooled runs (for a domain in several, the newest
// wins) into sorted sstables of at most finalSize bytes, a sequence per
// prefix and key partition, every partition on its own goroutine (a merge
// waits for its reads and writes about a third of the time), ingests them
// all in one step and removes the spool files. They overlap nothing in
// the store, so Pebble puts them in the bottom level.
func (b *bulkLoader) mergeHeld(seq int) error {
	parts := len(b.bounds) + 1
	paths := make([][]string, parts)
	errs := make([]error, parts)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= parts {
					return
				}
				paths[i], errs[i] = b.mergePartition(i, seq)
			}
		}()
	}
	wg.Wait()
	all := slices.Concat(paths...)
	if err := errors.Join(errs...); err != nil {
		for _, p := range all {
			os.Remove(p)
		}
		return fmt.Errorf("write load: %w", err)
	}
	if len(all) > 0 {
		if err := b.db.Ingest(all); err != nil {
			for _, p := range all {
				os.Remove(p)
			}
			return fmt.Errorf("ingest load: %w", err)
		}
	}
	b.mu.Lock()
	held := b.held
	b.held, b.heldBytes = nil, 0
	b.mu.Unlock()
	// The runs are in the store now: a spool file that cannot be removed
	// only takes disk space until close removes the directory.
	for _, sp := range held {
		_ = sp.remove()
	}
	return nil
}

// mergePartition writes the merged records of one key partition as two
// sstable sequences, profiles and entries.
func (b *bulkLoader) mergePartition(part, seq int) (paths []string, err error) {
	m := make(spoolMerge, 0, len(b.held))
	defer func() {
		for _, c := range m {
			c.close()
		}
	}()
	bufSize := min(max(mergeBufBytes/max(len(b.held), 1), 256<<10), 4<<20)
	for age, sp := range b.held {
		s, err := openSpool(sp, part, bufSize)
		if err != nil {
			return nil, err
		}
		ok, err := s.next()
		if err != nil || !ok {
			s.close()
			if err != nil {
				return nil, err
			}
			continue
		}
		m = append(m, spoolCursor{s, age})
	}
	heap.Init(&m)

	profiles := b.newSeqWriter(fmt.Sprintf("load-%06d-p%d", seq, part), b.final, true)
	// Entries are mostly binary16 vectors, which block compression cannot
	// shrink: compressing them only costs time.
	eopts := b.final
	eopts.Compression = sstable.NoCompression
	// Entries go through the page cache: they are what the next open
	// reads, all of them (0.75 GB at 1M), and the first serve after a
	// load then finds them there instead of reading them from disk.
	entries := b.newSeqWriter(fmt.Sprintf("load-%06d-x%d", seq, part), eopts, false)
	defer func() {
		err = errors.Join(err, profiles.close(), entries.close())
		paths = append(profiles.paths, entries.paths...)
		if err != nil {
			for _, p := range paths {
				os.Remove(p)
			}
			paths = nil
		}
	}()
	last, first := "", true
	for len(m) > 0 {
		c := &m[0]
		if d := c.domain; first || d != last {
			// The first of a domain is the newest run's; the others skip.
			if err := profiles.set(prefixProfile, d, c.profile); err != nil {
				return nil, err
			}
			if err := entries.set(prefixEntry, d, c.x); err != nil {
				return nil, err
			}
			last, first = d, false
		}
		ok, err := c.next()
		if err != nil {
			return nil, err
		}
		if ok {
			heap.Fix(&m, 0)
		} else {
			c.close()
			heap.Pop(&m)
		}
	}
	return nil, nil
}

// seqWriter writes sorted keys to a sequence of sstables of at most
// finalSize bytes.
type seqWriter struct {
	b      *bulkLoader
	name   string
	opts   sstable.WriterOptions
	direct bool // write with direct I/O (see direct_linux.go)
	w      *sstable.Writer
	paths  []string
	key    []byte
}

func (b *bulkLoader) newSeqWriter(name string, opts sstable.WriterOptions, direct bool) *seqWriter {
	return &seqWriter{b: b, name: name, opts: opts, direct: direct}
}

func (s *seqWriter) set(prefix, domain string, v []byte) error {
	if s.w != nil && int64(s.w.EstimatedSize()) >= s.b.finalSize {
		if err := s.close(); err != nil {
			return err
		}
	}
	if s.w == nil {
		path := filepath.Join(s.b.dir, fmt.Sprintf("%s-%03d.sst", s.name, len(s.paths)))
		create := createBuffered
		if s.direct {
			create = func(path string) (objstorage.Writable, error) { return createDirect(path, true) }
		}
		f, err := create(path)
		if err != nil {
			return err
		}
		s.paths = append(s.paths, path)
		s.w = sstable.NewWriter(f, s.opts)
	}
	s.key = append(append(s.key[:0], prefix...), domain...)
	return s.w.Set(s.key, v)
}

func (s *seqWriter) close() error {
	if s.w == nil {
		return nil
	}
	err := s.w.Close()
	s.w = nil
	return err
}

// ingest writes run r (recs: its records, sorted) as one sstable per
// partition and prefix and ingests them in one step.
func (b *bulkLoader) ingest(r *run, recs []keyedRec, seq int) (err error) {
	var paths []string
	defer func() {
		if err != nil {
			for _, p := range paths {
				os.Remove(p)
			}
		}
	}()
	cuts := make([]int, 0, len(b.bounds)+2)
	cuts = append(cuts, 0)
	for _, bd := range b.bounds {
		cuts = append(cuts, searchRecs(recs, bd))
	}
	cuts = append(cuts, len(recs))
	key := make([]byte, 0, 256)
	for _, prefix := range []string{prefixProfile, prefixEntry} {
		for part := 0; part+1 < len(cuts); part++ {
			rs := recs[cuts[part]:cuts[part+1]]
			if len(rs) == 0 {
				continue
			}
			path := filepath.Join(b.dir, fmt.Sprintf("run-%06d-%s%d.sst", seq, prefix[:1], part))
			f, err := createDirect(path, true)
			if err != nil {
				return fmt.Errorf("write run: %w", err)
			}
			paths = append(paths, path)
			w := sstable.NewWriter(f, b.wopts)
			for _, rec := range rs {
				key = append(append(key[:0], prefix...), rec.domain...)
				v := r.arena[rec.x:rec.xEnd]
				if prefix == prefixProfile {
					v = r.arena[rec.p:rec.pEnd]
				}
				if err := w.Set(key, v); err != nil {
					w.Close()
					return fmt.Errorf("write run: %w", err)
				}
			}
			if err := w.Close(); err != nil {
				return fmt.Errorf("write run: %w", err)
			}
		}
	}
	if len(paths) == 0 {
		return nil
	}
	if err := b.db.Ingest(paths); err != nil {
		return fmt.Errorf("ingest run: %w", err)
	}
	return nil
}

// partitions returns the key ranges FinishLoad compacts one by one: the
// partitions of both prefixes, then the rest of the key space.
func (b *bulkLoader) partitions() [][2][]byte {
	var out [][2][]byte
	for _, prefix := range []string{prefixProfile, prefixEntry} {
		lo := []byte(prefix)
		for _, bd := range b.bounds {
			hi := []byte(prefix + bd)
			out = append(out, [2][]byte{lo, hi})
			lo = hi
		}
		// prefix + "\xff" sorts after every key of the prefix.
		out = append(out, [2][]byte{lo, []byte(prefix + "\xff")})
	}
	return out
}

// close releases the buffers and removes the directory of run files.
func (b *bulkLoader) close() error {
	err := b.wait()
	b.mu.Lock()
	for _, sp := range b.held {
		sp.f.Close()
	}
	b.held = nil
	for _, r := range []*run{b.cur, b.spare} {
		if r != nil {
			r.release()
		}
	}
	b.cur, b.spare = nil, nil
	b.mu.Unlock()
	return errors.Join(err, os.RemoveAll(b.dir))
}
