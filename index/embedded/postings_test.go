package embedded

import (
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
