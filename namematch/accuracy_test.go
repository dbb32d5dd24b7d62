package namematch_test

import (
	"context"
	"testing"

	"github.com/openprospect/prospectd/internal/demo"
	"github.com/openprospect/prospectd/namematch"
	"github.com/openprospect/prospectd/namematch/namematchtest"
)

// TestAccuracyHeldOut is the CI version of the bulk-match benchmark: a
// held-out demo corpus (seed 3; the table was fitted on seed 2), perturbed
// queries, 15% of them for companies not in the index. Among rows returned
// with confidence >= 80 the top-1 match must be right at least 90% of the
// time, and the confidence must be calibrated: each band's precision is
// within 10 points of what it claims.
func TestAccuracyHeldOut(t *testing.T) {
	const corpus, queries = 6000, 3000
	qs, res := matchCorpus(t, corpus, queries, 3)
	type band struct{ n, right, claimed int }
	var hi band
	bands := map[int]*band{}
	for i, r := range res {
		if r.Err != nil || r.Domain == "" || r.Confidence < 50 {
			continue
		}
		right := r.Domain == qs[i].Want
		b := bands[r.Confidence/10]
		if b == nil {
			b = &band{}
			bands[r.Confidence/10] = b
		}
		b.n++
		b.claimed += r.Confidence
		if right {
			b.right++
		}
		if r.Confidence >= 80 {
			hi.n++
			if right {
				hi.right++
			}
		}
	}
	acc := float64(hi.right) / float64(max(hi.n, 1))
	t.Logf("confidence >= 80: %d rows, top-1 accuracy %.3f", hi.n, acc)
	if acc < 0.9 || hi.n < queries/2 {
		t.Errorf("confidence >= 80: %d rows with accuracy %.3f; want >= %d rows and >= 0.90", hi.n, acc, queries/2)
	}
	for k, b := range bands {
		if b.n < 100 {
			continue
		}
		got, claimed := float64(b.right)/float64(b.n), float64(b.claimed)/float64(b.n)/100
		t.Logf("confidence %d-%d: %d rows, precision %.3f, claimed %.3f", 10*k, 10*k+9, b.n, got, claimed)
		if got < claimed-0.1 {
			t.Errorf("confidence %d-%d: precision %.3f below the claimed %.3f", 10*k, 10*k+9, got, claimed)
		}
	}
}

// matchCorpus indexes the first corpus companies of the demo corpus of
// seed, draws queries labelled queries (15% of companies not indexed) and
// matches them.
func matchCorpus(t *testing.T, corpus, queries int, seed uint64) ([]namematchtest.Labelled, []namematch.Result) {
	t.Helper()
	g := demo.New(demo.Options{Companies: corpus + corpus/5, Seed: int64(seed)})
	x := namematch.BuildFrom(namematchtest.Corpus(g, corpus))
	qs := namematchtest.Queries(g, corpus, queries, 0.15, seed)
	in := make([]namematch.Query, len(qs))
	for i := range qs {
		in[i] = qs[i].Query
	}
	res, err := x.MatchAll(context.Background(), in, nil)
	if err != nil {
		t.Fatal(err)
	}
	return qs, res
}

func TestMatchExamples(t *testing.T) {
	keys := namematchtest.Corpus(demo.New(demo.Options{Companies: 50, Seed: 9}), 50)
	keys[0].Name, keys[0].Domain, keys[0].Country, keys[0].City = "Zentrix International Technologies GmbH", "zentrix.de", "DE", "München"
	keys[1].Name, keys[1].Domain, keys[1].Country, keys[1].City = "Zentrix International Technologies Inc.", "zentrix.com", "US", "Austin"
	keys[2].Name, keys[2].Domain, keys[2].Phones = "Société Générale de Fromages S.A.", "sgfromages.fr", []string{"+33142000000"}
	x := namematch.BuildFrom(keys)
	m := x.NewMatcher()
	for _, tc := range []struct {
		q    namematch.Query
		want string
	}{
		{namematch.Query{Name: "ZENTRIX INTL TECH", Country: "Germany"}, "zentrix.de"},
		{namematch.Query{Name: "Zentrix Intl. Tech, Inc", Country: "us"}, "zentrix.com"},
		{namematch.Query{Name: "Zentrix International Technologies", City: "munchen"}, "zentrix.de"},
		{namematch.Query{Name: "Technologies Zentrix International", Country: "DE"}, "zentrix.de"},
		{namematch.Query{Name: "Zentirx International Technologies", Country: "USA"}, "zentrix.com"},
		{namematch.Query{Name: "Societe Generale Fromages", Phone: "01 42 00 00 00"}, "sgfromages.fr"},
	} {
		if r := m.Match(tc.q); r.Domain != tc.want || r.Err != nil {
			t.Errorf("%+v: got %s (%d, %v), want %s", tc.q, r.Domain, r.Confidence, r.Err, tc.want)
		}
	}
	if r := m.Match(namematch.Query{Name: " -- "}); r.Err == nil {
		t.Error("a name without letters must be an error")
	}
}
