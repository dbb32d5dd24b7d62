package elastic

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/openprospect/prospectd/index"
)

// This file translates the engine-neutral request (index.Filter,
// index.Search) into Elasticsearch request bodies. The DSL nodes are typed
// structs of our own; each marshals to exactly the JSON Elasticsearch
// expects, and testdata/*.golden pins the output.

// Mapped field names (mappings/companies-v1.json) of the filterable fields.
var termsFields = map[index.Field]string{
	index.DomainField:        "domain",
	index.CountryField:       "address.country",
	index.StateField:         "address.state",
	index.CityField:          "address.city",
	index.IndustryField:      "industries",
	index.EmployeesField:     "employees",
	index.RevenueField:       "revenue_range",
	index.BusinessModelField: "business_models",
	index.SocialField:        "social_networks",
	index.LanguageField:      "languages",
	index.VendorField:        "vendors",
	index.SubdomainField:     "subdomains",
	index.StatusField:        "status.status",
	index.MXProviderField:    "mx_provider",
}

// existsFields maps Exists fields to the mapped field whose presence they
// test. RedirectField is absent: it is the has_redirect flag (a redirect to
// "" is no redirect, and exists would match an empty keyword).
var existsFields = map[index.Field]string{
	index.PhoneField:     "phones",
	index.EmailField:     "public_emails",
	index.SocialURLField: "social_urls",
	index.StartDateField: "start_date",
	index.RevenueField:   "revenue_range",
	index.StateField:     "address.state",
}

const (
	vectorField      = "vector"
	scoreField       = "score"
	domainField      = "domain"
	startDateField   = "start_date"
	hasRedirectField = "has_redirect"
	dateFormat       = "strict_date"
)

// phraseFields are matched by Phrase; both use the prospect_folding
// analyzer (lower case, ASCII folding) at index and search time.
var phraseFields = []string{"description", "site_text"}

// maxTermsCount is Elasticsearch's default index.max_terms_count: a terms
// query with more values is refused by the cluster.
const maxTermsCount = 65536

// termsChunk is the most values one terms query carries; a longer list
// (a saved exclusion list of up to 250,000 domains) becomes a bool should
// of several terms queries, which the cluster evaluates as one filter
// (cached per segment like any filter), so results and counts stay exact.
// A variable so tests can pin the split with small lists.
var termsChunk = maxTermsCount

// esQuery is one query clause; exactly one field is set.
type esQuery struct {
	Bool       *boolQuery       `json:"bool,omitempty"`
	Terms      *termsQuery      `json:"terms,omitempty"`
	Term       *termQuery       `json:"term,omitempty"`
	Range      *rangeQuery      `json:"range,omitempty"`
	Exists     *existsQuery     `json:"exists,omitempty"`
	MultiMatch *multiMatchQuery `json:"multi_match,omitempty"`
	// MatchPhrase and Wildcard serve the contact filters (contactquery.go).
	MatchPhrase *matchPhraseQuery `json:"match_phrase,omitempty"`
	Wildcard    *wildcardQuery    `json:"wildcard,omitempty"`
	MatchAll    *struct{}         `json:"match_all,omitempty"`
	MatchNone   *struct{}         `json:"match_none,omitempty"`
}

type boolQuery struct {
	Filter             []esQuery `json:"filter,omitempty"`
	Should             []esQuery `json:"should,omitempty"`
	MustNot            []esQuery `json:"must_not,omitempty"`
	MinimumShouldMatch int       `json:"minimum_should_match,omitempty"`
}

// termsQuery marshals as {"<field>": [values]}.
type termsQuery struct {
	Field  string
	Values []string
}

func (q termsQuery) MarshalJSON() ([]byte, error) {
	return marshalKeyed(q.Field, q.Values)
}

// termQuery marshals as {"<field>": {"value": v}}; only boolean values are
// needed.
type termQuery struct {
	Field string
	Value bool
}

func (q termQuery) MarshalJSON() ([]byte, error) {
	return marshalKeyed(q.Field, struct {
		Value bool `json:"value"`
	}{q.Value})
}

// rangeQuery marshals as {"<field>": {"gte": .., "lte": .., "format": ..}}.
type rangeQuery struct {
	Field  string
	Bounds rangeBounds
}

type rangeBounds struct {
	GTE    json.RawMessage `json:"gte,omitempty"`
	LTE    json.RawMessage `json:"lte,omitempty"`
	Format string          `json:"format,omitempty"`
}

func (q rangeQuery) MarshalJSON() ([]byte, error) { return marshalKeyed(q.Field, q.Bounds) }

type existsQuery struct {
	Field string `json:"field"`
}

type multiMatchQuery struct {
	Query  string   `json:"query"`
	Type   string   `json:"type"`
	Fields []string `json:"fields"`
}

// marshalKeyed encodes {"<key>": v}, the shape of field-keyed clauses.
func marshalKeyed(key string, v any) ([]byte, error) {
	k, err := json.Marshal(key)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(k)+len(b)+3)
	out = append(out, '{')
	out = append(out, k...)
	out = append(out, ':')
	out = append(out, b...)
	return append(out, '}'), nil
}

func matchAll() esQuery  { return esQuery{MatchAll: &struct{}{}} }
func matchNone() esQuery { return esQuery{MatchNone: &struct{}{}} }

// translate turns a filter tree into a query clause for filter context (no
// scoring). A nil filter matches everything.
func translate(f index.Filter) (esQuery, error) {
	if err := index.Validate(f); err != nil {
		return esQuery{}, err
	}
	return translateNode(f)
}

func translateNode(f index.Filter) (esQuery, error) { return translateTree(f, companyLeaf) }

// translateTree translates the boolean structure of a filter tree (nil,
// And, Or, Not) and hands every other node to leaf, which knows the
// fields of one index.
func translateTree(f index.Filter, leaf func(index.Filter) (esQuery, error)) (esQuery, error) {
	switch n := f.(type) {
	case nil:
		return matchAll(), nil
	case index.And:
		if len(n) == 0 {
			return matchAll(), nil
		}
		var b boolQuery
		for _, c := range n {
			// Not children become must_not clauses of this bool rather than
			// a nested bool each.
			if not, ok := c.(index.Not); ok {
				q, err := translateTree(not.Filter, leaf)
				if err != nil {
					return esQuery{}, err
				}
				b.MustNot = append(b.MustNot, q)
				continue
			}
			q, err := translateTree(c, leaf)
			if err != nil {
				return esQuery{}, err
			}
			b.Filter = append(b.Filter, q)
		}
		if len(b.Filter) == 1 && len(b.MustNot) == 0 {
			return b.Filter[0], nil
		}
		return esQuery{Bool: &b}, nil
	case index.Or:
		if len(n) == 0 {
			return matchNone(), nil
		}
		if len(n) == 1 {
			return translateTree(n[0], leaf)
		}
		b := boolQuery{MinimumShouldMatch: 1}
		for _, c := range n {
			q, err := translateTree(c, leaf)
			if err != nil {
				return esQuery{}, err
			}
			b.Should = append(b.Should, q)
		}
		return esQuery{Bool: &b}, nil
	case index.Not:
		q, err := translateTree(n.Filter, leaf)
		if err != nil {
			return esQuery{}, err
		}
		return esQuery{Bool: &boolQuery{MustNot: []esQuery{q}}}, nil
	}
	return leaf(f)
}

// companyLeaf translates a leaf of a company filter.
func companyLeaf(f index.Filter) (esQuery, error) {
	switch n := f.(type) {
	case index.Terms:
		field, ok := termsFields[n.Field]
		if !ok {
			return esQuery{}, fmt.Errorf("%w: terms on field %q", index.ErrUnsupported, n.Field)
		}
		// An empty string is never a stored value (the embedded engine does
		// not index it either), so it is dropped rather than matched against
		// empty keywords.
		values := make([]string, 0, len(n.Values))
		for _, v := range n.Values {
			if v != "" {
				values = append(values, v)
			}
		}
		return termsOf(field, n.Field, values)
	case index.Range:
		// Every company has a score: an unbounded range is match-all.
		return intRange(scoreField, n), nil
	case index.DateRange:
		return dateRange(startDateField, n)
	case index.Exists:
		if n.Field == index.RedirectField {
			return esQuery{Term: &termQuery{Field: hasRedirectField, Value: true}}, nil
		}
		if n.Field == index.ScoreField {
			// Every document has a score field; 0 is an unknown score.
			return esQuery{Range: &rangeQuery{Field: scoreField, Bounds: rangeBounds{GTE: json.RawMessage("1")}}}, nil
		}
		field, ok := existsFields[n.Field]
		if !ok {
			return esQuery{}, fmt.Errorf("%w: exists on field %q", index.ErrUnsupported, n.Field)
		}
		return esQuery{Exists: &existsQuery{Field: field}}, nil
	case index.Phrase:
		// A phrase with no words analyzes to nothing; multi_match then
		// matches no document (zero_terms_query "none"), as the embedded
		// engine does.
		return esQuery{MultiMatch: &multiMatchQuery{Query: n.Text, Type: "phrase", Fields: phraseFields}}, nil
	}
	return esQuery{}, fmt.Errorf("%w: filter node %T", index.ErrUnsupported, f)
}

// searchBody is a _search request body.
type searchBody struct {
	Query          *esQuery     `json:"query,omitempty"`
	Knn            *knnSection  `json:"knn,omitempty"`
	From           int          `json:"from"`
	Size           int          `json:"size"`
	Sort           []sortClause `json:"sort,omitempty"`
	Source         sourceFilter `json:"_source"`
	TrackTotalHits bool         `json:"track_total_hits"`
	// Rescore recomputes the kNN window's cosines from the float vectors
	// on 8.12-8.17 (Engine.rescore).
	Rescore *rescoreSection `json:"rescore,omitempty"`
}

// knnSection is the top-level approximate kNN search of a request.
type knnSection struct {
	Field         string    `json:"field"`
	QueryVector   []float32 `json:"query_vector"`
	K             int       `json:"k"`
	NumCandidates int       `json:"num_candidates"`
	// Similarity is the raw cosine below which documents do not match (not
	// the _score: Elasticsearch converts it); nil when every cosine passes
	// (index.Search.MinSimilarity <= -1).
	Similarity *float64 `json:"similarity,omitempty"`
	Filter     *esQuery `json:"filter,omitempty"`
	// RescoreVector rescores the top k·oversample quantized estimates with
	// the float vectors (Elasticsearch 8.18; Engine.rescoreFor).
	RescoreVector *rescoreVector `json:"rescore_vector,omitempty"`
}

// sortClause marshals as {"<field>": {"order": "asc"|"desc"}}.
type sortClause struct {
	Field string
	Order string
}

func (s sortClause) MarshalJSON() ([]byte, error) {
	return marshalKeyed(s.Field, struct {
		Order string `json:"order"`
	}{s.Order})
}

// sourceFilter selects the _source returned: all of it, none (Disabled),
// or all but Excludes.
type sourceFilter struct {
	Disabled bool
	Excludes []string
}

func (s sourceFilter) MarshalJSON() ([]byte, error) {
	switch {
	case s.Disabled:
		return []byte("false"), nil
	case len(s.Excludes) > 0:
		return json.Marshal(struct {
			Excludes []string `json:"excludes"`
		}{s.Excludes})
	}
	return []byte("true"), nil
}

// countBody is a _count request body.
type countBody struct {
	Query esQuery `json:"query"`
}

// numCandidates is the per-shard HNSW candidate list for a kNN search of k
// hits: twice k (recall improves steeply up to about 2k and flattens after),
// at least 100 (a cheap floor that gives small pages near-exact recall), at
// most Elasticsearch's 10,000.
func numCandidates(k int) int {
	return min(max(2*k, 100), maxWindow)
}

// checkPage validates paging; Elasticsearch cannot page past 10,000 hits,
// and a deeper page is refused rather than silently truncated.
func checkPage(s index.Search) error {
	if s.Offset < 0 || s.Limit < 0 {
		return fmt.Errorf("%w: negative offset or limit", index.ErrInvalid)
	}
	if s.Offset+s.Limit > maxWindow {
		return fmt.Errorf("%w: offset+limit %d exceeds Elasticsearch's result window of %d", index.ErrUnsupported, s.Offset+s.Limit, maxWindow)
	}
	return nil
}

func checkVector(v []float32, dim int) error {
	if len(v) != dim {
		return fmt.Errorf("%w: query vector has %d dimensions, index has %d", index.ErrVectorMismatch, len(v), dim)
	}
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return fmt.Errorf("%w: query vector has a non-finite component", index.ErrInvalid)
		}
	}
	return nil
}

// buildSearch returns the body of the page request of s. With a vector it
// is a kNN search for the first Offset+Limit neighbours paged by from/size;
// without, a filter query sorted by score then domain.
func buildSearch(s index.Search, dim int) (searchBody, error) {
	if err := checkPage(s); err != nil {
		return searchBody{}, err
	}
	q, err := translate(s.Filter)
	if err != nil {
		return searchBody{}, err
	}
	body := searchBody{From: s.Offset, Size: s.Limit, TrackTotalHits: true}
	if !s.WithVectors {
		body.Source = sourceFilter{Excludes: []string{vectorField}}
	}
	if s.Vector == nil {
		body.Query = &q
		body.Sort = []sortClause{{Field: scoreField, Order: "desc"}, {Field: domainField, Order: "asc"}}
		return body, nil
	}
	if err := checkVector(s.Vector, dim); err != nil {
		return searchBody{}, err
	}
	k := s.Offset + s.Limit
	body.Knn = &knnSection{
		Field:         vectorField,
		QueryVector:   s.Vector,
		K:             k,
		NumCandidates: numCandidates(k),
		Similarity:    threshold(s.MinSimilarity),
		Filter:        knnFilter(q),
	}
	return body, nil
}

// threshold is the kNN similarity bound of a minimum cosine; none at or
// below -1, where every vector passes.
func threshold(min float64) *float64 {
	if min <= -1 {
		return nil
	}
	return &min
}

// buildKnnTotal returns the body of the request that counts the matches of
// a vector search above its similarity threshold: a kNN search as wide as
// Elasticsearch allows (k = num_candidates = 10,000), returning one hit.
func buildKnnTotal(s index.Search, dim int) (searchBody, error) {
	if err := checkVector(s.Vector, dim); err != nil {
		return searchBody{}, err
	}
	q, err := translate(s.Filter)
	if err != nil {
		return searchBody{}, err
	}
	return searchBody{
		Knn: &knnSection{
			Field:         vectorField,
			QueryVector:   s.Vector,
			K:             maxWindow,
			NumCandidates: maxWindow,
			Similarity:    threshold(s.MinSimilarity),
			Filter:        knnFilter(q),
		},
		// One hit rather than none keeps this an ordinary, documented kNN
		// search; the cost is one id.
		Size:           1,
		Source:         sourceFilter{Disabled: true},
		TrackTotalHits: true,
	}, nil
}

// knnFilter drops a match-all filter: a kNN search without one is the same
// search.
func knnFilter(q esQuery) *esQuery {
	if q.MatchAll != nil {
		return nil
	}
	return &q
}

func buildCount(f index.Filter) (countBody, error) {
	q, err := translate(f)
	if err != nil {
		return countBody{}, err
	}
	return countBody{Query: q}, nil
}

// cosineFromScore inverts Elasticsearch's cosine scoring, _score =
// (1 + cos) / 2 with the default boost of 1.
func cosineFromScore(score float64) float64 {
	return max(-1, min(1, 2*score-1))
}

// aliasActions is an _aliases request body; its actions apply atomically.
type aliasActions struct {
	Actions []aliasAction `json:"actions"`
}

type aliasAction struct {
	Add    *aliasRef `json:"add,omitempty"`
	Remove *aliasRef `json:"remove,omitempty"`
}

type aliasRef struct {
	Index     string `json:"index"`
	Alias     string `json:"alias"`
	MustExist *bool  `json:"must_exist,omitempty"`
}

// swapAlias returns the actions that move alias from one index to another
// in one step; must_exist makes the whole request fail if another process
// moved the alias first.
func swapAlias(alias, from, to string) aliasActions {
	yes := true
	return aliasActions{Actions: []aliasAction{
		{Remove: &aliasRef{Index: from, Alias: alias, MustExist: &yes}},
		{Add: &aliasRef{Index: to, Alias: alias}},
	}}
}

// intRange is a numeric range on a field every document has: unbounded,
// it matches all.
func intRange(field string, n index.Range) esQuery {
	var b rangeBounds
	if n.Min != nil {
		b.GTE = json.RawMessage(strconv.Itoa(*n.Min))
	}
	if n.Max != nil {
		b.LTE = json.RawMessage(strconv.Itoa(*n.Max))
	}
	if b.GTE == nil && b.LTE == nil {
		return matchAll()
	}
	return esQuery{Range: &rangeQuery{Field: field, Bounds: b}}
}

// dateRange is an inclusive YYYY-MM-DD range; open at both ends it still
// matches only documents that have the date.
func dateRange(field string, n index.DateRange) (esQuery, error) {
	b := rangeBounds{Format: dateFormat}
	for _, d := range []struct {
		in  string
		out *json.RawMessage
	}{{n.From, &b.GTE}, {n.To, &b.LTE}} {
		if d.in == "" {
			continue
		}
		if _, err := time.Parse(time.DateOnly, d.in); err != nil {
			return esQuery{}, fmt.Errorf("%w: date %q is not YYYY-MM-DD", index.ErrInvalid, d.in)
		}
		q, _ := json.Marshal(d.in)
		*d.out = q
	}
	if b.GTE == nil && b.LTE == nil {
		return esQuery{Exists: &existsQuery{Field: field}}, nil
	}
	return esQuery{Range: &rangeQuery{Field: field, Bounds: b}}, nil
}

// termsOf is a terms query on field of the given (non-empty, deduplicated)
// values: match-none without values; over termsChunk values, an OR of
// terms queries of termsChunk values each.
func termsOf(field string, _ index.Field, values []string) (esQuery, error) {
	if len(values) == 0 {
		return matchNone(), nil
	}
	if len(values) <= termsChunk {
		return esQuery{Terms: &termsQuery{Field: field, Values: values}}, nil
	}
	b := boolQuery{MinimumShouldMatch: 1}
	for lo := 0; lo < len(values); lo += termsChunk {
		b.Should = append(b.Should, esQuery{Terms: &termsQuery{Field: field, Values: values[lo:min(lo+termsChunk, len(values))]}})
	}
	return esQuery{Bool: &b}, nil
}
