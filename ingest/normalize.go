package ingest

import (
	"fmt"
	"maps"
	"math"
	"net/http"
	"net/mail"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/text/language"

	"github.com/openprospect/prospectd/record"
	"github.com/openprospect/prospectd/record/domain"
	"github.com/openprospect/prospectd/record/geo"
)

// Caps on list fields, from the spec's append datasets: a profile carries
// at most this many vendors and subdomains (the first ones, which the
// spec orders by popularity).
const (
	MaxVendors    = 100
	MaxSubdomains = 300
)

// Normalize validates c and rewrites it in canonical form.
//
// Normalize is strict: values that identify or classify the company must
// be valid, or the record is refused with an error naming the field and
// the problem (the loader's normalizer is lenient instead: it drops such a
// field, reports why, and refuses only a record without a usable domain):
// domain (required; any URL or host, reduced to the registrable root
// domain), country (ISO 3166-1 code or name -> alpha-2), state (ISO 3166-2
// code, local code or name within the country -> "US-CA"), status
// (active or closed), score (integer 0-800), dates (YYYY-MM-DD; timestamps
// are cut to their UTC date), industry labels (the 53 of
// record.Industries; spaces, dashes and "&" read as "_"), employees (a
// bucket or a head count), revenue (a bucket or a USD amount), business
// models and languages, and the append datasets' HTTP status (a code
// 100-599 with a valid record date) and growth history.
//
// Contact details that fail validation are dropped and the record is kept:
// a phone that is not a valid number (national numbers are read in the
// record's country; without a country only +international numbers are
// kept), a malformed e-mail, a social URL that is not a URL, a vendor or
// redirect that is not a domain. Lists are de-duplicated; an empty name
// becomes the domain; status confidence defaults to 1; an active company
// has no end date; only the two strongest industry labels are kept.
func Normalize(c *record.Company) error {
	n := normalizers.Get().(*normalizer)
	defer normalizers.Put(n)
	return n.normalize(c)
}

var normalizers = sync.Pool{New: func() any { return newNormalizer() }}

// maxCached bounds each lookup cache of a normalizer.
const maxCached = 1 << 16

// normalizer caches lookups that repeat across records (vendor domains, mail
// providers, country and state names); one goroutine uses it at a time.
type normalizer struct {
	// lenient: an invalid optional field is dropped (its reason appended
	// to dropped) instead of refusing the record; only the domain refuses.
	lenient   bool
	dropped   []string
	domains   map[string]string // vendor or provider -> root domain, "" when invalid
	countries map[string]string // value -> alpha-2 code, "" when unknown
	states    map[[2]string]string
	languages map[string]string
	seen      map[string]struct{} // de-duplication scratch for long lists
}

func newNormalizer() *normalizer {
	return &normalizer{
		domains:   map[string]string{},
		countries: map[string]string{},
		states:    map[[2]string]string{},
		languages: map[string]string{},
		seen:      map[string]struct{}{},
	}
}

func cache[K comparable](m map[K]string, k K, compute func(K) string) string {
	if v, ok := m[k]; ok {
		return v
	}
	v := compute(k)
	if len(m) >= maxCached {
		clear(m)
	}
	// Copies: k and v may share memory with the rest of their record
	// (the JSON decoder's), which the cache would keep alive.
	m[detach(k)] = strings.Clone(v)
	return v
}

// detach returns a copy of a cache key that shares no memory with its
// record.
func detach[K comparable](k K) K {
	switch v := any(k).(type) {
	case string:
		return any(strings.Clone(v)).(K)
	case [2]string:
		return any([2]string{strings.Clone(v[0]), strings.Clone(v[1])}).(K)
	}
	return k
}

// drop handles an invalid optional field: strict, it is the record's
// refusal; lenient, its reason is kept and the caller clears the field.
func (n *normalizer) drop(err error) error {
	if !n.lenient {
		return err
	}
	n.dropped = append(n.dropped, err.Error())
	return nil
}

// dropInvalid reports the first entry of a contact list that norm refuses.
func (n *normalizer) dropInvalid(field string, in []string, norm func(string) string, why string) {
	for _, raw := range in {
		if v := strings.TrimSpace(raw); v != "" && norm(v) == "" {
			n.dropped = append(n.dropped, fmt.Sprintf("%s: %q %s", field, raw, why))
			return
		}
	}
}

func (n *normalizer) normalize(c *record.Company) error {
	d, err := domain.Normalize(c.Domain)
	if err != nil {
		return fmt.Errorf("domain: %w", err)
	}
	// A copy, so that a domain kept as an index key does not pin the
	// whole input row it was cut from.
	c.Domain = strings.Clone(d)
	if c.Name = cleanText(c.Name); c.Name == "" {
		c.Name = c.Domain
	}
	c.Description = cleanText(c.Description)
	c.SiteText = cleanText(c.SiteText)

	if err := normalizeStatus(&c.Status); err != nil {
		if err := n.drop(err); err != nil {
			return err
		}
		if c.Status.Status != record.StatusClosed {
			c.Status.Status = record.StatusActive
		}
		c.Status.Confidence = 1
	}
	if c.Score < 0 || c.Score > 800 {
		if err := n.drop(fmt.Errorf("score: %d is outside 0-800", c.Score)); err != nil {
			return err
		}
		c.Score = 0 // unknown
	}
	if c.StartDate, err = normalizeDate("start_date", c.StartDate); err != nil {
		if err := n.drop(err); err != nil {
			return err
		}
	}
	if c.UpdateDate, err = normalizeDate("update_date", c.UpdateDate); err != nil {
		if err := n.drop(err); err != nil {
			return err
		}
	}
	if c.EndDate != nil {
		end, err := normalizeDate("end_date", *c.EndDate)
		switch {
		case err != nil:
			if err := n.drop(err); err != nil {
				return err
			}
			c.EndDate = nil
		case end == "" || c.Status.Status != record.StatusClosed:
			// The profile has an end date only for closed companies.
			c.EndDate = nil
		default:
			c.EndDate = &end
		}
	}

	if err := n.normalizeAddress(&c.Address); err != nil {
		return err
	}
	// A contact list that lost entries (duplicates too) is read again,
	// lenient, for the reason; the closures are built only then.
	phones := n.uniq(c.Phones, 0, func(p string) string { return normalizePhone(p, c.Address.Country) })
	if n.lenient && len(phones) != len(c.Phones) {
		country := c.Address.Country
		n.dropInvalid("phones", c.Phones, func(p string) string { return normalizePhone(p, country) }, "is not a valid phone number"+countryNote(country))
	}
	c.Phones = phones
	emails := n.uniq(c.PublicEmails, 0, normalizeEmail)
	if n.lenient && len(emails) != len(c.PublicEmails) {
		n.dropInvalid("public_emails", c.PublicEmails, normalizeEmail, "is not an e-mail address")
	}
	c.PublicEmails = emails
	social := n.uniq(c.SocialURLs, 0, normalizeSocialURL)
	if n.lenient && len(social) != len(c.SocialURLs) {
		n.dropInvalid("social_urls", c.SocialURLs, normalizeSocialURL, "is not an http(s) URL")
	}
	c.SocialURLs = social
	if ig, err := normalizeIndustries(c.IndustryGroups); err == nil {
		c.IndustryGroups = ig
	} else {
		if err := n.drop(err); err != nil {
			return err
		}
		// Only the bad labels go; the valid ones are kept.
		valid := make(map[string]float64, len(c.IndustryGroups))
		for k, v := range c.IndustryGroups {
			if _, err := industryEntry(k, v); err == nil {
				valid[k] = v
			}
		}
		c.IndustryGroups, _ = normalizeIndustries(valid)
	}
	if c.Keywords, err = normalizeKeywords(c.Keywords); err != nil {
		if err := n.drop(err); err != nil {
			return err
		}
	}
	if c.Employees, err = normalizeEmployees(c.Employees); err != nil {
		if err := n.drop(err); err != nil {
			return err
		}
	}
	if c.RevenueRange, err = normalizeRevenue(c.RevenueRange); err != nil {
		if err := n.drop(err); err != nil {
			return err
		}
	}
	// vocabulary returns the valid values along with its error.
	if c.BusinessModels, err = n.vocabulary(c.BusinessModels, "business_models", n.businessModel); err != nil {
		if err := n.drop(err); err != nil {
			return err
		}
	}
	if c.Languages, err = n.vocabulary(c.Languages, "languages", n.language); err != nil {
		if err := n.drop(err); err != nil {
			return err
		}
	}
	c.Vendors = n.uniq(c.Vendors, MaxVendors, n.rootDomain)
	c.Subdomains = n.uniq(c.Subdomains, MaxSubdomains, func(s string) string { return subdomainOf(s, c.Domain) })
	if c.RedirectDomain != nil {
		r := n.rootDomain(*c.RedirectDomain)
		if r == "" || r == c.Domain {
			c.RedirectDomain = nil
		} else {
			c.RedirectDomain = &r
		}
	}
	if err := normalizeHTTPStatus(c); err != nil {
		if err := n.drop(err); err != nil {
			return err
		}
		c.HTTPStatus = nil
	}
	if len(c.RedirectSources) > 0 || c.RedirectCount != 0 {
		if c.RedirectCount < 0 {
			if err := n.drop(fmt.Errorf("redirect_count: %d is negative", c.RedirectCount)); err != nil {
				return err
			}
			c.RedirectCount = 0
		}
		// Not through the cache: redirect sources are a company's own
		// typo and TLD variants, seen once in a load; caching them would
		// only evict the vendors and providers that do repeat.
		src := n.uniq(c.RedirectSources, 0, func(s string) string {
			if r, err := domain.Normalize(s); err == nil && r != c.Domain {
				return r
			}
			return ""
		})
		// The count is the true total; the list keeps the first ones.
		c.RedirectCount = max(c.RedirectCount, len(src))
		c.RedirectSources = src[:min(len(src), record.MaxRedirectSources)]
	}
	if err := normalizeGrowth(c); err != nil {
		if err := n.drop(err); err != nil {
			return err
		}
		c.Growth = nil
	}
	if mx := strings.TrimSpace(c.MXProvider); mx != "" {
		if r := n.rootDomain(mx); r != "" {
			c.MXProvider = r
		} else {
			c.MXProvider = strings.ToLower(cleanText(mx))
		}
	}
	return nil
}

func normalizeHTTPStatus(c *record.Company) error {
	h := c.HTTPStatus
	if h == nil {
		return nil
	}
	h.Reason = cleanText(h.Reason)
	if h.Code == 0 && h.Reason == "" && strings.TrimSpace(h.RecordDate) == "" {
		c.HTTPStatus = nil
		return nil
	}
	if h.Code < 100 || h.Code > 599 {
		return fmt.Errorf("status_code: %d is not an HTTP status code (100-599)", h.Code)
	}
	if h.Reason == "" {
		h.Reason = http.StatusText(h.Code)
	}
	var err error
	h.RecordDate, err = normalizeDate("record_date", h.RecordDate)
	return err
}

// MaxGrowthQuarters bounds the quarterly history a profile keeps.
const MaxGrowthQuarters = 40

func normalizeGrowth(c *record.Company) error {
	g := c.Growth
	if g == nil {
		return nil
	}
	if len(g.Scores) == 0 && len(g.Subdomains) == 0 {
		c.Growth = nil
		return nil
	}
	if !plainQuarter(g.Through) {
		if _, _, err := g.Through.Parse(); err != nil {
			return fmt.Errorf("growth.through: %w", err)
		}
	}
	n := max(len(g.Scores), len(g.Subdomains))
	switch {
	case len(g.Scores) != 0 && len(g.Subdomains) != 0 && len(g.Scores) != len(g.Subdomains):
		return fmt.Errorf("growth: %d scores but %d subdomain counts; give one of each per quarter", len(g.Scores), len(g.Subdomains))
	case n > MaxGrowthQuarters:
		return fmt.Errorf("growth: %d quarters, at most %d", n, MaxGrowthQuarters)
	}
	for i, v := range g.Scores {
		if v < 0 || v > 800 {
			return fmt.Errorf("growth.scores[%d]: %d is outside 0-800", i, v)
		}
	}
	for i, v := range g.Subdomains {
		if v < 0 {
			return fmt.Errorf("growth.subdomains[%d]: %d is negative", i, v)
		}
	}
	return nil
}

// plainQuarter reports whether q is "YYYY-QN" with a year from 1900 and a
// quarter 1-4: what Quarter.Parse accepts, checked without its Sscanf,
// which cost more than the rest of a growth history's checks.
func plainQuarter(q record.Quarter) bool {
	if len(q) != 7 || q[4] != '-' || q[5] != 'Q' || q[6] < '1' || q[6] > '4' {
		return false
	}
	for i := range 4 {
		if q[i] < '0' || q[i] > '9' {
			return false
		}
	}
	return q[:4] >= "1900"
}

// cleanText trims s and replaces invalid UTF-8 (files in a legacy
// encoding) with U+FFFD, so the index never stores broken text.
func cleanText(s string) string {
	s = strings.TrimSpace(s)
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return s
}

func normalizeStatus(s *record.Status) error {
	switch v := strings.ToLower(strings.TrimSpace(s.Status)); v {
	case "":
		s.Status = record.StatusActive
	case record.StatusActive, record.StatusClosed:
		s.Status = v
	default:
		return fmt.Errorf("status: %q is not active or closed", s.Status)
	}
	switch c := s.Confidence; {
	case c == 0:
		s.Confidence = 1
	case !(c > 0 && c <= 1): // NaN too
		return fmt.Errorf("status confidence: %v is outside 0-1", c)
	}
	return nil
}

// normalizeDate accepts YYYY-MM-DD, and timestamps that start with one
// (RFC 3339 ones are converted to their UTC date).
func normalizeDate(name, s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" || plainDate(s) {
		return s, nil
	}
	if len(s) > 10 {
		if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
			return t.UTC().Format(time.DateOnly), nil
		}
		if s[10] == 'T' || s[10] == ' ' {
			s = s[:10]
		}
	}
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return "", fmt.Errorf("%s: %q is not a YYYY-MM-DD date", name, s)
	}
	return t.Format(time.DateOnly), nil
}

// plainDate reports whether s is a YYYY-MM-DD date that time.Parse
// accepts, which then formats back to s: checked without the parser, as
// most dates are already written so.
func plainDate(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if i == 4 || i == 7 {
			continue
		}
		if s[i] < '0' || s[i] > '9' {
			return false
		}
		n = n*10 + int(s[i]-'0')
	}
	year, month, day := n/10000, n/100%100, n%100
	if month < 1 || month > 12 || day < 1 {
		return false
	}
	days := 31
	switch month {
	case 4, 6, 9, 11:
		days = 30
	case 2:
		days = 28
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			days = 29
		}
	}
	return day <= days
}

func (n *normalizer) normalizeAddress(a *record.Address) error {
	a.Street, a.City, a.Zip = cleanText(a.Street), cleanText(a.City), cleanText(a.Zip)
	if v := strings.TrimSpace(a.Country); v != "" {
		code := cache(n.countries, v, func(v string) string {
			c, _ := geo.LookupCountry(v)
			return c.Code
		})
		if code == "" {
			if err := n.drop(fmt.Errorf("country: %q is not an ISO 3166-1 code or a country name", a.Country)); err != nil {
				return err
			}
		}
		a.Country = code
	} else {
		a.Country = ""
	}
	if v := strings.TrimSpace(a.State); v != "" {
		if a.Country == "" {
			if err := n.drop(fmt.Errorf("state: %q needs a country", a.State)); err != nil {
				return err
			}
			a.State = ""
			return nil
		}
		code := cache(n.states, [2]string{a.Country, v}, func(k [2]string) string {
			sd, _ := geo.LookupSubdivision(k[0], k[1])
			return sd.Code
		})
		if code == "" {
			if err := n.drop(fmt.Errorf("state: %q is not a subdivision of %s (give an ISO 3166-2 code such as US-CA, or the name)", a.State, a.Country)); err != nil {
				return err
			}
		}
		a.State = code
	} else {
		a.State = ""
	}
	return nil
}

// normalizeEmail returns the address lower-cased with its domain in ASCII
// form, "" when it is not a plain address.
func normalizeEmail(e string) string {
	if strings.ContainsAny(e, "<>\"") || strings.Count(e, "@") != 1 {
		// Display-name forms ("Sales <sales@acme.com>") go through the
		// full parser; plain ones are checked below without it.
		a, err := mail.ParseAddress(e)
		if err != nil {
			return ""
		}
		e = a.Address
	}
	at := strings.LastIndexByte(e, '@')
	if at <= 0 || at > 64 {
		return ""
	}
	local := e[:at]
	for i := 0; i < len(local); i++ {
		if c := local[i]; c <= ' ' || c >= 0x7f || strings.IndexByte("()<>[]:;@\\,\"", c) >= 0 {
			return ""
		}
	}
	host, err := domain.Host(e[at+1:])
	if err != nil || strings.HasPrefix(local, ".") || strings.HasSuffix(local, ".") || strings.Contains(local, "..") {
		return ""
	}
	if host == e[at+1:] && !hasUpper(local) {
		return e // already canonical: no new string
	}
	return strings.ToLower(local) + "@" + host
}

// hasUpper reports whether ASCII s has an upper-case letter.
func hasUpper(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 'A' && s[i] <= 'Z' {
			return true
		}
	}
	return false
}

// normalizeSocialURL keeps a URL-like value (a scheme is added when
// missing), "" otherwise.
func normalizeSocialURL(s string) string {
	if plainWebURL(s) {
		// The usual value, read once: plainWebURL refuses every byte
		// of the check below, so the steps below would return it as it
		// is.
		return s
	}
	if strings.ContainsAny(s, " \t\r\n\"<>") {
		return ""
	}
	if !strings.Contains(s, "://") {
		s = "https://" + strings.TrimPrefix(s, "//")
	}
	if plainWebURL(s) {
		return s
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || !strings.Contains(u.Hostname(), ".") {
		return ""
	}
	return s
}

// plainWebURL reports whether s is an http or https URL that url.Parse
// accepts with a host name containing a dot, checked without the parser
// for the usual shape: a host of letters, digits and ".-_~" (no port, no
// user), then printable ASCII other than '"', '<' and '>' (which
// normalizeSocialURL refuses) or non-ASCII bytes, with every '%' escape
// well formed. false leaves s to url.Parse.
func plainWebURL(s string) bool {
	rest, ok := strings.CutPrefix(s, "https://")
	if !ok {
		if rest, ok = strings.CutPrefix(s, "http://"); !ok {
			return false
		}
	}
	dot, i := false, 0
	for ; i < len(rest); i++ {
		c := rest[i]
		if c == '/' || c == '?' || c == '#' {
			break
		}
		if c == '.' {
			dot = true
		} else if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '~') {
			return false
		}
	}
	if !dot {
		return false
	}
	for ; i < len(rest); i++ {
		switch c := rest[i]; {
		case c == '%':
			if i+2 >= len(rest) || !isHexDigit(rest[i+1]) || !isHexDigit(rest[i+2]) {
				return false
			}
		case c <= ' ' || c == 0x7f || c == '"' || c == '<' || c == '>':
			return false
		}
	}
	return true
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// industryEntry returns the canonical label of an industry_groups entry,
// "" for a blank label, or why the entry is refused.
func industryEntry(k string, v float64) (string, error) {
	label := industryLabel(k)
	if label == "" {
		return "", nil
	}
	if !record.IsIndustry(label) {
		return "", fmt.Errorf("industry_groups: %q is not one of the %d industry labels (SAAS, SOFTWARE, FINANCIAL_SERVICES, ...; docs/ingest.md lists them)", k, len(record.Industries))
	}
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return "", fmt.Errorf("industry_groups: score %v of %s is not a number >= 0", v, label)
	}
	return label, nil
}

// normalizeIndustries canonicalizes labels ("Financial Services" ->
// FINANCIAL_SERVICES), refuses unknown ones and keeps the strongest two.
func normalizeIndustries(in map[string]float64) (map[string]float64, error) {
	if len(in) == 0 {
		return nil, nil
	}
	if len(in) <= 2 && canonicalIndustries(in) {
		return in, nil
	}
	out := make(map[string]float64, min(len(in), 2))
	type scored struct {
		label string
		score float64
	}
	var all []scored
	for k, v := range in {
		label, err := industryEntry(k, v)
		if err != nil {
			// The map's order is random: name the first bad label in
			// key order, so a file gives the same reason on every run.
			for _, k := range slices.Sorted(maps.Keys(in)) {
				if _, err := industryEntry(k, in[k]); err != nil {
					return nil, err
				}
			}
		}
		if label != "" {
			all = append(all, scored{label, v})
		}
	}
	slices.SortFunc(all, func(a, b scored) int {
		if a.score != b.score {
			if a.score > b.score {
				return -1
			}
			return 1
		}
		return strings.Compare(a.label, b.label)
	})
	for _, s := range all {
		if _, dup := out[s.label]; dup {
			continue
		}
		if len(out) == 2 {
			break
		}
		out[s.label] = s.score
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

// canonicalIndustries reports whether every label of m is one of
// record.Industries (which industryLabel leaves as they are) with a valid
// score: then at most two labels are what normalizeIndustries would build
// anew, and most records have that already.
func canonicalIndustries(m map[string]float64) bool {
	for k, v := range m {
		if !record.IsIndustry(k) || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return false
		}
	}
	return true
}

// industryLabel upper-cases a label and turns runs of spaces, dashes,
// slashes and "&" into one underscore: "Food & Beverage" -> FOOD_BEVERAGE.
func industryLabel(s string) string {
	s = strings.TrimSpace(s)
	b := make([]byte, 0, len(s))
	sep := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z':
			c -= 'a' - 'A'
		case c == ' ' || c == '-' || c == '_' || c == '&' || c == '/' || c == ',':
			sep = true
			continue
		}
		if sep && len(b) > 0 {
			b = append(b, '_')
		}
		sep = false
		b = append(b, c)
	}
	return string(b)
}

// normalizeKeywords lower-cases and trims keyword labels, dropping empty
// ones; scores must be numbers.
func normalizeKeywords(in map[string]float64) (map[string]float64, error) {
	if len(in) == 0 {
		return nil, nil
	}
	canonical := true
	for k, v := range in {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			// The first in key order, not in the map's random order.
			for _, k := range slices.Sorted(maps.Keys(in)) {
				if v := in[k]; math.IsNaN(v) || math.IsInf(v, 0) {
					return nil, fmt.Errorf("keywords: score of %q is not a number", k)
				}
			}
		}
		canonical = canonical && canonicalKeyword(k)
	}
	if canonical {
		return in, nil
	}
	out := make(map[string]float64, len(in))
	for k, v := range in {
		if k = strings.ToLower(cleanText(k)); k != "" {
			out[k] = max(out[k], v)
		}
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

// canonicalKeyword reports whether normalizeKeywords keeps the label k as
// it is: non-empty, trimmed, lower-case, valid UTF-8. An ASCII label, the
// usual one, is checked in one pass without the copies and Unicode tables
// of ToLower and TrimSpace; TestCanonicalKeyword compares the two.
func canonicalKeyword(k string) bool {
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		switch c := k[i]; {
		case c >= utf8.RuneSelf:
			return canonicalKeywordUnicode(k)
		case c >= 'A' && c <= 'Z':
			return false
		}
	}
	return !isASCIISpace(k[0]) && !isASCIISpace(k[len(k)-1])
}

// canonicalKeywordUnicode is canonicalKeyword for any label, the reference
// its ASCII pass must agree with.
func canonicalKeywordUnicode(k string) bool {
	return k != "" && k == strings.ToLower(strings.TrimSpace(k)) && utf8.ValidString(k)
}

// isASCIISpace reports whether c is one of the ASCII bytes TrimSpace trims.
func isASCIISpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

func normalizeEmployees(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" || record.IsEmployeeBucket(s) {
		return s, nil
	}
	plain := strings.ReplaceAll(s, ",", "")
	if record.IsEmployeeBucket(plain) { // "10,001+"
		return plain, nil
	}
	n, err := strconv.ParseFloat(plain, 64)
	if err != nil || !(n >= 1) || n > 1e8 {
		return "", fmt.Errorf("employees: %q is neither a head count nor one of %s", s, strings.Join(record.EmployeeBuckets, ", "))
	}
	return record.EmployeeBucket(int(n)), nil
}

// normalizeRevenue accepts a bucket or a USD amount ("$12,500,000", "12.5M",
// "3B").
func normalizeRevenue(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" || record.IsRevenueBucket(s) {
		return s, nil
	}
	plain := strings.TrimPrefix(strings.ReplaceAll(strings.ReplaceAll(s, ",", ""), " ", ""), "$")
	mult := 1.0
	if k := len(plain); k > 1 {
		switch plain[k-1] {
		case 'k', 'K':
			mult = 1e3
		case 'm', 'M':
			mult = 1e6
		case 'b', 'B':
			mult = 1e9
		}
		if mult != 1 {
			plain = plain[:k-1]
		}
	}
	v, err := strconv.ParseFloat(plain, 64)
	if v *= mult; err != nil || !(v >= 0) || v > 1e15 {
		return "", fmt.Errorf("revenue_range: %q is neither a USD amount nor one of %s", s, strings.Join(record.RevenueBuckets, ", "))
	}
	return record.RevenueBucket(int64(v)), nil
}

func (n *normalizer) businessModel(s string) string {
	s = strings.ToUpper(s)
	if record.IsBusinessModel(s) {
		return s
	}
	return ""
}

// language reduces a language code or tag ("EN", "en-US", "eng") to its
// two-letter ISO 639-1 code.
func (n *normalizer) language(s string) string {
	return cache(n.languages, s, func(s string) string {
		tag, err := language.Parse(s)
		if err != nil {
			return ""
		}
		base, conf := tag.Base()
		if conf < language.High {
			return ""
		}
		if code := base.String(); len(code) == 2 {
			return code
		}
		return ""
	})
}

// vocabulary canonicalizes a list of closed-vocabulary values. An unknown
// one is an error, returned with the valid values (which a lenient load
// keeps).
func (n *normalizer) vocabulary(in []string, name string, canon func(string) string) ([]string, error) {
	var bad string
	out := n.uniq(in, 0, func(s string) string {
		v := canon(s)
		if v == "" && bad == "" {
			bad = s
		}
		return v
	})
	if bad != "" {
		switch name {
		case "business_models":
			return out, fmt.Errorf("business_models: %q is not one of %s", bad, strings.Join(record.BusinessModels, ", "))
		default:
			return out, fmt.Errorf("languages: %q is not a two-letter ISO 639-1 language code", bad)
		}
	}
	return out, nil
}

// rootDomain returns the registrable domain of a vendor, redirect or mail
// provider value, "" when it is not a domain.
func (n *normalizer) rootDomain(s string) string {
	return cache(n.domains, s, func(s string) string {
		d, err := domain.Normalize(s)
		if err != nil {
			return ""
		}
		return d
	})
}

// subdomainOf returns the name of s below root: "shop" for "shop",
// "shop.acme.com" or "https://shop.acme.com/x" under acme.com. Other names
// with dots are taken as relative ("eu.api"), so a stored value
// normalizes to itself.
func subdomainOf(s, root string) string {
	if validLabel(s) && s != root {
		// Most values are one lower-case label ("www", "blog"), which
		// the general path below would return as it is, after several
		// scans of it; TestSubdomainOf compares the two.
		return s
	}
	return subdomainOfHost(s, root)
}

// subdomainOfHost is subdomainOf for any value.
func subdomainOfHost(s, root string) string {
	h := strings.ToLower(s)
	if i := strings.Index(h, "://"); i >= 0 {
		h = h[i+3:]
	}
	if i := strings.IndexAny(h, "/?#:"); i >= 0 {
		h = h[:i]
	}
	h = strings.TrimSuffix(h, ".")
	for {
		sub, ok := strings.CutSuffix(h, "."+root)
		if !ok {
			break
		}
		h = sub
	}
	if h == root {
		return "" // the domain itself
	}
	for label := range strings.SplitSeq(h, ".") {
		if !validLabel(label) {
			return ""
		}
	}
	return h
}

func validLabel(s string) bool {
	if len(s) == 0 || len(s) > 63 || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// uniq maps each value through norm after trimming it, dropping empty
// results and duplicates, keeping the first limit (0: all). The input is
// not modified (its backing array may be shared with the caller); when
// every value is already canonical it is returned as it is.
func (n *normalizer) uniq(in []string, limit int, norm func(string) string) []string {
	if len(in) == 0 {
		return nil
	}
	var out []string // nil while the output is a prefix of in
	kept := 0
	long := len(in) > 16
	if long {
		clear(n.seen)
	}
	for i, raw := range in {
		if limit > 0 && kept == limit {
			break
		}
		v := norm(strings.TrimSpace(raw))
		dup := false
		switch {
		case v == "":
		case long:
			_, dup = n.seen[v]
			n.seen[v] = struct{}{}
		case out != nil:
			dup = slices.Contains(out, v)
		default:
			dup = slices.Contains(in[:kept], v)
		}
		if v == "" || dup || v != raw || out != nil {
			if out == nil {
				out = make([]string, kept, len(in))
				copy(out, in[:kept])
			}
			if v != "" && !dup {
				out = append(out, v)
				kept++
			}
			continue
		}
		kept = i + 1
	}
	if out == nil {
		return in[:kept:kept]
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// countryNote names the country national numbers were read in.
func countryNote(country string) string {
	if country == "" {
		return " (without a country only +international numbers are read)"
	}
	return " for " + country
}
