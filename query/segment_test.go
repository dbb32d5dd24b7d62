package query

import (
	"context"
	"testing"
)

func TestSegment(t *testing.T) {
	svc, all := corpus(t)
	var domains []string
	for _, c := range all[:1500] {
		domains = append(domains, c.Domain)
	}
	domains = append(domains, "not-indexed-company.com")
	var last int
	seg, err := svc.Segment(context.Background(), domains, 0, func(p int) {
		if p < last {
			t.Errorf("progress went back from %d to %d", last, p)
		}
		last = p
	})
	if err != nil {
		t.Fatal(err)
	}
	if last != 100 || seg.Segments < 2 || seg.Segments > autoMaxSegments || seg.Silhouette <= 0 {
		t.Fatalf("segments %d, silhouette %.3f, progress %d", seg.Segments, seg.Silhouette, last)
	}
	closed := 0
	for _, c := range all[:1500] {
		if c.Status.Status != "active" {
			closed++
		}
	}
	if seg.Omitted != closed+1 || len(seg.Rows) != 1500-closed {
		t.Fatalf("omitted %d (closed %d + 1 unknown), rows %d", seg.Omitted, closed, len(seg.Rows))
	}
	// Segments are industry-coherent on the demo corpus: most members of a
	// segment share its most common industry.
	byInd := map[int]map[string]int{}
	size := map[int]int{}
	unclustered := 0
	for _, r := range seg.Rows {
		if r.Probability < 0 || r.Probability > 1 {
			t.Fatalf("probability %v", r.Probability)
		}
		if r.SegmentID == -1 {
			if r.Description != Unclustered {
				t.Fatalf("segment -1 described %q", r.Description)
			}
			unclustered++
			continue
		}
		if r.Description == "" || r.Description == Unclustered {
			t.Fatalf("segment %d described %q", r.SegmentID, r.Description)
		}
		if byInd[r.SegmentID] == nil {
			byInd[r.SegmentID] = map[string]int{}
		}
		byInd[r.SegmentID][r.Company.Industries()[0]]++
		size[r.SegmentID]++
	}
	pure := 0
	for id, m := range byInd {
		best := 0
		for _, n := range m {
			best = max(best, n)
		}
		pure += best
		if size[id] < 3 {
			t.Errorf("segment %d has %d members", id, size[id])
		}
	}
	if share := float64(pure) / float64(len(seg.Rows)-unclustered); share < 0.5 {
		t.Errorf("only %.2f of clustered companies share their segment's main industry", share)
	}
	if unclustered > len(seg.Rows)/5 {
		t.Errorf("%d of %d unclustered", unclustered, len(seg.Rows))
	}
	// The same input gives the same segments; max_segments bounds k.
	again, _ := svc.Segment(context.Background(), domains, 0, func(int) {})
	for i := range seg.Rows {
		if again.Rows[i].SegmentID != seg.Rows[i].SegmentID {
			t.Fatal("segmentation is not deterministic")
		}
	}
	capped, _ := svc.Segment(context.Background(), domains, 3, func(int) {})
	if capped.Segments > 3 {
		t.Errorf("max_segments 3 gave %d segments", capped.Segments)
	}
	tiny, _ := svc.Segment(context.Background(), domains[:4], 0, func(int) {})
	for _, r := range tiny.Rows {
		if r.SegmentID != -1 {
			t.Errorf("too few to cluster, still segmented: %+v", r.SegmentID)
		}
	}
	t.Logf("1,500 demo companies: %d segments, silhouette %.3f, %d unclustered, industry purity %.2f",
		seg.Segments, seg.Silhouette, unclustered, float64(pure)/float64(len(seg.Rows)-unclustered))
}
