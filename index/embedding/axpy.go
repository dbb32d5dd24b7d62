package embedding

// axpyInt8 adds w × q[i] to sum[i] for every i (len(q) == len(sum)): one
// quantized projection row, scaled, into the document's sum.
//
// Rows stay int8 in memory (a quarter of the float32 bytes): Embed touches
// a few hundred random rows of a vocabulary-sized matrix per document, so
// it is bound by memory traffic, not arithmetic. Every element is computed
// as sum + float32(w × float32(q)), with two roundings and no fused
// multiply-add, whether by the vector kernel or by the loop below: the
// same input gives the same bits on every CPU.
//
// next is a row the caller will add soon: the kernel asks the CPU to fetch
// it meanwhile (rows are random, so no hardware prefetcher guesses them,
// and a row costs a trip to memory). It may be nil.
func axpyInt8(w float32, q []int8, sum []float32, next []int8) {
	sum = sum[:len(q)]
	n := 0
	if useAVX2 {
		n = len(q) &^ 15
		if n > 0 {
			pf := &q[0]
			if len(next) >= n {
				pf = &next[0]
			}
			axpyInt8AVX2(w, &q[0], &sum[0], n, pf)
		}
	}
	for i := n; i < len(q); i++ {
		// The conversion keeps the compiler from fusing the multiply
		// and the add (which the spec allows and GOAMD64=v3 does).
		sum[i] += float32(w * float32(q[i]))
	}
}

// axpyF32 adds a × x[i] to y[i] for every i (len(x) == len(y)), each
// element rounded twice (no fused multiply-add), as gonum's Saxpy does:
// the fit's sparse products, twice as wide as Saxpy's SSE on AVX2.
func axpyF32(a float32, x, y []float32) {
	y = y[:len(x)]
	n := 0
	if useAVX2 {
		if n = len(x) &^ 15; n > 0 {
			axpyF32AVX2(a, &x[0], &y[0], n)
		}
	}
	for i := n; i < len(x); i++ {
		y[i] += float32(a * x[i])
	}
}

// projectPad is the slack a model keeps after its last projection row: the
// vector kernels of projectRows read whole blocks of codes, up to
// projectSpan-1 past the end of a row.
const projectPad = projectSpan

// projectSpan is the coordinates projectRows's kernels handle in one block,
// rounded up to the wider kernel's: the sum must have room for the rank
// rounded up to it.
const projectSpan = 256

// projectRows adds ws[i] × quant[rows[i]×rank:(rows[i]+1)×rank] to
// sum[:rank] for every i, in order: a document's projection, bit for bit
// what one axpyInt8 call per row gives. The vector kernels keep a block of
// the sum in registers across all rows (256 coordinates with AVX-512, 64
// with AVX2) instead of loading and storing it for every row; they need
// sum to have room for rank rounded up to projectSpan and quant projectPad
// codes of capacity past its end, and the function falls back to axpyInt8
// otherwise.
func projectRows(quant []int8, rank int, rows []int32, ws []float32, sum []float32) {
	if len(rows) == 0 || rank == 0 {
		return
	}
	if cap(sum) >= (rank+projectSpan-1)/projectSpan*projectSpan && cap(quant)-len(quant) >= projectPad {
		switch {
		case useAVX512:
			projectAVX512(&quant[0], rank, &rows[0], &ws[:len(rows)][0], len(rows), &sum[:1][0], (rank+255)/256)
			return
		case useAVX2:
			projectAVX2(&quant[0], rank, &rows[0], &ws[:len(rows)][0], len(rows), &sum[:1][0], (rank+63)/64)
			return
		}
	}
	for i, row := range rows {
		axpyInt8(ws[i], quant[int(row)*rank:int(row+1)*rank], sum[:rank], nil)
	}
}
