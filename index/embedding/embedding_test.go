package embedding

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"
)

// corpus builds a small labelled corpus: each topic has its own vocabulary
// and shares generic business words with the others.
func corpus() ([]Doc, []string) {
	topics := map[string][]string{
		"security": {"endpoint", "threat", "firewall", "malware", "zero-trust", "intrusion", "encryption", "soc"},
		"bank":     {"savings", "mortgage", "deposit", "lending", "branch", "checking", "credit", "loan"},
		"farm":     {"harvest", "tractor", "seed", "irrigation", "crop", "livestock", "fertilizer", "dairy"},
		"games":    {"multiplayer", "console", "studio", "esports", "levels", "players", "arcade", "quest"},
	}
	generic := []string{"customers", "service", "solutions", "team", "global", "trusted", "quality", "partners"}
	var docs []Doc
	var labels []string
	names := []string{"security", "bank", "farm", "games"}
	for i := 0; i < 120; i++ {
		topic := names[i%4]
		words := topics[topic]
		desc := ""
		for j := 0; j < 12; j++ {
			desc += words[(i*7+j*3)%len(words)] + " "
			if j%3 == 0 {
				desc += generic[(i+j)%len(generic)] + " "
			}
		}
		docs = append(docs, Doc{Name: fmt.Sprintf("Company %d", i), Description: desc})
		labels = append(labels, topic)
	}
	return docs, labels
}

func fitSmall(t testing.TB) (*Model, []Doc, []string) {
	docs, labels := corpus()
	m, err := Fit(docs, Options{Dim: 16})
	if err != nil {
		t.Fatal(err)
	}
	return m, docs, labels
}

func cos(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

func TestUnitLengthAndDeterminism(t *testing.T) {
	m, docs, _ := fitSmall(t)
	m2, _, _ := fitSmall(t)
	if m.ID() != m2.ID() {
		t.Fatalf("two fits of the same corpus differ: %s vs %s", m.ID(), m2.ID())
	}
	for _, d := range docs[:10] {
		v := m.Embed(d)
		if len(v) != 16 {
			t.Fatalf("dim %d", len(v))
		}
		if n := cos(v, v); math.Abs(n-1) > 1e-4 {
			t.Fatalf("norm² = %f", n)
		}
		if w := m2.Embed(d); cos(v, w) < 0.9999 {
			t.Fatalf("same doc embeds differently across fits")
		}
	}
	if v := m.EmbedText("zzzz qqqq"); cos(v, v) != 0 {
		t.Fatalf("unknown words should embed to the zero vector")
	}
	other, _ := Fit(docs[:60], Options{Dim: 16})
	if other.ID() == m.ID() {
		t.Fatal("different fits share an id")
	}
}

func TestTopicsCluster(t *testing.T) {
	m, docs, labels := fitSmall(t)
	vecs := make([][]float32, len(docs))
	for i, d := range docs {
		vecs[i] = m.Embed(d)
	}
	var same, diff float64
	var ns, nd int
	for i := range vecs {
		for j := i + 1; j < len(vecs); j++ {
			c := cos(vecs[i], vecs[j])
			if labels[i] == labels[j] {
				same += c
				ns++
			} else {
				diff += c
				nd++
			}
		}
	}
	if same/float64(ns) < diff/float64(nd)+0.3 {
		t.Fatalf("same-topic mean cosine %.3f not clearly above cross-topic %.3f", same/float64(ns), diff/float64(nd))
	}
	q := m.EmbedText("firewall and malware protection")
	if cos(q, vecs[0]) < cos(q, vecs[1])+0.2 {
		t.Fatalf("query about security is not closer to a security company")
	}
}

func TestRoundTrip(t *testing.T) {
	m, docs, _ := fitSmall(t)
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Load(b)
	if err != nil {
		t.Fatal(err)
	}
	if back.ID() != m.ID() || back.Dim() != m.Dim() {
		t.Fatalf("id/dim changed: %s/%d", back.ID(), back.Dim())
	}
	for _, d := range docs[:5] {
		a, c := m.Embed(d), back.Embed(d)
		for i := range a {
			if a[i] != c[i] {
				t.Fatalf("vectors differ after round trip")
			}
		}
	}
	for _, bad := range [][]byte{nil, []byte("PRSPEMB1"), b[:len(b)-1], append([]byte("XXXXXXXX"), b[8:]...)} {
		if _, err := Load(bad); !errors.Is(err, ErrCorruptModel) {
			t.Errorf("Load(corrupt %d bytes) = %v", len(bad), err)
		}
	}
}

func TestFitNeedsText(t *testing.T) {
	if _, err := Fit([]Doc{{}, {Name: "a"}}, Options{}); !errors.Is(err, ErrTooFewDocs) {
		t.Fatalf("Fit without text: %v", err)
	}
}

func TestConcurrentEmbed(t *testing.T) {
	m, docs, _ := fitSmall(t)
	want := m.Embed(docs[3])
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				if v := m.Embed(docs[3]); cos(v, want) < 0.9999 {
					t.Error("concurrent embed differs")
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestTokens(t *testing.T) {
	got := tokens(nil, "Zero-Trust Security für Straße & Café, founded 1999 by the A-Team. 国家电网")
	want := []string{"zero", "trust", "security", "fur", "strasse", "cafe", "team", "国家", "家电", "电网"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("tokens = %v, want %v", got, want)
	}
}

func FuzzLoad(f *testing.F) {
	m, _, _ := fitSmall(f)
	b, _ := m.MarshalBinary()
	f.Add(b)
	f.Add([]byte("PRSPEMB1\x01\x00\x00\x00\x01\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if m, err := Load(b); err == nil {
			m.EmbedText("security")
		}
	})
}

func BenchmarkEmbed(b *testing.B) {
	m, docs, _ := fitSmall(b)
	d := docs[0]
	for len(d.SiteText) < 1000 {
		d.SiteText += docs[4].Description + " " + docs[8].Description
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.Embed(d)
	}
}

// TestWikipediaPrecision measures precision@10 of neighbours sharing an
// industry label on the shared real dataset, for a TF-IDF cosine baseline,
// plain feature hashing and this embedder (opt-in: needs ../shared/data).
func TestWikipediaPrecision(t *testing.T) {
	path := os.Getenv("PROSPECT_SHARED_DATA")
	if path == "" {
		path = "../../../shared/data"
	}
	f, err := os.Open(filepath.Join(path, "wikipedia-companies.jsonl"))
	if err != nil {
		t.Skip("shared dataset not found (set PROSPECT_SHARED_DATA): skipped")
	}
	defer f.Close()
	var docs []Doc
	var labels []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var r struct {
			Name, Description string
			Label             string `json:"industry_label"`
		}
		if json.Unmarshal(sc.Bytes(), &r) != nil || r.Label == "" || r.Description == "" {
			continue
		}
		docs = append(docs, Doc{Name: r.Name, Description: r.Description})
		labels = append(labels, r.Label)
	}
	m, err := Fit(docs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	dense := make([][]float32, len(docs))
	for i, d := range docs {
		dense[i] = m.Embed(d)
	}
	pSVD := precisionAt10(labels, func(i, j int) float64 { return cos(dense[i], dense[j]) })

	// TF-IDF cosine over the same unigram+bigram features, unprojected.
	sparse := make([]map[uint64]float64, len(docs))
	for i, d := range docs {
		b := docBag(d)
		v := map[uint64]float64{}
		var norm float64
		for h, tf := range b {
			if r, ok := m.vocab[h]; ok {
				w := float64(sublinear(tf) * m.idf[r])
				v[h] = w
				norm += w * w
			}
		}
		for h := range v {
			v[h] /= math.Sqrt(norm)
		}
		releaseBag(b)
		sparse[i] = v
	}
	pTFIDF := precisionAt10(labels, func(i, j int) float64 {
		a, b := sparse[i], sparse[j]
		if len(a) > len(b) {
			a, b = b, a
		}
		var s float64
		for h, x := range a {
			s += x * b[h]
		}
		return s
	})

	// Plain feature hashing of the same features into 256 dimensions.
	hashed := make([][]float32, len(docs))
	for i, d := range docs {
		b := docBag(d)
		v := make([]float32, 256)
		for h, tf := range b {
			sign := float32(1)
			if h>>63 == 1 {
				sign = -1
			}
			v[h%256] += sign * sublinear(tf)
		}
		releaseBag(b)
		hashed[i] = normalize(v)
	}
	pHash := precisionAt10(labels, func(i, j int) float64 { return cos(hashed[i], hashed[j]) })

	t.Logf("wikipedia companies: %d docs; precision@10 by industry label: tfidf-cosine %.3f, hashing-256 %.3f, %s %.3f",
		len(docs), pTFIDF, pHash, m.ID(), pSVD)
	if pSVD < pTFIDF {
		t.Errorf("embedder precision@10 %.3f below the TF-IDF baseline %.3f", pSVD, pTFIDF)
	}
}

func precisionAt10(labels []string, sim func(i, j int) float64) float64 {
	count := map[string]int{}
	for _, l := range labels {
		count[l]++
	}
	var sum float64
	var n int
	type nb struct {
		j int
		s float64
	}
	for i := range labels {
		if count[labels[i]] < 2 {
			continue
		}
		nbs := make([]nb, 0, len(labels))
		for j := range labels {
			if j != i {
				nbs = append(nbs, nb{j, sim(i, j)})
			}
		}
		sort.Slice(nbs, func(a, b int) bool {
			if nbs[a].s != nbs[b].s {
				return nbs[a].s > nbs[b].s
			}
			return nbs[a].j < nbs[b].j
		})
		hits := 0
		for _, x := range nbs[:10] {
			if labels[x.j] == labels[i] {
				hits++
			}
		}
		sum += float64(hits) / 10
		n++
	}
	return sum / float64(n)
}
