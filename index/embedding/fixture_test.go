package embedding

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
)

// topics are small hand-written vocabularies of real industries; the
// fixture corpus draws descriptions from them so tests can check that the
// embedder puts companies of one industry together.
var topics = map[string][]string{
	"security": {"cybersecurity", "endpoint protection", "threat detection", "firewall", "malware", "zero trust",
		"intrusion prevention", "encryption", "security operations", "identity management", "vulnerability scanning", "ransomware"},
	"banking": {"retail banking", "mortgages", "savings accounts", "deposits", "commercial lending", "branches",
		"checking accounts", "credit cards", "loans", "wealth management", "bank", "interest rates"},
	"farming": {"harvest", "tractors", "seeds", "irrigation", "crops", "livestock", "fertilizer", "dairy farms",
		"grain", "agriculture", "orchards", "soil health"},
	"games": {"video games", "multiplayer", "game studio", "consoles", "esports", "players", "mobile games",
		"game engine", "role-playing", "arcade", "gaming", "virtual worlds"},
	"logistics": {"freight", "shipping", "warehousing", "trucking", "supply chain", "last-mile delivery",
		"containers", "logistics", "distribution centers", "courier", "fleet management", "customs brokerage"},
}

var topicNames = []string{"security", "banking", "farming", "games", "logistics"}

// fixtureCorpus returns n company documents, cycling through the topics,
// with generic business filler shared by all.
func fixtureCorpus(n int) ([]Doc, []string) {
	rng := rand.New(rand.NewPCG(7, 7))
	filler := []string{"trusted by customers", "global team", "founded in 1998", "award-winning service",
		"headquartered in Chicago", "offices in Europe", "serving enterprises", "innovative solutions", "our partners"}
	docs := make([]Doc, n)
	labels := make([]string, n)
	for i := range docs {
		topic := topicNames[i%len(topicNames)]
		words := topics[topic]
		var parts []string
		for j := 0; j < 6; j++ {
			parts = append(parts, words[rng.IntN(len(words))])
			if j%2 == 0 {
				parts = append(parts, filler[rng.IntN(len(filler))])
			}
		}
		docs[i] = Doc{
			Name:        fmt.Sprintf("Acme %s %d", strings.ToUpper(topic[:1])+topic[1:], i),
			Description: "We provide " + strings.Join(parts, ", ") + ".",
			Keywords:    []string{words[rng.IntN(len(words))]},
		}
		labels[i] = topic
	}
	return docs, labels
}

var (
	fixtureOnce  sync.Once
	fixtureModel *Model
	fixtureDocs  []Doc
	fixtureLbls  []string
	fixtureErr   error
)

// fitted returns a model fitted on a 150-document fixture corpus, shared by
// the tests (Model is immutable).
func fitted(t testing.TB) (*Model, []Doc, []string) {
	t.Helper()
	fixtureOnce.Do(func() {
		fixtureDocs, fixtureLbls = fixtureCorpus(150)
		fixtureModel, fixtureErr = Fit(fixtureDocs, Options{Dim: 32})
	})
	if fixtureErr != nil {
		t.Fatal(fixtureErr)
	}
	return fixtureModel, fixtureDocs, fixtureLbls
}

var (
	largeOnce  sync.Once
	largeModel *Model
	largeDocs  []Doc
)

// fittedLarge returns a model at production size: 256 dimensions and a
// full 30,000-term vocabulary fitted on 20,000 synthetic 1 KB documents.
// Only benchmarks use it.
func fittedLarge(b *testing.B) (*Model, []Doc) {
	b.Helper()
	largeOnce.Do(func() {
		largeDocs, _ = syntheticCorpus(20000, 50, 1000, 1)
		var err error
		if largeModel, err = Fit(largeDocs, Options{}); err != nil {
			b.Fatal(err)
		}
	})
	return largeModel, largeDocs
}
