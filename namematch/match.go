package namematch

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/hbollon/go-edlib"

	"github.com/openprospect/prospectd/record/geo"
)

// Query is one row to match: a company name and optional evidence, as the
// user wrote them (country as an ISO code or a name, state as an ISO 3166-2
// code, local code or name).
type Query struct {
	Name, Country, State, City, Zip, Phone string
}

// Result is a row's best match. Domain is empty when no company scored;
// Confidence is the calibrated precision (0-100) of matches scored like
// this one, Raw the score it was read from.
type Result struct {
	Domain     string
	Confidence int
	Raw        float64
	// Err is set when the row could not be searched (ErrNoName).
	Err error
}

// ErrNoName: the row's name has no letters or digits to search for.
var ErrNoName = errors.New("name has no letters or digits")

// Retrieval bounds: the postings read per query and the candidates scored.
const (
	maxTokenPosting = 25_000 // a word in more names than this is not read
	maxGramPosting  = 25_000 // nor a trigram
	maxGrams        = 14     // rarest trigrams of the query read
	numCandidates   = 48     // best retrieved companies fully scored
)

// prepared is a query after normalization.
type prepared struct {
	name     Name
	tokIDs   []int64 // vocabulary ids, -1 unknown
	weights  []float32
	sorted   string // tokens sorted, concatenated (word order)
	grams    []uint32
	country  uint16
	state    string
	rawState string
	city     uint32
	cityStr  string
	zip      string
	phone    uint32
}

func (x *Index) prepare(q Query) prepared {
	p := prepared{name: Normalize(q.Name)}
	p.tokIDs = make([]int64, len(p.name.Tokens))
	p.weights = make([]float32, len(p.name.Tokens))
	for i, t := range p.name.Tokens {
		p.tokIDs[i] = -1
		p.weights[i] = x.maxIDF()
		if id, ok := x.vocab[t]; ok {
			p.tokIDs[i] = int64(id)
			p.weights[i] = x.idf[id]
		}
	}
	s := slices.Clone(p.name.Tokens)
	slices.Sort(s)
	p.sorted = strings.Join(s, "")
	p.grams = trigrams(p.name.Compact, nil)
	if c, ok := geo.LookupCountry(q.Country); ok && q.Country != "" {
		p.country = packCountry(c.Code)
		if q.State != "" {
			if sd, ok := geo.LookupSubdivision(c.Code, q.State); ok {
				p.state = strings.ToUpper(sd.Code)
			}
		}
	}
	p.rawState = strings.TrimSpace(q.State)
	if q.City != "" {
		p.cityStr = foldPlace(q.City)
		p.city = x.strID(p.cityStr)
	}
	p.zip = normZip(q.Zip)
	p.phone = phoneKey(q.Phone)
	return p
}

// scratch is one worker's retrieval state.
type scratch struct {
	acc     []float32
	gram    []uint8
	touched []uint32
}

func (x *Index) newScratch() *scratch {
	return &scratch{acc: make([]float32, x.n), gram: make([]uint8, x.n)}
}

type cand struct {
	doc   uint32
	score float32
}

// retrieve returns the best candidates by IDF-weighted shared words and
// shared rare trigrams, with a nudge for the query's country.
func (x *Index) retrieve(p *prepared, sc *scratch) []cand {
	sc.touched = sc.touched[:0]
	var wq float32
	for i, id := range p.tokIDs {
		wq += p.weights[i]
		if id < 0 || x.tokPost.df[id] > maxTokenPosting {
			continue
		}
		w := p.weights[i]
		for d := range x.tokPost.docs(uint32(id)) {
			if sc.acc[d] == 0 && sc.gram[d] == 0 {
				sc.touched = append(sc.touched, d)
			}
			sc.acc[d] += w
		}
	}
	// Rarest trigrams that some name has.
	type gd struct {
		l  uint32 // postings list
		df int
	}
	gs := make([]gd, 0, len(p.grams))
	for i, g := range p.grams {
		if slices.Contains(p.grams[:i], g) {
			continue
		}
		if l, ok := x.gramPosting(g); ok && x.gramPost.df[l] <= maxGramPosting {
			gs = append(gs, gd{l, int(x.gramPost.df[l])})
		}
	}
	slices.SortFunc(gs, func(a, b gd) int { return a.df - b.df })
	gs = gs[:min(len(gs), maxGrams)]
	for _, g := range gs {
		for d := range x.gramPost.docs(g.l) {
			if sc.acc[d] == 0 && sc.gram[d] == 0 {
				sc.touched = append(sc.touched, d)
			}
			if sc.gram[d] < 255 {
				sc.gram[d]++
			}
		}
	}
	out := make([]cand, 0, numCandidates+1)
	nGrams := float32(max(len(gs), 1))
	for _, d := range sc.touched {
		s := sc.acc[d]/max(wq, 1e-6) + 0.8*float32(sc.gram[d])/nGrams
		if p.country != 0 && x.country[d] == p.country {
			s += 0.1
		}
		sc.acc[d], sc.gram[d] = 0, 0
		if len(out) == numCandidates && s <= out[len(out)-1].score {
			continue
		}
		i, _ := slices.BinarySearchFunc(out, s, func(c cand, s float32) int {
			switch {
			case c.score > s:
				return -1
			case c.score < s:
				return 1
			}
			return 0
		})
		out = slices.Insert(out, i, cand{d, s})
		if len(out) > numCandidates {
			out = out[:numCandidates]
		}
	}
	return out
}

// Features are what the scorer read from a query and a candidate.
type Features struct {
	Tokens, JW, Dice float64 // name similarities, 0-1
	Evidence         float64 // sum of agreement bonuses and penalties
	Prior            float64 // popularity
}

// Score is the raw score of a candidate.
func (f Features) Score() float64 {
	return 0.55*f.Tokens + 0.25*f.JW + 0.20*f.Dice + f.Evidence + f.Prior
}

// features scores candidate doc against p.
func (x *Index) features(p *prepared, doc uint32) Features {
	var f Features
	ct := x.tokens(doc)
	// Soft IDF-weighted Dice over words: each word counts by its best
	// counterpart on the other side (exact 1, a typo by Jaro-Winkler, an
	// abbreviation by prefix).
	var wq, mq, wc, mc float64
	for i, t := range p.name.Tokens {
		w := float64(p.weights[i])
		wq += w
		best := 0.0
		for _, c := range ct {
			if p.tokIDs[i] == int64(c) {
				best = 1
				break
			}
			best = max(best, wordSim(t, x.tokStr[c]))
		}
		mq += w * best
	}
	for _, c := range ct {
		w := float64(x.idf[c])
		wc += w
		best := 0.0
		for i, t := range p.name.Tokens {
			if p.tokIDs[i] == int64(c) {
				best = 1
				break
			}
			best = max(best, wordSim(t, x.tokStr[c]))
		}
		mc += w * best
	}
	if wq+wc > 0 {
		f.Tokens = (mq + mc) / (wq + wc)
	}
	comp := x.compact(doc)
	f.JW = float64(edlib.JaroWinklerSimilarity(p.name.Compact, comp))
	if len(ct) > 1 {
		ss := make([]string, len(ct))
		for i, c := range ct {
			ss[i] = x.tokStr[c]
		}
		slices.Sort(ss)
		f.JW = max(f.JW, float64(edlib.JaroWinklerSimilarity(p.sorted, strings.Join(ss, ""))))
	}
	f.Dice = dice(p.grams, trigrams(comp, nil))

	// Evidence: agreement counts for, disagreement against; absent on
	// either side counts for nothing.
	if p.country != 0 && x.country[doc] != 0 {
		if p.country == x.country[doc] {
			f.Evidence += 0.04
		} else {
			f.Evidence -= 0.15
		}
	}
	if st := x.str(x.state[doc]); p.rawState != "" && st != "" {
		switch {
		case p.state != "" && p.state == st:
			f.Evidence += 0.03
		case p.state == "" && stateMatches(st, p.rawState):
			f.Evidence += 0.03
		default:
			f.Evidence -= 0.04
		}
	}
	if p.cityStr != "" && x.city[doc] != 0 {
		if p.city == x.city[doc] {
			f.Evidence += 0.05
		} else {
			f.Evidence -= 0.03
		}
	}
	if z := x.str(x.zip[doc]); p.zip != "" && z != "" {
		switch {
		case z == p.zip:
			f.Evidence += 0.06
		case len(z) >= 3 && len(p.zip) >= 3 && z[:3] == p.zip[:3]:
			f.Evidence += 0.01
		default:
			f.Evidence -= 0.03
		}
	}
	if p.phone != 0 {
		if ph := x.phone[doc]; ph[0] == p.phone || ph[1] == p.phone {
			f.Evidence += 0.12
		}
	}
	f.Prior = 0.03 * math.Log1p(float64(x.score[doc])) / math.Log(801)
	if x.closed[doc] {
		f.Prior -= 0.01
	}
	return f
}

// stateMatches compares a state written without a resolvable country to
// a stored ISO 3166-2 code: "CA" or "US-CA" against "US-CA", or a name.
func stateMatches(code, s string) bool {
	s = strings.ToUpper(strings.TrimSpace(s))
	if s == code || strings.HasSuffix(code, "-"+s) {
		return true
	}
	if i := strings.IndexByte(code, '-'); i > 0 {
		if sd, ok := geo.LookupSubdivision(code[:i], s); ok {
			return strings.EqualFold(sd.Code, code)
		}
	}
	return false
}

// wordSim is the similarity of two different words: a typo by
// Jaro-Winkler (0 below 0.85), an abbreviation ("intl" of
// "internationals", "mfg") by prefix.
func wordSim(a, b string) float64 {
	if len(a) >= 3 && len(b) >= 3 && (strings.HasPrefix(a, b) || strings.HasPrefix(b, a)) {
		return 0.8
	}
	if len(a) < 4 || len(b) < 4 {
		return 0
	}
	s := float64(edlib.JaroWinklerSimilarity(a, b))
	if s < 0.85 {
		return 0
	}
	return s
}

// dice is the Dice coefficient of two trigram multisets.
func dice(a, b []uint32) float64 {
	if len(a)+len(b) == 0 {
		return 0
	}
	used := make([]bool, len(b))
	n := 0
	for _, g := range a {
		for j, h := range b {
			if !used[j] && h == g {
				used[j] = true
				n++
				break
			}
		}
	}
	return 2 * float64(n) / float64(len(a)+len(b))
}

// Scored is a candidate with its features, for evaluation.
type Scored struct {
	Domain   string
	Features Features
	Score    float64
}

// best retrieves and scores p's candidates: the best, and the best score
// of another company (0 when none).
func (x *Index) best(p *prepared, sc *scratch) (top Scored, second float64, ok bool) {
	cs := x.retrieve(p, sc)
	top.Score = math.Inf(-1)
	second = 0
	for _, c := range cs {
		f := x.features(p, c.doc)
		s := f.Score()
		switch {
		case s > top.Score || s == top.Score && string(x.domainBytes(c.doc)) < top.Domain:
			if ok {
				second = max(second, top.Score)
			}
			top = Scored{Domain: x.domain(c.doc), Features: f, Score: s}
			ok = true
		default:
			second = max(second, s)
		}
	}
	return top, second, ok
}

// Matcher matches queries against an index; it holds one worker's scratch
// space and is not safe for concurrent use (use one per goroutine).
type Matcher struct {
	x  *Index
	sc *scratch
}

// NewMatcher returns a matcher over x.
func (x *Index) NewMatcher() *Matcher { return &Matcher{x: x, sc: x.newScratch()} }

// Match returns q's best match, with Confidence from the calibration.
// A name without letters or digits is an error (ErrNoName); a panic while
// matching is returned as an error for that row.
func (m *Matcher) Match(q Query) (r Result) {
	defer func() {
		if v := recover(); v != nil {
			r = Result{Err: fmt.Errorf("match %q: %v", q.Name, v)}
		}
	}()
	p := m.x.prepare(q)
	if p.name.Compact == "" {
		return Result{Err: ErrNoName}
	}
	top, second, ok := m.x.best(&p, m.sc)
	if !ok {
		return Result{}
	}
	raw := calibrationInput(top.Score, second)
	return Result{Domain: top.Domain, Raw: raw, Confidence: confidence(raw)}
}

// Explain returns q's best match with its features and the runner-up's
// score (calibration and evaluation).
func (m *Matcher) Explain(q Query) (top Scored, second float64, ok bool) {
	p := m.x.prepare(q)
	if p.name.Compact == "" {
		return top, 0, false
	}
	return m.x.best(&p, m.sc)
}
