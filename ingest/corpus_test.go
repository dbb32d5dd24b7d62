package ingest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/nyaruka/phonenumbers"

	"github.com/openprospect/prospectd/record"
	"github.com/openprospect/prospectd/record/geo"
)

// synthCorpus generates company profiles shaped like real exports: about
// 1.7 KB of JSON each, with descriptions and site text drawn from a
// vocabulary per industry, real subdivisions, valid phone numbers, vendors,
// keywords and social profiles. Company i is a pure function of (seed, i).
type synthCorpus struct {
	seed      uint64
	countries []synthCountry
	words     [][]string // per industry
	general   []string   // long-tail vocabulary, most frequent first
}

type synthCountry struct {
	code   string
	states []string
	phone  string
}

var synthVocabulary = strings.Fields(`platform cloud data analytics security network payments lending bank insurance
claims policy risk compliance audit tax accounting payroll hiring talent training courses students school campus
clinic patients care therapy diagnostics devices surgery pharmacy drugs trials biotech genome lab research energy
solar wind grid battery storage oil gas drilling pipeline mining metals steel chemicals plastics coatings farm crops
harvest tractor seeds dairy food beverage coffee bakery restaurant hotel travel tours flights cruise logistics freight
shipping fleet warehouse delivery retail store shop fashion apparel shoes jewelry beauty cosmetics furniture home
construction builders concrete roofing architecture design interiors property rentals mortgage brokers investment
funds wealth trading crypto gaming studio esports film music media publishing news magazine podcast advertising
agency marketing brand campaigns seo content social consulting strategy legal lawyers litigation contracts government
public defense aerospace satellites drones automotive cars electric vehicles parts semiconductors chips hardware
sensors robotics automation factory machinery telecom wireless fiber broadband software apps mobile saas crm erp
devops api developers ai models vision language nonprofit charity donors environment recycling waste water sports
fitness gym coaching events tickets venues`)

var synthVendors = strings.Fields(`stripe.com hubspot.com salesforce.com google-analytics.com googletagmanager.com
segment.com zendesk.com intercom.io cloudflare.com amazonaws.com okta.com sentry.io datadoghq.com wix.com
squarespace.com shopify.com wordpress.com typeform.com calendly.com mailchimp.com`)

func newSynthCorpus(seed uint64) *synthCorpus {
	s := &synthCorpus{seed: seed}
	for _, code := range strings.Fields("US GB DE FR IN CA AU BR JP NL ES IT SE MX SG ZA PL CH IE NZ") {
		var states []string
		for _, sd := range geo.Subdivisions(code) {
			states = append(states, sd.Code)
		}
		ex := phonenumbers.GetExampleNumberForType(code, phonenumbers.FIXED_LINE)
		s.countries = append(s.countries, synthCountry{code: code, states: states, phone: phonenumbers.Format(ex, phonenumbers.E164)})
	}
	r := rand.New(rand.NewPCG(seed, 7))
	syllables := strings.Fields("ka lo mi ne su ta ri po ve da xo zu ba fe gi hu ja ko li mu no pe qu ra se ti vo wa ye")
	seen := map[string]bool{}
	for len(s.general) < 20000 {
		var w strings.Builder
		for range 2 + r.IntN(3) {
			w.WriteString(syllables[r.IntN(len(syllables))])
		}
		if !seen[w.String()] {
			seen[w.String()] = true
			s.general = append(s.general, w.String())
		}
	}
	for range record.Industries {
		words := make([]string, 30)
		for j := range words {
			words[j] = synthVocabulary[r.IntN(len(synthVocabulary))]
		}
		s.words = append(s.words, words)
	}
	return s
}

func (s *synthCorpus) company(i int) record.Company {
	r := rand.New(rand.NewPCG(s.seed, uint64(i)+1000))
	ind := r.IntN(len(record.Industries))
	words := s.words[ind]
	// Text mixes the industry's words with a long tail of general words
	// (skewed towards the frequent ones), as real text does: most word
	// pairs of a description are rare.
	text := func(n int) string {
		var b strings.Builder
		for j := range n {
			if j > 0 {
				b.WriteByte(' ')
			}
			switch u := r.Float64(); {
			case u < 0.3:
				b.WriteString(words[r.IntN(len(words))])
			case u < 0.4:
				b.WriteString(synthVocabulary[r.IntN(len(synthVocabulary))])
			default:
				b.WriteString(s.general[int(float64(len(s.general))*math.Pow(r.Float64(), 3))])
			}
		}
		return b.String()
	}
	word := words[r.IntN(len(words))]
	name := strings.ToUpper(word[:1]) + word[1:] + fmt.Sprintf("%c%c", 'a'+r.IntN(26), 'a'+r.IntN(26))
	dom := fmt.Sprintf("%s%d.%s", strings.ToLower(name), i, []string{"com", "io", "co.uk", "de", "net"}[r.IntN(5)])
	co := s.countries[r.IntN(len(s.countries))]
	c := record.Company{
		Domain:      dom,
		Name:        name + " " + []string{"Inc", "Ltd", "GmbH", "Labs", "Group"}[r.IntN(5)],
		Status:      record.Status{Status: "active", Confidence: 0.5 + r.Float64()/2},
		Score:       1 + r.IntN(800),
		StartDate:   fmt.Sprintf("%d-%02d-%02d", 1980+r.IntN(45), 1+r.IntN(12), 1+r.IntN(28)),
		Address:     record.Address{Street: fmt.Sprintf("%d Main Street", 1+r.IntN(999)), City: "Springfield", Zip: fmt.Sprintf("%05d", r.IntN(100000)), Country: co.code},
		Phones:      []string{co.phone},
		Description: text(20 + r.IntN(15)),
		SiteText:    text(70 + r.IntN(40)),
		Keywords:    map[string]float64{words[r.IntN(30)]: 0.9, words[r.IntN(30)]: 0.7, words[r.IntN(30)]: 0.5},
		IndustryGroups: map[string]float64{
			record.Industries[ind]: 0.9, record.Industries[(ind+1+r.IntN(52))%len(record.Industries)]: 0.4,
		},
		Employees:      record.EmployeeBuckets[r.IntN(len(record.EmployeeBuckets))],
		UpdateDate:     "2026-07-13",
		MXProvider:     []string{"google.com", "outlook.com", "proofpoint.com"}[r.IntN(3)],
		RevenueRange:   record.RevenueBuckets[r.IntN(len(record.RevenueBuckets))],
		BusinessModels: []string{record.BusinessModels[r.IntN(len(record.BusinessModels))]},
		Languages:      []string{"en"},
		Subdomains:     []string{"www", "shop"},
		PublicEmails:   []string{"contact@" + dom},
		SocialURLs:     []string{"https://www.linkedin.com/company/" + strings.ToLower(name)},
	}
	if len(co.states) > 0 {
		c.Address.State = co.states[r.IntN(len(co.states))]
	}
	for range 4 + r.IntN(8) {
		c.Vendors = append(c.Vendors, synthVendors[r.IntN(len(synthVendors))])
	}
	if r.IntN(20) == 0 {
		end := "2024-01-31"
		c.Status, c.EndDate = record.Status{Status: "closed", Confidence: 0.8}, &end
	}
	return c
}

// writeJSONL writes companies [0, n) as JSON lines.
func (s *synthCorpus) writeJSONL(t testing.TB, w io.Writer, n int) {
	bw := bufio.NewWriterSize(w, 1<<20)
	enc := json.NewEncoder(bw)
	for i := range n {
		if err := enc.Encode(s.company(i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
}
