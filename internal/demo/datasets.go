package demo

import (
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/openprospect/prospectd/record"
)

// historyThrough is the last quarter of every demo company's growth
// history: the quarter that ends on the reference day.
var historyThrough = record.Quarter(strconv.Itoa(refYear-1) + "-Q4")

// historyQuarters is how many quarters of history a demo company has.
const historyQuarters = 8

// datasets fills what the append datasets domain_status, redirects and
// growth read. It draws last, so the rest of the profile does not depend
// on it.
func (g *Generator) datasets(r *rng, c *record.Company, id *identity, startDay int, thin bool) {
	c.HTTPStatus = httpStatus(r, c)
	if !thin && !c.Closed() {
		c.RedirectSources, c.RedirectCount = redirectSources(r, c, id)
	}
	c.Growth = growth(r, c, startDay)
}

func httpStatus(r *rng, c *record.Company) *record.HTTPStatus {
	code := http.StatusOK
	u := r.float()
	switch {
	case c.RedirectDomain != nil:
		code = http.StatusMovedPermanently
		if u < 0.15 {
			code = http.StatusFound
		}
	case c.Closed():
		switch {
		case u < 0.35:
			code = http.StatusNotFound
		case u < 0.45:
			code = http.StatusGone
		case u < 0.6:
			code = http.StatusServiceUnavailable
		case u < 0.7:
			code = http.StatusBadGateway
		case u < 0.8:
			code = http.StatusForbidden
		}
		// else a parked page answering 200
	case u < 0.04:
		code = http.StatusForbidden // bot protection
	case u < 0.055:
		code = http.StatusServiceUnavailable
	case u < 0.065:
		code = http.StatusInternalServerError
	case u < 0.07:
		code = http.StatusTooManyRequests
	}
	return &record.HTTPStatus{Code: code, Reason: http.StatusText(code), RecordDate: dateString(refDayNum - 1 - r.intn(45))}
}

// redirectSources returns the domains that redirect to c and their true
// number: defensive registrations, old brands, campaign and typo domains.
// Bigger footprints have more; the largest have thousands, more than the
// profile keeps.
func redirectSources(r *rng, c *record.Company, id *identity) ([]string, int) {
	reach := math.Min(1, float64(c.Score)/500)
	if !r.chance(0.1 + 0.6*reach) {
		return nil, 0
	}
	n := 1 + int(-math.Log(1-r.float())*(1+8*reach*reach))
	if c.Score >= 700 && r.chance(0.25) {
		n = 150 + r.intn(2900)
	}
	label := strings.TrimSuffix(id.domain, "."+id.tld)
	seen := map[string]bool{id.domain: true}
	out := make([]string, 0, min(n, record.MaxRedirectSources))
	add := func(d string) {
		if len(out) < cap(out) && !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	tlds := append(append([]string{}, id.country.tlds...), redirectTLDs...)
	affixes := redirectAffixes
	for tries := 0; len(out) < cap(out) && tries < 4*cap(out)+40; tries++ {
		switch v := r.float(); {
		case v < 0.45:
			add(label + "." + pick(r, tlds))
		case v < 0.8:
			a := pick(r, affixes)
			if suffix, ok := strings.CutPrefix(a, "-"); ok {
				add(label + suffix + ".com")
			} else {
				add(a + label + ".com")
			}
		case v < 0.9 && len(label) > 5:
			k := 1 + r.intn(len(label)-2) // a typo: one letter dropped
			add(label[:k] + label[k+1:] + ".com")
		default:
			add(label + strconv.Itoa(1+r.intn(9999)) + "." + pick(r, tlds))
		}
	}
	return out, max(n, len(out))
}

var (
	redirectTLDs    = []string{"net", "org", "co", "biz", "info", "us", "de", "fr", "co.uk", "es", "it", "nl", "com.au", "ca", "in", "jp", "io", "eu"}
	redirectAffixes = []string{"get", "try", "my", "the", "go", "use", "-hq", "-app", "-online", "-group", "-global", "-inc", "-corp", "-shop", "-store", "-now"}
)

// growth returns the quarterly history ending at the current score and
// subdomain count: young companies grow fast, mature ones drift, closed
// ones fade; quarters before the company started are zero.
func growth(r *rng, c *record.Company, startDay int) *record.Growth {
	g := &record.Growth{Through: historyThrough, Scores: make([]int, historyQuarters), Subdomains: make([]int, historyQuarters)}
	years := float64(refDayNum-startDay) / daysPerYear
	trend := 0.01 + 0.12*math.Exp(-years/2)
	if c.Closed() {
		trend = -0.08
	}
	score, subs := float64(c.Score), len(c.Subdomains)
	for k := historyQuarters - 1; k >= 0; k-- {
		quarterEnd := refDayNum - 1 - (historyQuarters-1-k)*91
		if quarterEnd < startDay {
			break
		}
		g.Scores[k] = min(800, max(1, int(math.Round(score))))
		g.Subdomains[k] = subs
		score /= 1 + trend + 0.03*r.normal()
		if subs > 0 && r.chance(0.12+trend) {
			subs--
		}
	}
	return g
}
