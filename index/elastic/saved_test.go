package elastic

import (
	"fmt"
	"testing"

	"github.com/openprospect/prospectd/index"
)

// exclusion is a saved exclusion list as discovery applies it.
func exclusion(n int) index.Filter {
	values := make([]string, n)
	for i := range values {
		values[i] = fmt.Sprintf("customer%d.com", i)
	}
	return index.And{
		index.Terms{Field: index.StatusField, Values: []string{"active"}},
		index.Not{Filter: index.Terms{Field: index.DomainField, Values: values, Key: "list-1"}},
	}
}

// TestExclusionListGolden pins how a list longer than one terms query may
// carry is sent: an OR of terms queries under must_not (shown with
// 3-value chunks instead of 65,536).
func TestExclusionListGolden(t *testing.T) {
	defer func(n int) { termsChunk = n }(termsChunk)
	termsChunk = 3
	golden(t, "count_exclusion_list_chunked", mustCount(t, exclusion(7)))
	golden(t, "search_knn_exclusion_list_chunked", mustSearch(t, index.Search{Filter: exclusion(7), Vector: queryVec, MinSimilarity: -2, Limit: 10}))
}

// TestExclusionListChunks: a 250,000-domain list is split into terms
// queries within Elasticsearch's index.max_terms_count, keeping every
// value once and in order.
func TestExclusionListChunks(t *testing.T) {
	q, err := translate(exclusion(250_000))
	if err != nil {
		t.Fatal(err)
	}
	not := q.Bool.MustNot
	if len(not) != 1 || not[0].Bool == nil {
		t.Fatalf("must_not %+v", not)
	}
	chunks := not[0].Bool.Should
	if len(chunks) != 4 || not[0].Bool.MinimumShouldMatch != 1 {
		t.Fatalf("%d chunks, minimum_should_match %d", len(chunks), not[0].Bool.MinimumShouldMatch)
	}
	next := 0
	for _, c := range chunks {
		if c.Terms == nil || c.Terms.Field != "domain" || len(c.Terms.Values) > maxTermsCount {
			t.Fatalf("chunk %+v", c)
		}
		for _, v := range c.Terms.Values {
			if v != fmt.Sprintf("customer%d.com", next) {
				t.Fatalf("value %d is %s", next, v)
			}
			next++
		}
	}
	if next != 250_000 {
		t.Fatalf("%d values sent", next)
	}
}
