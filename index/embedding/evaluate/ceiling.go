package evaluate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/openprospect/prospectd/index/embedding"
)

// Ceiling analysis of the relevance benchmark (issue 22): how much room the
// exact-label judgement leaves above a method, and what its wrong
// neighbours are. It looks at the ranked companies' labels, so it is an
// analysis of a method, never a method: it runs on the tuning part only
// (the two folds, each ranked with the other as the labelled set), as a
// search over settings may.

// AnalyzedMethods are the rows embedeval -analyze breaks down: the TF-IDF
// baseline, the shipped default and the embedder with label directions.
func AnalyzedMethods() []Method {
	return []Method{
		TFIDFMethod(),
		EmbedderMethod("embedder, unsupervised, labels as fit terms", embedding.Options{}, true),
		EmbedderMethod(LabelMethod, embedding.Options{LabelDims: embedding.DefaultLabelDims}, true),
	}
}

// Analysis is the ceiling and error breakdown of one method on one variant.
type Analysis struct {
	Variant, Method string
	// Queries are the ranked companies with another of their label in
	// their fold; QueriesLabelled those whose label the labelled fold
	// holds at least once.
	Queries, QueriesLabelled int
	// PrecisionAt10 is the method's (as the benchmark measures it).
	PrecisionAt10 float64
	// Ceiling is the precision@10 of the perfect ranking: every company of
	// the query's exact label first (min(10, relevant)/10 per query).
	Ceiling float64
	// CeilingLabelled is the perfect ranking for the queries whose label
	// the labelled fold holds and nothing for the rest: a flawless
	// classifier into the labelled set's exact labels.
	CeilingLabelled float64
	// CeilingKey is the expected precision@10 of ranking the query's
	// LabelKey group first in random order: a flawless classifier that
	// cannot tell "pharmaceutical" from "pharmaceuticals".
	CeilingKey float64
	// The method's top-10 neighbours, as shares of all top-10 slots: the
	// query's exact label (= PrecisionAt10), another spelling of its
	// LabelKey, a label sharing a LabelKey word ("retail" and "mass
	// retail"), any other label.
	Exact, SameKey, SharedWord, Other float64
}

// String prints the analysis on one line.
func (a Analysis) String() string {
	return fmt.Sprintf("%s, %s: %d queries (%d with their label in the labelled fold); P@10 %.3f; ceilings: exact %.3f, labelled-set labels %.3f, LabelKey groups %.3f; top-10 slots: exact %.3f, same LabelKey %.3f, shared label word %.3f, other %.3f",
		a.Variant, a.Method, a.Queries, a.QueriesLabelled, a.PrecisionAt10, a.Ceiling, a.CeilingLabelled, a.CeilingKey,
		a.Exact, a.SameKey, a.SharedWord, a.Other)
}

// Analyze measures the ceilings and m's error breakdown on the tuning
// part of s for every variant. The held-out part is never read.
func Analyze(s Split, variants []Variant, m Method) ([]Analysis, error) {
	var out []Analysis
	for _, v := range variants {
		var acc analysisSums
		for f := range s.Folds {
			ranked, labelled := applyAll(v, s.Folds[f]), applyAll(v, s.Folds[1-f])
			if err := acc.fold(m, ranked, labelled); err != nil {
				return nil, fmt.Errorf("%s, %s, tuning fold %d: %w", v.Name, m.Name, f, err)
			}
		}
		if acc.queries == 0 {
			return nil, fmt.Errorf("%s: %w", v.Name, ErrNoQueries)
		}
		q, slots := float64(acc.queries), float64(10*acc.queries)
		out = append(out, Analysis{
			Variant: v.Name, Method: m.Name,
			Queries: acc.queries, QueriesLabelled: acc.queriesLabelled,
			PrecisionAt10:   acc.exact / slots,
			Ceiling:         acc.ceiling / q,
			CeilingLabelled: acc.ceilingLabelled / q,
			CeilingKey:      acc.ceilingKey / q,
			Exact:           acc.exact / slots, SameKey: acc.sameKey / slots,
			SharedWord: acc.sharedWord / slots, Other: acc.other / slots,
		})
	}
	return out, nil
}

func applyAll(v Variant, cs []Company) []Company {
	out := make([]Company, len(cs))
	for i, c := range cs {
		out[i] = v.Apply(c)
	}
	return out
}

type analysisSums struct {
	queries, queriesLabelled             int
	ceiling, ceilingLabelled, ceilingKey float64
	exact, sameKey, sharedWord, other    float64
}

func (a *analysisSums) fold(m Method, ranked, labelled []Company) error {
	docs := make([]embedding.Doc, len(ranked))
	labels := make([]string, len(ranked))
	keys := make([]string, len(ranked))
	count, keyCount := map[string]int{}, map[string]int{}
	for i, c := range ranked {
		docs[i], labels[i], keys[i] = c.Doc(), c.Label, embedding.LabelKey(c.Label)
		count[c.Label]++
		keyCount[keys[i]]++
	}
	inLabelled := map[string]bool{}
	for _, c := range labelled {
		inLabelled[c.Label] = true
	}
	sim, err := m.Sim(docs, labelled)
	if err != nil {
		return err
	}
	var buf []neighbour
	for i, l := range labels {
		rel := count[l] - 1
		if rel == 0 {
			continue
		}
		a.queries++
		best := float64(min(10, rel)) / 10
		a.ceiling += best
		if inLabelled[l] {
			a.queriesLabelled++
			a.ceilingLabelled += best
		}
		// The LabelKey group (self excluded) first, in random order:
		// expected exact hits in the top 10 are rel × min(1, 10/group).
		group := float64(keyCount[keys[i]] - 1)
		a.ceilingKey += float64(rel) * min(1, 10/group) / 10
		buf = rank(buf, i, len(ranked), sim)
		words := strings.Fields(keys[i])
		for _, nb := range buf[:min(10, len(buf))] {
			switch {
			case labels[nb.j] == l:
				a.exact++
			case keys[nb.j] == keys[i]:
				a.sameKey++
			case slices.ContainsFunc(strings.Fields(keys[nb.j]), func(w string) bool { return slices.Contains(words, w) }):
				a.sharedWord++
			default:
				a.other++
			}
		}
	}
	return nil
}
