package embedded

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

// putBlock writes sketch x as candidate j of block blk.
func putBlock(blk []byte, j int, x *[4]uint64) {
	for m := range 32 {
		blk[32*m+j] = byte(x[m/8] >> (8 * uint(m%8)))
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
