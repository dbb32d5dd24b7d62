// Package embedded is the default index.Engine: an in-process index that
// needs no external service. Profiles and index entries are persisted in a
// Pebble key-value store inside the data directory; filters are answered
// from in-memory roaring bitmaps and columns rebuilt from the persisted
// entries at open; vectors are resident as int8 with a per-vector scale
// (quant.go); vector search scans small candidate sets exactly, middling
// ones through sign-sketch passes with int8 rescoring (scan.go) and, when
// enabled, broad ones through an IVF index (ann.go); the best candidates
// are rescored with the full-precision vectors kept on disk (rescore.go).
package embedded

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/cockroachdb/pebble"
	"github.com/cockroachdb/pebble/bloom"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/internal/privatefs"
	"github.com/openprospect/prospectd/record"
)

var _ index.Engine = (*Engine)(nil)

// Key layout in Pebble. Entries (x/) are what Open scans; profiles (p/) are
// read only for hits and phrase checks.
const (
	prefixEntry   = "x/"
	prefixProfile = "p/"
	keyMeta       = "m/meta"
	keyModel      = "m/model"
)

// chunkDocs is the number of vectors per allocation chunk: growing the index
// never copies the vectors already stored.
const chunkDocs = 1 << 16

// Options tune an embedded engine.
type Options struct {
	// CacheBytes is Pebble's block cache size; 0 means 64 MiB.
	CacheBytes int64
	// BulkLoad tunes the engine for a loading command (`ingest`, `demo`),
	// not for a serving index. Upserts skip the fsync of the write-ahead
	// log: a crash of the machine (not of the process) can lose the last
	// batches, which a rerun of the idempotent load restores. Into an empty
	// (or nearly empty) index, upserts bypass the memtable and the log
	// altogether: they are buffered in sorted runs, spooled to files and
	// merged once into the bottom level at the end, or, for a load too
	// large to merge at once, ingested run by run and compacted by FinishLoad
	// (bulk.go); a crash keeps only the runs ingested so far. Close syncs
	// everything.
	BulkLoad bool
	// LoadOnly marks an engine opened by a loading command that closes it
	// when the load ends: upserts write the store but not the in-memory
	// index (slots, vectors, postings), which nothing would read — at 1M
	// companies that index was a tenth of the load's CPU and a gigabyte
	// of memory. Profiles read through GetCompanies are current; searches,
	// counts, Len and deletes see the index as it was when it was opened.
	LoadOnly bool
	// ANN builds, keeps and saves the IVF index for broad vector queries
	// (ann.go) and lets the planner use it. `prospectd serve` sets it
	// (unless --ann=false); the loading commands, which close the engine
	// when done, leave it off (docs/decisions.md "ANN recall for mixtures
	// (issue 24)").
	ANN bool
	// NoRenumber keeps Close from renumbering the company slots into ANN
	// list order (renumber.go): for hosts that stop the process sooner
	// than that Close takes (about a minute at 10M companies).
	NoRenumber bool
	// OpenFiles is how many sstables Pebble keeps open (its table cache);
	// 0 means openFiles(): half the process's file limit, between Pebble's
	// default of 1,000 and 65,536.
	OpenFiles int
}

// openFiles is the table cache size an engine takes by default. A point
// read in a table not open opens it (the file, its footer, metaindex and
// properties): at 10M companies the store held 5,890 sstables, Pebble's
// default kept 1,000 open, and those opens were ~40% of the CPU of reading
// a page's profiles (docs/benchmarks.md, "The HTTP ratio: what is not the
// engine"). Half the file limit leaves the other half to sockets and the
// rest of the process.
func openFiles() int {
	return min(max(fileLimit()/2, 1000), 1<<16)
}

// loadCacheBytes is the block cache Open's scan of the entries may fill.
const loadCacheBytes = 4 << 20

// freshLoadBytes is the store size below which a bulk load defers all
// compaction to FinishLoad: merging so little existing data again costs
// nothing.
const freshLoadBytes = 64 << 20

// storeBytes is the size of the sstables in dir.
func storeBytes(dir string) int64 {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	var n int64
	for _, de := range ents {
		if !strings.HasSuffix(de.Name(), ".sst") {
			continue
		}
		if fi, err := de.Info(); err == nil {
			n += fi.Size()
		}
	}
	return n
}

// Engine is the embedded index. It is safe for concurrent use; writes are
// serialized.
type Engine struct {
	dir string
	db  *pebble.DB

	writeMu sync.Mutex // serializes writers (Pebble batch + in-memory apply)
	closed  bool       // guarded by writeMu
	// generation counts completed company writes (see Generation).
	generation atomic.Uint64
	// refit is the refit under way (refit.go), guarded by writeMu.
	refit *refitState
	// bulk buffers the upserts of a bulk load into an empty index (bulk.go);
	// dirty: it has written since the last FinishLoad (guarded by writeMu).
	bulk  *bulkLoader
	dirty bool
	// loadOnly: see Options.LoadOnly; noRenumber: Options.NoRenumber.
	loadOnly, noRenumber bool

	writeOpts *pebble.WriteOptions

	mu      sync.RWMutex // guards everything below
	meta    *index.Meta
	dim     int
	domains *domainTable // domain <-> slot (domains.go)
	free    []uint32
	chunks  [][]int8   // int8 vectors, chunkDocs a chunk (quant.go)
	scales  []float32  // the scale of each vector
	signs   [][]uint64 // sign sketches, chunkDocs a chunk (vecstore.go)
	// signSpare holds chunks of sketches allocated ahead for place
	// (signChunk).
	signSpare [][]uint64
	scores    []int16
	starts    []int32
	live      *roaring.Bitmap
	post      [numKeyword]keywordPostings // postings.go
	exists    map[uint8]*roaring.Bitmap

	// rangeCache holds range filters evaluated over every live document,
	// keyed by field and bounds; writes clear it (under mu), searches fill
	// it (under rangeMu, since many run at once under mu's read lock).
	rangeMu    sync.Mutex
	rangeCache map[string]*roaring.Bitmap
	// signCopies holds the sketches of kept candidate sets in one array
	// each (filtercache.go), signCopyUsed their bytes; guarded like
	// rangeCache, dropped with it.
	signCopies   map[*roaring.Bitmap]*signCopy
	signCopyUsed int

	// ann is the IVF index for broad vector queries (ann.go).
	ann annState
	// flat is the full-precision vector file of the final pass
	// (flatfile.go); nil when there is none. Slot writes under mu, header
	// changes under writeMu too.
	flat *flatVectors
	// snap is the resident snapshot written at Close and read at Open
	// (snapshot.go), guarded by writeMu.
	snap snapState

	// The contact index (contacts.go) loads on first use or LoadContacts.
	contactsOnce sync.Once
	contacts     *contactIndex
	contactsErr  error
	// reads counts the store reads that run outside the engine's locks
	// (the contact index load, minutes at 15M contacts, in the
	// background of `serve`); Close stops them (stopping) and waits for
	// them before closing the store, which they would otherwise read
	// after it closed.
	readsMu  sync.Mutex
	stopping atomic.Bool // guarded by readsMu for writes
	reads    sync.WaitGroup
}

// ErrClosed is returned by a contact index load that Close stopped or that
// started after it.
var ErrClosed = errors.New("embedded index: closed")

// beginRead registers a long store read, false once Close has begun.
func (e *Engine) beginRead() bool {
	e.readsMu.Lock()
	defer e.readsMu.Unlock()
	if e.stopping.Load() {
		return false
	}
	e.reads.Add(1)
	return true
}

// stopReads makes long store reads stop and waits for them.
func (e *Engine) stopReads() {
	e.readsMu.Lock()
	e.stopping.Store(true)
	e.readsMu.Unlock()
	e.reads.Wait()
}

// Open opens (creating if needed) the index stored in dir. It fails with an
// error wrapping index.ErrLocked when another process holds dir.
func Open(dir string, opt Options) (*Engine, error) {
	// The index holds every company and contact: owner only (0700/0600).
	if err := privatefs.MkdirAll(dir); err != nil {
		return nil, fmt.Errorf("create index dir %s: %w", dir, err)
	}
	if err := privatefs.Restrict(dir); err != nil {
		return nil, fmt.Errorf("index dir %s: %w", dir, err)
	}
	cache := opt.CacheBytes
	if cache <= 0 {
		cache = 64 << 20
	}
	c := pebble.NewCache(cache)
	defer c.Unref()
	po := &pebble.Options{
		Cache:                       c,
		MemTableSize:                64 << 20,
		MaxConcurrentCompactions:    func() int { return 2 },
		L0CompactionThreshold:       4,
		L0StopWritesThreshold:       64,
		LBaseMaxBytes:               256 << 20,
		DisableAutomaticCompactions: false,
		Logger:                      quietLogger{},
		FS:                          indexFS,
		MaxOpenFiles:                opt.OpenFiles,
	}
	if po.MaxOpenFiles <= 0 {
		po.MaxOpenFiles = openFiles()
	}
	// Level 0 is rewritten soon after it is written: compressing it would
	// cost more than the bytes it saves. Its bloom filters keep point reads
	// cheap however many level-0 files a bulk load leaves.
	po.Levels = make([]pebble.LevelOptions, 7)
	po.Levels[0].Compression = pebble.NoCompression
	po.Levels[0].FilterPolicy = bloom.FilterPolicy(10)
	for i := 1; i < len(po.Levels); i++ {
		po.Levels[i].Compression = pebble.SnappyCompression
		po.Levels[i].TargetFileSize = 2 << 20 << i
	}
	// Compress and write sstable blocks on other goroutines than the one
	// building them, so a lone compaction (FinishLoad's) uses both cores.
	po.Experimental.MaxWriterConcurrency = 2
	po.Experimental.ForceWriterParallelism = true
	po.EnsureDefaults()
	fresh := false
	if opt.BulkLoad {
		if storeBytes(dir) < freshLoadBytes {
			fresh = true
			po.DisableAutomaticCompactions = true
			po.L0CompactionThreshold = math.MaxInt32
			po.L0StopWritesThreshold = math.MaxInt32
			// Keep the bottom level the base level however large level 0
			// grows, so FinishLoad's compactions go straight to it.
			po.LBaseMaxBytes = 1 << 50
		}
	}
	db, err := pebble.Open(dir, po)
	if err != nil {
		if errors.Is(err, syscall.EAGAIN) || errors.Is(err, syscall.EWOULDBLOCK) || strings.Contains(err.Error(), "lock") {
			return nil, fmt.Errorf("open index %s: %w (%v)", dir, index.ErrLocked, err)
		}
		return nil, fmt.Errorf("open index %s: %w", dir, err)
	}
	e := &Engine{dir: dir, db: db, writeOpts: pebble.Sync, loadOnly: opt.LoadOnly, noRenumber: opt.NoRenumber}
	if opt.BulkLoad {
		e.writeOpts = pebble.NoSync
	}
	if fresh {
		format := db.FormatMajorVersion().MaxTableFormat()
		bottom := len(po.Levels) - 1
		wopts, final := po.MakeWriterOptions(0, format), po.MakeWriterOptions(bottom, format)
		if e.bulk, err = newBulkLoader(db, dir, wopts, final, po.Levels[bottom].TargetFileSize); err != nil {
			db.Close()
			return nil, fmt.Errorf("open index %s: %w", dir, err)
		}
	}
	e.reset()
	if err := e.dropInterruptedRefit(); err != nil {
		db.Close()
		return nil, err
	}
	// loadAll reads every entry once: through a full block cache those
	// blocks, which searches never read again, would stay resident (with
	// the C allocator's fragmentation from their churn, about 130 MB at
	// 500k companies) until searches' profile reads replace them. Reserving
	// most of the cache while it runs keeps the scan's blocks passing
	// through.
	release := c.Reserve(int(cache - min(cache, loadCacheBytes)))
	err = e.loadAll()
	release()
	if err != nil {
		db.Close()
		return nil, err
	}
	if opt.ANN && !opt.LoadOnly {
		e.loadANN()
		e.startANN()
	}
	return e, nil
}

// FinishLoad ends a bulk load. Into an empty index, it ingests the
// buffered upserts and compacts what the load wrote into the bottom level,
// key partition by key partition on both cores, so the index opens and
// serves from a compact store; otherwise it does nothing. Writes wait while
// it runs.
func (e *Engine) FinishLoad(ctx context.Context) error {
	e.writeMu.Lock()
	defer e.writeMu.Unlock()
	if e.closed || e.bulk == nil || !e.dirty {
		return nil
	}
	if err := e.bulk.drain(); err != nil {
		return err
	}
	ranges := e.bulk.partitions()
	// The rest of the key space (metadata) is tiny.
	ranges = append(ranges, [2][]byte{{0}, []byte(prefixProfile)}, [2][]byte{[]byte("p0"), []byte(prefixEntry)}, [2][]byte{[]byte("x0"), {0xff, 0xff}})
	next := make(chan [2][]byte, len(ranges))
	for _, r := range ranges {
		next <- r
	}
	close(next)
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for w := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range next {
				if err := ctx.Err(); err != nil {
					errs[w] = err
					return
				}
				if err := e.db.Compact(r[0], r[1], false); err != nil {
					errs[w] = fmt.Errorf("compact index: %w", err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	e.dirty = false
	return nil
}

func (e *Engine) reset() {
	e.domains = newDomainTable()
	e.free, e.chunks, e.scores, e.starts = nil, nil, nil, nil
	e.signs, e.signSpare, e.scales = nil, nil, nil
	e.live = roaring.New()
	for i := range e.post {
		e.post[i] = newKeywordPostings()
	}
	e.exists = map[uint8]*roaring.Bitmap{}
}

// loadAll rebuilds the in-memory index from the persisted entries. One
// goroutine reads the store while this one decodes; postings are collected
// as sorted id lists and turned into bitmaps once at the end.
func (e *Engine) loadAll() error {
	m, err := e.readMeta()
	switch {
	case errors.Is(err, index.ErrNotFound):
	case err != nil:
		return err
	default:
		e.meta, e.dim = &m, m.Dimension
	}
	if e.loadSnapshot() {
		return nil
	}
	type rawBatch struct {
		buf  []byte
		keys [][2]int // key end, value end offsets into buf
	}
	batches := make(chan rawBatch, 4)
	scanErr := make(chan error, 1)
	go func() {
		defer close(batches)
		it, err := e.db.NewIter(&pebble.IterOptions{LowerBound: []byte(prefixEntry), UpperBound: []byte("x0")})
		if err != nil {
			scanErr <- fmt.Errorf("scan index: %w", err)
			return
		}
		b := rawBatch{buf: make([]byte, 0, 4<<20)}
		for it.First(); it.Valid(); it.Next() {
			b.buf = append(b.buf, it.Key()[len(prefixEntry):]...)
			k := len(b.buf)
			b.buf = append(b.buf, it.Value()...)
			b.keys = append(b.keys, [2]int{k, len(b.buf)})
			if len(b.buf) >= 4<<20 {
				batches <- b
				b = rawBatch{buf: make([]byte, 0, 4<<20)}
			}
		}
		if len(b.keys) > 0 {
			batches <- b
		}
		err = it.Error()
		if cerr := it.Close(); err == nil {
			err = cerr
		}
		scanErr <- err
	}()

	// The load allocates mostly long-lived data; collecting less often
	// while it runs saves a good share of the restart time.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	bulk := newBulkPostings()
	var en entry
	in := interner{}
	var loadErr error
	fl := e.startFlatLoad()
	scratch := make([]byte, 2*e.dim)
	for b := range batches {
		if loadErr != nil {
			continue // drain so the scanner can finish
		}
		start := 0
		for _, kv := range b.keys {
			domain := string(b.buf[start:kv[0]])
			val := b.buf[kv[0]:kv[1]]
			start = kv[1]
			if err := en.decode(val, in); err != nil {
				loadErr = fmt.Errorf("load %s: %w", domain, err)
				break
			}
			if len(en.codes) != e.dim {
				loadErr = fmt.Errorf("load %s: %w: stored %d, index %d", domain, index.ErrVectorMismatch, len(en.codes), e.dim)
				break
			}
			id := e.place(domain, &en, bulk)
			bulk.live = append(bulk.live, id)
			fl.add(id, &en, scratch)
		}
	}
	if err := <-scanErr; err != nil {
		e.finishFlatLoad(fl, 0, true)
		return err
	}
	if loadErr != nil {
		e.finishFlatLoad(fl, 0, true)
		return loadErr
	}
	e.finishFlatLoad(fl, e.domains.slots(), false)
	e.addPostings(bulk)
	e.compactPostings()
	e.trimSlots()
	// Hand the load's garbage (decode buffers, id lists) back now rather
	// than leave the server holding it.
	debug.FreeOSMemory()
	return nil
}

// bulkPostings collects postings to add at once: during loadAll, and in
// each upsert call.
type bulkPostings struct {
	post [numKeyword]map[string][]uint32
	// self holds the documents whose value is their own domain
	// (keywordPostings.self).
	self   [numKeyword][]uint32
	exists map[uint8][]uint32
	live   []uint32
}

// upsertPostings keeps the collectors of upsert calls, whose maps would
// otherwise grow from empty in every call.
var upsertPostings = sync.Pool{New: func() any { return newBulkPostings() }}

// reset empties b (keeping its maps' room) and puts it back in the pool.
func (b *bulkPostings) reset() {
	for i := range b.post {
		clear(b.post[i])
		b.self[i] = b.self[i][:0]
	}
	clear(b.exists)
	b.live = b.live[:0]
	upsertPostings.Put(b)
}

func newBulkPostings() *bulkPostings {
	b := &bulkPostings{exists: map[uint8][]uint32{}}
	for i := range b.post {
		b.post[i] = map[string][]uint32{}
	}
	return b
}

// addPostings adds what b collected to the bitmaps. Callers hold mu for
// writing.
func (e *Engine) addPostings(b *bulkPostings) {
	for slot := range b.post {
		for v, ids := range b.post[slot] {
			e.post[slot].add(v, ids, e.domains)
		}
		e.post[slot].addSelf(b.self[slot], e.domains)
	}
	for bit, ids := range b.exists {
		bm := e.exists[bit]
		if bm == nil {
			bm = roaring.New()
			e.exists[bit] = bm
		}
		bm.AddMany(ids)
	}
	e.live.AddMany(b.live)
}

// place assigns the document a slot, fills its columns and collects its
// postings in bulk (see addPostings); it returns the slot.
func (e *Engine) place(domain string, en *entry, bulk *bulkPostings) uint32 {
	id, ok := e.domains.lookup(domain)
	if !ok {
		if n := len(e.free); n > 0 {
			id = e.free[n-1]
			e.free = e.free[:n-1]
		} else {
			id = uint32(e.domains.slots())
			e.scores = append(e.scores, 0)
			e.starts = append(e.starts, 0)
			e.scales = append(e.scales, 0)
			if int(id)/chunkDocs >= len(e.chunks) {
				e.chunks = append(e.chunks, allocInt8(chunkDocs*e.dim))
				e.signs = append(e.signs, e.signChunk())
			}
		}
		e.domains.add(id, domain)
	}
	e.scores[id] = int16(en.score)
	e.starts[id] = en.start
	v := e.int8Of(id)
	copy(v, en.codes)
	e.scales[id] = en.scale
	en.sketch(e.signOf(id))
	e.annTouch(id)
	for slot, vals := range en.terms {
		if slot == domainSlot {
			continue // ids answers domain terms; a bitmap per domain would waste memory
		}
		for _, v := range vals {
			if v == domain {
				bulk.self[slot] = append(bulk.self[slot], id)
				continue
			}
			bulk.post[slot][v] = append(bulk.post[slot][v], id)
		}
	}
	for bit := uint8(1); bit != 0 && bit <= flagState; bit <<= 1 {
		if en.flags&bit != 0 {
			bulk.exists[bit] = append(bulk.exists[bit], id)
		}
	}
	return id
}

func (e *Engine) unindex(id uint32, old *entry) {
	for slot, vals := range old.terms {
		for _, v := range vals {
			e.post[slot].remove(v, id)
		}
	}
	for _, bm := range e.exists {
		bm.Remove(id)
	}
}

// int8Of returns the resident int8 codes of a document (its scale is
// e.scales[id]). Callers hold mu.
func (e *Engine) int8Of(id uint32) []int8 {
	c := e.chunks[int(id)/chunkDocs]
	off := (int(id) % chunkDocs) * e.dim
	return c[off : off+e.dim : off+e.dim]
}

// dotID is the similarity of query q to a document: the one every plan
// uses (see quant.go). Callers hold mu.
func (e *Engine) dotID(q []float32, id uint32) float32 {
	return dotInt8(q, e.int8Of(id)) * e.scales[id]
}

// vectorOf returns a new float32 copy of a document's resident vector (its
// codes times its scale). Callers hold mu.
func (e *Engine) vectorOf(id uint32) []float32 {
	v := make([]float32, e.dim)
	dequantize(v, e.int8Of(id), e.scales[id])
	return v
}

func (e *Engine) signOf(id uint32) []uint64 {
	w := signWords(e.dim)
	c := e.signs[int(id)/chunkDocs]
	off := (int(id) % chunkDocs) * w
	return c[off : off+w : off+w]
}

// Name implements index.Engine.
func (e *Engine) Name() string { return "embedded" }

// Close flushes and closes the store. Closing twice is a no-op.
func (e *Engine) Close() error {
	// First: a contact index load in flight reads the store without the
	// engine's locks and must end before the store closes.
	e.stopReads()
	e.writeMu.Lock()
	defer e.writeMu.Unlock()
	if e.closed {
		return nil
	}
	e.closed = true
	e.stopANN()
	if e.bulk != nil {
		// Runs not yet ingested are written now; without FinishLoad, the
		// next open compacts them in the background.
		if err := errors.Join(e.bulk.drain(), e.bulk.close()); err != nil {
			e.flat.close(false)
			e.db.Close()
			return fmt.Errorf("flush index: %w", err)
		}
	}
	if err := e.db.Flush(); err != nil {
		e.flat.close(false)
		e.db.Close()
		return fmt.Errorf("flush index: %w", err)
	}
	e.renumberForClose()
	// After the renumbering: the file lists the assignments by slot.
	e.saveANN()
	e.closeSnapshot()
	return errors.Join(e.flat.close(true), e.db.Close())
}

// Health implements index.Engine.
func (e *Engine) Health(ctx context.Context) error {
	_, closer, err := e.db.Get([]byte(keyMeta))
	if err == nil {
		closer.Close()
		return nil
	}
	if errors.Is(err, pebble.ErrNotFound) {
		return nil
	}
	return fmt.Errorf("embedded index: %w", err)
}

// Refresh implements index.Engine. Writes are visible when they return,
// except to phrase filters during a bulk load into an empty index: Refresh
// makes them visible there too.
func (e *Engine) Refresh(context.Context) error {
	if e.bulk == nil {
		return nil
	}
	e.writeMu.Lock()
	defer e.writeMu.Unlock()
	if e.closed {
		return nil
	}
	return e.bulk.drain()
}

// Len returns the number of stored companies.
func (e *Engine) Len() int {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return int(e.live.GetCardinality())
}

func (e *Engine) readMeta() (index.Meta, error) {
	var m index.Meta
	b, closer, err := e.db.Get([]byte(keyMeta))
	if errors.Is(err, pebble.ErrNotFound) {
		return m, index.ErrNotFound
	}
	if err != nil {
		return m, fmt.Errorf("read index meta: %w", err)
	}
	err = json.Unmarshal(b, &m)
	closer.Close()
	if err != nil {
		return m, fmt.Errorf("decode index meta: %w", err)
	}
	model, closer, err := e.db.Get([]byte(keyModel))
	switch {
	case errors.Is(err, pebble.ErrNotFound):
	case err != nil:
		return m, fmt.Errorf("read embedder model: %w", err)
	default:
		m.Model = append([]byte(nil), model...)
		closer.Close()
	}
	return m, nil
}

// Meta implements index.Engine.
func (e *Engine) Meta(context.Context) (index.Meta, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	if e.meta == nil {
		return index.Meta{}, index.ErrNotFound
	}
	m := *e.meta
	m.Model = append([]byte(nil), m.Model...)
	return m, nil
}

// SetMeta implements index.Engine. Changing the dimension of an index that
// holds vectors is refused.
func (e *Engine) SetMeta(_ context.Context, m index.Meta) error {
	if m.Dimension <= 0 {
		return fmt.Errorf("%w: dimension %d", index.ErrInvalid, m.Dimension)
	}
	e.writeMu.Lock()
	defer e.writeMu.Unlock()
	e.mu.RLock()
	n, dim := e.live.GetCardinality(), e.dim
	e.mu.RUnlock()
	if n > 0 && dim != m.Dimension {
		return fmt.Errorf("%w: index holds %d-dim vectors, meta says %d", index.ErrVectorMismatch, dim, m.Dimension)
	}
	head, err := json.Marshal(index.Meta{EmbedderID: m.EmbedderID, Dimension: m.Dimension, FitRecords: m.FitRecords})
	if err != nil {
		return err
	}
	b := e.db.NewBatch()
	defer b.Close()
	_ = b.Set([]byte(keyMeta), head, nil)
	if len(m.Model) > 0 {
		_ = b.Set([]byte(keyModel), m.Model, nil)
	} else {
		_ = b.Delete([]byte(keyModel), nil)
	}
	e.snapMarkDirty()
	if err := b.Commit(pebble.Sync); err != nil {
		return fmt.Errorf("write index meta: %w", err)
	}
	m.Model = append([]byte(nil), m.Model...)
	e.mu.Lock()
	if e.dim != m.Dimension {
		e.dim = m.Dimension
		e.chunks, e.signs, e.signSpare = nil, nil, nil // empty index: no vectors to keep
		e.dropSignCopies()
		e.annInvalidate()
	}
	e.meta = &m
	if n == 0 {
		e.newEmptyFlat()
	} else if e.flat != nil {
		e.flat.embedder = m.EmbedderID
	}
	e.mu.Unlock()
	return nil
}

// UpsertCompanies implements index.Engine. Encoding runs outside the write
// lock, so concurrent callers (the loader's workers) encode in parallel and
// only the commit is serialized.
func (e *Engine) UpsertCompanies(ctx context.Context, docs []index.CompanyDoc) ([]index.DocError, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// Bumped after the write, so a reader that saw the old generation
	// before it always sees a newer one later.
	defer e.generation.Add(1)
	e.mu.RLock()
	dim := e.dim
	e.mu.RUnlock()
	if dim == 0 {
		return nil, fmt.Errorf("upsert: %w: index has no embedder metadata yet (SetMeta first)", index.ErrInvalid)
	}

	var failed []index.DocError
	// Every value of the call is encoded into one pooled buffer: the
	// writes below copy them, and a buffer per value was a few gigabytes
	// of garbage in a large load.
	bufp := upsertBufs.Get().(*[]byte)
	buf := (*bufp)[:0]
	defer func() {
		if cap(buf) <= maxPooledUpsertBuf {
			*bufp = buf[:0]
			upsertBufs.Put(bufp)
		}
	}()
	// Later duplicates of a domain in one call win.
	last := make(map[string]int, len(docs))
	for i := range docs {
		last[docs[i].Company.Domain] = i
	}
	work := make([]pending, 0, len(docs))
	for i := range docs {
		d := &docs[i]
		c := &d.Company
		if last[c.Domain] != i {
			continue
		}
		switch {
		case c.Domain == "":
			failed = append(failed, index.DocError{Reason: "empty domain"})
			continue
		case len(d.Vector) != dim:
			failed = append(failed, index.DocError{Domain: c.Domain, Reason: fmt.Sprintf("%v: vector has %d dimensions, index has %d", index.ErrVectorMismatch, len(d.Vector), dim)})
			continue
		}
		start := len(buf)
		var err error
		if buf, err = marshalProfile(buf, c); err != nil {
			buf = buf[:start]
			failed = append(failed, index.DocError{Domain: c.Domain, Reason: "encode profile: " + err.Error()})
			continue
		}
		p := pending{domain: c.Domain, company: c, en: newEntry(c, d.Vector), profileEnd: len(buf)}
		buf = p.en.marshal(buf)
		p.xEnd = len(buf)
		work = append(work, p)
	}
	if len(work) == 0 {
		return failed, nil
	}
	for i, start := 0, 0; i < len(work); i++ {
		p := &work[i]
		p.profile, p.x = buf[start:p.profileEnd], buf[p.profileEnd:p.xEnd]
		start = p.xEnd
	}

	e.writeMu.Lock()
	defer e.writeMu.Unlock()
	if e.dim != dim {
		return failed, fmt.Errorf("upsert: %w: index dimension changed during the write", index.ErrVectorMismatch)
	}
	if err := e.checkEmbedderLocked(docEmbedders(docs)); err != nil {
		return failed, err
	}
	if !e.loadOnly {
		// Without an in-memory index to update, the old entries are not
		// needed.
		e.mu.RLock()
		for i := range work {
			_, work[i].hadOld = e.domains.lookup(work[i].domain)
		}
		e.mu.RUnlock()
	}
	size := 0
	for i := range work {
		p := &work[i]
		// New domains (most of a bulk load) need no read: the in-memory
		// index knows every stored domain.
		if p.hadOld {
			old, ok, err := e.stored(prefixEntry, p.domain)
			switch {
			case err != nil:
				return failed, fmt.Errorf("read previous entry of %s: %w", p.domain, err)
			case !ok:
				p.hadOld = false
			default:
				if err := p.old.unmarshal(old); err != nil {
					return failed, fmt.Errorf("read previous entry of %s: %w", p.domain, err)
				}
			}
		}
		size += 2*len(p.domain) + len(p.x) + len(p.profile) + 64
	}
	e.snapMarkDirty()
	if !e.loadOnly {
		e.flat.markDirty()
	}
	if e.bulk != nil {
		for i := range work {
			e.bulk.add(work[i].domain, work[i].x, work[i].profile)
		}
		if e.bulk.full() {
			if err := e.bulk.rotate(); err != nil {
				return failed, fmt.Errorf("write %d companies: %w", len(work), err)
			}
		}
	} else {
		b := e.db.NewBatchWithSize(size)
		defer b.Close()
		key := make([]byte, 0, 256)
		for i := range work {
			p := &work[i]
			key = append(append(key[:0], prefixEntry...), p.domain...)
			_ = b.Set(key, p.x, nil)
			key = append(append(key[:0], prefixProfile...), p.domain...)
			_ = b.Set(key, p.profile, nil)
		}
		if e.refit != nil {
			cs := make([]record.Company, len(work))
			for i := range work {
				cs[i] = *work[i].company
			}
			e.stageCompanyWrites(b, cs)
		}
		if err := b.Commit(e.writeOpts); err != nil {
			return failed, fmt.Errorf("write %d companies: %w", len(work), err)
		}
	}
	e.dirty = true
	if !e.loadOnly {
		e.indexInMemory(work)
	}
	if err := e.refreshEmployersLocked(docs); err != nil {
		return failed, err
	}
	return failed, nil
}

// indexInMemory puts upserted documents into the in-memory index.
func (e *Engine) indexInMemory(work []pending) {
	e.mu.Lock()
	e.rangeCache = nil
	e.dropSignCopies()
	// Postings are gathered for the whole call and added a term at a
	// time: a bitmap and map lookup per term of every document was a
	// twentieth of a bulk load. Each domain is in work once, so a
	// document's old postings go before its new ones are added.
	add := upsertPostings.Get().(*bulkPostings)
	defer add.reset()
	var scratch []byte
	if e.flat != nil {
		scratch = make([]byte, 2*e.dim)
	}
	for i := range work {
		id, existed := e.domains.lookup(work[i].domain)
		if existed && work[i].hadOld {
			e.unindex(id, &work[i].old)
		}
		id = e.place(work[i].domain, &work[i].en, add)
		add.live = append(add.live, id)
		if e.flat != nil {
			e.flat.put(id, work[i].en.halfBytes(scratch), existed)
			e.flat.ordered = e.flat.ordered && existed
		}
	}
	e.addPostings(add)
	e.mu.Unlock()
	e.annWake()
}

// pending is a document of an upsert call.
type pending struct {
	domain           string
	company          *record.Company
	en, old          entry
	hadOld           bool // old holds the entry it replaces
	x, profile       []byte
	xEnd, profileEnd int // offsets into the call's buffer while it grows
}

// upsertBufs holds the encoding buffers of UpsertCompanies; one larger
// than maxPooledUpsertBuf (a call with huge profiles) is left to the
// collector.
var upsertBufs = sync.Pool{New: func() any { return new([]byte) }}

const maxPooledUpsertBuf = 64 << 20

// stored returns the stored value of a domain's entry or profile (by key
// prefix): from the buffers of a bulk load, else from the store. The value
// is the caller's.
func (e *Engine) stored(prefix, domain string) ([]byte, bool, error) {
	if e.bulk != nil {
		if v, ok, err := e.bulk.get(domain, prefix == prefixProfile); ok || err != nil {
			return v, ok, err
		}
	}
	v, closer, err := e.db.Get([]byte(prefix + domain))
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	v = slices.Clone(v)
	closer.Close()
	return v, true, nil
}

// DeleteCompanies implements index.Engine.
func (e *Engine) DeleteCompanies(ctx context.Context, domains []string) (int, error) {
	defer e.generation.Add(1)
	e.writeMu.Lock()
	defer e.writeMu.Unlock()
	if e.bulk != nil {
		// Deletes go through the store: first put the buffered upserts
		// there, below them.
		if err := e.bulk.drain(); err != nil {
			return 0, err
		}
	}
	b := e.db.NewBatch()
	defer b.Close()
	type gone struct {
		domain string
		en     entry
	}
	var del []gone
	seen := map[string]bool{}
	for _, d := range domains {
		if seen[d] {
			continue
		}
		seen[d] = true
		v, closer, err := e.db.Get([]byte(prefixEntry + d))
		if errors.Is(err, pebble.ErrNotFound) {
			continue
		}
		if err != nil {
			return 0, fmt.Errorf("delete %s: %w", d, err)
		}
		g := gone{domain: d}
		err = g.en.unmarshal(v)
		closer.Close()
		if err != nil {
			return 0, fmt.Errorf("delete %s: %w", d, err)
		}
		for _, p := range []string{prefixEntry, prefixProfile} {
			_ = b.Delete([]byte(p+d), nil)
		}
		del = append(del, g)
	}
	if len(del) == 0 {
		return 0, nil
	}
	if e.refit != nil {
		ds := make([]string, len(del))
		for i := range del {
			ds[i] = del[i].domain
		}
		e.unstageCompanyDeletes(b, ds)
	}
	e.snapMarkDirty()
	e.flat.markDirty()
	if err := b.Commit(pebble.Sync); err != nil {
		return 0, fmt.Errorf("delete %d companies: %w", len(del), err)
	}
	e.mu.Lock()
	e.rangeCache = nil
	e.dropSignCopies()
	if e.flat != nil {
		e.flat.ordered = false
	}
	for i := range del {
		id, ok := e.domains.remove(del[i].domain)
		if !ok {
			// Stored but not indexed (written by a LoadOnly engine).
			continue
		}
		e.flat.drop(id)
		e.unindex(id, &del[i].en)
		e.annDrop(id)
		e.live.Remove(id)
		e.free = append(e.free, id)
	}
	e.mu.Unlock()
	return len(del), nil
}

// GetCompanies implements index.Engine.
func (e *Engine) GetCompanies(ctx context.Context, domains []string) ([]record.Company, error) {
	return found(domains, e.profile)
}

// found reads each key's record, hydrateReads at once for longer lists
// (readEach: point reads that miss the page cache wait on the disk, so
// more of them than GOMAXPROCS overlap, as hydrate's do), and returns them
// in input order, skipping those not found. At 10M companies / 15M
// contacts the first read of a grouped search's 100 employers and 500
// contacts mostly misses the page cache (docs/benchmarks.md, "Grouped
// contact search at 10M / 15M").
func found[K, V any](keys []K, read func(K) (V, error)) ([]V, error) {
	vals := make([]V, len(keys))
	errs := make([]error, len(keys))
	readEach(len(keys), 8, func(i int) bool {
		vals[i], errs[i] = read(keys[i])
		return true
	})
	out := vals[:0]
	for i := range vals {
		if errors.Is(errs[i], index.ErrNotFound) {
			continue
		}
		if errs[i] != nil {
			return nil, errs[i]
		}
		out = append(out, vals[i])
	}
	return out, nil
}

func (e *Engine) profile(domain string) (record.Company, error) {
	var c record.Company
	v, ok, err := e.stored(prefixProfile, domain)
	if err != nil {
		return c, fmt.Errorf("read profile %s: %w", domain, err)
	}
	if !ok {
		return c, index.ErrNotFound
	}
	if err := decodeStored(v, &c); err != nil {
		return c, fmt.Errorf("decode profile %s: %w", domain, err)
	}
	return c, nil
}

// CompanyVectors implements index.Engine. The vectors are the stored full
// precision ones (binary16), not the resident int8 codes: callers store
// them again (refresh) or average them into queries. The entries are read
// at once (readEach): a lookalike's examples are a few point reads that,
// at 10M companies, mostly miss the page cache.
func (e *Engine) CompanyVectors(ctx context.Context, domains []string) (map[string][]float32, error) {
	keys := make([]string, 0, len(domains))
	seen := make(map[string]bool, len(domains))
	for _, d := range domains {
		if !seen[d] {
			seen[d] = true
			keys = append(keys, d)
		}
	}
	vecs := make([][]float32, len(keys))
	errs := make([]error, len(keys))
	readEach(len(keys), 1, func(i int) bool {
		v, ok, err := e.stored(prefixEntry, keys[i])
		if err != nil || !ok {
			errs[i] = err
			return true
		}
		var en entry
		if err := en.unmarshal(v); err != nil {
			errs[i] = err
			return true
		}
		vecs[i] = en.full()
		return true
	})
	out := make(map[string][]float32, len(keys))
	for i, d := range keys {
		if errs[i] != nil {
			return nil, fmt.Errorf("read vector of %s: %w", d, errs[i])
		}
		if vecs[i] != nil {
			out[d] = vecs[i]
		}
	}
	return out, nil
}

// quietLogger drops Pebble's informational logs; errors surface as returned
// errors, and fatal ones still abort.
type quietLogger struct{}

func (quietLogger) Infof(string, ...interface{})  {}
func (quietLogger) Errorf(string, ...interface{}) {}
func (quietLogger) Fatalf(format string, args ...interface{}) {
	panic(fmt.Sprintf("pebble: "+format, args...))
}

// Dir returns the directory the index lives in.
func (e *Engine) Dir() string { return filepath.Clean(e.dir) }

// Generation changes after every company write of this process: caches
// derived from the companies (the name index) compare it to know they are
// current. The embedded index has a single writing process.
func (e *Engine) Generation() uint64 { return e.generation.Load() }
