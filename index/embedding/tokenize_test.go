package embedding

import (
	"slices"
	"testing"
)

func TestTerms(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"empty", "", nil},
		{"only punctuation and short words", " ... x - 42 ", nil},
		{"lower-case, bigrams", "Cloud Security", []string{"cloud", "security", "cloud security"}},
		{"accents folded", "Société Générale, Łódź naïve Straße",
			[]string{"societe", "generale", "societe generale", "lodz", "naive", "lodz naive", "strasse", "naive strasse"}},
		{"letters without decomposition", "ÆON Øresund",
			[]string{"aeon", "oresund", "aeon oresund"}},
		{"stop words dropped and break bigrams", "Bank of America",
			[]string{"bank", "america"}},
		{"punctuation breaks bigrams", "retail, banking",
			[]string{"retail", "banking"}},
		{"dashes break bigrams", "retail — banking",
			[]string{"retail", "banking"}},
		{"numbers dropped, bigram spans them", "founded 1999 Berlin",
			[]string{"founded", "berlin", "founded berlin"}},
		{"plural stemming", "banks services companies processes",
			[]string{"bank", "service", "bank service", "company", "service company", "process", "company process"}},
		{"apostrophes join", "McDonald's franchise",
			[]string{"mcdonald", "franchise", "mcdonald franchise"}},
		{"single-letter hyphen prefix joins", "E-commerce x-ray",
			[]string{"ecommerce", "xray", "ecommerce xray"}},
		{"IT is kept", "IT services", []string{"it", "service", "it service"}},
		{"Han bigrams", "国家电网", []string{"国家", "家电", "电网"}},
		{"lone Han character", "(电)", []string{"电"}},
		{"kana with prolonged sound mark", "ソフトウェア",
			[]string{"ソフ", "フト", "トウ", "ウェ", "ェア"}},
		{"CJK runs stand apart from words", "国家电网 State Grid",
			[]string{"国家", "家电", "电网", "state", "grid", "state grid"}},
		{"full-width latin", "ｓｏｆｔｗａｒｅ ＡＩ", []string{"software", "ai", "software ai"}},
		{"hangul is written in words", "한국전력 Korea",
			[]string{"한국전력", "korea", "한국전력 korea"}},
		{"thai marks dropped", "ไทย", []string{"ไท", "ทย"}},
		{"indic vowel signs stay in the word", "भारतीय रेल",
			[]string{"भारतीय", "रेल", "भारतीय रेल"}},
		{"cyrillic and greek folded", "Газпром Ελληνικά",
			[]string{"газпром", "ελληνικα", "газпром ελληνικα"}},
		{"invalid utf-8 separates", "cloud\xffsecurity", []string{"cloud", "security", "cloud security"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Terms(tt.in); !slices.Equal(got, tt.want) {
				t.Errorf("Terms(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestStem(t *testing.T) {
	tests := []struct{ in, want string }{
		{"banks", "bank"}, {"services", "service"}, {"companies", "company"}, {"processes", "process"},
		{"glass", "glass"}, {"status", "status"}, {"analysis", "analysis"}, {"gas", "gas"}, {"ties", "tie"},
		{"bank", "bank"}, {"logistics", "logistic"}, {"über", "über"},
	}
	for _, tt := range tests {
		if got := string(stem([]byte(tt.in))); got != tt.want {
			t.Errorf("stem(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// hashCollector records the hashes the embedding path computes.
type hashCollector struct{ hashes []uint64 }

func (c *hashCollector) term(_ []byte, h uint64) { c.hashes = append(c.hashes, h) }

// checkHashes verifies that the incremental hashes of the embedding path
// are the hashes of the terms Terms shows.
func checkHashes(t *testing.T, text string) {
	t.Helper()
	var tk tokenizer
	var c hashCollector
	tk.terms(text, &c)
	terms := Terms(text)
	if len(terms) != len(c.hashes) {
		t.Fatalf("%q: %d terms but %d hashes", text, len(terms), len(c.hashes))
	}
	for i, term := range terms {
		if term == "" {
			t.Fatalf("%q: empty term", text)
		}
		if want := termHash([]byte(term)); c.hashes[i] != want {
			t.Fatalf("%q: hash of term %q is %x, want %x", text, term, c.hashes[i], want)
		}
	}
	var bare tokenizer
	bare.terms(text, nil)
	if !slices.Equal(bare.hashes, c.hashes) {
		t.Fatalf("%q: hashes without a sink %x, with one %x", text, bare.hashes, c.hashes)
	}
}

func TestTermHashesMatchTerms(t *testing.T) {
	for _, s := range []string{"cybersecurity for regional banks, credit unions and insurers",
		"国家电网 State Grid Corporation", "E-commerce — retail; Café & Straße"} {
		checkHashes(t, s)
	}
}

func FuzzTerms(f *testing.F) {
	for _, s := range []string{"Cloud security for banks", "国家电网公司", "Société — Générale", "x-ray 1999 it's", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkHashes(t, s) })
}

func TestFNVSub(t *testing.T) {
	if p, inv := uint64(fnvPrime), uint64(fnvPrimeInverse); p*inv != 1 {
		t.Fatal("fnvPrimeInverse is not the inverse of fnvPrime")
	}
	for _, s := range []string{"", "s", "es", "ies", "société"} {
		if h := fnvAdd(uint64(12345), s); fnvSub(h, s) != 12345 {
			t.Errorf("fnvSub(fnvAdd(h, %q), %q) != h", s, s)
		}
	}
}
