package embedding

import (
	"math/rand/v2"
	"strings"
)

// syntheticCorpus returns n documents of about docBytes bytes each with
// their topic labels. Words are pseudo-words drawn from a Zipf-distributed
// background vocabulary mixed with the words of the document's topic, so
// the corpus has the heavy-tailed term statistics of real descriptions and
// a known neighbour structure. It is deterministic for a seed.
func syntheticCorpus(n, topics, docBytes int, seed uint64) ([]Doc, []int) {
	rng := rand.New(rand.NewPCG(seed, 1))
	syllables := strings.Fields("ka lo mi ra te su no vi ba de fo gu he ji ku la me ni po qu re si to ur va we xa yo ze an el in on ul ar er ir or us")
	seen := map[string]bool{}
	var vocab []string
	for len(vocab) < 40000 {
		var b strings.Builder
		for s := 2 + rng.IntN(3); s > 0; s-- {
			b.WriteString(syllables[rng.IntN(len(syllables))])
		}
		if w := b.String(); !seen[w] {
			seen[w] = true
			vocab = append(vocab, w)
		}
	}
	background := rand.NewZipf(rng, 1.1, 2, uint64(len(vocab)-1))
	topicWords := make([][]string, topics)
	for t := range topicWords {
		for i := 0; i < 200; i++ {
			topicWords[t] = append(topicWords[t], vocab[500+rng.IntN(len(vocab)-500)])
		}
	}
	inTopic := rand.NewZipf(rng, 1.05, 4, 199)
	docs := make([]Doc, n)
	labels := make([]int, n)
	for i := range docs {
		t := rng.IntN(topics)
		var b strings.Builder
		for b.Len() < docBytes {
			if rng.Float64() < 0.35 {
				b.WriteString(topicWords[t][inTopic.Uint64()])
			} else {
				b.WriteString(vocab[background.Uint64()])
			}
			if rng.IntN(12) == 0 {
				b.WriteString(". ")
			} else {
				b.WriteByte(' ')
			}
		}
		docs[i] = Doc{
			Name:        vocab[rng.IntN(len(vocab))] + " " + vocab[rng.IntN(len(vocab))] + " Inc",
			Description: b.String(),
			Keywords:    []string{topicWords[t][inTopic.Uint64()], topicWords[t][inTopic.Uint64()]},
		}
		labels[i] = t
	}
	return docs, labels
}
