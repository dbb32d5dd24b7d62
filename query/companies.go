package query

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/embedding"
	"github.com/openprospect/prospectd/record"
)

// Rocchio weights: negatives pull the query away at half the strength
// positives pull it in.
const negativeWeight = 0.5

// suggestedDomains is how many lookalike examples an icp_prompt search
// takes from its own first results.
const suggestedDomains = 3

// Companies runs company discovery and counting on an engine.
type Companies struct {
	Engine CompanyIndex
	// Saved resolves a saved-query id of the caller (the caller is in
	// ctx); found is false for an unknown id or another organization's.
	// Nil when saved queries are not kept: every id is then unknown (404),
	// never silently ignored.
	Saved func(ctx context.Context, id string) (q SavedQuery, found bool, err error)

	mu       sync.Mutex
	emb      embedding.Embedder
	capCache map[string]capEntry
}

type capEntry struct {
	cap int
	at  time.Time
}

// Match is one discovery result.
type Match struct {
	Company record.Company
	// Similarity is the cosine similarity to the query ×100, clamped to
	// 0-100; 0 when the search had no vector input.
	Similarity float64
	// Reasons (enhanced=true) say why the result matched: the nearest
	// example domain, shared industries and keywords, the phrases it holds
	// and the filters it satisfies (see reasons.go).
	Reasons []string
}

// Result is one page of discovery results.
type Result struct {
	Matches []Match
	// Total is the number of companies matching (above min_similarity and
	// the variance band when those apply).
	Total   int
	Applied Applied
}

// Discover runs a discovery request.
func (s *Companies) Discover(ctx context.Context, d Discover) (Result, error) {
	pl, err := s.plan(ctx, &d)
	if err != nil {
		return Result{}, err
	}
	search := index.Search{Filter: pl.filter, Offset: d.Offset, Limit: d.MaxRecords, MinSimilarity: -2}
	if pl.vector != nil {
		search.Vector = pl.vector
		search.MinSimilarity = pl.minSim
		search.WithVectors = pl.explain.needVectors()
	}
	res, err := s.Engine.SearchCompanies(ctx, search)
	if err != nil {
		return Result{}, fmt.Errorf("discover: %w", err)
	}
	out := Result{Total: res.Total, Applied: pl.applied, Matches: make([]Match, 0, len(res.Hits))}
	for _, h := range res.Hits {
		m := Match{Company: h.Company}
		if pl.vector != nil {
			m.Similarity = Similarity(h.Similarity)
		}
		if pl.explain != nil {
			m.Reasons = pl.explain.reasons(h.Company, h.Vector)
		}
		out.Matches = append(out.Matches, m)
	}
	return out, nil
}

// Count counts the companies a discovery request matches.
func (s *Companies) Count(ctx context.Context, d Discover) (int, Applied, error) {
	pl, err := s.plan(ctx, &d)
	if err != nil {
		return 0, Applied{}, err
	}
	if pl.vector == nil || pl.minSim <= -1 {
		n, err := s.Engine.CountCompanies(ctx, pl.filter)
		if err != nil {
			return 0, Applied{}, fmt.Errorf("count: %w", err)
		}
		return n, pl.applied, nil
	}
	res, err := s.Engine.SearchCompanies(ctx, index.Search{Filter: pl.filter, Vector: pl.vector, MinSimilarity: pl.minSim, Limit: 0})
	if err != nil {
		return 0, Applied{}, fmt.Errorf("count: %w", err)
	}
	return res.Total, pl.applied, nil
}

// Similarity converts a cosine similarity to the API's 0-100 scale with two
// decimals.
func Similarity(cos float64) float64 {
	return math.Round(math.Max(0, math.Min(1, cos))*10000) / 100
}

type plan struct {
	filter  index.Filter
	vector  []float32
	minSim  float64
	applied Applied
	// explain is set for enhanced=true only.
	explain *explainer
}

// plan resolves a request into a filter and a query vector: prompt
// extraction, saved queries, example vectors, auto texts, the score floor,
// consensus and variance.
func (s *Companies) plan(ctx context.Context, d *Discover) (*plan, error) {
	pl := &plan{minSim: -2}
	a := &pl.applied
	sc, err := s.savedQueries(ctx, d)
	if err != nil {
		return nil, err
	}
	var suggestFromPrompt bool
	if d.ICPPrompt != "" {
		if err := s.applyPrompt(ctx, d, a); err != nil {
			return nil, err
		}
		suggestFromPrompt = len(d.Domains) == 0
	}

	excluded := excludedDomains(d)
	floor, err := s.scoreFloor(ctx, d, a)
	if err != nil {
		return nil, err
	}

	var pos, neg [][]float32
	var examples []record.Company
	var seeds []seed // enhanced=true: the lookalike examples, for reasons
	if len(d.Domains) > 0 {
		vecs, err := s.Engine.CompanyVectors(ctx, d.Domains)
		if err != nil {
			return nil, fmt.Errorf("example vectors: %w", err)
		}
		var found []string
		for _, dm := range d.Domains {
			if v, ok := vecs[dm]; ok {
				pos = append(pos, v)
				found = append(found, dm)
				if d.Enhanced {
					seeds = append(seeds, seed{dm, v})
				}
			} else {
				a.DomainNotFound = append(a.DomainNotFound, dm)
			}
		}
		a.Domain = found
		if len(found) == 0 && d.ICPText == "" && d.ICPPrompt == "" {
			return nil, &Error{Status: http.StatusUnprocessableEntity, Params: []ParamError{{Param: "domain",
				Rule: "none of the example domains is in the index (" + strings.Join(d.Domains, ", ") + "); give indexed domains or an icp_text"}}}
		}
		// The examples' profiles feed only the automatic texts and the match
		// reasons: a plain lookalike reads none (at 10M companies each is a
		// read from a store the page cache mostly does not hold).
		if needExamples(d) {
			if examples, err = s.Engine.GetCompanies(ctx, found); err != nil {
				return nil, fmt.Errorf("example profiles: %w", err)
			}
		}
	}
	if d.AutoICPText && d.ICPPrompt == "" && d.ICPText == "" && len(examples) > 0 {
		d.ICPText = icpTextOf(examples)
	}
	if d.AutoPhrase && d.ICPPrompt == "" && len(d.Phrases) == 0 && d.ICPText != "" {
		if err := s.autoPhrases(ctx, d, examples, a); err != nil {
			return nil, err
		}
	}
	a.ICPText, a.NegateICPText = d.ICPText, d.NegateICPText

	pl.filter = companyFilter(d, floor, excluded, a)
	if f := excludeDomains(sc.excludedDomains()); f != nil {
		pl.filter = andAlso(pl.filter, f)
	}
	if d.Enhanced {
		// Completed on every return below: the seeds, examples and ICP text
		// are known only as the plan goes.
		pl.explain = &explainer{d: d, applied: a, phrases: d.Phrases, industries: slices.Clone(d.Categories)}
		defer func() {
			pl.explain.seeds = seeds
			pl.explain.terms = queryTerms(d.ICPText, examples)
			for _, e := range examples {
				for _, ind := range e.Industries() {
					pl.explain.industries = appendNew(pl.explain.industries, ind)
				}
			}
		}()
	}
	if !d.HasVectorInput() {
		return pl, nil
	}
	var emb embedding.Embedder
	if d.ICPText != "" || d.NegateICPText != "" {
		// Only text needs the embedder; lookalikes use stored vectors.
		if emb, err = s.embedder(ctx); err != nil {
			return nil, err
		}
	}
	var text []float32
	if d.ICPText != "" {
		if text, err = embedText(ctx, emb, d.ICPText); err != nil {
			return nil, err
		}
	}
	negs, err := s.Engine.CompanyVectors(ctx, d.NegateDomains)
	if err != nil {
		return nil, fmt.Errorf("negative example vectors: %w", err)
	}
	for _, dm := range d.NegateDomains {
		if v, ok := negs[dm]; ok {
			neg = append(neg, v)
			a.NegateDomain = append(a.NegateDomain, dm)
		}
	}
	if d.NegateICPText != "" {
		v, err := embedText(ctx, emb, d.NegateICPText)
		if err != nil {
			return nil, err
		}
		neg = append(neg, v)
	}
	if suggestFromPrompt && text != nil {
		// The prompt's best few matches become lookalike examples: a short
		// description alone is a thin query.
		res, err := s.Engine.SearchCompanies(ctx, index.Search{Filter: pl.filter, Vector: text, MinSimilarity: -2, Limit: suggestedDomains, WithVectors: true})
		if err != nil {
			return nil, fmt.Errorf("suggest lookalikes: %w", err)
		}
		for _, h := range res.Hits {
			pos = append(pos, h.Vector)
			a.SuggestedDomain = append(a.SuggestedDomain, h.Company.Domain)
			if d.Enhanced {
				seeds = append(seeds, seed{h.Company.Domain, h.Vector})
			}
		}
	}
	q := combine(mean(pos), text)
	if q == nil {
		return pl, nil
	}
	q, err = steer(q, neg, d.Consensus, func(q []float32) ([][]float32, error) {
		res, err := s.Engine.SearchCompanies(ctx, index.Search{Filter: pl.filter, Vector: q, MinSimilarity: -2, Limit: d.Consensus, WithVectors: true})
		var top [][]float32
		for _, h := range res.Hits {
			top = append(top, h.Vector)
		}
		return top, err
	})
	if err != nil {
		return nil, err
	}
	if d.Consensus > 1 {
		a.Consensus = d.Consensus
	}
	pl.vector = q
	if d.MinSimilarity > 0 {
		pl.minSim = float64(d.MinSimilarity) / 100
		a.MinSimilarity = d.MinSimilarity
	}
	if band, ok := varianceBand[d.Variance]; ok {
		res, err := s.Engine.SearchCompanies(ctx, index.Search{Filter: pl.filter, Vector: q, MinSimilarity: pl.minSim, Limit: 1})
		if err != nil {
			return nil, fmt.Errorf("variance: %w", err)
		}
		if len(res.Hits) > 0 {
			pl.minSim = math.Max(pl.minSim, res.Hits[0].Similarity-band/100)
		}
		a.Variance = d.Variance
	}
	return pl, nil
}

// needExamples reports whether the plan of d reads the lookalike examples'
// profiles: auto_icp_text and auto_phrase_match (when no prompt or given
// text overrides them) and the match reasons of enhanced=true.
func needExamples(d *Discover) bool {
	if d.Enhanced {
		return true
	}
	if d.ICPPrompt != "" {
		return false
	}
	return d.AutoICPText && d.ICPText == "" || d.AutoPhrase && len(d.Phrases) == 0
}

// SavedQuery is what a saved query contributes to a search.
type SavedQuery struct {
	// Key names the lists for engine caches: queries with the same Key
	// have the same lists (a saved query's id: its lists never change).
	Key        string
	Domains    []string
	PersonaIDs []int64
	// OverCap: the list is longer than an exclusion may use; given as
	// exclusion_query_id it is refused (400).
	OverCap bool
}

// savedScope is what inclusion_query_id and exclusion_query_id resolve to.
type savedScope struct {
	// include is set when inclusion ids were given: each list, in order.
	include []SavedQuery
	// exclude are the exclusion lists.
	exclude []SavedQuery
}

// excludedDomains is the union of the exclusion lists' domains and its
// key.
func (sc savedScope) excludedDomains() ([]string, string) {
	return unionDomains(sc.exclude)
}

// listsKey names a combination of lists for engine caches; "" unless
// every list has a key.
func listsKey(lists []SavedQuery) string {
	keys := make([]string, 0, len(lists))
	for _, l := range lists {
		if l.Key == "" {
			return ""
		}
		keys = append(keys, l.Key)
	}
	return strings.Join(keys, "+")
}

// unionDomains is the union of the lists' domains, and a key naming it
// when every list has one.
func unionDomains(lists []SavedQuery) ([]string, string) {
	key := listsKey(lists)
	if len(lists) == 1 {
		return lists[0].Domains, key
	}
	var out []string
	seen := map[string]bool{}
	for _, l := range lists {
		for _, d := range l.Domains {
			if !seen[d] {
				seen[d] = true
				out = append(out, d)
			}
		}
	}
	return out, key
}

// resolveSaved resolves inclusion and exclusion query ids: an unknown id
// is a 404 naming every unknown id; an over-cap list given for exclusion
// is a 400.
func (s *Companies) resolveSaved(ctx context.Context, inclusion, exclusion []string) (savedScope, error) {
	var sc savedScope
	resolve := func(param string, ids []string, exclude bool) ([]SavedQuery, error) {
		var out []SavedQuery
		var missing, over []string
		for _, id := range ids {
			if s.Saved == nil {
				missing = append(missing, id)
				continue
			}
			q, ok, err := s.Saved(ctx, id)
			if err != nil {
				return nil, fmt.Errorf("saved query %s: %w", id, err)
			}
			if !ok {
				missing = append(missing, id)
				continue
			}
			if exclude && q.OverCap {
				over = append(over, id)
			}
			out = append(out, q)
		}
		if len(missing) > 0 {
			return nil, queryIDsError(param, missing)
		}
		if len(over) > 0 {
			e := &Error{Status: http.StatusBadRequest}
			for _, id := range over {
				e.Params = append(e.Params, ParamError{Param: param, Value: id,
					Rule: fmt.Sprintf("saved query %q holds more domains or persona ids than an exclusion list may (the caps are applied when a list is created)", id)})
			}
			return nil, e
		}
		return out, nil
	}
	var err error
	if sc.include, err = resolve("inclusion_query_id", inclusion, false); err != nil {
		return sc, err
	}
	if len(inclusion) > 0 && sc.include == nil {
		sc.include = []SavedQuery{}
	}
	if sc.exclude, err = resolve("exclusion_query_id", exclusion, true); err != nil {
		return sc, err
	}
	return sc, nil
}

// savedQueries resolves inclusion and exclusion query ids into domain
// lists (domain lists scope companies).
func (s *Companies) savedQueries(ctx context.Context, d *Discover) (savedScope, error) {
	sc, err := s.resolveSaved(ctx, d.InclusionQueryIDs, d.ExclusionQueryIDs)
	if err != nil {
		return sc, err
	}
	if sc.include != nil {
		incl, _ := unionDomains(sc.include)
		if incl == nil {
			incl = []string{} // an empty saved list matches nothing
		}
		d.inclusion = incl
	}
	return sc, nil
}

// andAlso adds f to the conjunction base.
func andAlso(base, f index.Filter) index.Filter {
	if and, ok := base.(index.And); ok {
		return append(and[:len(and):len(and)], f)
	}
	return index.And{base, f}
}

// excludeDomains is the filter keeping a saved exclusion list's domains
// out: one Terms node the engine evaluates (a bitmap in the embedded
// engine, a terms query in Elasticsearch), so pages stay full and counts
// exact. nil when there is nothing to exclude.
func excludeDomains(domains []string, key string) index.Filter {
	if len(domains) == 0 {
		return nil
	}
	return index.Not{Filter: index.Terms{Field: index.DomainField, Values: domains, Key: key}}
}

// applyPrompt merges what the prompt says into d: explicit parameters win.
func (s *Companies) applyPrompt(ctx context.Context, d *Discover, a *Applied) error {
	x := ExtractPrompt(d.ICPPrompt)
	if len(d.Countries) == 0 {
		d.Countries = x.Countries
	}
	if len(d.States) == 0 && len(d.Countries) == 1 {
		for _, st := range x.States {
			if strings.HasPrefix(st, d.Countries[0]+"-") {
				d.States = append(d.States, st)
			}
		}
	}
	if len(d.Categories) == 0 {
		d.Categories = x.Categories
	}
	if d.Employees == nil {
		d.Employees = x.Employees
	}
	if d.Revenue == nil {
		d.Revenue = x.Revenue
	}
	if len(d.BusinessModels) == 0 {
		d.BusinessModels = x.BusinessModels
	}
	if len(d.TechStack) == 0 {
		for _, name := range x.VendorNames {
			v, err := s.resolveVendor(ctx, name)
			if err != nil {
				return err
			}
			if v == "" {
				a.Notes = append(a.Notes, fmt.Sprintf("vendor %q from the prompt is not in the index; not used as a filter", name))
				continue
			}
			d.TechStack = appendNew(d.TechStack, v)
		}
	}
	if d.ICPText == "" {
		d.ICPText = x.ICPText
		if d.ICPText == "" {
			d.ICPText = d.ICPPrompt
		}
	}
	// The prompt overrides the automatic texts.
	d.AutoICPText, d.AutoPhrase = false, false
	return nil
}

// resolveVendor finds the vendor domain the index knows for a name
// ("HubSpot" -> hubspot.com), or "".
func (s *Companies) resolveVendor(ctx context.Context, name string) (string, error) {
	n := strings.ToLower(name)
	cands := []string{n}
	if !strings.Contains(n, ".") {
		cands = []string{n + ".com", n + ".io", n + ".co", n + ".net", n + ".ai", n + ".app"}
	}
	for _, c := range cands {
		cnt, err := s.Engine.CountCompanies(ctx, index.Terms{Field: index.VendorField, Values: []string{c}})
		if err != nil {
			return "", fmt.Errorf("resolve vendor %s: %w", name, err)
		}
		if cnt > 0 {
			return c, nil
		}
	}
	return "", nil
}

// scoreFloor applies the start_date cap to the digital-footprint floor: a
// company only a few years old cannot have the footprint of an old one, so
// the floor never exceeds the score that the top 1% of the companies in
// the start_date range reach. The cap is measured on the index, not
// assumed, and cached for ten minutes per range.
func (s *Companies) scoreFloor(ctx context.Context, d *Discover, a *Applied) (int, error) {
	floor := d.MinScore
	if d.StartFrom == "" && d.StartTo == "" || floor == 0 {
		return floor, nil
	}
	key := d.StartFrom + "," + d.StartTo
	s.mu.Lock()
	e, ok := s.capCache[key]
	s.mu.Unlock()
	if !ok || time.Since(e.at) > 10*time.Minute {
		f := index.And{
			index.Terms{Field: index.StatusField, Values: []string{record.StatusActive}},
			index.DateRange{Field: index.StartDateField, From: d.StartFrom, To: d.StartTo},
		}
		n, err := s.Engine.CountCompanies(ctx, f)
		if err != nil {
			return 0, fmt.Errorf("score cap: %w", err)
		}
		e = capEntry{cap: MaxScore, at: time.Now()}
		if n > 0 {
			res, err := s.Engine.SearchCompanies(ctx, index.Search{Filter: f, Offset: n / 100, Limit: 1, MinSimilarity: -2})
			if err != nil {
				return 0, fmt.Errorf("score cap: %w", err)
			}
			if len(res.Hits) > 0 {
				e.cap = res.Hits[0].Company.Score
			}
		}
		s.mu.Lock()
		if s.capCache == nil || len(s.capCache) > 1000 {
			s.capCache = map[string]capEntry{}
		}
		s.capCache[key] = e
		s.mu.Unlock()
	}
	if e.cap < floor {
		requested := floor
		a.FootprintFloorCapped = &requested
		floor = e.cap
	}
	return floor, nil
}

// embedText embeds query text; an embedding provider that fails makes
// the text embedder unavailable (503), not the request invalid.
func embedText(ctx context.Context, emb embedding.Embedder, text string) ([]float32, error) {
	v, err := embedding.EmbedQuery(ctx, emb, text)
	switch {
	case err == nil:
		return v, nil
	case ctx.Err() != nil:
		return nil, ctx.Err()
	}
	return nil, fmt.Errorf("%w: %v", ErrNoEmbedder, err)
}

// embedderNamer is an engine that names its embedder cheaply, so a
// cached embedder is dropped when a refit switches the index to another.
type embedderNamer interface{ EmbedderID() string }

// embedder returns the index's embedder, loading it once (again after a
// refit).
func (s *Companies) embedder(ctx context.Context) (embedding.Embedder, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.emb != nil {
		n, ok := s.Engine.(embedderNamer)
		if !ok || n.EmbedderID() == s.emb.ID() {
			return s.emb, nil
		}
	}
	emb, err := embedding.Open(ctx, s.Engine)
	if errors.Is(err, index.ErrNotFound) {
		return nil, ErrNoEmbedder
	}
	if errors.Is(err, embedding.ErrMismatch) {
		return nil, fmt.Errorf("%w: %v", ErrNoEmbedder, err)
	}
	if err != nil {
		return nil, err
	}
	s.emb = emb
	return emb, nil
}

// icpTextOf writes an ICP description from example companies: their
// strongest shared keywords and industries (auto_icp_text).
func icpTextOf(examples []record.Company) string {
	weight := map[string]float64{}
	inds := map[string]float64{}
	for _, c := range examples {
		for k, w := range c.Keywords {
			weight[strings.ToLower(k)] += w
		}
		for k, w := range c.IndustryGroups {
			inds[k] += w
		}
	}
	kw := topKeys(weight, 12)
	ind := topKeys(inds, 2)
	for i, l := range ind {
		ind[i] = strings.ToLower(strings.ReplaceAll(l, "_", " "))
	}
	text := "Companies offering " + strings.Join(kw, ", ")
	if len(ind) > 0 {
		text += " in " + strings.Join(ind, " and ")
	}
	return text
}

// autoPhrases derives phrase matches from the ICP text: keywords of the
// examples (or two-word phrases of the text) that occur in it, kept only
// when at least one company matches them, so a generated phrase never
// empties the results on its own.
func (s *Companies) autoPhrases(ctx context.Context, d *Discover, examples []record.Company, a *Applied) error {
	text := strings.ToLower(d.ICPText)
	var cands []string
	weight := map[string]float64{}
	for _, c := range examples {
		for k, w := range c.Keywords {
			if len(k) >= MinPhraseChars && strings.Contains(text, strings.ToLower(k)) {
				weight[strings.ToLower(k)] += w
			}
		}
	}
	cands = topKeys(weight, 3)
	if len(cands) == 0 {
		ws := tokenize(text)
		for i := 0; i+1 < len(ws) && len(cands) < 3; i++ {
			if stopWords[ws[i].text] || stopWords[ws[i+1].text] {
				continue
			}
			cands = appendNew(cands, ws[i].text+" "+ws[i+1].text)
		}
	}
	var kept []string
	for _, c := range cands {
		n, err := s.Engine.CountCompanies(ctx, index.Phrase{Field: index.TextField, Text: c})
		if err != nil {
			return fmt.Errorf("auto phrase %q: %w", c, err)
		}
		if n > 0 {
			kept = append(kept, c)
		}
	}
	if len(kept) == 0 && len(cands) > 0 {
		a.Notes = append(a.Notes, "auto_phrase_match: no generated phrase occurs in the index; none applied")
	}
	d.Phrases = kept
	return nil
}

var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the and or of for to in on at by with from into that which who whose
		is are be we our their its companies company businesses business firms providers provider offering offer
		offers like such as other more most than very based`) {
		m[w] = true
	}
	return m
}()

// queryTerms are the words and keywords a result is compared with for
// enhanced=true.
func queryTerms(icp string, examples []record.Company) []string {
	var out []string
	for _, w := range tokenize(strings.ToLower(icp)) {
		if !stopWords[w.text] && len(w.text) >= 3 {
			out = appendNew(out, w.text)
		}
	}
	for _, c := range examples {
		for k := range c.Keywords {
			out = appendNew(out, strings.ToLower(k))
		}
	}
	return out
}

func topKeys(m map[string]float64, n int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	if len(keys) > n {
		keys = keys[:n]
	}
	return keys
}

// mean is the normalized mean of unit vectors; nil for none.
// steer moves query vector q away from the negatives (Rocchio) and, with
// consensus > 1, toward the mean of the vectors top returns for it (its
// best matches).
func steer(q []float32, neg [][]float32, consensus int, top func(q []float32) ([][]float32, error)) ([]float32, error) {
	if len(neg) > 0 {
		q = normalize(axpy(q, -negativeWeight, mean(neg)))
	}
	if consensus > 1 {
		vs, err := top(q)
		if err != nil {
			return nil, fmt.Errorf("consensus: %w", err)
		}
		if len(vs) > 0 {
			q = combine(q, mean(vs))
		}
	}
	return q, nil
}

func mean(vs [][]float32) []float32 {
	if len(vs) == 0 {
		return nil
	}
	out := make([]float32, len(vs[0]))
	for _, v := range vs {
		for i := range out {
			out[i] += v[i]
		}
	}
	return normalize(out)
}

// combine gives two directions equal weight; either may be nil.
func combine(a, b []float32) []float32 {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return normalize(axpy(a, 1, b))
}

// axpy returns x + alpha·y.
func axpy(x []float32, alpha float32, y []float32) []float32 {
	out := make([]float32, len(x))
	for i := range x {
		out[i] = x[i] + alpha*y[i]
	}
	return out
}

func normalize(v []float32) []float32 {
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	if n == 0 {
		return v
	}
	inv := float32(1 / math.Sqrt(n))
	for i := range v {
		v[i] *= inv
	}
	return v
}
