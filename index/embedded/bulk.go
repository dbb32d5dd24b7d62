package embedded

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/cockroachdb/pebble"
	"github.com/cockroachdb/pebble/sstable"
)

// A bulk load into an empty index bypasses the memtable: upserts collect in
// a run buffer, and a full run is sorted by domain.
//
// Runs are first held in memory (off the Go heap, up to holdBytes). When
// the load ends (drain) the held runs are merged, newest winning, and
// written once as sorted, compressed sstables, one sequence per key
// partition, which one Ingest adds straight to the bottom level: each byte
// is written once, and FinishLoad has nothing to compact. Writing runs to
// level 0 and compacting them all at the end cost a sixth of a 1M-company
// load's CPU (two writes of every byte, one uncompressed, plus the merge).
//
// A load larger than holdBytes spills: the held runs and every later run
// are written as level-0 sstables, one per key partition, each run ingested
// atomically in write order (a crash keeps a prefix of them). All runs
// share the partitions chosen from the first run's domains, so level 0
// holds files that never straddle a partition boundary, and FinishLoad
// compacts the partitions independently, in parallel, straight into the
// bottom level. Held runs are lost by a crash; rerunning the idempotent
// load restores them.
//
// Until its run is ingested, an upsert is visible to GetCompanies, search
// hits and later upserts (which read the buffers), but not to phrase
// filters, which read the store; Refresh ingests the buffers.

const (
	runPartitions = 4 // key partitions per prefix
	bulkTmpDir    = "bulk-tmp"
)

// runBytes is a run's size before it is sorted (a variable for tests).
var runBytes = 64 << 20

// holdBytes bounds the runs held in memory: a quarter of the machine's (or
// the cgroup's) memory, at most 4 GiB (1M demo companies take 3.5 GiB); 1 GiB where the
// memory size is unknown. A variable for tests.
var holdBytes = func() int64 {
	total := physicalMemory()
	if total <= 0 {
		return 1 << 30
	}
	return min(total/4, 4<<30)
}()

// bulkLoader holds the runs of a bulk load. Its methods other than get are
// called with the engine's writeMu held.
type bulkLoader struct {
	db           *pebble.DB
	dir          string // where sstables are written before their ingestion
	wopts, final sstable.WriterOptions
	finalSize    int64 // target size of a final sstable

	mu       sync.RWMutex // guards cur, inflight and held for readers
	cur      *run
	inflight *run          // being written and ingested
	held     []heldRun     // sorted runs not written yet, oldest first
	spare    *run          // an ingested run, for reuse
	done     chan struct{} // closed when inflight is ingested
	err      error         // the first failed ingestion; set before done closes

	heldBytes int64
	// spilled: runs go to level 0 as they fill (the load outgrew
	// holdBytes, or the buffers were drained before): FinishLoad compacts.
	spilled bool

	bounds []string // partition boundaries: a domain + "\x00"; set by the first run
	seq    int
}

// heldRun is a run whose records are sorted by domain.
type heldRun struct {
	r    *run
	recs []keyedRec
}

// keyedRec is a run record with its domain: the sorted runs are merged
// and written without a map lookup per key.
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
	if err := os.MkdirAll(tmp, 0o755); err != nil {
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
// from the buffers; ok is false when the store must answer.
func (b *bulkLoader) get(domain string, profile bool) (v []byte, ok bool) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	look := func(r *run) bool {
		if r == nil {
			return false
		}
		rec, found := r.index[domain]
		if !found {
			return false
		}
		if profile {
			v = slices.Clone(r.arena[rec.p:rec.pEnd])
		} else {
			v = slices.Clone(r.arena[rec.x:rec.xEnd])
		}
		return true
	}
	if look(b.cur) || look(b.inflight) {
		return v, true
	}
	for i := len(b.held) - 1; i >= 0; i-- {
		if look(b.held[i].r) {
			return v, true
		}
	}
	return nil, false
}

// wait waits for the run being ingested, if any, and returns the first
// ingestion error.
func (b *bulkLoader) wait() error {
	if b.done != nil {
		<-b.done
		b.done = nil
	}
	return b.err
}

// rotate sorts the current run and opens a new one. The sorted run is
// held in memory while it fits in holdBytes; otherwise the held runs are
// written to level 0 and so, from then on, is every run: rotate starts
// writing it and first waits for the previous one, so at most two runs
// are in memory.
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
	if !b.spilled && b.heldBytes+int64(len(r.arena)) <= holdBytes {
		b.mu.Lock()
		b.held = append(b.held, heldRun{r, recs})
		b.cur = newRun()
		b.mu.Unlock()
		b.heldBytes += int64(len(r.arena))
		return nil
	}
	if !b.spilled {
		// Too large to hold: the held runs go to level 0 first, in
		// order, so later runs override them.
		b.spilled = true
		for len(b.held) > 0 {
			h := b.held[0]
			b.seq++
			if err := b.ingest(h.r, h.recs, b.seq); err != nil {
				return err
			}
			b.mu.Lock()
			b.held = b.held[1:]
			b.mu.Unlock()
			h.r.release()
		}
		b.held, b.heldBytes = nil, 0
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
	seq := b.seq
	go func() {
		err := b.ingest(r, recs, seq)
		b.mu.Lock()
		b.inflight = nil
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

// drain writes every buffered upsert to the store. Held runs are merged
// and written to the bottom level; later upserts then go through level 0
// (they may overlap what was just written).
func (b *bulkLoader) drain() error {
	if err := b.rotate(); err != nil {
		return err
	}
	if err := b.wait(); err != nil {
		return err
	}
	if len(b.held) == 0 {
		return nil
	}
	b.seq++
	if err := b.writeHeld(b.seq); err != nil {
		return err
	}
	b.mu.Lock()
	held := b.held
	b.held, b.heldBytes, b.spilled = nil, 0, true
	b.mu.Unlock()
	for _, h := range held {
		h.r.release()
	}
	return nil
}

// writeHeld merges the held runs (for a domain in several, the newest
// wins) into sorted sstables of at most finalSize bytes, one sequence per
// prefix and key partition, written by two goroutines, and ingests them
// all in one step. They overlap nothing in the store, so Pebble puts them
// in the bottom level.
func (b *bulkLoader) writeHeld(seq int) error {
	type task struct {
		prefix string
		part   int
	}
	var tasks []task
	for _, prefix := range []string{prefixProfile, prefixEntry} {
		for part := 0; part <= len(b.bounds); part++ {
			tasks = append(tasks, task{prefix, part})
		}
	}
	paths := make([][]string, len(tasks))
	errs := make([]error, len(tasks))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(tasks) {
					return
				}
				t := tasks[i]
				paths[i], errs[i] = b.writePartition(t.prefix, t.part, seq)
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
	if len(all) == 0 {
		return nil
	}
	if err := b.db.Ingest(all); err != nil {
		return fmt.Errorf("ingest load: %w", err)
	}
	return nil
}

// writePartition writes the merged keys of one prefix and partition.
func (b *bulkLoader) writePartition(prefix string, part, seq int) (paths []string, err error) {
	lo, hi := "", ""
	if part > 0 {
		lo = b.bounds[part-1]
	}
	if part < len(b.bounds) {
		hi = b.bounds[part]
	}
	// One cursor per held run over its records in [lo, hi).
	type cursor struct {
		r    *run
		recs []keyedRec
	}
	cur := make([]cursor, 0, len(b.held))
	for _, h := range b.held {
		from := searchRecs(h.recs, lo)
		to := len(h.recs)
		if hi != "" {
			to = searchRecs(h.recs, hi)
		}
		if from < to {
			cur = append(cur, cursor{h.r, h.recs[from:to]})
		}
	}
	var w *sstable.Writer
	closeFile := func() error {
		if w == nil {
			return nil
		}
		err := w.Close()
		w = nil
		return err
	}
	defer func() {
		if cerr := closeFile(); err == nil && cerr != nil {
			err = cerr
		}
		if err != nil {
			for _, p := range paths {
				os.Remove(p)
			}
			paths = nil
		}
	}()
	opts := b.final
	if prefix == prefixEntry {
		// Entries are mostly binary16 vectors, which block compression
		// cannot shrink: compressing them only costs time.
		opts.Compression = sstable.NoCompression
	}
	key := make([]byte, 0, 256)
	for len(cur) > 0 {
		// The smallest domain among the cursors; on a tie the newest run
		// (the last cursor holding it) wins and the others skip it.
		min := 0
		for i := 1; i < len(cur); i++ {
			if cur[i].recs[0].domain <= cur[min].recs[0].domain {
				min = i
			}
		}
		d, rec := cur[min].recs[0].domain, cur[min].recs[0].runRec
		v := cur[min].r.arena[rec.x:rec.xEnd]
		if prefix == prefixProfile {
			v = cur[min].r.arena[rec.p:rec.pEnd]
		}
		if w != nil && int64(w.EstimatedSize()) >= b.finalSize {
			if err := closeFile(); err != nil {
				return paths, err
			}
		}
		if w == nil {
			path := filepath.Join(b.dir, fmt.Sprintf("load-%06d-%s%d-%03d.sst", seq, prefix[:1], part, len(paths)))
			f, err := createSSTable(path)
			if err != nil {
				return paths, err
			}
			paths = append(paths, path)
			w = sstable.NewWriter(f, opts)
		}
		key = append(append(key[:0], prefix...), d...)
		if err := w.Set(key, v); err != nil {
			return paths, err
		}
		for i := 0; i < len(cur); {
			if cur[i].recs[0].domain == d {
				cur[i].recs = cur[i].recs[1:]
				if len(cur[i].recs) == 0 {
					cur = slices.Delete(cur, i, i+1)
					continue
				}
			}
			i++
		}
	}
	return paths, nil
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
			f, err := createSSTable(path)
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
	for _, h := range b.held {
		h.r.release()
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
