package embedding

import (
	"bytes"
	"errors"
	"slices"
	"testing"
)

func TestTermsEnglishStemming(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"inflections meet", "Banking banks manufacturer manufacturing",
			[]string{"bank", "bank", "bank bank", "manufactur", "bank manufactur", "manufactur", "manufactur manufactur"}},
		{"plural s as before", "services companies", []string{"servic", "compani", "servic compani"}},
		{"short words untouched", "IT gas", []string{"it", "gas", "it gas"}},
		{"folded latin is stemmed", "Société Générale", []string{"societ", "general", "societ general"}},
		{"other scripts untouched", "Газпром holdings", []string{"газпром", "hold", "газпром hold"}},
		{"CJK untouched", "国家电网 utilities", []string{"国家", "家电", "电网", "util"}},
		{"a stem of the same length", "happy", []string{"happi"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := TermsWith(tt.in, StemEnglish); !slices.Equal(got, tt.want) {
				t.Errorf("TermsWith(%q, StemEnglish) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
	// The default is the plural stemmer, as before.
	if got, want := Terms("Banking banks"), []string{"banking", "bank", "banking bank"}; !slices.Equal(got, want) {
		t.Errorf("Terms = %q, want %q", got, want)
	}
}

// TestEnglishHashesMatchTerms checks the hashes the embedding path computes
// with the English stemmer, memo hits included (every text twice through
// one tokenizer), against the terms TermsWith shows.
func TestEnglishHashesMatchTerms(t *testing.T) {
	tk := tokenizer{stemming: StemEnglish}
	for range 2 {
		for _, s := range []string{"cybersecurity for regional banks, credit unions and insurers",
			"Banking banking BANKING happily generalized", "国家电网 State Grid Corporation", "E-commerce — retail; Café & Straße"} {
			var c hashCollector
			tk.terms(s, &c)
			terms := TermsWith(s, StemEnglish)
			if len(terms) != len(c.hashes) {
				t.Fatalf("%q: %d terms, %d hashes", s, len(terms), len(c.hashes))
			}
			for i, term := range terms {
				if want := termHash([]byte(term)); c.hashes[i] != want {
					t.Fatalf("%q: hash of %q is %x, want %x", s, term, c.hashes[i], want)
				}
			}
		}
	}
}

// TestStemMemoBounded: the memo starts over at its bound and stems alike.
func TestStemMemoBounded(t *testing.T) {
	var tk tokenizer
	tk.stemming = StemEnglish
	for i := range stemCacheSize + 10 {
		w := []byte("banking" + string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + string(rune('a'+i/676%26)))
		tk.snowball(w, termHash(w))
	}
	if len(tk.stems) > stemCacheSize {
		t.Fatalf("memo holds %d stems, bound %d", len(tk.stems), stemCacheSize)
	}
	w := []byte("banking")
	got, changed := tk.snowball(w, termHash(w))
	if !changed || string(got) != "bank" {
		t.Fatalf("snowball(banking) = %q, %v", got, changed)
	}
}

func TestEnglishModelRoundTrip(t *testing.T) {
	docs, _ := fixtureCorpus(150)
	m, err := Fit(docs, Options{Dim: 32, Stemming: StemEnglish})
	if err != nil {
		t.Fatal(err)
	}
	b := encoded(t, m)
	if b[len(modelMagic)] != 3 {
		t.Fatalf("format version %d, want 3", b[len(modelMagic)])
	}
	back, err := Load(b)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(encoded(t, back), b) {
		t.Fatal("re-serializing changes the bytes")
	}
	for _, d := range docs[:20] {
		if !slices.Equal(back.Embed(d), m.Embed(d)) {
			t.Fatal("a loaded model embeds differently")
		}
	}
	// The stemmer is the model's: "banking" is a term only to the
	// English model (as "bank"), and a plural model of the same sample
	// differs and stays at version 2.
	plural, err := Fit(docs, Options{Dim: 32})
	if err != nil {
		t.Fatal(err)
	}
	if v := encoded(t, plural)[len(modelMagic)]; v != 2 {
		t.Fatalf("plural model format version %d, want 2", v)
	}
	if plural.ID() == m.ID() {
		t.Fatal("the English and plural models share an ID")
	}
	for _, s := range []string{"banking", "banks"} {
		if a, b := back.EmbedText(s), m.EmbedText(s); !slices.Equal(a, b) {
			t.Fatalf("%q embeds differently after Load", s)
		}
	}
	if n, p := m.KnownTerms(Doc{Description: "banking"}), m.KnownTerms(Doc{Description: "bank"}); n != p {
		t.Errorf("English model: KnownTerms(banking) %d, KnownTerms(bank) %d", n, p)
	}
	if _, err := Fit(docs, Options{Stemming: 9}); !errors.Is(err, ErrInvalidOptions) {
		t.Errorf("unknown stemming: Fit error %v, want ErrInvalidOptions", err)
	}
}

// FuzzTermsEnglish: with the English stemmer, the hashes of the embedding
// path are the hashes of the terms TermsWith shows, memo hits included.
func FuzzTermsEnglish(f *testing.F) {
	for _, s := range []string{"Banking for insurers", "yyyy eeee sses ied", "x-ray 1999 it's", "generalizations happily", "\xff\xfe"} {
		f.Add(s)
	}
	tk := tokenizer{stemming: StemEnglish}
	f.Fuzz(func(t *testing.T, s string) {
		terms := TermsWith(s, StemEnglish)
		for range 2 {
			var c hashCollector
			tk.terms(s, &c)
			if len(terms) != len(c.hashes) {
				t.Fatalf("%q: %d terms, %d hashes", s, len(terms), len(c.hashes))
			}
			for i, term := range terms {
				if term == "" || c.hashes[i] != termHash([]byte(term)) {
					t.Fatalf("%q: term %q, hash %x", s, term, c.hashes[i])
				}
			}
		}
	})
}
