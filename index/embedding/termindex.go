package embedding

import "math/bits"

// termIndex maps term hashes to vocabulary rows: an open-addressing table
// with linear probing, at most half full. One probe usually touches one
// cache line, where a Go map touches two; Embed looks up every term of a
// document, so this is a fifth of its time.
type termIndex struct {
	slots []termSlot
	shift uint
}

type termSlot struct {
	h   uint64
	row int32 // row + 1; 0 marks an empty slot
}

func newTermIndex(hashes []uint64) termIndex {
	size := 1 << bits.Len(uint(2*len(hashes)))
	t := termIndex{slots: make([]termSlot, size), shift: uint(64 - bits.TrailingZeros(uint(size)))}
	mask := uint64(size - 1)
	for row, h := range hashes {
		i := t.home(h)
		for t.slots[i].row != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = termSlot{h, int32(row) + 1}
	}
	return t
}

// home is the first slot probed for h (Fibonacci hashing: the top bits of
// h times the golden ratio, well spread even for similar hashes).
func (t termIndex) home(h uint64) uint64 { return (h * 0x9E3779B97F4A7C15) >> t.shift }

func (t termIndex) get(h uint64) (int32, bool) {
	mask := uint64(len(t.slots) - 1)
	for i := t.home(h); ; i = (i + 1) & mask {
		s := t.slots[i]
		if s.row == 0 {
			return 0, false
		}
		if s.h == h {
			return s.row - 1, true
		}
	}
}
