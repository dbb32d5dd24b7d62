package query

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"

	"github.com/openprospect/prospectd/record"
)

// Segment limits (spec: Segment).
const (
	MinSegments = 2
	MaxSegments = 100
	// autoMaxSegments bounds the automatic choice.
	autoMaxSegments = 20
	// fitSample is how many companies k is chosen on; silhouetteSample how
	// many score a choice.
	fitSample        = 2000
	silhouetteSample = 600
)

// Unclustered is the description of segment -1.
const Unclustered = "UNCLUSTERED"

// SegmentRow is one segmented company.
type SegmentRow struct {
	Company     record.Company
	SegmentID   int
	Description string
	Probability float64
}

// Segmentation is the result of Segment.
type Segmentation struct {
	Rows       []SegmentRow
	Segments   int     // clusters found (without -1)
	Silhouette float64 // mean silhouette of the chosen clustering, on a sample
	Omitted    int     // input domains not indexed or not active
}

// Segment clusters the companies of domains by their vectors. k is chosen
// in [2, maxSegments] (or [2, 20] when maxSegments is 0) as the one with
// the best mean silhouette on a sample; k-means with k-means++ seeding,
// seeded from the input so a file always gives the same segments. A
// company far from its segment (cosine to the centroid below the
// segment's mean minus two standard deviations), or in a segment of
// fewer than three, is UNCLUSTERED (-1). Probability is the share of a
// softmax over the cosine to every centroid (temperature 0.05) that its
// segment gets. progress is called with 0-100.
func (s *Companies) Segment(ctx context.Context, domains []string, maxSegments int, progress func(int)) (Segmentation, error) {
	var out Segmentation
	cs, err := s.Engine.GetCompanies(ctx, domains)
	if err != nil {
		return out, fmt.Errorf("segment: %w", err)
	}
	var active []record.Company
	var names []string
	for _, c := range cs {
		if c.Status.Status == record.StatusActive {
			active = append(active, c)
			names = append(names, c.Domain)
		}
	}
	out.Omitted = len(domains) - len(active)
	vecs, err := s.Engine.CompanyVectors(ctx, names)
	if err != nil {
		return out, fmt.Errorf("segment: %w", err)
	}
	var X [][]float32
	var companies []record.Company
	for _, c := range active {
		if v, ok := vecs[c.Domain]; ok {
			X = append(X, v)
			companies = append(companies, c)
		}
	}
	out.Omitted = len(domains) - len(X)
	progress(10)
	if len(X) < MinSegments*3 {
		// Too few to cluster: every company is unclustered.
		for _, c := range companies {
			out.Rows = append(out.Rows, SegmentRow{Company: c, SegmentID: -1, Description: Unclustered})
		}
		return out, nil
	}
	h := fnv.New64a()
	for _, d := range names {
		h.Write([]byte(d))
	}
	rng := rand.New(rand.NewPCG(h.Sum64(), 42))

	hi := maxSegments
	if hi == 0 {
		hi = autoMaxSegments
	}
	hi = min(hi, len(X)/3)
	lo := min(MinSegments, hi)
	sample := X
	if len(X) > fitSample {
		sample = make([][]float32, fitSample)
		for i, j := range rng.Perm(len(X))[:fitSample] {
			sample[i] = X[j]
		}
	}
	bestK, bestSil := lo, math.Inf(-1)
	var bestCent [][]float32
	grid := kGrid(lo, hi)
	for gi, k := range grid {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		cent, assign := kmeans(sample, k, 15, rng)
		sil := silhouette(sample, assign, k, rng)
		if sil > bestSil {
			bestK, bestSil, bestCent = k, sil, cent
		}
		progress(10 + 60*(gi+1)/len(grid))
	}
	// Final pass on every company from the chosen centroids.
	cent, assign := refine(X, bestCent, 10)
	out.Silhouette = math.Round(silhouette(X, assign, bestK, rng)*1000) / 1000
	progress(85)

	sims := make([]float64, len(X))
	size := make([]int, bestK)
	for i, v := range X {
		sims[i] = float64(dot(v, cent[assign[i]]))
		size[assign[i]]++
	}
	mean, sd := make([]float64, bestK), make([]float64, bestK)
	for i := range X {
		mean[assign[i]] += sims[i]
	}
	for c := range mean {
		if size[c] > 0 {
			mean[c] /= float64(size[c])
		}
	}
	for i := range X {
		d := sims[i] - mean[assign[i]]
		sd[assign[i]] += d * d
	}
	for c := range sd {
		if size[c] > 1 {
			sd[c] = math.Sqrt(sd[c] / float64(size[c]-1))
		}
	}
	// Renumber the kept segments by size, largest first.
	order := make([]int, bestK)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return size[order[a]] > size[order[b]] })
	newID := make([]int, bestK)
	next := 0
	for _, c := range order {
		if size[c] >= 3 {
			newID[c] = next
			next++
		} else {
			newID[c] = -1
		}
	}
	out.Segments = next
	members := make([][]record.Company, bestK)
	for i := range X {
		members[assign[i]] = append(members[assign[i]], companies[i])
	}
	desc := make([]string, bestK)
	for c := range desc {
		desc[c] = describe(members[c])
	}
	for i, v := range X {
		c := assign[i]
		row := SegmentRow{Company: companies[i], SegmentID: newID[c], Description: desc[c]}
		if row.SegmentID < 0 || sims[i] < mean[c]-2*sd[c] {
			row.SegmentID, row.Description = -1, Unclustered
		}
		row.Probability = math.Round(softmaxShare(v, cent, c)*1000) / 1000
		out.Rows = append(out.Rows, row)
	}
	progress(100)
	return out, nil
}

// kGrid is the k values tried: every k up to 12, then a coarser grid.
func kGrid(lo, hi int) []int {
	var out []int
	for _, k := range []int{2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16, 18, 20, 25, 30, 35, 40, 50, 60, 70, 80, 90, 100} {
		if k >= lo && k <= hi {
			out = append(out, k)
		}
	}
	if len(out) == 0 {
		out = []int{lo}
	}
	return out
}

// kmeans clusters unit vectors by cosine (spherical k-means) with
// k-means++ seeding.
func kmeans(X [][]float32, k, iters int, rng *rand.Rand) ([][]float32, []int) {
	cent := make([][]float32, 0, k)
	cent = append(cent, slices.Clone(X[rng.IntN(len(X))]))
	dist := make([]float64, len(X))
	for len(cent) < k {
		total := 0.0
		for i, v := range X {
			best := math.Inf(1)
			for _, c := range cent {
				best = math.Min(best, 1-float64(dot(v, c)))
			}
			dist[i] = best * best
			total += dist[i]
		}
		r := rng.Float64() * total
		pick := len(X) - 1
		for i, d := range dist {
			if r -= d; r <= 0 {
				pick = i
				break
			}
		}
		cent = append(cent, slices.Clone(X[pick]))
	}
	return refine(X, cent, iters)
}

// refine runs Lloyd iterations from the given centroids.
func refine(X [][]float32, cent [][]float32, iters int) ([][]float32, []int) {
	k := len(cent)
	assign := make([]int, len(X))
	dim := len(X[0])
	for it := 0; it < iters; it++ {
		changed := 0
		for i, v := range X {
			best, bestSim := 0, float32(-2)
			for c := range cent {
				if s := dot(v, cent[c]); s > bestSim {
					best, bestSim = c, s
				}
			}
			if assign[i] != best || it == 0 {
				changed++
			}
			assign[i] = best
		}
		next := make([][]float32, k)
		for c := range next {
			next[c] = make([]float32, dim)
		}
		for i, v := range X {
			axpyInto(next[assign[i]], v)
		}
		for c := range next {
			if isZero(next[c]) {
				next[c] = cent[c] // an empty cluster keeps its centroid
				continue
			}
			normalize(next[c])
		}
		cent = next
		if changed == 0 {
			break
		}
	}
	return cent, assign
}

// silhouette is the mean silhouette (cosine distance) over a sample.
func silhouette(X [][]float32, assign []int, k int, rng *rand.Rand) float64 {
	idx := rng.Perm(len(X))
	if len(idx) > silhouetteSample {
		idx = idx[:silhouetteSample]
	}
	total, n := 0.0, 0
	for _, i := range idx {
		sum := make([]float64, k)
		cnt := make([]int, k)
		for _, j := range idx {
			if i == j {
				continue
			}
			sum[assign[j]] += 1 - float64(dot(X[i], X[j]))
			cnt[assign[j]]++
		}
		own := assign[i]
		if cnt[own] == 0 {
			continue
		}
		a := sum[own] / float64(cnt[own])
		b := math.Inf(1)
		for c := range sum {
			if c != own && cnt[c] > 0 {
				b = math.Min(b, sum[c]/float64(cnt[c]))
			}
		}
		if math.IsInf(b, 1) {
			continue
		}
		total += (b - a) / math.Max(a, b)
		n++
	}
	if n == 0 {
		return -1
	}
	return total / float64(n)
}

func softmaxShare(v []float32, cent [][]float32, c int) float64 {
	const temperature = 0.05
	var sum, own float64
	for i, ct := range cent {
		e := math.Exp(float64(dot(v, ct)) / temperature)
		sum += e
		if i == c {
			own = e
		}
	}
	return own / sum
}

// describe labels a segment by its members' strongest industries and most
// common keywords: "SAAS, FINTECH: payroll, benefits, hr software".
func describe(members []record.Company) string {
	inds := map[string]float64{}
	kws := map[string]float64{}
	for _, c := range members {
		for k, w := range c.IndustryGroups {
			inds[k] += w
		}
		for k, w := range c.Keywords {
			kws[strings.ToLower(k)] += w
		}
	}
	top := topKeys(inds, 2)
	words := topKeys(kws, 3)
	if len(top) == 0 && len(words) == 0 {
		return "segment"
	}
	return strings.Join(top, ", ") + ": " + strings.Join(words, ", ")
}

func dot(a, b []float32) float32 {
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

func axpyInto(dst, v []float32) {
	for i := range dst {
		dst[i] += v[i]
	}
}

func isZero(v []float32) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}
