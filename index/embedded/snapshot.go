package embedded

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"hash/fnv"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sort"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/cockroachdb/pebble"

	"github.com/openprospect/prospectd/internal/privatefs"
)

// The resident snapshot. Open used to rebuild the in-memory index by
// decoding every stored entry (loadAll): 53-58 s at 10M companies. A clean
// Close now also writes what loadAll builds — the domain table's arena and
// slot positions, the free list, the score, start and scale columns, the
// int8 chunks, the sign sketches and the live, posting and exists bitmaps —
// to snapFile beside the store, and Open reads it back in bulk (into
// memory, not mapped: the resident figures stay honest) when it provably
// describes the store. The domain table's hash cells are rebuilt (its hash
// seed is per process).
//
// Consistency follows the vector file's pattern (flatfile.go). The store is
// the truth; the file is a cache of it.
//   - Header: magic, a clean flag, the dimension, the embedder key
//     (annMetaKey: id, dimension, fit records, model), the store
//     fingerprint, the vector file's sum and slot count, the body's length
//     and CRC-32C, and the header's own CRC.
//   - The clean flag is cleared (and synced) before the first write of a
//     process reaches the store (snapMarkDirty, beside the vector file's
//     markDirty); a clean Close writes a new file (temporary name, synced,
//     renamed) when the in-memory index changed or did not come from the
//     file, and only when it describes the store (no refit or loading
//     command under way). After companies were added or deleted the slots
//     are not the store's key order that loadAll gives: the file keeps
//     this session's slots (free list included), and the vector file is
//     marked clean for the snapshot's layout only (flatHeader.snapLayout),
//     so the next open reads both as they are, while an open that must
//     decode the store rebuilds the vector file in key order. The ANN file
//     lists its assignments by domain, whatever the slots.
//   - The store fingerprint hashes the sstables that hold company entries
//     (x/): file number, size, modification time, sequence numbers and
//     key bounds. Any write to the entries, by this binary or another one
//     that does not know the file (an older prospectd, a loading command),
//     ends up in a new sstable: a flush at close, the replay of a crashed
//     process's log at open (Pebble 1.1 flushes it there), or an ingest.
//     A compaction also changes it: the file is then ignored (safe, slow)
//     unless this process, which wrote nothing, is the one that compacted
//     (Close then records the new fingerprint).
//   - Open trusts the file only when it is clean, its embedder key and
//     dimension are the stored meta's, its fingerprint is the store's, the
//     vector file is clean with the recorded sum and slots, and the body
//     reads whole with its CRC. Anything else (crash, store written behind
//     the engine, corrupt or truncated file, another embedder, a refit
//     since) falls back to loadAll, and the next clean Close writes the
//     file again.
//
// Layout (little-endian), after a snapHeaderSize header: slots, domains
// held, live and dead arena bytes, the arena chunks (length, bytes), the
// slot positions (u32, then u8 high bytes when present), the free list,
// scores (i16), starts (i32), scales (f32), the vector chunks (each the
// used part of its int8 codes, then of its sketches), the live bitmap,
// the postings (per keyword slot: the values of one document with its id,
// the values of more with their bitmaps, the self bitmap), the exists
// bitmaps. Bitmaps are roaring's portable format with a length. The
// layout follows the structures' fields: whoever changes them (domains.go,
// postings.go, the sketch) changes snapMagic with the layout here; the
// header also holds a hash of the constants the layout depends on.
const (
	snapFile       = "index-snapshot.bin"
	snapMagic      = "PROSPECT-SNAP-1\n"
	snapHeaderSize = 4096
	snapBufBytes   = 4 << 20
)

// snapHeader is the file's first page.
type snapHeader struct {
	clean     bool
	dim       int
	metaKey   uint64
	store     uint64
	flatSum   uint64
	flatSlots uint64
	bodyLen   uint64
	bodyCRC   uint32
	layout    uint64
}

// snapLayout names the body's layout: the constants it depends on. A
// change of layout must also change snapMagic; a change of these is
// caught without it.
func snapLayout() uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d %d %d %d %d %d %d", numKeyword, chunkDocs, chunkShift, domainChunk, noDomain, flagState, cellSlotBits)
	return h.Sum64()
}

func (h snapHeader) marshal() []byte {
	b := make([]byte, snapHeaderSize)
	copy(b, snapMagic)
	le := binary.LittleEndian
	if h.clean {
		b[16] = 1
	}
	le.PutUint32(b[17:], uint32(h.dim))
	le.PutUint64(b[21:], h.metaKey)
	le.PutUint64(b[29:], h.store)
	le.PutUint64(b[37:], h.flatSum)
	le.PutUint64(b[45:], h.flatSlots)
	le.PutUint64(b[53:], h.bodyLen)
	le.PutUint32(b[61:], h.bodyCRC)
	le.PutUint64(b[65:], h.layout)
	le.PutUint32(b[73:], crc32.Checksum(b[:73], castagnoli))
	return b
}

var errSnapshot = errors.New("bad index snapshot")

func unmarshalSnapHeader(b []byte) (snapHeader, error) {
	var h snapHeader
	le := binary.LittleEndian
	if len(b) < snapHeaderSize || !bytes.Equal(b[:16], []byte(snapMagic)) || le.Uint32(b[73:]) != crc32.Checksum(b[:73], castagnoli) {
		return h, errSnapshot
	}
	h.clean = b[16] == 1
	h.dim = int(le.Uint32(b[17:]))
	h.metaKey = le.Uint64(b[21:])
	h.store = le.Uint64(b[29:])
	h.flatSum = le.Uint64(b[37:])
	h.flatSlots = le.Uint64(b[45:])
	h.bodyLen = le.Uint64(b[53:])
	h.bodyCRC = le.Uint32(b[61:])
	h.layout = le.Uint64(b[65:])
	return h, nil
}

// snapWrites counts the files written (tests watch it).
var snapWrites atomic.Int64

// snapState is the engine's side of the file (guarded by writeMu once the
// engine is shared).
type snapState struct {
	// loaded: Open read the in-memory index from the file (tests, logs).
	loaded bool
	// current: the file on disk is clean and holds the in-memory index
	// (head is its header).
	current bool
	head    snapHeader
	// ownWrites: this engine committed keys other than company entries
	// (contacts, a refit's staging and marker), whose flushes change the
	// sstables the fingerprint covers without changing the entries
	// (commitOwn).
	ownWrites atomic.Bool
}

// commitOwn commits a batch of this engine's that writes no company entry
// (those go through snapMarkDirty), noting it for closeSnapshot.
func (e *Engine) commitOwn(b *pebble.Batch, o *pebble.WriteOptions) error {
	e.snap.ownWrites.Store(true)
	return b.Commit(o)
}

// snapshotLoaded reports whether Open read the in-memory index from the
// snapshot file rather than decoding the store.
func (e *Engine) snapshotLoaded() bool { return e.snap.loaded }

// hostLittleEndian: the file is read straight into the columns' memory.
var hostLittleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// storeFingerprint hashes the sstables holding company entries. Callers
// own the engine (Open, Close).
func (e *Engine) storeFingerprint() (uint64, error) {
	levels, err := e.db.SSTables()
	if err != nil {
		return 0, fmt.Errorf("list sstables: %w", err)
	}
	lo, hi := []byte(prefixEntry), []byte("x0")
	type table struct {
		num, size, smallSeq, largeSeq uint64
		small, large                  []byte
	}
	var ts []table
	for _, level := range levels {
		for _, t := range level {
			if bytes.Compare(t.Smallest.UserKey, hi) >= 0 || bytes.Compare(t.Largest.UserKey, lo) < 0 {
				continue
			}
			ts = append(ts, table{uint64(t.FileNum), t.Size, t.SmallestSeqNum, t.LargestSeqNum, t.Smallest.UserKey, t.Largest.UserKey})
		}
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i].num < ts[j].num })
	h := fnv.New64a()
	var b [8]byte
	put := func(v uint64) {
		binary.LittleEndian.PutUint64(b[:], v)
		h.Write(b[:])
	}
	for _, t := range ts {
		// The modification time tells a table of this store from one of
		// the same number in a store made again in the same directory.
		fi, err := os.Stat(filepath.Join(e.dir, fmt.Sprintf("%06d.sst", t.num)))
		if err != nil {
			return 0, fmt.Errorf("stat sstable %d: %w", t.num, err)
		}
		put(t.num)
		put(t.size)
		put(uint64(fi.ModTime().UnixNano()))
		put(t.smallSeq)
		put(t.largeSeq)
		put(uint64(len(t.small)))
		h.Write(t.small)
		put(uint64(len(t.large)))
		h.Write(t.large)
	}
	put(uint64(len(ts)))
	return h.Sum64(), nil
}

// snapMarkDirty clears the file's clean flag before a write reaches the
// store. Callers hold writeMu. A file whose flag cannot be cleared is
// removed (the fingerprint would catch it anyway).
func (e *Engine) snapMarkDirty() {
	if !e.snap.current {
		return
	}
	e.snap.current = false
	path := filepath.Join(e.dir, snapFile)
	h := e.snap.head
	h.clean = false
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err == nil {
		_, err = f.WriteAt(h.marshal(), 0)
		if err == nil {
			err = f.Sync()
		}
		err = errors.Join(err, f.Close())
	}
	if err != nil {
		os.Remove(path)
	}
}

// loadSnapshot reads the in-memory index from the file when it describes
// the store; false (the engine reset) when it does not and loadAll must
// run. Callers have read the meta; the engine is not shared yet.
func (e *Engine) loadSnapshot() bool {
	path := filepath.Join(e.dir, snapFile)
	os.Remove(path + ".tmp")
	if e.loadOnly {
		// A loading command writes the store without the in-memory index.
		os.Remove(path)
		return false
	}
	if e.dim == 0 || !hostLittleEndian {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	ok, fv := e.readSnapshot(f)
	if !ok {
		if fv != nil {
			fv.close(false)
		}
		e.reset()
		os.Remove(path) // stale: written again at the next clean Close
		return false
	}
	dropFileCache(f)
	e.flat = fv
	e.snap.loaded = true
	// As loadAll: hand the read's buffers back now rather than leave the
	// server holding them.
	debug.FreeOSMemory()
	return true
}

// readSnapshot checks the file against the store and reads it into the
// engine, returning the trusted vector file it checked.
func (e *Engine) readSnapshot(f *os.File) (bool, *flatVectors) {
	head := make([]byte, snapHeaderSize)
	if _, err := io.ReadFull(f, head); err != nil {
		return false, nil
	}
	h, err := unmarshalSnapHeader(head)
	if err != nil || !h.clean || h.layout != snapLayout() || h.dim != e.dim || h.metaKey != e.annMetaKey() {
		return false, nil
	}
	if fi, err := f.Stat(); err != nil || uint64(fi.Size()) != snapHeaderSize+h.bodyLen {
		return false, nil
	}
	fp, err := e.storeFingerprint()
	if err != nil || fp != h.store {
		return false, nil
	}
	fv := e.trustedFlat(h.flatSum, int(h.flatSlots))
	if fv == nil {
		return false, nil
	}
	r := &snapReader{r: bufio.NewReaderSize(f, snapBufBytes), left: int64(h.bodyLen)}
	if err := e.readSnapBody(r); err != nil || r.left != 0 || r.crc != h.bodyCRC {
		return false, fv
	}
	e.snap.current, e.snap.head = true, h
	return true, fv
}

// trustedFlat opens the vector file when its header is clean and records
// the given sum and slots; nil otherwise.
func (e *Engine) trustedFlat(sum uint64, slots int) *flatVectors {
	path := filepath.Join(e.dir, flatFile)
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil
	}
	h, err := readFlatHeader(f)
	fi, serr := f.Stat()
	if err != nil || serr != nil || !(h.clean || h.snapLayout) || h.dim != e.dim || h.embedder != e.embedderKey() ||
		h.sum != sum || h.slots != slots || fi.Size() < flatHeaderSize+int64(slots)*int64(2*e.dim) {
		f.Close()
		return nil
	}
	// A file in the snapshot's layout keeps it: not the order loadAll
	// would give, so the next Close marks it clean only beside a snapshot.
	fv := &flatVectors{f: f, path: path, dim: e.dim, embedder: h.embedder, slots: slots, sum: sum, ordered: h.clean, diskClean: true}
	fv.remap(slots)
	return fv
}

// snapReader reads the body, summing its CRC and refusing to read (or
// allocate for) more than is left.
type snapReader struct {
	r    *bufio.Reader
	left int64
	crc  uint32
	err  error
}

func (r *snapReader) read(p []byte) {
	if r.err != nil {
		return
	}
	if int64(len(p)) > r.left {
		r.err = errSnapshot
		return
	}
	if _, err := io.ReadFull(r.r, p); err != nil {
		r.err = err
		return
	}
	r.left -= int64(len(p))
	r.crc = crc32.Update(r.crc, castagnoli, p)
}

// count reads a count of items of size bytes each that must fit in what
// is left.
func (r *snapReader) count(size int) int {
	var b [8]byte
	r.read(b[:])
	n := binary.LittleEndian.Uint64(b[:])
	if r.err == nil && (size > 0 && n > uint64(r.left)/uint64(size) || n > 1<<40) {
		r.err = errSnapshot
	}
	if r.err != nil {
		return 0
	}
	return int(n)
}

// bitmap reads a length and a roaring bitmap.
func (r *snapReader) bitmap(buf *[]byte) *roaring.Bitmap {
	n := r.count(1)
	if r.err != nil {
		return nil
	}
	*buf = slices.Grow((*buf)[:0], n)[:n]
	r.read(*buf)
	if r.err != nil {
		return nil
	}
	bm := roaring.New()
	if err := bm.UnmarshalBinary(*buf); err != nil {
		r.err = err
		return nil
	}
	return bm
}

// keyOf returns b as a string without copying it: b is the key's own
// allocation, never written again.
func keyOf(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// asBytes views a column's memory as bytes.
func asBytes[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(s[0])))
}

func (e *Engine) readSnapBody(r *snapReader) error {
	n := r.count(4 + 2 + 4 + 4)
	t := newDomainTable()
	t.n, t.live, t.dead = r.count(0), r.count(0), r.count(0)
	nchunks := r.count(1)
	for i := range nchunks {
		size := r.count(1)
		if r.err != nil {
			break
		}
		capacity := size
		if i == nchunks-1 {
			capacity = max(size, domainChunk) // the arena appends to it
		}
		c := make([]byte, size, capacity)
		r.read(c)
		t.chunks = append(t.chunks, c)
	}
	var hi [1]byte
	r.read(hi[:])
	if r.err != nil || t.n > n {
		return errors.Join(r.err, errSnapshot)
	}
	t.refs = make([]uint32, n)
	r.read(asBytes(t.refs))
	if hi[0] == 1 {
		t.refsHi = make([]uint8, n)
		r.read(t.refsHi)
	}
	free := make([]uint32, r.count(4))
	r.read(asBytes(free))
	if r.err != nil {
		return r.err
	}
	e.scores, e.starts, e.scales = make([]int16, n), make([]int32, n), make([]float32, n)
	r.read(asBytes(e.scores))
	r.read(asBytes(e.starts))
	r.read(asBytes(e.scales))
	vchunks := r.count(e.dim)
	if r.err != nil || vchunks != (n+chunkDocs-1)/chunkDocs {
		return errors.Join(r.err, errSnapshot)
	}
	w := signWords(e.dim)
	e.chunks, e.signs, e.signSpare = make([][]int8, 0, vchunks), allocSigns(vchunks, w), nil
	for i := range vchunks {
		used := min(chunkDocs, n-i*chunkDocs)
		c := allocInt8(chunkDocs * e.dim)
		r.read(asBytes(c[:used*e.dim]))
		r.read(asBytes(e.signs[i][:used*w]))
		if r.err != nil {
			return r.err
		}
		e.chunks = append(e.chunks, c)
	}
	var buf []byte
	e.live = r.bitmap(&buf)
	for slot := range e.post {
		p := keywordPostings{}
		ones := r.count(8 + 4)
		p.one = make(map[string]uint32, ones)
		for range ones {
			v := make([]byte, r.count(1))
			r.read(v)
			var id [4]byte
			r.read(id[:])
			p.one[keyOf(v)] = binary.LittleEndian.Uint32(id[:])
		}
		values := r.count(8 + 8)
		p.many = make(map[string]*roaring.Bitmap, values)
		for range values {
			v := make([]byte, r.count(1))
			r.read(v)
			bm := r.bitmap(&buf)
			if r.err != nil {
				return r.err
			}
			p.many[keyOf(v)] = bm
		}
		p.self = r.bitmap(&buf)
		if r.err != nil {
			return r.err
		}
		e.post[slot] = p
	}
	bits := r.count(1 + 8)
	e.exists = make(map[uint8]*roaring.Bitmap, bits)
	for range bits {
		var bit [1]byte
		r.read(bit[:])
		bm := r.bitmap(&buf)
		if r.err != nil {
			return r.err
		}
		e.exists[bit[0]] = bm
	}
	if r.err != nil {
		return r.err
	}
	if err := t.checkRefs(); err != nil {
		return err
	}
	t.rebuildCells()
	e.domains, e.free = t, free
	// As loadAll's trimSlots: allocInt8 faulted the last chunk in whole.
	e.releaseChunkTails()
	return nil
}

// checkRefs holds every position to the arena (a body that passed its CRC
// was written by writeSnapshot, but a position past its chunk would be a
// panic later, not an error now).
func (t *domainTable) checkRefs() error {
	held := 0
	for slot := range uint32(len(t.refs)) {
		r := t.ref(slot)
		if r == noDomain {
			continue
		}
		ci, off := int(r>>chunkShift), int(r&(domainChunk-1))
		if ci >= len(t.chunks) || off >= len(t.chunks[ci]) {
			return errSnapshot
		}
		n, w := binary.Uvarint(t.chunks[ci][off:])
		if w <= 0 || uint64(len(t.chunks[ci])-off-w) < n {
			return errSnapshot
		}
		held++
	}
	if held != t.n {
		return errSnapshot
	}
	return nil
}

// rebuildCells fills the hash cells from the slot positions, at the size
// adding the domains one by one would have grown them to.
func (t *domainTable) rebuildCells() {
	size := minCells
	for t.n*4 > size*3 {
		size *= 2
	}
	t.cells = make([]uint32, size)
	t.shift = 32
	for s := size; s > 1; s >>= 1 {
		t.shift--
	}
	for slot := range uint32(len(t.refs)) {
		if d := t.get(slot); d != "" {
			h := t.hash(d)
			t.place(h, cellOf(h, slot))
		}
	}
}

// snapWritable reports whether the in-memory index describes the store
// now (what loadAll would build, up to the slots: after companies were
// added or deleted the snapshot keeps this session's slots, and the
// vector file is marked clean for that layout only). Callers hold writeMu.
func (e *Engine) snapWritable() bool {
	return !e.loadOnly && e.refit == nil && e.dim > 0 && hostLittleEndian &&
		e.flat != nil && !e.flat.broken && !e.live.IsEmpty()
}

// snapSettle is how long Close waits for running compactions before it
// fingerprints the store (one finishing after would only cost the next
// open its snapshot).
var snapSettle = 30 * time.Second

// closeSnapshot writes the file at Close, after the store's flush and
// before the vector file is marked clean. Callers hold writeMu; writers
// have stopped. Failures leave no file: the next Open runs loadAll.
func (e *Engine) closeSnapshot() {
	path := filepath.Join(e.dir, snapFile)
	if !e.snapWritable() {
		os.Remove(path)
		return
	}
	for end := time.Now().Add(snapSettle); e.db.Metrics().Compact.NumInProgress > 0 && time.Now().Before(end); {
		time.Sleep(20 * time.Millisecond)
	}
	fp, err := e.storeFingerprint()
	if err != nil {
		os.Remove(path)
		return
	}
	e.mu.RLock()
	defer e.mu.RUnlock()
	h := snapHeader{clean: true, dim: e.dim, metaKey: e.annMetaKey(), store: fp, flatSum: e.flat.sum, flatSlots: uint64(e.flat.slots), layout: snapLayout()}
	if e.snap.current {
		old := e.snap.head
		if old.dim == h.dim && old.metaKey == h.metaKey && old.flatSum == h.flatSum && old.flatSlots == h.flatSlots {
			if old.store == fp {
				e.flat.snapLayout = true
				return
			}
			if e.db.Metrics().WAL.BytesIn != 0 && !e.snap.ownWrites.Load() {
				// Something that is not this engine wrote the store (a
				// write behind it, in tests: the store is locked to one
				// process): the new sstables may hold entries.
				os.Remove(path)
				return
			}
			// No company entry was written since the file was (every
			// path that writes one clears current): compactions, or the
			// flush of this engine's other writes (contacts), changed
			// the sstables. A session that refreshed contacts keeps its
			// warm restart.
			h.bodyLen, h.bodyCRC = old.bodyLen, old.bodyCRC
			if err := rewriteSnapHeader(path, h); err != nil {
				os.Remove(path)
				return
			}
			e.flat.snapLayout = true
			return
		}
	}
	if err := e.writeSnapshot(path, h); err != nil {
		os.Remove(path + ".tmp")
		os.Remove(path)
		return
	}
	// The vector file's slots are the snapshot's: Close may mark it clean
	// for it even when they are not the store's key order.
	e.flat.snapLayout = true
}

func rewriteSnapHeader(path string, h snapHeader) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteAt(h.marshal(), 0)
	if err == nil {
		err = f.Sync()
	}
	return errors.Join(err, f.Close())
}

// snapWriter writes the body, summing its CRC and length.
type snapWriter struct {
	w   *bufio.Writer
	n   uint64
	crc uint32
	err error
}

func (w *snapWriter) write(p []byte) {
	if w.err != nil {
		return
	}
	_, w.err = w.w.Write(p)
	w.n += uint64(len(p))
	w.crc = crc32.Update(w.crc, castagnoli, p)
}

func (w *snapWriter) u64(v int) {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(v))
	w.write(b[:])
}

func (w *snapWriter) bitmap(bm *roaring.Bitmap, buf *bytes.Buffer) {
	buf.Reset()
	if _, err := bm.WriteTo(buf); err != nil && w.err == nil {
		w.err = err
	}
	w.u64(buf.Len())
	w.write(buf.Bytes())
}

// writeSnapshot writes the in-memory index to path (via a temporary file,
// synced before the rename). Callers hold mu for reading.
func (e *Engine) writeSnapshot(path string, h snapHeader) error {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_RDWR, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := privatefs.Restrict(tmp); err != nil {
		return err
	}
	if _, err := f.Seek(snapHeaderSize, io.SeekStart); err != nil {
		return err
	}
	w := &snapWriter{w: bufio.NewWriterSize(f, snapBufBytes)}
	t := e.domains
	n := t.slots()
	w.u64(n)
	w.u64(t.n)
	w.u64(t.live)
	w.u64(t.dead)
	w.u64(len(t.chunks))
	for _, c := range t.chunks {
		w.u64(len(c))
		w.write(c)
	}
	if t.refsHi != nil {
		w.write([]byte{1})
	} else {
		w.write([]byte{0})
	}
	w.write(asBytes(t.refs))
	w.write(t.refsHi)
	w.u64(len(e.free))
	w.write(asBytes(e.free))
	w.write(asBytes(e.scores[:n]))
	w.write(asBytes(e.starts[:n]))
	w.write(asBytes(e.scales[:n]))
	vchunks := (n + chunkDocs - 1) / chunkDocs
	w.u64(vchunks)
	sw := signWords(e.dim)
	for i := range vchunks {
		used := min(chunkDocs, n-i*chunkDocs)
		w.write(asBytes(e.chunks[i][:used*e.dim]))
		w.write(asBytes(e.signs[i][:used*sw]))
	}
	var buf bytes.Buffer
	w.bitmap(e.live, &buf)
	var id [4]byte
	for slot := range e.post {
		p := &e.post[slot]
		ones := slices.Sorted(maps.Keys(p.one))
		w.u64(len(ones))
		for _, v := range ones {
			w.u64(len(v))
			w.write([]byte(v))
			binary.LittleEndian.PutUint32(id[:], p.one[v])
			w.write(id[:])
		}
		values := slices.Sorted(maps.Keys(p.many))
		w.u64(len(values))
		for _, v := range values {
			w.u64(len(v))
			w.write([]byte(v))
			w.bitmap(p.many[v], &buf)
		}
		self := p.self
		if self == nil {
			self = roaring.New()
		}
		w.bitmap(self, &buf)
	}
	bits := make([]uint8, 0, len(e.exists))
	for bit := range e.exists {
		bits = append(bits, bit)
	}
	slices.Sort(bits)
	w.u64(len(bits))
	for _, bit := range bits {
		w.write([]byte{bit})
		w.bitmap(e.exists[bit], &buf)
	}
	if w.err == nil {
		w.err = w.w.Flush()
	}
	if w.err != nil {
		return fmt.Errorf("write index snapshot: %w", w.err)
	}
	h.bodyLen, h.bodyCRC = w.n, w.crc
	if _, err := f.WriteAt(h.marshal(), 0); err != nil {
		return fmt.Errorf("write index snapshot: %w", err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("write index snapshot: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("write index snapshot: %w", err)
	}
	snapWrites.Add(1)
	return nil
}
