package embedded

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"

	"github.com/cockroachdb/pebble"
	"github.com/cockroachdb/pebble/objstorage/objstorageprovider"
	"github.com/cockroachdb/pebble/sstable"
	"github.com/cockroachdb/pebble/vfs"
)

// A bulk load into an empty index bypasses the memtable: upserts collect in
// a run buffer; a full run is sorted and written as sstables, one per key
// partition, which one Ingest adds to the store atomically (runs are
// ingested in write order, so a crash keeps a prefix of them). All runs
// share the partitions chosen from the first run's domains, so level 0
// holds files that never straddle a partition boundary, and FinishLoad
// compacts the partitions independently, in parallel, straight into the
// bottom level: each byte is written twice, once as a run and once
// compacted.
//
// Until its run is ingested, an upsert is visible to GetCompanies, search
// hits and later upserts (which read the buffers), but not to phrase
// filters, which read the store; Refresh ingests the buffer.

const (
	runPartitions = 4 // key partitions per prefix
	bulkTmpDir    = "bulk-tmp"
)

// runBytes is a run's size before it is written (a variable for tests).
var runBytes = 64 << 20

// bulkLoader holds the runs of a bulk load. Its methods other than get are
// called with the engine's writeMu held.
type bulkLoader struct {
	db    *pebble.DB
	dir   string // where run files are written before their ingestion
	wopts sstable.WriterOptions

	mu       sync.RWMutex // guards cur and inflight for readers
	cur      *run
	inflight *run          // being written and ingested
	spare    *run          // an ingested run, for reuse
	done     chan struct{} // closed when inflight is ingested
	err      error         // the first failed ingestion; set before done closes

	bounds []string // partition boundaries: a domain + "\x00"; set by the first run
	seq    int
}

// run is a buffer of upserts: keys and values in one arena.
type run struct {
	arena []byte
	index map[string]runRec // domain -> its latest entry and profile
}

type runRec struct{ x, xEnd, p, pEnd int }

func newRun() *run {
	return &run{arena: make([]byte, 0, runBytes+runBytes/16), index: map[string]runRec{}}
}

func newBulkLoader(db *pebble.DB, dir string, wopts sstable.WriterOptions) (*bulkLoader, error) {
	tmp := filepath.Join(dir, bulkTmpDir)
	// Runs a crashed load left unwritten are not part of the index.
	if err := os.RemoveAll(tmp); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return nil, err
	}
	return &bulkLoader{db: db, dir: tmp, wopts: wopts, cur: newRun()}, nil
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
	for _, r := range [2]*run{b.cur, b.inflight} {
		if r == nil {
			continue
		}
		if rec, found := r.index[domain]; found {
			if profile {
				return slices.Clone(r.arena[rec.p:rec.pEnd]), true
			}
			return slices.Clone(r.arena[rec.x:rec.xEnd]), true
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

// rotate starts writing the current run and opens a new one; it first waits
// for the previous run, so at most two runs are in memory.
func (b *bulkLoader) rotate() error {
	if err := b.wait(); err != nil {
		return err
	}
	if len(b.cur.index) == 0 {
		return nil
	}
	r := b.cur
	domains := make([]string, 0, len(r.index))
	for d := range r.index {
		domains = append(domains, d)
	}
	slices.Sort(domains)
	if b.bounds == nil {
		for i := 1; i < runPartitions && len(domains) >= 16*runPartitions; i++ {
			b.bounds = append(b.bounds, domains[i*len(domains)/runPartitions]+"\x00")
		}
		b.bounds = slices.Compact(b.bounds)
		if b.bounds == nil {
			b.bounds = []string{}
		}
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
		err := b.ingest(r, domains, seq)
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

// drain writes every buffered upsert to the store.
func (b *bulkLoader) drain() error {
	if err := b.rotate(); err != nil {
		return err
	}
	return b.wait()
}

// ingest writes run r (whose domains are sorted) as one sstable per
// partition and prefix and ingests them in one step.
func (b *bulkLoader) ingest(r *run, domains []string, seq int) (err error) {
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
		cuts = append(cuts, sort.SearchStrings(domains, bd))
	}
	cuts = append(cuts, len(domains))
	key := make([]byte, 0, 256)
	for _, prefix := range []string{prefixProfile, prefixEntry} {
		for part := 0; part+1 < len(cuts); part++ {
			ds := domains[cuts[part]:cuts[part+1]]
			if len(ds) == 0 {
				continue
			}
			path := filepath.Join(b.dir, fmt.Sprintf("run-%06d-%s%d.sst", seq, prefix[:1], part))
			f, err := vfs.Default.Create(path)
			if err != nil {
				return fmt.Errorf("write run: %w", err)
			}
			paths = append(paths, path)
			w := sstable.NewWriter(objstorageprovider.NewFileWritable(f), b.wopts)
			for _, d := range ds {
				rec := r.index[d]
				key = append(append(key[:0], prefix...), d...)
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

// close removes the directory of run files.
func (b *bulkLoader) close() error {
	err := b.wait()
	return errors.Join(err, os.RemoveAll(b.dir))
}
