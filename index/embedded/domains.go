package embedded

import (
	"encoding/binary"
	"hash/maphash"
	"slices"
	"unsafe"
)

// domainTable maps each indexed domain to its slot and back, in about a
// third of the memory of a map[string]uint32 beside a []string (at 1M
// demo companies: 43 against 95 bytes a company, docs/benchmarks.md
// "Non-vector resident bytes").
//
// The domains' bytes live in an arena of fixed-size chunks, each domain
// as its uvarint length and its bytes; refs holds a slot's position in the
// arena. Chunks are append-only: bytes once written never change (a
// chunk's spare capacity is written, never its used part), so get can
// return a string viewing the arena without copying, and such a string
// stays valid whatever the table does later (a compaction writes new
// chunks and leaves the old ones to the collector). Strings that leave the
// engine are copied (they would pin a whole chunk).
//
// The index is open addressing with linear probing over 8-byte cells: the
// high 32 bits of the domain's 64-bit hash and slot+1 (0: empty). A cell's
// home position is given by the top bits of its stored hash, so growing
// the table re-places cells without reading the arena; a lookup compares
// the arena's bytes only when the stored hash bits match. Removal shifts
// the following cells back (no tombstones).
type domainTable struct {
	seed   maphash.Seed
	chunks [][]byte
	refs   []uint64 // slot -> chunk<<32 | offset; noDomain for a free slot
	cells  []uint64
	shift  uint // 32 - log2(len(cells))
	n      int  // domains held
	live   int  // arena bytes of the domains held
	dead   int  // arena bytes of removed domains
	// compactions counts arena compactions (for tests).
	compactions int
}

const (
	noDomain = ^uint64(0)
	// domainChunk is the arena's chunk size; a longer domain gets a chunk
	// of its own.
	domainChunk = 1 << 20
	// minCells is the cell count of a table's first allocation.
	minCells = 1 << 10
)

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

func (t *domainTable) hash(d string) uint32 {
	return uint32(maphash.String(t.seed, d) >> 32)
}

// get returns the domain of slot, or "" for a free or unknown slot. The
// string views the arena: copy it before it leaves the engine.
func (t *domainTable) get(slot uint32) string {
	if int(slot) >= len(t.refs) || t.refs[slot] == noDomain {
		return ""
	}
	r := t.refs[slot]
	c := t.chunks[r>>32]
	off := int(uint32(r))
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
		if uint32(c>>32) == h {
			slot := uint32(c) - 1
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
	if (t.n+1)*4 > len(t.cells)*3 {
		t.grow()
	}
	for int(slot) >= len(t.refs) {
		t.refs = append(t.refs, noDomain)
	}
	t.refs[slot] = t.store(d)
	t.live += sizeInArena(d)
	t.n++
	t.place(uint64(t.hash(d))<<32 | uint64(slot+1))
}

// place puts a cell at the first empty position from its home.
func (t *domainTable) place(c uint64) {
	mask := len(t.cells) - 1
	i := int(uint32(c>>32) >> t.shift)
	for t.cells[i] != 0 {
		i = (i + 1) & mask
	}
	t.cells[i] = c
}

func (t *domainTable) grow() {
	old := t.cells
	size := max(minCells, 2*len(old))
	t.cells = make([]uint64, size)
	t.shift = 32
	for s := size; s > 1; s >>= 1 {
		t.shift--
	}
	for _, c := range old {
		if c != 0 {
			t.place(c)
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
	return uint64(last)<<32 | uint64(off)
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
		if uint32(c>>32) == h && t.get(uint32(c)-1) == d {
			break
		}
	}
	slot := uint32(t.cells[i]) - 1
	t.removeCell(i)
	t.refs[slot] = noDomain
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
		home := int(uint32(t.cells[j]>>32) >> t.shift)
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
	for slot, r := range t.refs {
		if r == noDomain {
			continue
		}
		c := old[r>>32]
		off := int(uint32(r))
		n, w := binary.Uvarint(c[off:])
		// A view of the old chunk, which store does not write.
		t.refs[slot] = t.store(unsafe.String(unsafe.SliceData(c[off+w:]), int(n)))
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
	c.refs = append([]uint64(nil), t.refs...)
	c.cells = append([]uint64(nil), t.cells...)
	return &c
}

// trim drops the spare capacity of refs (after a load).
func (t *domainTable) trim() {
	t.refs = slices.Clip(slices.Clone(t.refs))
}
