package demo

import "math"

// rng is splitmix64: one 64-bit state, a handful of instructions per draw,
// and good enough statistics for synthetic data. Each company gets its own
// stream seeded from (seed, i), which is what makes Company(i) a pure
// function callable in any order from any goroutine.
type rng struct{ s uint64 }

func mix64(z uint64) uint64 {
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

func newRNG(seed uint64, i int) rng {
	return rng{s: mix64(seed ^ mix64(uint64(i)+0x632BE59BD9B4E5A9))}
}

func (r *rng) next() uint64 {
	r.s += 0x9E3779B97F4A7C15
	return mix64(r.s)
}

// intn returns a number in [0, n) by multiply-shift (Lemire), which avoids
// a division and whose bias is negligible for the small n used here.
func (r *rng) intn(n int) int {
	hi, _ := mulHi(r.next(), uint64(n))
	return int(hi)
}

func mulHi(a, b uint64) (uint64, uint64) {
	const mask32 = 1<<32 - 1
	a0, a1 := a&mask32, a>>32
	b0, b1 := b&mask32, b>>32
	w0 := a0 * b0
	t := a1*b0 + w0>>32
	w1, w2 := t&mask32, t>>32
	w1 += a0 * b1
	return a1*b1 + w2 + w1>>32, a * b
}

func (r *rng) float() float64        { return float64(r.next()>>11) / (1 << 53) }
func (r *rng) chance(p float64) bool { return r.float() < p }
func (r *rng) between(lo, hi float64) float64 {
	return lo + (hi-lo)*r.float()
}

// normal is a standard normal deviate (Box-Muller, one of the pair).
func (r *rng) normal() float64 {
	u := 1 - r.float() // (0, 1]
	return math.Sqrt(-2*math.Log(u)) * math.Cos(2*math.Pi*r.float())
}

func pick[T any](r *rng, s []T) T { return s[r.intn(len(s))] }

// weighted is a cumulative weight table sampled by binary search.
type weighted struct {
	cum   []uint32
	total uint32
}

func newWeighted(ws []int) weighted {
	w := weighted{cum: make([]uint32, len(ws))}
	for i, x := range ws {
		w.total += uint32(max(x, 0))
		w.cum[i] = w.total
	}
	return w
}

func (w *weighted) sample(u uint64) int {
	hi, _ := mulHi(u, uint64(w.total))
	x := uint32(hi)
	lo, up := 0, len(w.cum)-1
	for lo < up {
		mid := (lo + up) / 2
		if w.cum[mid] > x {
			up = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// permuter is a keyed bijection on [0, n): an invertible mix on the
// enclosing power of two, applied until the value falls inside [0, n)
// ("cycle walking", which stays a bijection on the subset). Every step
// (xor with a constant, multiplication by an odd number, xor with a right
// shift of itself) is invertible modulo 2^bits.
type permuter struct {
	n     uint64
	mask  uint64
	shift uint
	k     [3]uint64
}

func newPermuter(n uint64, key uint64) permuter {
	bits := uint(1)
	for uint64(1)<<bits < n {
		bits++
	}
	p := permuter{n: n, mask: 1<<bits - 1, shift: max(bits/2, 1)}
	for j := range p.k {
		key = mix64(key + 0x9E3779B97F4A7C15)
		p.k[j] = key
	}
	return p
}

func (p *permuter) apply(x uint64) uint64 {
	for {
		for _, k := range p.k {
			x = (x ^ k) & p.mask
			x = (x * (k | 1)) & p.mask
			x ^= x >> p.shift
		}
		if x < p.n {
			return x
		}
	}
}
