package embedded

import "encoding/binary"

// The screen's weighted pass over a kept set's copy of sketches
// (signCopy, filtercache.go). The copy is laid out for it in blocks of 32
// candidates: byte m of a block's 32 sketches, then byte m+1, and so on
// (1 KiB a block at 256 dimensions), so that one 32-byte load holds the
// same 8 dimensions of 32 candidates. A byte's estimate (the query's
// weight on each of its 8 dimensions where the candidate's sign agrees)
// is the sum of two 16-entry tables, one a nibble, made once a query
// (sketchTables); with AVX2 one VPSHUFB looks up 32 candidates' nibbles at
// once (sketchscan_amd64.s), where planes3.score spends twelve POPCNTs a
// candidate. The estimates are planes3.score's to the unit
// (TestSketchBlocks).

const (
	// blockDocs is the candidates of a block.
	blockDocs = 32
	// blockBytes is a block's bytes: 32 sketches of 32 bytes.
	blockBytes = blockDocs * 32
)

// sketchTables returns the nibble tables of qp (4-word sketches, three
// planes): for byte m, the estimate of each value of its low nibble at
// 32m and of its high nibble at 32m+16. A weight is at most 7, so an entry
// at most 28.
func sketchTables(qp *qplanes) *[blockBytes]byte {
	var tab [blockBytes]byte
	for m := range 32 {
		for half := range 2 {
			var w, s [4]int
			for b := range 4 {
				dim := 8*m + 4*half + b
				word, bit := dim/64, uint(dim%64)
				for p := range 3 {
					w[b] += int(qp.planes[p][word]>>bit&1) << p
				}
				s[b] = int(qp.sign[word] >> bit & 1)
			}
			for v := range 16 {
				t := 0
				for b := range 4 {
					if v>>b&1 == s[b] {
						t += w[b]
					}
				}
				tab[32*m+16*half+v] = byte(t)
			}
		}
	}
	return &tab
}

// putBlock8 writes the sketches xs of 8 candidates as candidates j0 to
// j0+7 of block blk (j0 a multiple of 8): for each word, an 8×8
// transpose of bytes in three rounds of swaps (4×4 blocks, 2×2, single
// bytes), then 8 stores of 8 bytes. Writing each byte on its own cost
// ~60 ns of CPU a candidate, more than reading its sketch.
func putBlock8(blk []byte, j0 int, xs *[8][4]uint64) {
	for w := range 4 {
		var a [8]uint64
		for j := range a {
			a[j] = xs[j][w]
		}
		for j := range 4 {
			t := (a[j]>>32 ^ a[j+4]) & 0x00000000ffffffff
			a[j] ^= t << 32
			a[j+4] ^= t
		}
		for _, j := range [4]int{0, 1, 4, 5} {
			t := (a[j]>>16 ^ a[j+2]) & 0x0000ffff0000ffff
			a[j] ^= t << 16
			a[j+2] ^= t
		}
		for j := 0; j < 8; j += 2 {
			t := (a[j]>>8 ^ a[j+1]) & 0x00ff00ff00ff00ff
			a[j] ^= t << 8
			a[j+1] ^= t
		}
		for k, v := range a {
			binary.LittleEndian.PutUint64(blk[32*(8*w+k)+j0:], v)
		}
	}
}

// scanBlocks writes the estimates of blocks (whole blocks) to out, 32 a
// block.
func scanBlocks(tab *[blockBytes]byte, blocks []byte, out []uint16) {
	n := len(blocks) / blockBytes
	if n == 0 {
		return
	}
	if useAVX2 {
		scanBlocksAVX2(&tab[0], &blocks[0], n, &out[0])
		return
	}
	for b := range n {
		blk := blocks[b*blockBytes : (b+1)*blockBytes]
		o := out[b*blockDocs : (b+1)*blockDocs]
		for j := range o {
			v := 0
			for m := range 32 {
				x := blk[32*m+j]
				v += int(tab[32*m+int(x&15)]) + int(tab[32*m+16+int(x>>4)])
			}
			o[j] = uint16(v)
		}
	}
}
