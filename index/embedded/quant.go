package embedded

import (
	"math"
	"unsafe"
)

// Quantized vectors. Company and contact vectors are resident as int8 with
// one float32 scale per vector (symmetric: the largest component maps to
// ±127): a quarter of float32's memory. A document's int8 similarity to a
// query is the float32 query times its int8 codes, times its scale
// (dotInt8, Engine.dotID): the query keeps full precision, and every plan
// ranks candidates through this one function. The company search then
// rescores its best candidates at full precision (rescore.go), which gives
// the returned similarities.

// quantize maps a vector to int8 with a per-vector scale.
func quantize(v []float32) (float32, []int8) {
	out := make([]int8, len(v))
	return quantizeInto(out, v), out
}

// quantizeInto writes the int8 codes of v into dst (len(v) values) and
// returns the scale: v[i] ≈ float32(dst[i]) * scale.
func quantizeInto(dst []int8, v []float32) float32 {
	dst = dst[:len(v)]
	var m float32
	for _, x := range v {
		m = max(m, abs32(x))
	}
	s := m / 127
	// A zero vector, or one holding NaN or ±Inf (or whose scale
	// underflows), has no usable direction: all codes 0.
	if s == 0 || math.IsNaN(float64(s)) || math.IsInf(float64(s), 0) {
		clear(dst)
		return 0
	}
	for i, x := range v {
		dst[i] = int8(math.Round(float64(x / s)))
	}
	return s
}

// dequantize writes the float32 values of codes q with scale s into dst.
func dequantize(dst []float32, q []int8, s float32) {
	q = q[:len(dst)]
	for i, c := range q {
		dst[i] = float32(c) * s
	}
}

// dotInt8 is the dot product of a float32 query and int8 codes (the codes'
// scale not applied). On amd64 with AVX2 the multiple-of-16 head goes
// through an assembly kernel, 8x faster than the Go loop (which the
// compiler does not vectorize), as the exact scan of up to exactMax
// candidates needs to stay within the discovery bar
// (docs/decisions.md, "Compact resident vectors (issue 24)"). Every call
// on a machine takes the same path, so a document scores the same
// whichever plan ran.
func dotInt8(q []float32, v []int8) float32 {
	v = v[:len(q)]
	var s float32
	k := 0
	if n := len(q) &^ 15; useAVX2 && n > 0 {
		s, k = dotInt8AVX2(&q[0], &v[0], n), n
	}
	return s + dotInt8Go(q[k:], v[k:])
}

// dotInt8Go is dotInt8's portable loop; four accumulators let the
// additions overlap.
func dotInt8Go(q []float32, v []int8) float32 {
	v = v[:len(q)]
	var a0, a1, a2, a3 float32
	k := 0
	for ; k+4 <= len(q); k += 4 {
		a0 += q[k] * float32(v[k])
		a1 += q[k+1] * float32(v[k+1])
		a2 += q[k+2] * float32(v[k+2])
		a3 += q[k+3] * float32(v[k+3])
	}
	for ; k < len(q); k++ {
		a0 += q[k] * float32(v[k])
	}
	return (a0 + a1) + (a2 + a3)
}

// allocInt8 returns n zeroed int8s. Large allocations are marked for
// transparent huge pages (where the platform has them), which cuts the TLB
// misses of the random reads the rescoring pass makes. They are not
// over-allocated to start on a huge page: the pad (2 MiB a 16 MiB chunk)
// was counted by the heap and, where the runtime zeroed reused memory for
// it, resident (docs/benchmarks.md "Resident memory at 10M (issue 24)");
// the huge pages within the allocation are advised instead, all but at
// most one huge page's worth of it.
func allocInt8(n int) []int8 {
	v := make([]int8, n)
	if n < 4*hugePage {
		return v
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), n)
	if in := hugeInterior(b); len(in) > 0 {
		adviseHuge(in)
	}
	// Faulting the pages in on another core overlaps the kernel's work
	// with the caller filling them (index load).
	go prefault(b)
	return v
}

// hugeInterior returns the largest part of b that starts and ends on a
// huge page boundary (empty when there is none).
func hugeInterior(b []byte) []byte { return interior(b, hugePage) }

// interior returns the largest part of b that starts and ends on a
// multiple of align, a power of two (empty when there is none).
func interior(b []byte, align uintptr) []byte {
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	lo := int((align - start%align) % align)
	hi := int((start + uintptr(len(b))) % align)
	if lo+hi >= len(b) {
		return nil
	}
	return b[lo : len(b)-hi]
}

// releaseChunkTails hands back the pages of the last int8 and sketch
// chunks beyond the last slot: allocInt8 faulted the whole chunk in, and
// those slots hold zeros until a new company takes them (the released
// pages read as zeros, and fault in again when written). At 10M the last
// chunk is 40% empty: 7 MB. Callers hold mu for writing, or run before
// the engine is shared.
func (e *Engine) releaseChunkTails() {
	n := e.domains.slots()
	last := len(e.chunks) - 1
	if last < 0 || last != (n-1)/chunkDocs || e.dim == 0 {
		return
	}
	used := n - last*chunkDocs
	c := e.chunks[last]
	releaseZeros(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(c))), len(c))[used*e.dim:])
	if last < len(e.signs) {
		sg := e.signs[last]
		releaseZeros(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(sg))), 8*len(sg))[8*used*signWords(e.dim):])
	}
}
