package namematch_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"testing"
)

// matchDigest is the SHA-256 of every result of TestMatchDigest's corpus
// and queries, recorded with the per-token/per-trigram slice layout of the
// index (before the CSR layout). A change to the index's memory layout must
// leave it as is; a change to matching itself (scoring, retrieval bounds,
// normalization) updates it on purpose.
const matchDigest = "3bc25ba73e83cb8a4284d5141591a823c51b9fb8a1587682dfbf399aeeb5b9ac"

// TestMatchDigest pins the match results (domain, raw score, confidence,
// error) of 4,000 perturbed queries against a 10,000-company demo corpus.
func TestMatchDigest(t *testing.T) {
	const corpus, queries = 10_000, 4_000
	_, res := matchCorpus(t, corpus, queries, 5)
	h := sha256.New()
	matched := 0
	for _, r := range res {
		fmt.Fprintf(h, "%s\x00%.17g\x00%d\x00%v\n", r.Domain, r.Raw, r.Confidence, r.Err)
		if r.Domain != "" {
			matched++
		}
	}
	if matched < queries/2 {
		t.Fatalf("only %d of %d queries matched a company", matched, queries)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != matchDigest {
		t.Errorf("match results digest %s, want %s", got, matchDigest)
	}
}
