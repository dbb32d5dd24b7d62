package embedding

import (
	"errors"
	"math"
	"slices"
	"testing"
)

func cosine(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

func TestHashing(t *testing.T) {
	h, err := NewHashing(0)
	if err != nil {
		t.Fatal(err)
	}
	if h.Dim() != DefaultDim {
		t.Fatalf("dim %d", h.Dim())
	}
	payroll := h.Embed(Doc{Name: "Acme", Description: "Payroll software for small businesses"})
	for _, tc := range []struct {
		name      string
		vec       []float32
		min, max  float64 // cosine with payroll
		unitCheck bool
	}{
		{"same text as a query", h.EmbedText("payroll software"), 0.3, 1, true},
		{"unrelated text", h.EmbedText("wind turbine maintenance"), -0.3, 0.3, true},
		{"plural folded like the fitted model", h.EmbedText("payrolls"), 0.1, 1, true},
		{"no terms: the fallback", h.EmbedText("the of and"), -1, 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var sq float64
			for _, x := range tc.vec {
				if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
					t.Fatal("non-finite coordinate")
				}
				sq += float64(x) * float64(x)
			}
			if math.Abs(sq-1) > 1e-5 {
				t.Errorf("norm² %v, want 1", sq)
			}
			if c := cosine(payroll, tc.vec); c < tc.min || c > tc.max {
				t.Errorf("cosine %v outside [%v, %v]", c, tc.min, tc.max)
			}
		})
	}
	// Deterministic, and the same whatever instance embeds.
	h2, _ := NewHashing(0)
	if !slices.Equal(payroll, h2.Embed(Doc{Name: "Acme", Description: "Payroll software for small businesses"})) {
		t.Error("two hashing embedders disagree")
	}
	if _, err := NewHashing(MaxDim + 1); !errors.Is(err, ErrInvalidOptions) {
		t.Errorf("oversized dim: %v", err)
	}
}

func TestHashingCodec(t *testing.T) {
	h, _ := NewHashing(64)
	b, _ := h.MarshalBinary()
	got, err := LoadEmbedder(b)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID() != h.ID() || got.Dim() != 64 || !slices.Equal(got.EmbedText("payroll"), h.EmbedText("payroll")) {
		t.Fatalf("round trip: %s %d", got.ID(), got.Dim())
	}
	other, _ := NewHashing(128)
	if other.ID() == h.ID() {
		t.Error("two dimensions share an id")
	}
	flip := func(i int) []byte { c := slices.Clone(b); c[i] ^= 1; return c }
	for name, in := range map[string][]byte{
		"truncated":     b[:len(b)-1],
		"bad checksum":  flip(len(b) - 1),
		"bad dimension": flip(len(hashingMagic) + 1),
		"other version": flip(len(hashingMagic)),
	} {
		if _, err := LoadEmbedder(in); !errors.Is(err, ErrCorruptModel) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func FuzzLoadHashing(f *testing.F) {
	h, _ := NewHashing(8)
	b, _ := h.MarshalBinary()
	f.Add(b)
	f.Fuzz(func(t *testing.T, in []byte) {
		e, err := LoadEmbedder(in)
		if err == nil && len(e.EmbedText("payroll software")) != e.Dim() {
			t.Fatal("vector length differs from Dim")
		}
	})
}
