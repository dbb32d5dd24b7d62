package elastic

import (
	"net/url"
	"testing"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/query"
)

// TestDiscoverGolden pins the Elasticsearch requests that whole discovery
// requests turn into: the filters query/ builds from the API parameters
// (region expansion, negations, phrase matching, defaults) under a knn
// search, and the filter-only variant ordered by score.
func TestDiscoverGolden(t *testing.T) {
	for _, tc := range []struct{ name, params string }{
		{"discover_lookalike_dach", "domain=acme.com&country=DACH&category=CYBERSECURITY&negate_category=BANKING&max_records=100"},
		{"discover_phrases_and_negations", "icp_text=endpoint+security&phrase_match=zero+trust&phrase_match=endpoint+protection" +
			"&negate_phrase_match=crypto&negate_country=US&negate_social=facebook&negate_tech_stack=wix.com&exclude_domain=a.com,b.com"},
		{"discover_ranges_and_state", "country=US&state=California&employee_range=50,500&revenue_range=,5000000" +
			"&start_date=2015-01-01,2020-12-31&business_model=B2B&language=en&redirect=true&exclude_leadgen=false"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := url.ParseQuery(tc.params)
			if err != nil {
				t.Fatal(err)
			}
			d, err := query.ParseDiscover(v)
			if err != nil {
				t.Fatal(err)
			}
			s := index.Search{Filter: query.Filter(d), Offset: d.Offset, Limit: d.MaxRecords}
			if d.HasVectorInput() {
				s.Vector, s.MinSimilarity = queryVec, -2
			}
			golden(t, tc.name, mustSearch(t, s))
		})
	}
}
