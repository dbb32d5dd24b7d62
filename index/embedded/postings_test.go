package embedded

import (
	"slices"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
)

func TestCompactBitmap(t *testing.T) {
	cases := []struct {
		name string
		ids  []uint32
	}{
		{"empty", nil},
		{"one", []uint32{7}},
		{"sparse across containers", []uint32{1, 70_000, 140_001, 1 << 30}},
		{"dense (bitmap container)", seq(0, 10_000, 3)},
		{"run", seq(100, 50_000, 1)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			bm := roaring.New()
			for _, id := range tc.ids {
				bm.AddMany([]uint32{id}) // id by id, as the load does
			}
			want := bm.Clone()
			got := compactBitmap(bm)
			if !got.Equals(want) {
				t.Fatalf("contents changed: %v, want %v", got.Stats(), want.Stats())
			}
			if got.GetSizeInBytes() > want.GetSizeInBytes() {
				t.Errorf("size %d, was %d", got.GetSizeInBytes(), want.GetSizeInBytes())
			}
			// The copy is independent of the original.
			got.Add(5)
			if bm.Contains(5) && !want.Contains(5) {
				t.Error("copy shares containers with the original")
			}
		})
	}
}

func seq(from, to, step uint32) []uint32 {
	var out []uint32
	for i := from; i < to; i += step {
		out = append(out, i)
	}
	return out
}

func TestKeywordPostings(t *testing.T) {
	type op struct {
		add    []uint32 // ids to add to "v"
		remove uint32   // else: id to remove from "v"
	}
	cases := []struct {
		name     string
		ops      []op
		want     []uint32
		wantMany bool // "v" has a bitmap (false: one id or none)
	}{
		{"one id stays inline", []op{{add: []uint32{5}}}, []uint32{5}, false},
		{"same id twice stays inline", []op{{add: []uint32{5}}, {add: []uint32{5, 5}}}, []uint32{5}, false},
		{"two ids in one add", []op{{add: []uint32{5, 9}}}, []uint32{5, 9}, true},
		{"second id moves to a bitmap", []op{{add: []uint32{5}}, {add: []uint32{9}}}, []uint32{5, 9}, true},
		{"bitmap grows", []op{{add: []uint32{5, 9}}, {add: []uint32{70_000}}}, []uint32{5, 9, 70_000}, true},
		{"bitmap down to one moves inline", []op{{add: []uint32{5, 9}}, {remove: 5}}, []uint32{9}, false},
		{"bitmap emptied", []op{{add: []uint32{5, 9}}, {remove: 5}, {remove: 9}}, nil, false},
		{"inline removed", []op{{add: []uint32{5}}, {remove: 5}}, nil, false},
		{"removing another id keeps inline", []op{{add: []uint32{5}}, {remove: 6}}, []uint32{5}, false},
		{"removing from a missing value", []op{{remove: 6}}, nil, false},
		{"back to a bitmap after moving inline", []op{{add: []uint32{5, 9}}, {remove: 9}, {add: []uint32{1}}}, []uint32{1, 5}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := newKeywordPostings()
			p.add("other", []uint32{3}) // an unrelated value is never touched
			for _, o := range tc.ops {
				if o.add != nil {
					p.add("v", o.add)
				} else {
					p.remove("v", o.remove)
				}
			}
			var got []uint32
			if bm := p.get("v"); bm != nil {
				got = bm.ToArray()
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("documents %v, want %v", got, tc.want)
			}
			_, inOne := p.one["v"]
			_, inMany := p.many["v"]
			if inMany != tc.wantMany || inOne && inMany || inOne != (len(tc.want) == 1) {
				t.Fatalf("in one %v, in many %v; want a bitmap %v", inOne, inMany, tc.wantMany)
			}
			if bm := p.get("other"); bm == nil || !slices.Equal(bm.ToArray(), []uint32{3}) {
				t.Fatalf("other value changed: %v", bm)
			}
			n := 0
			p.each(func(v string, c uint64) {
				n++
				if v == "v" && c != uint64(len(tc.want)) {
					t.Errorf("each: count %d, want %d", c, len(tc.want))
				}
			})
			if want := 1 + min(1, len(tc.want)); n != want {
				t.Errorf("each: %d values, want %d", n, want)
			}
		})
	}
}
