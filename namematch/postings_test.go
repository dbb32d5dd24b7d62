package namematch

import (
	"slices"
	"testing"
)

func TestPostingsRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lists [][]uint32
	}{
		{"empty lists", [][]uint32{nil, {}, nil}},
		{"doc 0 first", [][]uint32{{0, 1, 2}, {0}}},
		{"gaps across byte widths", [][]uint32{{5, 132, 133, 16_516, 2_113_668, 4_294_967_295}, {127, 128, 16_383, 16_384}}},
		{"grown while counting", [][]uint32{{3}, nil, {1, 2, 3, 1_000_000}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newPostingsBuilder(0)
			for range tc.lists {
				b.grow()
			}
			each := func(f func(list, doc uint32)) {
				for l, docs := range tc.lists {
					for _, d := range docs {
						f(uint32(l), d)
					}
				}
			}
			each(b.count)
			b.layout()
			each(b.put)
			p := b.finish()
			for l, want := range tc.lists {
				got := slices.Collect(p.docs(uint32(l)))
				if !slices.Equal(got, want) || int(p.df[l]) != len(want) {
					t.Errorf("list %d: docs %v (df %d), want %v", l, got, p.df[l], want)
				}
			}
			// A consumer that stops early gets the first doc only.
			for l, want := range tc.lists {
				var got []uint32
				for d := range p.docs(uint32(l)) {
					got = append(got, d)
					break
				}
				if len(want) > 0 && !slices.Equal(got, want[:1]) || len(want) == 0 && got != nil {
					t.Errorf("list %d stopped after one: %v, want the first of %v", l, got, want)
				}
			}
		})
	}
}
