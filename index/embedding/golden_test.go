package embedding

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// goldenCorpus returns synthetic documents roughened the way real company
// text is: capitals, accents, apostrophes, hyphens, numbers, stop words,
// punctuation, CJK runs, Cyrillic and full-width letters. It exercises every
// branch of the tokenizer.
func goldenCorpus() []Doc {
	docs, _ := syntheticCorpus(3000, 20, 600, 3)
	fixture, _ := fixtureCorpus(150)
	docs = append(docs, fixture...)
	rng := rand.New(rand.NewPCG(11, 13))
	extras := []string{"the", "of", "and", "Inc.", "1999", "e-commerce", "X-Ray", "Société", "Générale", "Łódź",
		"Straße", "ÆON", "国家电网", "(电)", "ソフトウェア", "Газпром", "Ελληνικά", "ｓｏｆｔｗａｒｅ", "한국전력",
		"ไทย", "भारतीय", "McDonald's", "it’s", "—", ";", "!", "&", "cloud\xffsecurity", "services", "companies",
		"processes", "glass", "status", "analysis", "IT", "a", "x", "42"}
	rough := func(s string) string {
		words := strings.Fields(s)
		for i, w := range words {
			switch rng.IntN(16) {
			case 0:
				words[i] = strings.ToUpper(w[:1]) + w[1:]
			case 1:
				words[i] = strings.ToUpper(w)
			case 2:
				words[i] = strings.Replace(w, "e", "é", 1)
			case 3:
				words[i] = w + "'s"
			case 4:
				words[i] = extras[rng.IntN(len(extras))] + " " + w
			case 5:
				words[i] = w + "s"
			}
		}
		return strings.Join(words, " ")
	}
	for i := range docs {
		d := &docs[i]
		if i%3 != 0 {
			d.Name, d.Description = rough(d.Name), rough(d.Description)
		}
		if i%4 == 1 {
			d.SiteText = rough(d.Description[len(d.Description)/2:])
		}
		if i%5 == 2 {
			d.Industries = []string{rough("software development"), "Financial Services"}
		}
	}
	return docs
}

// TestGolden pins the exact bits of the tokenizer's terms and hashes and
// of the vectors: Embed may get faster, never different.
func TestGolden(t *testing.T) {
	checkGolden(t, StemPlural, [3]string{
		"161970d0feedf58cc2498200787e5c60ec24bbf827821f44f7dc37619f2b2667",
		"63abdc5c0ba22d4994454347577484818271c6036bdfd95d5b048e84beae7ccb",
		"3782217cbd2738f63f6189eb17a37f40f8d61132c706657610d8d1f8c3673687",
	})
}

// TestGoldenEnglish pins the format-version-3 model: the Snowball English
// stemmer's terms (so an upgrade of the stemmer module that stems
// differently is caught), the model bytes and the vectors.
func TestGoldenEnglish(t *testing.T) {
	checkGolden(t, StemEnglish, [3]string{
		"32c57a3e141e2ff4165775c9fd3cc2f745b446aa32e989beafcea33df80dfe78",
		"a687af81cad6a263c62bb8182d6fcb2b123b229d555c0dc767253c5725456bcd",
		"665d663f06fec5625168f27eaff4539b78c2e58091e088769c7d8bd22d0654fa",
	})
}

// checkGolden compares the model, terms and vectors digests of the golden
// corpus fitted with stemmer s against want.
func checkGolden(t *testing.T, s Stemming, want [3]string) {
	t.Helper()
	docs := goldenCorpus()
	m, err := Fit(docs, Options{Dim: 64, LabelDims: -1, Stemming: s}) // the unsupervised fit (the default); label directions: supervised_test.go
	if err != nil {
		t.Fatal(err)
	}
	enc, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	terms, vectors := sha256.New(), sha256.New()
	tk := tokenizer{stemming: s}
	var hc hashCollector
	var buf [8]byte
	for _, d := range docs {
		for _, text := range append([]string{d.Name, d.Description, d.SiteText}, d.Industries...) {
			for _, term := range TermsWith(text, s) {
				terms.Write([]byte(term))
				terms.Write([]byte{0})
			}
			hc.hashes = hc.hashes[:0]
			tk.terms(text, &hc)
			for _, h := range hc.hashes {
				terms.Write(binary.LittleEndian.AppendUint64(buf[:0], h))
			}
		}
		for _, v := range [][]float32{m.Embed(d), m.EmbedText(d.Description)} {
			for _, x := range v {
				vectors.Write(binary.LittleEndian.AppendUint32(buf[:0], math.Float32bits(x)))
			}
		}
	}
	for _, c := range []struct{ name, got, want string }{
		{"model", hexSum(enc), want[0]},
		{"terms", hex.EncodeToString(terms.Sum(nil)), want[1]},
		{"vectors", hex.EncodeToString(vectors.Sum(nil)), want[2]},
	} {
		if c.got != c.want {
			t.Errorf("%s digest %s, want %s", c.name, c.got, c.want)
		}
	}
}

func hexSum(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
