package embedded

import (
	"math/bits"
)

// Vector storage. The int8 vectors with their scales (quant.go) are the
// reference for every score an engine returns; beside them each document
// has a sign sketch, one bit per dimension (set when the component is
// positive), which the approximate planner in scan.go scans instead of the
// codes. At 256 dimensions the sketch is 32 bytes a document against 256
// bytes of codes.

// hugePage is the size transparent huge pages come in on amd64 and arm64.
const hugePage = 2 << 20

// signWords is the number of 64-bit words of a sign sketch.
func signWords(dim int) int { return (dim + 63) / 64 }

// signBlock is how many chunks of sketches place allocates at once
// (allocSigns): 16 MiB at 256 dimensions, so seven huge pages or more.
const signBlock = 8

// allocSigns returns n zeroed chunks of sign sketches (chunkDocs sketches
// of w words each) carved from one allocation whose huge pages are
// advised, as allocInt8 does for the codes. The screen reads one sketch of
// each candidate, at random across the whole array at a filter's density,
// and on 4 KiB pages a read also misses the TLB every few candidates: the
// first pass over 210,000 candidates spread over 4M sketches took 11-30 ms
// on 4 KiB pages against 6-24 ms on huge pages, over 42,000 1.0-1.1 against
// 0.8-0.9 ms (BenchmarkScreenRandom, three runs at load average 9-11). A
// single chunk (2 MiB) holds no whole huge page unless it happens to be
// aligned, hence one allocation for many.
func allocSigns(n, w int) [][]uint64 {
	if n <= 0 {
		return nil
	}
	size := chunkDocs * w
	all := make([]uint64, n*size)
	if in := hugeInterior(asBytes(all)); len(in) > 0 {
		adviseHuge(in)
	}
	out := make([][]uint64, n)
	for i := range out {
		out[i] = all[i*size : (i+1)*size : (i+1)*size]
	}
	return out
}

// signChunk returns the next chunk of sketches for place, allocating
// signBlock of them when none is left. Callers hold mu for writing.
func (e *Engine) signChunk() []uint64 { return nextSignChunk(&e.signSpare, signWords(e.dim)) }

// nextSignChunk takes the first chunk of *spare, refilling it with
// signBlock chunks of w-word sketches (allocSigns) when it is empty.
func nextSignChunk(spare *[][]uint64, w int) []uint64 {
	if len(*spare) == 0 {
		*spare = allocSigns(signBlock, w)
	}
	c := (*spare)[0]
	*spare = (*spare)[1:]
	return c
}

// sketch writes the sign sketch of v into dst (signWords(len(v)) words):
// of full-precision vectors, or of int8 codes (contacts, whose sketches
// are made from their codes).
func sketch[T float32 | int8](v []T, dst []uint64) {
	for w := range dst {
		var x uint64
		part := v[w*64 : min(len(v), w*64+64)]
		for i, f := range part {
			if f > 0 {
				x |= 1 << uint(i)
			}
		}
		dst[w] = x
	}
}

// qplanes is a query prepared for the sketch scan: its sign sketch and its
// component magnitudes quantized to nPlanes bits, one bit plane per word
// set. The estimate for a document with sketch c is
// sum_i w_i * agree_i, where agree_i says c and the query have the same
// sign on dimension i and w_i is the quantized |q_i| — an asymmetric
// weighted Hamming similarity that tracks the dot product.
type qplanes struct {
	words  int
	sign   []uint64
	planes [][]uint64 // planes[p][w]
	max    int        // largest possible estimate
}

func newQPlanes(q []float32, nPlanes int) *qplanes {
	words := signWords(len(q))
	qp := &qplanes{words: words, sign: make([]uint64, words), planes: make([][]uint64, nPlanes)}
	sketch(q, qp.sign)
	for p := range qp.planes {
		qp.planes[p] = make([]uint64, words)
	}
	var mx float32
	for _, f := range q {
		mx = max(mx, abs32(f))
	}
	levels := float32(int(1)<<nPlanes - 1)
	for i, f := range q {
		w := levels
		if mx > 0 {
			w = float32(int(abs32(f)/mx*levels + 0.5))
		}
		qp.max += int(w)
		for p := range qp.planes {
			if int(w)>>p&1 == 1 {
				qp.planes[p][i/64] |= 1 << uint(i%64)
			}
		}
	}
	return qp
}

// newQHamming prepares the unweighted agreement count (every dimension
// weighs 1).
func newQHamming(q []float32) *qplanes {
	words := signWords(len(q))
	qp := &qplanes{words: words, sign: make([]uint64, words), planes: [][]uint64{make([]uint64, words)}, max: len(q)}
	sketch(q, qp.sign)
	for w := range qp.planes[0] {
		qp.planes[0][w] = ^uint64(0)
		if rem := len(q) - w*64; rem < 64 {
			qp.planes[0][w] = 1<<uint(rem) - 1
		}
	}
	return qp
}

func abs32(f float32) float32 {
	if f < 0 {
		return -f
	}
	return f
}

// estimate scores sketch c (qp.words words).
func (qp *qplanes) estimate(c []uint64) int {
	s := 0
	for w, x := range c[:qp.words] {
		agree := ^(x ^ qp.sign[w])
		for p, pl := range qp.planes {
			s += bits.OnesCount64(agree&pl[w]) << uint(p)
		}
	}
	return s
}

// planes3 is a 256-dimension query's sign and three weight planes
// unpacked into values, for the inner loops of the sketch passes (the
// screen's refine pass, the contacts' sketch plan).
type planes3 struct{ s, a, b, d [4]uint64 }

func (qp *qplanes) unpack3() planes3 {
	var p planes3
	copy(p.s[:], qp.sign)
	copy(p.a[:], qp.planes[0])
	copy(p.b[:], qp.planes[1])
	copy(p.d[:], qp.planes[2])
	return p
}

// score is estimate for a 4-word sketch under three planes.
func (p *planes3) score(x *[4]uint64) int {
	g0, g1, g2, g3 := ^(x[0] ^ p.s[0]), ^(x[1] ^ p.s[1]), ^(x[2] ^ p.s[2]), ^(x[3] ^ p.s[3])
	v := bits.OnesCount64(g0&p.a[0]) + bits.OnesCount64(g1&p.a[1]) + bits.OnesCount64(g2&p.a[2]) + bits.OnesCount64(g3&p.a[3])
	v += 2 * (bits.OnesCount64(g0&p.b[0]) + bits.OnesCount64(g1&p.b[1]) + bits.OnesCount64(g2&p.b[2]) + bits.OnesCount64(g3&p.b[3]))
	v += 4 * (bits.OnesCount64(g0&p.d[0]) + bits.OnesCount64(g1&p.d[1]) + bits.OnesCount64(g2&p.d[2]) + bits.OnesCount64(g3&p.d[3]))
	return v
}
