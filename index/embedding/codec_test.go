package embedding

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
	"slices"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	m, docs, _ := fitted(t)
	b := encoded(t, m)
	back, err := Load(b)
	if err != nil {
		t.Fatal(err)
	}
	if back.ID() != m.ID() || back.Dim() != m.Dim() || back.VocabSize() != m.VocabSize() {
		t.Fatalf("loaded %s/%d/%d terms, want %s/%d/%d", back.ID(), back.Dim(), back.VocabSize(), m.ID(), m.Dim(), m.VocabSize())
	}
	if !bytes.Equal(encoded(t, back), b) {
		t.Fatal("re-serializing a loaded model changes its bytes")
	}
	for _, d := range docs[:20] {
		if !slices.Equal(back.Embed(d), m.Embed(d)) {
			t.Fatal("a loaded model embeds differently")
		}
	}
	for _, s := range []string{"cybersecurity for banks", "", "unknownword"} {
		if !slices.Equal(back.EmbedText(s), m.EmbedText(s)) {
			t.Fatalf("a loaded model embeds %q differently", s)
		}
	}
	// MarshalBinary returns a copy the caller may change.
	b[0] = 'X'
	if _, err := Load(encoded(t, m)); err != nil {
		t.Fatal("changing the returned bytes changed the model")
	}
}

// withCRC returns b with its checksum recomputed, so a test reaches the
// structural checks behind it.
func withCRC(b []byte) []byte {
	b = slices.Clone(b)
	if len(b) >= 4 {
		binary.LittleEndian.PutUint32(b[len(b)-4:], crc32.Checksum(b[:len(b)-4], crcTable))
	}
	return b
}

func TestLoadRejectsCorruptInput(t *testing.T) {
	m, _, _ := fitted(t)
	good := encoded(t, m)
	terms := m.VocabSize()
	hashesAt := headerSize
	scalesAt := hashesAt + 8*terms
	fallbackAt := scalesAt + 4*terms + terms*m.rank
	set := func(off int, v uint32) []byte {
		b := slices.Clone(good)
		binary.LittleEndian.PutUint32(b[off:], v)
		return withCRC(b)
	}
	flipped := slices.Clone(good)
	flipped[len(flipped)/2] ^= 0x10
	swapped := slices.Clone(good)
	copy(swapped[hashesAt:], good[hashesAt+8:hashesAt+16])
	copy(swapped[hashesAt+8:], good[hashesAt:hashesAt+8])

	tests := map[string][]byte{
		"nil":                 nil,
		"magic only":          []byte(modelMagic),
		"foreign bytes":       bytes.Repeat([]byte{0x42}, 200),
		"old version":         withCRC(append([]byte(modelMagic+"\x01"), good[len(modelMagic)+1:]...)),
		"truncated":           good[:len(good)-9],
		"truncated, re-crc":   withCRC(good[:len(good)-9]),
		"extra byte, re-crc":  withCRC(append(slices.Clone(good[:len(good)-4]), 0, 0, 0, 0, 0)),
		"bit flip":            flipped,
		"zero dimension":      set(8, 0),
		"huge dimension":      set(8, MaxDim+1),
		"rank above dim":      set(12, uint32(m.dim+1)),
		"zero terms":          set(16, 0),
		"terms too many":      set(16, uint32(terms+1)),
		"NaN weight":          set(20, math.Float32bits(float32(math.NaN()))),
		"negative weight":     set(24, math.Float32bits(-1)),
		"hashes out of order": withCRC(swapped),
		"NaN scale":           set(scalesAt, math.Float32bits(float32(math.NaN()))),
		"huge scale":          set(scalesAt+4, math.Float32bits(1e30)),
		"infinite fallback":   set(fallbackAt, math.Float32bits(float32(math.Inf(1)))),
		"fallback not unit":   set(fallbackAt, math.Float32bits(3)),
	}
	for name, b := range tests {
		if _, err := Load(b); !errors.Is(err, ErrCorruptModel) {
			t.Errorf("%s: Load error = %v, want ErrCorruptModel", name, err)
		}
	}
}

func FuzzLoad(f *testing.F) {
	docs, _ := fixtureCorpus(30)
	m, err := Fit(docs, Options{Dim: 4, MaxVocab: 20})
	if err != nil {
		f.Fatal(err)
	}
	good, _ := m.MarshalBinary()
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte(modelMagic + "\x02"))
	f.Fuzz(func(t *testing.T, b []byte) {
		// Also with a valid checksum, or the fuzzer would rarely get past it.
		for _, in := range [][]byte{b, withCRC(b)} {
			m, err := Load(in)
			if err != nil {
				if !errors.Is(err, ErrCorruptModel) {
					t.Fatalf("Load error %v does not wrap ErrCorruptModel", err)
				}
				continue
			}
			for _, s := range []string{"cloud security", "", "bank"} {
				checkUnit(t, m, m.EmbedText(s))
			}
			again, err := Load(encoded(t, m))
			if err != nil || again.ID() != m.ID() {
				t.Fatalf("a loaded model does not round-trip: %v", err)
			}
		}
	})
}
