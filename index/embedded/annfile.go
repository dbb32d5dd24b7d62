package embedded

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"hash/fnv"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"

	"github.com/openprospect/prospectd/internal/privatefs"
)

// The ANN index is saved at Close in annFile beside the store, so a warm
// restart does not train or assign again. The assignments are listed in
// slot order, the live slots ascending, with a hash of their domains in
// that order: the next open reads them straight onto its slots when they
// hold the same domains, as an open from the resident snapshot written by
// the same Close does (renumbering runs before the file is written). A
// file that does not match the opened index (the snapshot was not usable,
// or a loading command changed the companies since) keeps its centroids
// and reassigns every company in the background.
//
// Layout, little-endian: annMagic, meta key u64, dim u32, nlist u32,
// trained-for u64, companies u64, domains hash u64, nlist*dim float32
// centroids, nlist*dim float32 member means, nlist*dim float32 member
// variances, companies u16 lists (annNone: unassigned), CRC-32C of all
// that. Older files are not read: the index is trained again. Version 2
// listed the companies in domain order, which took a sort of every domain
// at each open and Close (6 s of CPU at 10M, most of a warm restart).
const (
	annFile  = "ann-companies.bin"
	annMagic = "PROSPECT-IVF-3\n"
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// annMetaKey identifies the embedder the vectors come from; a refit
// changes it. Callers hold mu.
func (e *Engine) annMetaKey() uint64 {
	h := fnv.New64a()
	if e.meta != nil {
		fmt.Fprintf(h, "%s\x00%d\x00%d\x00", e.meta.EmbedderID, e.meta.Dimension, e.meta.FitRecords)
		h.Write(e.meta.Model)
	}
	return h.Sum64()
}

// domainsHash hashes the domains of the given slots in order: FNV-1a over
// blocks of domainsHashBlock slots, hashed on every core, then over the
// blocks' hashes.
func domainsHash(domains *domainTable, order []uint32) uint64 {
	blocks := make([]uint64, (len(order)+domainsHashBlock-1)/domainsHashBlock)
	parallel(len(blocks), 1, func(_, lo, hi int) {
		var buf []byte
		for b := lo; b < hi; b++ {
			h := fnv.New64a()
			for _, id := range order[b*domainsHashBlock : min(len(order), (b+1)*domainsHashBlock)] {
				buf = append(append(buf[:0], domains.get(id)...), '\n')
				h.Write(buf)
			}
			blocks[b] = h.Sum64()
		}
	})
	h := fnv.New64a()
	h.Write(binary.LittleEndian.AppendUint64(nil, uint64(len(order))))
	for _, b := range blocks {
		h.Write(binary.LittleEndian.AppendUint64(nil, b))
	}
	return h.Sum64()
}

const domainsHashBlock = 1 << 18

// saveANN writes the index at Close (writers and the builder have
// stopped). A failure leaves no file: the next open rebuilds.
func (e *Engine) saveANN() {
	path := filepath.Join(e.dir, annFile)
	e.mu.RLock()
	defer e.mu.RUnlock()
	a := e.ann.idx
	if a == nil || e.loadOnly || len(a.mean) != len(a.cent) {
		return
	}
	if err := e.writeANN(path, a); err != nil {
		os.Remove(path + ".tmp")
		os.Remove(path)
	}
}

func (e *Engine) writeANN(path string, a *annIndex) error {
	order := candIDs(e.live, int(e.live.GetCardinality()), nil)
	f, err := os.OpenFile(path+".tmp", os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := privatefs.Restrict(path + ".tmp"); err != nil {
		return err
	}
	crc := crc32.New(castagnoli)
	w := bufio.NewWriterSize(io.MultiWriter(f, crc), 1<<20)
	var b []byte
	b = append(b, annMagic...)
	b = binary.LittleEndian.AppendUint64(b, a.metaKey)
	b = binary.LittleEndian.AppendUint32(b, uint32(a.dim))
	b = binary.LittleEndian.AppendUint32(b, uint32(a.nlist))
	b = binary.LittleEndian.AppendUint64(b, uint64(a.trainedN))
	b = binary.LittleEndian.AppendUint64(b, uint64(len(order)))
	b = binary.LittleEndian.AppendUint64(b, domainsHash(e.domains, order))
	for _, xs := range [][]float32{a.cent, a.mean, a.vari} {
		for _, x := range xs {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
		}
	}
	w.Write(b)
	b = b[:0]
	for _, id := range order {
		l := uint16(annNone)
		if int(id) < len(a.assign) {
			l = a.assign[id]
		}
		b = binary.LittleEndian.AppendUint16(b, l)
		if len(b) >= 1<<16 {
			w.Write(b)
			b = b[:0]
		}
	}
	w.Write(b)
	if err := w.Flush(); err != nil {
		return err
	}
	if _, err := f.Write(binary.LittleEndian.AppendUint32(nil, crc.Sum32())); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(path+".tmp", path)
}

var errANNFile = errors.New("ann file does not match")

// loadANN installs the saved index, if any, right after loadAll (no
// writer yet). Unassigned slots are left dirty for the
// builder.
func (e *Engine) loadANN() {
	a, err := e.readANN(filepath.Join(e.dir, annFile))
	if err != nil {
		return
	}
	e.ann.idx = a
	// As loadAll: hand back the read's buffers (the file, the listing and
	// its sort keys: ~250 MB at 10M) rather than leave the server holding
	// them.
	debug.FreeOSMemory()
}

func (e *Engine) readANN(path string) (*annIndex, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	const head = len(annMagic) + 8 + 4 + 4 + 8 + 8 + 8
	if len(raw) < head+4 || string(raw[:len(annMagic)]) != annMagic {
		return nil, errANNFile
	}
	body := raw[:len(raw)-4]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(raw[len(raw)-4:]) {
		return nil, errANNFile
	}
	p := body[len(annMagic):]
	key := binary.LittleEndian.Uint64(p)
	dim := int(binary.LittleEndian.Uint32(p[8:]))
	nlist := int(binary.LittleEndian.Uint32(p[12:]))
	trained := int(binary.LittleEndian.Uint64(p[16:]))
	n := int(binary.LittleEndian.Uint64(p[24:]))
	hash := binary.LittleEndian.Uint64(p[32:])
	p = p[40:]
	if key != e.annMetaKey() || dim != e.dim || nlist <= 0 || nlist > annMaxLists || len(p) != 3*nlist*dim*4+n*2 {
		return nil, errANNFile
	}
	floats := func() []float32 {
		xs := make([]float32, nlist*dim)
		for i := range xs {
			xs[i] = math.Float32frombits(binary.LittleEndian.Uint32(p[i*4:]))
		}
		p = p[nlist*dim*4:]
		return xs
	}
	cent := floats()
	a := newANN(dim, cent, key, trained)
	a.setStats(floats(), floats())
	a.assign = make([]uint16, e.domains.slots())
	for i := range a.assign {
		a.assign[i] = annNone
	}
	order := candIDs(e.live, int(e.live.GetCardinality()), nil)
	if len(order) != n || domainsHash(e.domains, order) != hash {
		// Another set of companies: keep the centroids, assign again.
		a.dirty = e.live.Clone()
		return a, nil
	}
	byList := make([][]uint32, nlist)
	for i, id := range order {
		l := binary.LittleEndian.Uint16(p[i*2:])
		if int(l) >= nlist {
			a.dirty.Add(id)
			continue
		}
		a.assign[id] = l
		byList[l] = append(byList[l], id)
	}
	for l, ids := range byList {
		a.lists[l].AddMany(ids)
		// After a renumbering a list is a run of slots: one run container.
		a.lists[l].RunOptimize()
	}
	return a, nil
}
