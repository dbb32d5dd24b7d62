package embedded

import (
	"cmp"
	"context"
	"math"
	"math/bits"
	"slices"
)

// The sketch pre-pass of the ANN plan. At 10M companies the plan gathers
// about 110,000 companies (35.6 lists' worth) and ranking them exactly
// reads 256 bytes of int8 codes each, four cache lines at random places
// in 2.6 GB: that was most of the plan's time. The pre-pass reads each
// gathered company's sign sketch instead (32 bytes, one cache line),
// scores it by the magnitude-weighted agreement with the query (the
// screen's refine step, refinePlanes bits of query weight), and keeps the
// best annPool of them for the exact int8 ranking.

// annPoolFrac and annPoolMin size the pre-pass's pool: the larger of
// annPoolFrac of the gathered set and annPoolMin (and never fewer than
// annPoolPerK a requested hit). A pool of the whole set turns the
// pre-pass off. Variables for the benchmarks.
var (
	annPoolFrac = 1.0
	annPoolMin  = 20_000
)

// annPoolPerK is the pool's floor per ranked candidate (k is rescoreK of
// the page).
const annPoolPerK = 20

// annPool is how many of m gathered candidates the pre-pass keeps for the
// top k.
func annPool(m, k int) int {
	return max(int(annPoolFrac*float64(m)+0.5), annPoolMin, annPoolPerK*k)
}

// annPrepassMode chooses the pre-pass's estimate: 0 the screen's refine
// step (the query's weights alone), 1 the sketch conditioned on the
// member's list (listPlanes).
var annPrepassMode = 1

// annPrepass returns the gathered candidates (sc.ids) the exact ranking
// scans: all of them when the pool would hold nearly all, else about the
// best annPool(len, k) by their sketch estimate, in sc.pool.
func (e *Engine) annPrepass(ctx context.Context, sc *scratch, q []float32, k int) []uint32 {
	ids := sc.ids
	pool := annPool(len(ids), k)
	if pool >= len(ids)*9/10 {
		return ids
	}
	a := e.ann.idx
	if annPrepassMode == 1 && a.neg != nil && signWords(len(q)) == 4 {
		return e.annPrepassLists(ctx, sc, q, pool)
	}
	qw := newQPlanes(q, refinePlanes)
	sc.est = grow(sc.est, len(ids))
	hist := e.estimateAll(ctx, qw, ids, sc.est)
	t, got := len(hist), 0
	for t > 0 && got < pool {
		t--
		got += int(hist[t])
	}
	sc.pool = grow(sc.pool, got)[:0]
	for i, x := range sc.est[:len(ids)] {
		if int(x) >= t {
			sc.pool = append(sc.pool, ids[i])
		}
	}
	return sc.pool
}

// listPlanes is a query prepared for the sketches of one list's members:
// q.x is estimated as base + unit * sum_p 2^p popcount(agree & planes[p]),
// agree the dimensions where x's sign bit equals sign (listPlanesFor).
type listPlanes struct {
	sign   [4]uint64
	planes [4][4]uint64
	base   float32
	unit   float32
	ok     bool
}

// listPlanesFor prepares q for the members of list l. With neg and gap
// the list's conditional expectations (setStats), q.x is about
// sum_j q_j neg_lj + sum_j bit_j q_j gap_lj; each term d_j = q_j gap_lj
// counts |d_j| when the bit agrees with d_j's sign, after subtracting
// the negative d_j from the base. |d_j| is quantized to 4 bits of the
// list's largest.
func (a *annIndex) listPlanesFor(q []float32, l int) listPlanes {
	var p listPlanes
	r := int(l) * a.dim
	neg, gap := a.neg[r:r+a.dim], a.gap[r:r+a.dim]
	var base, mx float32
	for j, x := range q {
		base += x * neg[j]
		d := x * gap[j]
		if d < 0 {
			base += d
			d = -d
		} else {
			p.sign[j/64] |= 1 << uint(j%64)
		}
		mx = max(mx, d)
	}
	p.base, p.ok = base, true
	if mx == 0 {
		return p
	}
	p.unit = mx / 15
	for j, x := range q {
		d := abs32(x * gap[j])
		w := int(d/p.unit + 0.5)
		for b := range 4 {
			if w>>b&1 == 1 {
				p.planes[b][j/64] |= 1 << uint(j%64)
			}
		}
	}
	return p
}

// annPrepassLists keeps about the best pool of the gathered by the
// list-conditioned sketch estimate (listPlanes); the unindexed tail and
// the members of a list without statistics are all kept.
func (e *Engine) annPrepassLists(ctx context.Context, sc *scratch, q []float32, pool int) []uint32 {
	a, ids, segs := e.ann.idx, sc.ids, sc.segs
	lp := make([]listPlanes, len(segs))
	for i, sg := range segs {
		if sg.list >= 0 && a.statsOK[sg.list] {
			lp[i] = a.listPlanesFor(q, int(sg.list))
		}
	}
	sc.fest = grow(sc.fest, len(ids))
	est := sc.fest
	inf := float32(math.Inf(1))
	parallel(len(ids), 16384, func(_, lo, hi int) {
		si, _ := slices.BinarySearchFunc(segs, int32(lo), func(s annSeg, t int32) int { return cmp.Compare(s.end, t+1) })
		for i := lo; i < hi && si < len(segs); si++ {
			if ctx.Err() != nil {
				return
			}
			end := min(hi, int(segs[si].end))
			p := &lp[si]
			if !p.ok {
				for ; i < end; i++ {
					est[i] = inf
				}
				continue
			}
			s0, s1, s2, s3 := p.sign[0], p.sign[1], p.sign[2], p.sign[3]
			pl := &p.planes
			for ; i < end; i++ {
				id := ids[i]
				x := (*[4]uint64)(e.signs[id/chunkDocs][int(id%chunkDocs)*4:])
				g0, g1, g2, g3 := ^(x[0] ^ s0), ^(x[1] ^ s1), ^(x[2] ^ s2), ^(x[3] ^ s3)
				v := bits.OnesCount64(g0&pl[0][0]) + bits.OnesCount64(g1&pl[0][1]) + bits.OnesCount64(g2&pl[0][2]) + bits.OnesCount64(g3&pl[0][3])
				v += 2 * (bits.OnesCount64(g0&pl[1][0]) + bits.OnesCount64(g1&pl[1][1]) + bits.OnesCount64(g2&pl[1][2]) + bits.OnesCount64(g3&pl[1][3]))
				v += 4 * (bits.OnesCount64(g0&pl[2][0]) + bits.OnesCount64(g1&pl[2][1]) + bits.OnesCount64(g2&pl[2][2]) + bits.OnesCount64(g3&pl[2][3]))
				v += 8 * (bits.OnesCount64(g0&pl[3][0]) + bits.OnesCount64(g1&pl[3][1]) + bits.OnesCount64(g2&pl[3][2]) + bits.OnesCount64(g3&pl[3][3]))
				est[i] = p.base + p.unit*float32(v)
			}
		}
	})
	if ctx.Err() != nil {
		return nil
	}
	// The cut: the estimate at the pool's share of an even sample.
	step := max(1, len(ids)/4096)
	sample := make([]float32, 0, len(ids)/step+1)
	for i := 0; i < len(ids); i += step {
		sample = append(sample, est[i])
	}
	slices.Sort(sample)
	t := sample[max(0, len(sample)-1-len(sample)*pool/len(ids))]
	sc.pool = grow(sc.pool, pool+pool/8)[:0]
	for i, x := range est[:len(ids)] {
		if x >= t {
			sc.pool = append(sc.pool, ids[i])
		}
	}
	return sc.pool
}
