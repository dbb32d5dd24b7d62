package query

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/text/language"

	"github.com/openprospect/prospectd/record/domain"
	"github.com/openprospect/prospectd/record/geo"
)

// Discovery limits and defaults (spec: Discovery, Limits).
const (
	MaxPromptChars     = 4000
	MaxICPTextChars    = 4000
	MinICPTextChars    = 3
	MaxExampleDomains  = 10
	MaxPhrases         = 20
	MinPhraseChars     = 3
	MaxStates          = 100
	MaxTechStack       = 20
	MaxSubdomains      = 20
	MinSubdomainChars  = 3
	MaxExcludeDomains  = 100
	MaxQueryIDs        = 100
	MinRecords         = 5
	MaxRecords         = 10_000
	DefaultRecords     = 100
	MaxScore           = 800
	DefaultMinScore    = 50
	MaxConsensus       = 20
	MaxMinSimilarity   = 99
	defaultVariance    = "UNRESTRICTED"
	maxFilterListItems = 300 // lists without a limit in the spec (country, category, ...)
)

// Variances are the accepted variance values, narrowest first.
var Variances = []string{"LOW", "MID_LOW", "MEDIUM", "MID_HIGH", "HIGH", "UNRESTRICTED"}

// varianceBand is how far (in similarity points, 0-100) a result may fall
// below the best match for each variance; UNRESTRICTED has no band.
var varianceBand = map[string]float64{"LOW": 5, "MID_LOW": 10, "MEDIUM": 20, "MID_HIGH": 30, "HIGH": 45}

// DiscoverParams names every parameter GET /v1/discover and GET /v1/count
// accept; anything else is rejected.
var DiscoverParams = DiscoverTable.Names()

// Discover is a validated discovery request. Values are normalized:
// domains are registrable roots, countries alpha-2 codes (regions
// expanded), states ISO 3166-2 codes, categories and business models
// upper case, socials and languages lower case.
type Discover struct {
	ICPPrompt                string
	Domains, NegateDomains   []string
	ICPText, NegateICPText   string
	Phrases, NegatePhrases   []string
	Countries                []string
	NegateCountries          []string
	States, NegateStates     []string
	MinScore, MaxScore       int
	minScoreGiven            bool
	StartFrom, StartTo       string // inclusive YYYY-MM-DD bounds; "" is open
	Categories               []string
	NegateCategories         []string
	Employees                *IntRange // nil: no employee filter
	Revenue                  *IntRange // nil: no revenue filter
	BusinessModels           []string
	NegateBusinessModels     []string
	Social, NegateSocial     []string
	Languages                []string
	NegateLanguages          []string
	Redirect, ExcludeLeadgen bool
	TechStack                []string
	NegateTechStack          []string
	Subdomains               []string
	NegateSubdomains         []string
	InclusionQueryIDs        []string
	ExclusionQueryIDs        []string
	ExcludeDomains           []string
	inclusion                []string // domains of inclusion_query_id; nil when none given

	MaxRecords, Offset      int
	MinSimilarity           int
	Consensus               int
	Variance                string
	IncludeSearchDomains    bool
	Enhanced, Retrieval     bool
	AutoICPText, AutoPhrase bool
}

// IntRange is an inclusive range; a nil bound is open.
type IntRange struct {
	Min, Max *int64
}

// ParseDiscover validates discovery parameters. The error, when not nil,
// is an *Error listing every problem.
func ParseDiscover(v url.Values) (Discover, error) {
	p := newParams(v, DiscoverTable)
	var d Discover
	d.ICPPrompt = p.text("icp_prompt")
	d.Domains = p.domains("domain")
	d.NegateDomains = p.domains("negate_domain")
	d.ICPText = p.text("icp_text")
	d.NegateICPText = p.text("negate_icp_text")
	d.Phrases = p.phrases("phrase_match")
	d.NegatePhrases = p.phrases("negate_phrase_match")

	d.Countries = p.countries("country")
	d.NegateCountries = p.countries("negate_country")
	d.States = p.states("state", d.Countries)
	d.NegateStates = p.states("negate_state", d.Countries)

	d.MaxScore, _ = p.integer("max_digital_footprint")
	d.MinScore, d.minScoreGiven = p.integer("min_digital_footprint")
	if d.MinScore > d.MaxScore {
		if d.minScoreGiven {
			p.fail("min_digital_footprint", strconv.Itoa(d.MinScore), "must not exceed max_digital_footprint (%d)", d.MaxScore)
		} else {
			// The default floor yields to an explicit lower ceiling.
			d.MinScore = d.MaxScore
		}
	}
	d.StartFrom, d.StartTo = p.dateRange("start_date")

	d.Categories = p.enum("category", industryKey)
	d.NegateCategories = p.enum("negate_category", industryKey)
	d.Employees = p.intRange("employee_range")
	d.Revenue = p.intRange("revenue_range")
	d.BusinessModels = p.enum("business_model", strings.ToUpper)
	d.NegateBusinessModels = p.enum("negate_business_model", strings.ToUpper)
	d.Social = p.enum("social", strings.ToLower)
	d.NegateSocial = p.enum("negate_social", strings.ToLower)
	d.Languages = p.languages("language")
	d.NegateLanguages = p.languages("negate_language")
	d.Redirect = p.boolean("redirect")
	d.ExcludeLeadgen = p.boolean("exclude_leadgen")
	d.TechStack = p.domains("tech_stack")
	d.NegateTechStack = p.domains("negate_tech_stack")
	d.Subdomains = p.subdomains("subdomain")
	d.NegateSubdomains = p.subdomains("negate_subdomain")
	d.InclusionQueryIDs = p.list("inclusion_query_id")
	d.ExclusionQueryIDs = p.list("exclusion_query_id")
	d.ExcludeDomains = p.domains("exclude_domain")

	d.MaxRecords, _ = p.integer("max_records")
	d.Offset, _ = p.integer("offset")
	if d.Offset+d.MaxRecords > MaxRecords {
		p.fail("offset", strconv.Itoa(d.Offset), "offset + max_records must not exceed %d (the deepest page discovery serves); narrow the search instead", MaxRecords)
	}
	d.MinSimilarity, _ = p.integer("min_similarity")
	d.Consensus, _ = p.integer("consensus")
	d.Variance = p.oneOf("variance", strings.ToUpper)
	d.IncludeSearchDomains = p.boolean("include_search_domains")
	d.Enhanced = p.boolean("enhanced")
	d.Retrieval = p.boolean("retrieval")
	d.AutoICPText = p.boolean("auto_icp_text")
	d.AutoPhrase = p.boolean("auto_phrase_match")

	if (len(d.NegateDomains) > 0 || d.NegateICPText != "") && len(d.Domains) == 0 && d.ICPText == "" && d.ICPPrompt == "" {
		p.fail("negate_domain", "", "negate_domain and negate_icp_text push results away from a positive input: give domain, icp_text or icp_prompt too")
	}
	if err := p.err(); err != nil {
		return Discover{}, err
	}
	return d, nil
}

// HasVectorInput reports whether results are ranked by similarity.
func (d *Discover) HasVectorInput() bool {
	return len(d.Domains) > 0 || d.ICPText != "" || d.ICPPrompt != ""
}

func (p *params) domains(name string) []string {
	raw := p.list(name)
	out := make([]string, 0, len(raw))
	for _, r := range raw {
		d, err := domain.Normalize(r)
		if err != nil {
			p.fail(name, r, "%v", err)
			continue
		}
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

func (p *params) phrases(name string) []string {
	out := p.list(name)
	minChars := p.spec(name).MinLen
	for _, s := range out {
		if len([]rune(s)) < minChars {
			p.fail(name, s, "each phrase must have at least %d characters", minChars)
		}
	}
	return out
}

func (p *params) countries(name string) []string {
	raw := p.list(name)
	if len(raw) == 0 {
		return nil
	}
	var out []string
	for _, r := range raw {
		codes, err := geo.ExpandCountries([]string{r})
		if err != nil {
			p.fail(name, r, "not an ISO-3166-1 alpha-2 code, a country name or a region code (%s)", strings.Join(geo.Regions(), ", "))
			continue
		}
		for _, c := range codes {
			if !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	slices.Sort(out)
	return out
}

// states resolves subdivisions of the single country; without a country,
// full codes ("US-CA") of one country are accepted on their own.
func (p *params) states(name string, countries []string) []string {
	raw := p.list(name)
	maxStates := p.spec(name).MaxItems
	if len(raw) == 0 {
		return nil
	}
	var country string
	switch len(countries) {
	case 1:
		country = countries[0]
	case 0:
		for _, r := range raw {
			cc, _, ok := strings.Cut(strings.ToUpper(strings.TrimSpace(r)), "-")
			if !ok || (country != "" && cc != country) {
				p.fail(name, r, "needs a single country: give country=<code>, or use full ISO 3166-2 codes (US-CA) of one country")
				return nil
			}
			country = cc
		}
	default:
		p.fail(name, "", "applies only with a single country; country resolved to %d countries (%s)", len(countries), strings.Join(countries, ", "))
		return nil
	}
	// Names may hold commas, so values are split on commas only when the
	// whole value is not a subdivision ("California,US-TX").
	var items []string
	for _, r := range raw {
		if _, ok := geo.LookupSubdivision(country, r); ok || !strings.Contains(r, ",") {
			items = append(items, r)
			continue
		}
		for _, part := range strings.Split(r, ",") {
			if part = strings.TrimSpace(part); part != "" {
				items = append(items, part)
			}
		}
	}
	if len(items) > maxStates {
		p.fail(name, "", "at most %d values, got %d", maxStates, len(items))
		items = items[:maxStates]
	}
	var out []string
	for _, r := range items {
		sd, ok := geo.LookupSubdivision(country, r)
		if !ok {
			p.fail(name, r, "not a subdivision of %s (ISO 3166-2 code or full name)", country)
			continue
		}
		if !slices.Contains(out, sd.Code) {
			out = append(out, sd.Code)
		}
	}
	return out
}

// industryKey turns "financial services" or "Financial-Services" into
// FINANCIAL_SERVICES.
func industryKey(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' || r == '/' {
			return '_'
		}
		return r
	}, strings.ToUpper(s))
}

// enum reads an array of declared values, canon mapping a given value to
// its declared spelling.
func (p *params) enum(name string, canon func(string) string) []string {
	allowed := p.spec(name).Enum
	raw := p.list(name)
	var out []string
	for _, r := range raw {
		c := canon(r)
		if !slices.Contains(allowed, c) {
			p.fail(name, r, "not one of %s", strings.Join(allowed, ", "))
			continue
		}
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// oneOf reads a scalar of declared values; the default when absent.
func (p *params) oneOf(name string, canon func(string) string) string {
	sp := p.spec(name)
	def, _ := sp.Default.(string)
	s, ok := p.scalar(name)
	if !ok || s == "" {
		return def
	}
	if c := canon(s); slices.Contains(sp.Enum, c) {
		return c
	}
	p.fail(name, s, "must be one of %s", strings.Join(sp.Enum, ", "))
	return def
}

func (p *params) languages(name string) []string {
	raw := p.list(name)
	var out []string
	for _, r := range raw {
		l := strings.ToLower(r)
		if _, err := language.ParseBase(l); err != nil || len(l) != 2 {
			p.fail(name, r, "must be a 2-letter ISO 639-1 language code")
			continue
		}
		if !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out
}

func (p *params) subdomains(name string) []string {
	raw := p.list(name)
	minChars := p.spec(name).MinLen
	var out []string
	for _, r := range raw {
		s := strings.ToLower(strings.TrimSuffix(r, "."))
		if len(s) < minChars {
			p.fail(name, r, "each subdomain must have at least %d characters", minChars)
			continue
		}
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// dateRange reads YYYY-MM-DD (started on or after that day) or
// YYYY-MM-DD,YYYY-MM-DD (inclusive; either side may be empty).
func (p *params) dateRange(name string) (from, to string) {
	s, ok := p.scalar(name)
	if !ok || s == "" {
		return "", ""
	}
	a, b, isRange := strings.Cut(s, ",")
	a, b = strings.TrimSpace(a), strings.TrimSpace(b)
	valid := func(x string) bool {
		if x == "" {
			return isRange
		}
		_, err := time.Parse(time.DateOnly, x)
		return err == nil
	}
	if !valid(a) || isRange && !valid(b) || (a == "" && b == "") {
		p.fail(name, s, "must be YYYY-MM-DD or YYYY-MM-DD,YYYY-MM-DD")
		return "", ""
	}
	if a != "" && b != "" && a > b {
		p.fail(name, s, "the range starts after it ends")
		return "", ""
	}
	return a, b
}

// intRange reads a "min,max" range; a value that does not parse is
// dropped without an error, as the spec says.
func (p *params) intRange(name string) *IntRange {
	s, ok := p.scalar(name)
	if !ok {
		return nil
	}
	r, ok := ParseRange(s)
	if !ok {
		return nil
	}
	return &r
}

// ParseRange parses "min,max" with open ends ("50," and ",50"), and a "+"
// suffix on the upper bound (or on a single number) meaning unbounded:
// "1000000,1000000000+" and "1000000000+" both have no upper bound.
// Numbers are non-negative integers; "_" separators are allowed. It
// reports false for anything else, and for a range without any bound.
func ParseRange(s string) (IntRange, bool) {
	s = strings.ReplaceAll(s, " ", "")
	num := func(x string) (*int64, bool) {
		n, err := strconv.ParseInt(strings.ReplaceAll(x, "_", ""), 10, 64)
		if err != nil || n < 0 || strings.HasPrefix(x, "+") {
			return nil, false
		}
		return &n, true
	}
	var r IntRange
	a, b, isRange := strings.Cut(s, ",")
	if !isRange {
		if !strings.HasSuffix(a, "+") {
			return r, false
		}
		min, ok := num(strings.TrimSuffix(a, "+"))
		r.Min = min
		return r, ok
	}
	if a != "" {
		min, ok := num(a)
		if !ok {
			return IntRange{}, false
		}
		r.Min = min
	}
	switch {
	case strings.HasSuffix(b, "+"):
		if _, ok := num(strings.TrimSuffix(b, "+")); !ok {
			return IntRange{}, false
		}
	case b != "":
		max, ok := num(b)
		if !ok {
			return IntRange{}, false
		}
		r.Max = max
	}
	if r.Min == nil && r.Max == nil && !strings.HasSuffix(b, "+") {
		return IntRange{}, false
	}
	if r.Min != nil && r.Max != nil && *r.Min > *r.Max {
		return IntRange{}, false
	}
	return r, true
}

// queryIDsError is the error for saved-query ids that do not exist for the
// caller (spec: 404 "saved query not found for the caller").
func queryIDsError(param string, ids []string) error {
	e := &Error{Status: http.StatusNotFound}
	for _, id := range ids {
		e.Params = append(e.Params, ParamError{Param: param, Rule: fmt.Sprintf("saved query %q not found for the caller", id), Value: id})
	}
	return e
}
