package embedded

import (
	"encoding/binary"
	"hash/maphash"
	"slices"
	"unsafe"
)

// domainTable maps each indexed domain to its slot and back, in about a
// third of the memory of a map[string]uint32 beside a []string (at 1M
// demo companies: 41 against 96 bytes a company, docs/benchmarks.md
// "Non-vector resident bytes a company").
//
// The domains' bytes live in an arena of fixed-size chunks, each domain
// as its uvarint length and its bytes; a slot's position in the arena is
// chunk<<20 | offset (a domain longer than a chunk starts a chunk of its
// own), kept in 4 bytes a slot while the arena has fewer than hiChunks
// chunks (4 GiB), with a fifth byte a slot beyond. Chunks are append-only: bytes once written never change (a
// chunk's spare capacity is written, never its used part), so get can
// return a string viewing the arena without copying, and such a string
// stays valid whatever the table does later (a compaction writes new
// chunks and leaves the old ones to the collector). Strings that leave the
// engine are copied (they would pin a whole chunk).
//
// The index is open addressing with linear probing over 4-byte cells:
// slot+1 (0: empty) in the low cellSlotBits bits and a 5-bit tag of the
// domain's hash above. A cell's home position is given by the top bits of
// the domain's 32-bit hash; a lookup compares the arena's bytes only when
// the tag matches (one probe in 32 otherwise). Growing the table and
// removal, which shifts the following cells back (no tombstones), hash
// the domains they move again from the arena. Cells of 8 bytes holding
// the whole hash spared those reads, at 13.4 bytes a company at 10M
// against 6.7 (docs/benchmarks.md "Resident memory at 10M (issue 24)").
type domainTable struct {
	seed   maphash.Seed
	chunks [][]byte
	refs   []uint32 // slot -> low 32 bits of its position; see ref
	refsHi []uint8  // the position's high bits; nil while the arena is small
	cells  []uint32
	shift  uint // 32 - log2(len(cells))
	n      int  // domains held
	live   int  // arena bytes of the domains held
	dead   int  // arena bytes of removed domains
	// compactions counts arena compactions (for tests).
	compactions int
}

const (
	// noDomain is the position of a free slot.
	noDomain   = 1<<40 - 1
	noDomainLo = uint32(noDomain & (1<<32 - 1))
	noDomainHi = uint8(noDomain >> 32)
	// domainChunk is the arena's chunk size (1<<chunkShift); a longer
	// domain gets a chunk of its own.
	chunkShift  = 20
	domainChunk = 1 << chunkShift
	// minCells is the cell count of a table's first allocation.
	minCells = 1 << 10
	// cellSlotBits is the bits of a cell holding slot+1; the rest hold
	// the tag.
	cellSlotBits = 27
	cellSlotMask = 1<<cellSlotBits - 1
	// maxDomainSlots bounds the slots a table can hold (134M).
	maxDomainSlots = cellSlotMask - 1
)

// cellOf is the cell of slot for a domain of hash h.
func cellOf(h uint32, slot uint32) uint32 { return h<<cellSlotBits | (slot + 1) }

// cellSlot is the slot of a cell in use.
func cellSlot(c uint32) uint32 { return c&cellSlotMask - 1 }

// sameTag says whether cell c may hold a domain of hash h.
func sameTag(c, h uint32) bool { return c>>cellSlotBits == h&(1<<(32-cellSlotBits)-1) }

// hiChunks is the chunk count from which positions need refsHi (a
// variable for tests): below it, no position is noDomain's low 32 bits.
var hiChunks = 1<<(32-chunkShift) - 1

// compactMin is the dead arena bytes below which removal never compacts (a
// variable for tests).
var compactMin = 1 << 20

func newDomainTable() *domainTable {
	return &domainTable{seed: maphash.MakeSeed()}
}

// len returns the number of domains held.
func (t *domainTable) len() int { return t.n }

// slots returns one more than the highest slot ever set (free slots
// included).
func (t *domainTable) slots() int { return len(t.refs) }

// ref returns slot's position in the arena (noDomain for a free slot).
func (t *domainTable) ref(slot uint32) uint64 {
	lo := t.refs[slot]
	if t.refsHi != nil {
		return uint64(t.refsHi[slot])<<32 | uint64(lo)
	}
	if lo == noDomainLo {
		return noDomain
	}
	return uint64(lo)
}

func (t *domainTable) setRef(slot uint32, r uint64) {
	t.refs[slot] = uint32(r)
	if t.refsHi == nil && r != noDomain && r>>chunkShift >= uint64(hiChunks) {
		t.refsHi = make([]uint8, len(t.refs), cap(t.refs))
		for s, lo := range t.refs {
			if lo == noDomainLo && uint32(s) != slot {
				t.refsHi[s] = noDomainHi
			}
		}
	}
	if t.refsHi != nil {
		t.refsHi[slot] = uint8(r >> 32)
	}
}

func (t *domainTable) hash(d string) uint32 {
	return uint32(maphash.String(t.seed, d) >> 32)
}

// get returns the domain of slot, or "" for a free or unknown slot. The
// string views the arena: copy it before it leaves the engine.
func (t *domainTable) get(slot uint32) string {
	if int(slot) >= len(t.refs) {
		return ""
	}
	r := t.ref(slot)
	if r == noDomain {
		return ""
	}
	c := t.chunks[r>>chunkShift]
	off := int(r & (domainChunk - 1))
	n, w := binary.Uvarint(c[off:])
	off += w
	if n == 0 {
		return ""
	}
	return unsafe.String(&c[off], int(n))
}

// lookup returns the slot of domain d.
func (t *domainTable) lookup(d string) (uint32, bool) {
	if t.n == 0 {
		return 0, false
	}
	h := t.hash(d)
	mask := len(t.cells) - 1
	for i := int(h >> t.shift); ; i = (i + 1) & mask {
		c := t.cells[i]
		if c == 0 {
			return 0, false
		}
		if sameTag(c, h) {
			slot := cellSlot(c)
			if t.get(slot) == d {
				return slot, true
			}
		}
	}
}

// add records d at slot, which must be free or new (slots() or, for a
// slot never used, beyond: the slots between are left free); d must not be
// held already.
func (t *domainTable) add(slot uint32, d string) {
	if slot > maxDomainSlots {
		panic("embedded: domain table over 134M slots")
	}
	if (t.n+1)*4 > len(t.cells)*3 {
		t.grow()
	}
	for int(slot) >= len(t.refs) {
		t.refs = append(t.refs, noDomainLo)
		if t.refsHi != nil {
			t.refsHi = append(t.refsHi, noDomainHi)
		}
	}
	t.setRef(slot, t.store(d))
	t.live += sizeInArena(d)
	t.n++
	h := t.hash(d)
	t.place(h, cellOf(h, slot))
}

// place puts cell c of a domain of hash h at the first empty position from
// its home.
func (t *domainTable) place(h, c uint32) {
	mask := len(t.cells) - 1
	i := int(h >> t.shift)
	for t.cells[i] != 0 {
		i = (i + 1) & mask
	}
	t.cells[i] = c
}

// home is the home position of cell c, from its domain's hash.
func (t *domainTable) home(c uint32) int {
	return int(t.hash(t.get(cellSlot(c))) >> t.shift)
}

func (t *domainTable) grow() {
	old := t.cells
	size := max(minCells, 2*len(old))
	t.cells = make([]uint32, size)
	t.shift = 32
	for s := size; s > 1; s >>= 1 {
		t.shift--
	}
	for _, c := range old {
		if c != 0 {
			t.place(t.hash(t.get(cellSlot(c))), c)
		}
	}
}

func sizeInArena(d string) int {
	return len(d) + uvarintLen(uint64(len(d)))
}

func uvarintLen(v uint64) int {
	n := 1
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}

// store appends d to the arena and returns its ref.
func (t *domainTable) store(d string) uint64 {
	need := sizeInArena(d)
	last := len(t.chunks) - 1
	if last < 0 || cap(t.chunks[last])-len(t.chunks[last]) < need {
		t.chunks = append(t.chunks, make([]byte, 0, max(domainChunk, need)))
		last++
	}
	c := t.chunks[last]
	off := len(c)
	c = binary.AppendUvarint(c, uint64(len(d)))
	t.chunks[last] = append(c, d...)
	if uint64(last) >= noDomain>>chunkShift {
		panic("embedded: domain arena over 1 TiB")
	}
	return uint64(last)<<chunkShift | uint64(off)
}

// remove forgets domain d and frees its slot, returning it.
func (t *domainTable) remove(d string) (uint32, bool) {
	if t.n == 0 {
		return 0, false
	}
	h := t.hash(d)
	mask := len(t.cells) - 1
	i := int(h >> t.shift)
	for ; ; i = (i + 1) & mask {
		c := t.cells[i]
		if c == 0 {
			return 0, false
		}
		if sameTag(c, h) && t.get(cellSlot(c)) == d {
			break
		}
	}
	slot := cellSlot(t.cells[i])
	t.removeCell(i)
	t.setRef(slot, noDomain)
	t.n--
	size := sizeInArena(d)
	t.live -= size
	t.dead += size
	if t.dead >= compactMin && t.dead > t.live {
		t.compact()
	}
	return slot, true
}

// removeCell empties cell i by backward-shift deletion: every following
// cell of the run whose home is not between the hole and it moves up.
func (t *domainTable) removeCell(i int) {
	mask := len(t.cells) - 1
	for j := (i + 1) & mask; t.cells[j] != 0; j = (j + 1) & mask {
		home := t.home(t.cells[j])
		if (j-home)&mask >= (j-i)&mask {
			t.cells[i] = t.cells[j]
			i = j
		}
	}
	t.cells[i] = 0
}

// compact copies the held domains into new chunks. The old chunks are not
// written, so strings viewing them stay valid.
func (t *domainTable) compact() {
	old := t.chunks
	t.chunks = nil
	for slot := range uint32(len(t.refs)) {
		r := t.ref(slot)
		if r == noDomain {
			continue
		}
		c := old[r>>chunkShift]
		off := int(r & (domainChunk - 1))
		n, w := binary.Uvarint(c[off:])
		// A view of the old chunk, which store does not write.
		t.setRef(slot, t.store(unsafe.String(unsafe.SliceData(c[off+w:]), int(n))))
	}
	t.dead = 0
	t.compactions++
}

// clone returns a copy of t that later changes to t do not affect (the
// arena's used bytes are shared: they never change).
func (t *domainTable) clone() *domainTable {
	c := *t
	c.chunks = make([][]byte, len(t.chunks))
	for i, ch := range t.chunks {
		c.chunks[i] = ch[:len(ch):len(ch)]
	}
	c.refs = slices.Clone(t.refs)
	c.refsHi = slices.Clone(t.refsHi)
	c.cells = slices.Clone(t.cells)
	return &c
}

// trim drops the spare capacity of refs (after a load).
func (t *domainTable) trim() {
	t.refs = slices.Clip(slices.Clone(t.refs))
	t.refsHi = slices.Clip(slices.Clone(t.refsHi))
}
