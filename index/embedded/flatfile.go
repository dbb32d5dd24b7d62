package embedded

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"sync/atomic"

	"github.com/cockroachdb/pebble"

	"github.com/openprospect/prospectd/internal/privatefs"
)

// The full-precision vector file. The final pass of a company search
// (rescore.go) needs the binary16 vectors of a few hundred candidates; a
// Pebble point read costs ~20 µs each, which at 1M companies added 2.4-3.4
// ms to every lookalike (docs/decisions.md, "int8 resident vectors:
// reverted..."). flatFile keeps the same vectors beside the store, slot by
// slot (slot s at flatHeaderSize + s*2*dim), so the pass reads 2*dim bytes
// from the page cache a candidate. On Linux the file is memory-mapped
// (read-only, shared, MADV_RANDOM, nothing touched at open): a read is
// 35-140 ns against pread's ~450 (BenchmarkFlatRead), which was a tenth of
// a selective search at 1M (docs/benchmarks.md); the pages searches touch
// count in the process's resident memory, as page cache the kernel can
// drop. Elsewhere, and if the mapping fails, pread.
//
// Consistency. The store is the truth; the file is a cache of it in the
// engine's slot order, which after Open is the store's key order (loadAll
// places the entries in key order).
//   - Writes: an upsert writes its vectors at their slots under mu, in the
//     same step that puts the int8 codes in memory, so a search never sees
//     one without the other; a delete only frees the slot.
//   - Header: magic, dim, slot count, the sum of slotHash over the live
//     slots, a clean flag and the embedder id, with a CRC. The flag is
//     cleared (and synced) before the first write of a process commits to
//     the store, and set again by Close only when every live slot still
//     sits where a fresh Open puts it (no company added or deleted) — after
//     the data is synced. Otherwise, when Close wrote the resident snapshot
//     (snapshot.go), which keeps this session's slots, the header says
//     "clean in the snapshot's layout": only an open from that snapshot
//     trusts it.
//   - Open trusts a clean file of the right dim and embedder, and checks
//     it: loadAll sums slotHash over the stored vectors as it decodes them
//     (~40 ns an entry) and compares with the header. Otherwise (no file,
//     dirty after a crash or after companies were added or deleted, a
//     loading command wrote the store, another embedder) loadAll writes a
//     new file from the vectors it decodes anyway, in the background of its
//     decoding, and renames it into place. A clean file whose sum does not
//     match (changed behind the engine's back) is rebuilt by a second pass
//     over the store at open.
//   - A refit writes a new file for the new vectors beside the new int8
//     codes and swaps it in with them.
//   - A loading command (Options.LoadOnly) deletes the file: it writes the
//     store without the in-memory index that knows the slots.
//
// Without a file (deleted, a failed write, an empty index not yet given its
// dimension at open) the final pass reads the store, as before.
const (
	flatFile       = "vectors-f16.bin"
	flatMagic      = "PROSPECT-F16-1\n\x00"
	flatHeaderSize = 4096
	// flatBufBytes is the size of the rebuild's write buffers.
	flatBufBytes = 4 << 20
)

// flatHeader is the file's first page.
type flatHeader struct {
	dim   int
	slots int
	sum   uint64
	// clean: the file holds the live vectors in the slot order a fresh
	// Open gives them (the store's key order), so loadAll may trust it.
	// snapLayout: it holds them in the slots of the resident snapshot
	// written at the same Close (companies were added or deleted since the
	// store's key order was the slot order), so only an Open from that
	// snapshot may trust it; loadAll rebuilds it. On disk one byte: 0
	// dirty, 1 clean, 2 snapshot layout (binaries before it read 2 as
	// dirty).
	clean, snapLayout bool
	embedder          string
}

func (h flatHeader) marshal() []byte {
	b := make([]byte, flatHeaderSize)
	copy(b, flatMagic)
	le := binary.LittleEndian
	le.PutUint32(b[16:], uint32(h.dim))
	le.PutUint64(b[20:], uint64(h.slots))
	le.PutUint64(b[28:], h.sum)
	switch {
	case h.clean:
		b[36] = 1
	case h.snapLayout:
		b[36] = 2
	}
	emb := h.embedder
	if len(emb) > 1024 {
		emb = emb[:1024]
	}
	le.PutUint16(b[37:], uint16(len(emb)))
	copy(b[39:], emb)
	end := 39 + len(emb)
	le.PutUint32(b[end:], crc32.Checksum(b[:end], castagnoli))
	return b
}

var errFlatHeader = errors.New("bad vector file header")

func readFlatHeader(f *os.File) (flatHeader, error) {
	var h flatHeader
	b := make([]byte, flatHeaderSize)
	if _, err := io.ReadFull(io.NewSectionReader(f, 0, flatHeaderSize), b); err != nil {
		return h, err
	}
	le := binary.LittleEndian
	n := int(le.Uint16(b[37:]))
	if !bytes.Equal(b[:16], []byte(flatMagic)) || n > 1024 || le.Uint32(b[39+n:]) != crc32.Checksum(b[:39+n], castagnoli) {
		return h, errFlatHeader
	}
	h.dim = int(le.Uint32(b[16:]))
	h.slots = int(le.Uint64(b[20:]))
	h.sum = le.Uint64(b[28:])
	h.clean, h.snapLayout = b[36] == 1, b[36] == 2
	h.embedder = string(b[39 : 39+n])
	return h, nil
}

// slotHash is a vector's part of the header's sum: the CRC-32C of its
// binary16 bytes with its slot, mixed (splitmix64's finalizer).
func slotHash(slot uint32, half []byte) uint64 {
	x := uint64(crc32.Checksum(half, castagnoli))<<32 | uint64(slot)
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// flatBuilds counts the files written (tests watch it).
var flatBuilds atomic.Int64

// flatVectors is an open vector file. Reads (under mu for reading) and
// slot writes (under mu) go through put and read; the header's state
// changes under writeMu.
type flatVectors struct {
	f *os.File
	// m maps the file (nil: pread). It may reach past the end of the
	// file, so that new slots need no new mapping; only slots below
	// slots, which are written, are read from it.
	m        []byte
	path     string
	dim      int
	embedder string
	slots    int    // slots the file covers
	sum      uint64 // sum of slotHash over the live slots
	// ordered: the live slots are where a fresh Open puts them (no company
	// added or deleted since the file was built), so Close may mark it
	// clean.
	ordered bool
	// snapLayout: Close wrote (or kept) a resident snapshot of these slots,
	// so an unordered file may be marked clean for that snapshot
	// (flatHeader.snapLayout).
	snapLayout bool
	// diskClean: the header on disk says clean.
	diskClean bool
	// broken: a write failed; the file is not read again and is removed at
	// Close.
	broken bool
}

func (fv *flatVectors) off(slot uint32) int64 {
	return flatHeaderSize + int64(slot)*int64(2*fv.dim)
}

// vec returns the binary16 vector at slot: from the mapping, or read into
// scratch (2*dim bytes); nil when the file cannot answer (the caller reads
// the store). The bytes are valid while the caller holds mu.
func (fv *flatVectors) vec(slot uint32, scratch []byte) []byte {
	if fv == nil || fv.broken || int(slot) >= fv.slots {
		return nil
	}
	off := fv.off(slot)
	end := off + int64(2*fv.dim)
	if end <= int64(len(fv.m)) {
		return fv.m[off:end:end]
	}
	if n, err := fv.f.ReadAt(scratch[:2*fv.dim], off); err != nil || n != 2*fv.dim {
		return nil
	}
	return scratch[:2*fv.dim]
}

// read copies the vector at slot into dst; false when the file cannot
// answer.
func (fv *flatVectors) read(slot uint32, dst []byte) bool {
	v := fv.vec(slot, dst)
	if v == nil {
		return false
	}
	copy(dst, v)
	return true
}

// flatMinRoom is the fewest new slots a mapping has room for (a variable
// so tests remap often).
var flatMinRoom = chunkDocs

// remap maps the file for at least slots slots and some room to grow
// (keeping the pread path if mapping fails). Callers hold mu, or own fv.
func (fv *flatVectors) remap(slots int) {
	if fv.m != nil && fv.off(uint32(slots)) <= int64(len(fv.m)) {
		return
	}
	room := slots + max(flatMinRoom, slots/8)
	m, err := mapFlat(fv.f, int(fv.off(uint32(room))))
	if err != nil {
		return
	}
	unmapFlat(fv.m)
	fv.m = m
}

// put writes the vector of a slot; live says the slot held a live vector
// before (its hash leaves the sum). Callers hold mu.
func (fv *flatVectors) put(slot uint32, half []byte, live bool) {
	if fv == nil || fv.broken {
		return
	}
	if live {
		fv.drop(slot)
	}
	if _, err := fv.f.WriteAt(half[:2*fv.dim], fv.off(slot)); err != nil {
		fv.broken = true
		return
	}
	fv.sum += slotHash(slot, half)
	if int(slot) >= fv.slots {
		fv.slots = int(slot) + 1
		if fv.m != nil {
			fv.remap(fv.slots)
		}
	}
}

// drop takes a live slot's vector out of the sum (a delete, or before an
// overwrite).
func (fv *flatVectors) drop(slot uint32) {
	if fv == nil || fv.broken {
		return
	}
	old := make([]byte, 2*fv.dim)
	if !fv.read(slot, old) {
		fv.broken = true
		return
	}
	fv.sum -= slotHash(slot, old)
}

// markDirty clears the clean flag on disk before a write reaches the store.
// Callers hold writeMu.
func (fv *flatVectors) markDirty() {
	if fv == nil || fv.broken || !fv.diskClean {
		return
	}
	h := flatHeader{dim: fv.dim, slots: fv.slots, sum: fv.sum, embedder: fv.embedder}
	if _, err := fv.f.WriteAt(h.marshal(), 0); err != nil || fv.f.Sync() != nil {
		fv.broken = true
		return
	}
	fv.diskClean = false
}

// close closes the file, marking it clean when it may be trusted at the
// next Open, removing it when a write failed.
func (fv *flatVectors) close(storeOK bool) error {
	if fv == nil {
		return nil
	}
	unmapFlat(fv.m)
	fv.m = nil
	if fv.broken {
		fv.f.Close()
		return os.Remove(fv.path)
	}
	if storeOK && (fv.ordered || fv.snapLayout) && !fv.diskClean {
		h := flatHeader{dim: fv.dim, slots: fv.slots, sum: fv.sum, clean: fv.ordered, snapLayout: !fv.ordered, embedder: fv.embedder}
		err := fv.f.Sync()
		if err == nil {
			_, err = fv.f.WriteAt(h.marshal(), 0)
		}
		if err == nil {
			err = fv.f.Sync()
		}
		if err != nil {
			fv.f.Close()
			return fmt.Errorf("close vector file: %w", err)
		}
	}
	return fv.f.Close()
}

// flatBuilder writes a new vector file (path+".tmp") slot by slot, on a
// goroutine of its own: consecutive slots are gathered into large
// sequential writes.
type flatBuilder struct {
	f      *os.File
	path   string
	dim    int
	sum    uint64
	slots  int
	buf    []byte
	at     int64 // file offset of buf[0]
	writes chan flatWrite
	free   chan []byte
	done   chan error
}

type flatWrite struct {
	b  []byte
	at int64
}

func newFlatBuilder(path string, dim int) (*flatBuilder, error) {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("create vector file: %w", err)
	}
	if err := privatefs.Restrict(tmp); err != nil {
		f.Close()
		os.Remove(tmp)
		return nil, err
	}
	b := &flatBuilder{f: f, path: path, dim: dim, writes: make(chan flatWrite, 2), free: make(chan []byte, 3), done: make(chan error, 1)}
	for range 3 {
		b.free <- make([]byte, 0, flatBufBytes)
	}
	b.buf = <-b.free
	go func() {
		var err error
		for w := range b.writes {
			if err == nil {
				_, err = f.WriteAt(w.b, w.at)
			}
			b.free <- w.b[:0]
		}
		b.done <- err
	}()
	return b, nil
}

// add writes the vector of a slot (each slot once).
func (b *flatBuilder) add(slot uint32, half []byte) {
	half = half[:2*b.dim]
	off := flatHeaderSize + int64(slot)*int64(2*b.dim)
	if len(b.buf) > 0 && (b.at+int64(len(b.buf)) != off || len(b.buf)+len(half) > cap(b.buf)) {
		b.flush()
	}
	if len(b.buf) == 0 {
		b.at = off
	}
	b.buf = append(b.buf, half...)
	b.sum += slotHash(slot, half)
	b.slots = max(b.slots, int(slot)+1)
}

func (b *flatBuilder) flush() {
	if len(b.buf) == 0 {
		return
	}
	b.writes <- flatWrite{b: b.buf, at: b.at}
	b.buf = <-b.free
}

// finish writes the header (not clean: Close marks it) and renames the file
// into place.
func (b *flatBuilder) finish(embedder string, slots int) (*flatVectors, error) {
	b.flush()
	close(b.writes)
	err := <-b.done
	slots = max(slots, b.slots)
	if err == nil {
		// Slots never written (freed ones at the end) read as zeros, not
		// past the end of the file.
		err = b.f.Truncate(flatHeaderSize + int64(slots)*int64(2*b.dim))
	}
	if err == nil {
		h := flatHeader{dim: b.dim, slots: slots, sum: b.sum, embedder: embedder}
		_, err = b.f.WriteAt(h.marshal(), 0)
	}
	if err == nil {
		err = os.Rename(b.path+".tmp", b.path)
	}
	if err != nil {
		b.f.Close()
		os.Remove(b.path + ".tmp")
		return nil, fmt.Errorf("write vector file: %w", err)
	}
	flatBuilds.Add(1)
	fv := &flatVectors{f: b.f, path: b.path, dim: b.dim, embedder: embedder, slots: slots, sum: b.sum}
	fv.remap(slots)
	return fv, nil
}

// abort drops an unfinished file.
func (b *flatBuilder) abort() {
	if b == nil {
		return
	}
	close(b.writes)
	<-b.done
	b.f.Close()
	os.Remove(b.path + ".tmp")
}

// flatLoad is loadAll's side of the file: it checks a trusted file or
// builds a new one from the vectors loadAll decodes.
type flatLoad struct {
	path    string
	trusted *os.File   // a clean file to check
	head    flatHeader // its header
	sum     uint64
	build   *flatBuilder
}

// startFlatLoad prepares the file for loadAll. Callers have read the meta.
func (e *Engine) startFlatLoad() *flatLoad {
	path := filepath.Join(e.dir, flatFile)
	os.Remove(path + ".tmp")
	if e.loadOnly {
		// A loading command writes the store without knowing slots.
		os.Remove(path)
		return nil
	}
	if e.dim == 0 {
		return nil
	}
	fl := &flatLoad{path: path}
	if f, err := os.OpenFile(path, os.O_RDWR, 0); err == nil {
		h, err := readFlatHeader(f)
		if err == nil && h.clean && h.dim == e.dim && h.embedder == e.embedderKey() {
			fl.trusted, fl.head = f, h
			return fl
		}
		f.Close()
	}
	b, err := newFlatBuilder(path, e.dim)
	if err != nil {
		return nil // searches read the store
	}
	fl.build = b
	return fl
}

// add takes a loaded entry's vector at its slot.
func (fl *flatLoad) add(slot uint32, en *entry, scratch []byte) {
	if fl == nil {
		return
	}
	half := en.halfBytes(scratch)
	if fl.build != nil {
		fl.build.add(slot, half)
		return
	}
	fl.sum += slotHash(slot, half)
}

// finish installs the file after loadAll placed n entries (failed: loadAll
// failed, drop what was built).
func (e *Engine) finishFlatLoad(fl *flatLoad, n int, failed bool) {
	if fl == nil {
		return
	}
	if failed {
		fl.build.abort()
		if fl.trusted != nil {
			fl.trusted.Close()
		}
		return
	}
	if fl.trusted != nil {
		fi, err := fl.trusted.Stat()
		if err == nil && fl.sum == fl.head.sum && fl.head.slots >= n && fi.Size() >= flatHeaderSize+int64(n)*int64(2*e.dim) {
			e.flat = &flatVectors{f: fl.trusted, path: fl.path, dim: e.dim, embedder: fl.head.embedder,
				slots: n, sum: fl.sum, ordered: true, diskClean: true}
			e.flat.remap(n)
			return
		}
		// Clean but not the store's vectors: rebuild from the store.
		fl.trusted.Close()
		e.flat = e.rebuildFlat(fl.path, n)
		return
	}
	fv, err := fl.build.finish(e.embedderKey(), n)
	if err != nil {
		return
	}
	fv.ordered = true
	e.flat = fv
}

// rebuildFlat writes a new file from the stored entries (at open, before
// any write). nil when it fails: searches read the store.
func (e *Engine) rebuildFlat(path string, n int) *flatVectors {
	b, err := newFlatBuilder(path, e.dim)
	if err != nil {
		return nil
	}
	it, err := e.db.NewIter(&pebble.IterOptions{LowerBound: []byte(prefixEntry), UpperBound: []byte("x0")})
	if err != nil {
		b.abort()
		return nil
	}
	var en entry
	scratch := make([]byte, 2*e.dim)
	for it.First(); it.Valid(); it.Next() {
		id, ok := e.domains.lookup(string(it.Key()[len(prefixEntry):]))
		if !ok || en.unmarshal(it.Value()) != nil || len(en.codes) != e.dim {
			continue // loadAll placed every readable entry
		}
		b.add(id, en.halfBytes(scratch))
	}
	if err := errors.Join(it.Error(), it.Close()); err != nil {
		b.abort()
		return nil
	}
	fv, err := b.finish(e.embedderKey(), n)
	if err != nil {
		return nil
	}
	fv.ordered = true
	return fv
}

// embedderKey names the embedder in the header. Callers hold mu or run
// before the engine is shared.
func (e *Engine) embedderKey() string {
	if e.meta == nil {
		return ""
	}
	return e.meta.EmbedderID
}

// halfBytes returns the entry's binary16 vector: the stored bytes, or
// those of its full vector written into scratch (2*dim bytes).
func (en *entry) halfBytes(scratch []byte) []byte {
	if en.vector == nil {
		return en.half
	}
	scratch = scratch[:2*len(en.vector)]
	putHalfs(scratch, en.vector)
	return scratch
}

// newEmptyFlat gives an empty index (SetMeta, no companies) a new file.
// Callers hold mu and writeMu.
func (e *Engine) newEmptyFlat() {
	if e.loadOnly {
		return
	}
	if e.flat != nil {
		e.flat.broken = true // removed, and not read again
		e.flat.close(false)
		e.flat = nil
	}
	b, err := newFlatBuilder(filepath.Join(e.dir, flatFile), e.dim)
	if err != nil {
		return
	}
	fv, err := b.finish(e.embedderKey(), 0)
	if err != nil {
		return
	}
	fv.ordered = true
	e.flat = fv
}
