package embedded

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// Records of every size, some larger than the read buffer, read back
// partition by partition and one by one.
func TestSpoolRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	b := &bulkLoader{dir: t.TempDir(), bounds: []string{"d\x00", "m\x00", "zz\x00"}}
	run := &run{index: map[string]runRec{}}
	want := map[string][2][]byte{}
	for i := range 300 {
		d := fmt.Sprintf("%c%04d.example", 'a'+r.IntN(20), i)
		size := r.IntN(3000)
		if i%50 == 0 {
			size = 1<<20 + r.IntN(1<<20)
		}
		x, p := make([]byte, r.IntN(40)), make([]byte, size)
		for _, v := range [][]byte{x, p} {
			for j := range v {
				v[j] = byte(r.Uint32())
			}
		}
		var rec runRec
		rec.x = len(run.arena)
		run.arena = append(run.arena, x...)
		rec.xEnd, rec.p = len(run.arena), len(run.arena)
		run.arena = append(run.arena, p...)
		rec.pEnd = len(run.arena)
		run.index[d] = rec
		want[d] = [2][]byte{x, p}
	}
	var recs []keyedRec
	for d, rec := range run.index {
		recs = append(recs, keyedRec{d, rec})
	}
	slices.SortFunc(recs, func(a, b keyedRec) int { return strings.Compare(a.domain, b.domain) })
	sp, err := b.spool(run, recs, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer sp.remove()
	if len(sp.cuts) != len(b.bounds)+2 {
		t.Fatalf("cuts = %v", sp.cuts)
	}

	var got []string
	for part := range len(b.bounds) + 1 {
		for _, bufSize := range []int{4096, 1 << 20} {
			s, err := openSpool(sp, part, bufSize)
			if err != nil {
				t.Fatal(err)
			}
			for {
				ok, err := s.next()
				if err != nil {
					t.Fatalf("partition %d: %v", part, err)
				}
				if !ok {
					break
				}
				w := want[s.domain]
				if !bytes.Equal(s.x, w[0]) || !bytes.Equal(s.profile, w[1]) {
					t.Fatalf("partition %d, buffer %d: %s read back different bytes", part, bufSize, s.domain)
				}
				if lo := part - 1; (lo >= 0 && s.domain < b.bounds[lo]) || (part < len(b.bounds) && s.domain >= b.bounds[part]) {
					t.Fatalf("%s read in partition %d", s.domain, part)
				}
				if bufSize == 4096 {
					got = append(got, s.domain)
				}
			}
			s.close()
		}
	}
	if len(got) != len(recs) || !slices.IsSorted(got) {
		t.Fatalf("read %d records (sorted: %v), spooled %d", len(got), slices.IsSorted(got), len(recs))
	}
	for d, w := range want {
		for i, profile := range []bool{false, true} {
			v, ok, err := sp.read(d, profile)
			if err != nil || !ok || !bytes.Equal(v, w[i]) {
				t.Fatalf("read(%s, %v) = %d bytes, %v, %v", d, profile, len(v), ok, err)
			}
		}
	}
	if _, ok, err := sp.read("absent.example", true); ok || err != nil {
		t.Fatalf("read of an absent domain = %v, %v", ok, err)
	}
}
