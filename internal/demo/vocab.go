package demo

import (
	"strconv"
	"strings"

	"github.com/openprospect/prospectd/record"
)

// The vocabulary is what makes lookalike search testable on the demo
// corpus: each industry has words all its companies share, and sub-niches
// with distinctive words (products, services, customer types) of their
// own. Texts draw most of their content words from the niche, many from
// the industry and a few from a generic business pool, so companies of a
// niche are textually closer than companies of an industry, which are
// closer than unrelated ones.

// archetype groups industries that look alike on the web: what their
// sites ask visitors to do, their tech stack, their social presence.
type archetype uint8

const (
	archSoftware archetype = iota
	archServices
	archIndustrial
	archFinance
	archConsumer
	archCommerce
	archHealth
	archPublic
	archMedia
	numArchetypes
)

// industrySpec is an industry as written in the vocabulary files. Lists
// are comma-separated.
type industrySpec struct {
	label   string
	weight  int       // relative number of companies
	arch    archetype // web presence family
	size    int       // -1: mostly small firms, +1: large ones
	kinds   string    // what a company of the industry calls itself
	names   string    // name words, also used in domains ("Dental")
	models  string    // business models with weights: "B2B:8 B2C:2"
	related string    // industries for the second label, space-separated
	vendors string    // tech vendors typical of the industry, space-separated
	terms   string    // vocabulary shared by the industry's niches
	niches  []nicheSpec
}

type nicheSpec struct {
	name      string // human name, also the Label's Niche
	customers string // customer types
	terms     string // distinctive noun phrases
}

type industry struct {
	label     string
	weight    int
	arch      archetype
	size      int
	kinds     []string
	nameWords []string
	models    []string
	modelPick weighted
	related   []string
	vendors   []string
	terms     []string
	termsLow  []string
	niches    []niche
}

type niche struct {
	name      string
	customers []string
	terms     []string
	termsLow  []string // lower-case, for keywords
}

// allIndustrySpecs lists every industry in record.Industries order.
func allIndustrySpecs() []industrySpec {
	var out []industrySpec
	for _, part := range [][]industrySpec{techIndustries, financeIndustries, industrialIndustries, consumerIndustries, serviceIndustries} {
		out = append(out, part...)
	}
	return out
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func lowerAll(s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = strings.ToLower(x)
	}
	return out
}

// buildIndustries parses the specs in record.Industries order. A spec
// error is a programming error in this package, so it panics (the tests
// build the tables).
func buildIndustries() []*industry {
	specs := map[string]industrySpec{}
	for _, s := range allIndustrySpecs() {
		if _, dup := specs[s.label]; dup || !record.IsIndustry(s.label) {
			panic("demo: bad or duplicate industry spec " + s.label)
		}
		specs[s.label] = s
	}
	var out []*industry
	for _, label := range record.Industries {
		s, ok := specs[label]
		if !ok {
			panic("demo: no vocabulary for industry " + label)
		}
		ind := &industry{label: label, weight: s.weight, arch: s.arch, size: s.size, kinds: splitList(s.kinds),
			nameWords: splitList(s.names), related: strings.Fields(s.related), vendors: strings.Fields(s.vendors),
			terms: splitList(s.terms)}
		ind.termsLow = lowerAll(ind.terms)
		var mw []int
		for _, f := range strings.Fields(s.models) {
			name, w, _ := strings.Cut(f, ":")
			n, err := strconv.Atoi(w)
			if err != nil || !record.IsBusinessModel(name) {
				panic("demo: bad business model " + f + " in " + label)
			}
			ind.models = append(ind.models, name)
			mw = append(mw, n)
		}
		ind.modelPick = newWeighted(mw)
		for _, r := range ind.related {
			if !record.IsIndustry(r) || r == label {
				panic("demo: bad related industry " + r + " in " + label)
			}
		}
		for _, ns := range s.niches {
			n := niche{name: ns.name, customers: splitList(ns.customers), terms: splitList(ns.terms)}
			n.termsLow = lowerAll(n.terms)
			ind.niches = append(ind.niches, n)
		}
		out = append(out, ind)
	}
	return out
}
