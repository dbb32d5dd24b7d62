package embedding

import (
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/openprospect/prospectd/record"
)

func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

// checkUnit fails unless v has the model's length, is finite and has unit
// length.
func checkUnit(t *testing.T, m *Model, v []float32) {
	t.Helper()
	if len(v) != m.Dim() {
		t.Fatalf("vector length %d, want %d", len(v), m.Dim())
	}
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			t.Fatalf("vector has %v", x)
		}
	}
	if n := dot(v, v); math.Abs(n-1) > 1e-5 {
		t.Fatalf("norm² = %v, want 1", n)
	}
}

func TestEmbedUnitLength(t *testing.T) {
	m, docs, _ := fitted(t)
	long := strings.Repeat("firewall malware encryption bank ", 5000) // beyond maxFieldBytes
	texts := []string{"", "zzzz qqqq", "firewall", "cybersecurity for banks", long, "国家电网", "\xff\xfe\xfd"}
	for _, s := range texts {
		checkUnit(t, m, m.EmbedText(s))
	}
	for _, d := range docs[:20] {
		checkUnit(t, m, m.Embed(d))
	}
	checkUnit(t, m, m.Embed(Doc{}))
	checkUnit(t, m, m.Embed(Doc{Keywords: []string{long, long}, Industries: []string{"CYBERSECURITY"}}))
}

func TestEmbedDeterministic(t *testing.T) {
	m, docs, _ := fitted(t)
	for _, d := range docs[:10] {
		if a, b := m.Embed(d), m.Embed(d); !slices.Equal(a, b) {
			t.Fatal("the same document embeds to different vectors")
		}
	}
}

func TestFallbackForUnknownText(t *testing.T) {
	m, _, _ := fitted(t)
	for _, s := range []string{"", "zzzz qqqq", "of the and"} {
		if !slices.Equal(m.EmbedText(s), m.fallback) {
			t.Errorf("EmbedText(%q) is not the fallback vector", s)
		}
		if n := m.KnownTerms(Doc{Description: s}); n != 0 {
			t.Errorf("KnownTerms(%q) = %d, want 0", s, n)
		}
	}
	if n := m.KnownTerms(Doc{Description: "firewall firewall malware zzzz"}); n < 2 {
		t.Errorf("KnownTerms counts %d known terms, want at least 2", n)
	}
}

func TestUnknownWordsIgnored(t *testing.T) {
	m, _, _ := fitted(t)
	a := m.EmbedText("firewall, malware")
	b := m.EmbedText("firewall, qqqzzz malware xyzzy")
	if !slices.Equal(a, b) {
		t.Error("unknown words changed the vector")
	}
}

// TestNeighboursShareTopic checks that nearest neighbours are companies of
// the same industry, for documents and for query text.
func TestNeighboursShareTopic(t *testing.T) {
	m, docs, labels := fitted(t)
	vecs := make([][]float32, len(docs))
	for i, d := range docs {
		vecs[i] = m.Embed(d)
	}
	hits := 0
	for i := range vecs {
		best, bestSim := -1, -2.0
		for j := range vecs {
			if s := dot(vecs[i], vecs[j]); j != i && s > bestSim {
				best, bestSim = j, s
			}
		}
		if labels[best] == labels[i] {
			hits++
		}
	}
	if frac := float64(hits) / float64(len(vecs)); frac < 0.95 {
		t.Errorf("nearest neighbour shares the topic for %.2f of documents, want >= 0.95", frac)
	}

	queries := map[string]string{
		"ransomware and threat detection for enterprises": "security",
		"mortgage lender with savings accounts":           "banking",
		"grain and livestock producer":                    "farming",
		"mobile game developer":                           "games",
		"trucking and freight forwarding":                 "logistics",
	}
	for q, want := range queries {
		v := m.EmbedText(q)
		order := make([]int, len(vecs))
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(a, b int) int {
			if sa, sb := dot(v, vecs[a]), dot(v, vecs[b]); sa != sb {
				if sa > sb {
					return -1
				}
				return 1
			}
			return a - b
		})
		for _, i := range order[:10] {
			if labels[i] != want {
				t.Errorf("query %q: a %s company ranks in the top 10, want only %s", q, labels[i], want)
				break
			}
		}
	}
}

// TestIndustryLabelsCount checks that an industry label moves a company
// towards that industry.
func TestIndustryLabelsCount(t *testing.T) {
	m, _, _ := fitted(t)
	bank := m.EmbedText("retail banking, mortgages and loans")
	plain := Doc{Description: "We provide firewall and malware protection."}
	labelled := plain
	labelled.Industries = []string{"BANKING"}
	if dot(m.Embed(labelled), bank) <= dot(m.Embed(plain), bank) {
		t.Error("an industry label of BANKING did not move the company towards banking")
	}
}

func TestConcurrentEmbed(t *testing.T) {
	m, docs, _ := fitted(t)
	want := make([][]float32, len(docs))
	for i, d := range docs {
		want[i] = m.Embed(d)
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 3*len(docs); k++ {
				i := (k*7 + g*13) % len(docs)
				var v []float32
				if k%5 == 0 {
					v = m.EmbedText(docs[i].Description)
				} else {
					v = m.Embed(docs[i])
				}
				if k%5 != 0 && !slices.Equal(v, want[i]) {
					t.Errorf("goroutine %d: document %d embeds differently under concurrency", g, i)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestDocOf(t *testing.T) {
	c := record.Company{
		Name: "Acme", Description: "Firewalls.", SiteText: "We stop malware.",
		Keywords:       map[string]float64{"zero trust": 0.5, "firewall": 0.9, "edr": 0.5},
		IndustryGroups: map[string]float64{"CYBERSECURITY": 0.9, "SOFTWARE": 0.4},
	}
	d := DocOf(c)
	want := Doc{Name: "Acme", Description: "Firewalls.", SiteText: "We stop malware.",
		Keywords: []string{"firewall", "edr", "zero trust"}, Industries: c.Industries()}
	if d.Name != want.Name || d.Description != want.Description || d.SiteText != want.SiteText ||
		!slices.Equal(d.Keywords, want.Keywords) || !slices.Equal(d.Industries, want.Industries) {
		t.Errorf("DocOf = %+v, want %+v", d, want)
	}
	if DocOf(record.Company{}).Keywords != nil {
		t.Error("a company without keywords has keywords")
	}
}

// FuzzEmbedText: any query text, valid UTF-8 or not, gives a finite unit
// vector.
func FuzzEmbedText(f *testing.F) {
	for _, s := range []string{"cybersecurity for banks", "国家电网", "\xff", strings.Repeat("a-", 100)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, _, _ := fitted(t)
		checkUnit(t, m, m.EmbedText(s))
	})
}
