package query

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/openprospect/prospectd/index/textfold"
	"github.com/openprospect/prospectd/record"
)

// Match reasons (enhanced=true): why a discovery hit matched, each a short
// "kind: detail" string, in this order:
//
//   - "nearest example: <domain> (similarity N)": for lookalikes seeded by
//     domains (given, or suggested from the prompt), the example whose
//     vector is closest to the hit's;
//   - "industry: <label>": industries the hit shares with the examples and
//     the category filter;
//   - "keyword: <keyword>": the hit's keywords that are words of the ICP
//     text or keywords of the examples (at most maxKeywordReasons);
//   - "phrase: <phrase>": the phrase_match phrases its text holds;
//   - "filter <param>: <value>": each positive filter the caller set, with
//     the hit's value that satisfies it.
//
// Nothing of this is computed unless enhanced=true: the default path does
// not ask the engine for hit vectors and builds no explainer.

const maxKeywordReasons = 8

// seed is a lookalike example: its domain and stored vector.
type seed struct {
	domain string
	vec    []float32
}

// explainer holds what the reasons of one request's hits are made of.
type explainer struct {
	seeds      []seed
	terms      []string
	industries []string
	phrases    []string
	d          *Discover
	applied    *Applied
}

// needVectors: hit vectors are asked of the engine only to name the
// nearest example.
func (e *explainer) needVectors() bool { return e != nil && len(e.seeds) > 0 }

// reasons explains one hit; vec is its vector (nil when the engine did not
// return it).
func (e *explainer) reasons(c record.Company, vec []float32) []string {
	var out []string
	if s, sim, ok := e.nearest(vec); ok {
		out = append(out, fmt.Sprintf("nearest example: %s (similarity %.2f)", s, Similarity(sim)))
	}
	for _, ind := range c.Industries() {
		if slices.Contains(e.industries, ind) {
			out = append(out, "industry: "+ind)
		}
	}
	out = append(out, keywordReasons(c, e.terms)...)
	if len(e.phrases) > 0 {
		desc, site := textfold.Words(c.Description), textfold.Words(c.SiteText)
		for _, p := range e.phrases {
			if f := textfold.Words(p); textfold.ContainsPhrase(desc, f) || textfold.ContainsPhrase(site, f) {
				out = append(out, "phrase: "+p)
			}
		}
	}
	if e.d != nil {
		out = append(out, filterReasons(c, e.d, e.applied)...)
	}
	return nonNil(out)
}

// nearest returns the seed closest to vec.
func (e *explainer) nearest(vec []float32) (string, float64, bool) {
	if len(vec) == 0 || len(e.seeds) == 0 {
		return "", 0, false
	}
	best, bestSim := "", math.Inf(-1)
	for _, s := range e.seeds {
		if len(s.vec) != len(vec) {
			continue
		}
		var dot float64
		for i, x := range vec {
			dot += float64(x) * float64(s.vec[i])
		}
		if dot > bestSim {
			best, bestSim = s.domain, dot
		}
	}
	return best, bestSim, best != ""
}

// keywordReasons: the company's keywords, strongest first, that are query
// terms or contain one as a whole word.
func keywordReasons(c record.Company, terms []string) []string {
	var out []string
	if len(terms) == 0 {
		return nil
	}
	for _, k := range topKeys(c.Keywords, len(c.Keywords)) {
		lk := strings.ToLower(k)
		for _, t := range terms {
			if lk == t || strings.Contains(" "+lk+" ", " "+t+" ") {
				out = append(out, "keyword: "+k)
				break
			}
		}
		if len(out) == maxKeywordReasons {
			break
		}
	}
	return out
}

// filterReasons names each positive filter the request applied with the
// company's value that satisfies it. Negations and defaults (status,
// lead-gen, the score floor) hold for every hit and say nothing about this
// one, so they are left out.
func filterReasons(c record.Company, d *Discover, a *Applied) []string {
	var out []string
	add := func(param, value string) { out = append(out, "filter "+param+": "+value) }
	if slices.Contains(d.Countries, c.Address.Country) {
		add("country", c.Address.Country)
	}
	if slices.Contains(d.States, c.Address.State) {
		add("state", c.Address.State)
	}
	for _, ind := range c.Industries() {
		if slices.Contains(d.Categories, ind) {
			add("category", ind)
		}
	}
	if a != nil && len(a.EmployeeRange) > 0 && slices.Contains(a.EmployeeRange, c.Employees) {
		add("employee_range", c.Employees)
	}
	if a != nil && len(a.RevenueRange) > 0 {
		switch {
		case slices.Contains(a.RevenueRange, c.RevenueRange):
			add("revenue_range", c.RevenueRange)
		case c.RevenueRange == "" && a.RevenueIncludeUnknown:
			add("revenue_range", "unknown (kept with the lowest bucket)")
		}
	}
	for _, m := range c.BusinessModels {
		if slices.Contains(d.BusinessModels, m) {
			add("business_model", m)
		}
	}
	if len(d.Social) > 0 {
		for _, n := range c.SocialNetworks() {
			if slices.Contains(socialTerms(d.Social), n) {
				add("social", n)
			}
		}
	}
	for _, l := range c.Languages {
		if slices.Contains(d.Languages, l) {
			add("language", l)
		}
	}
	for _, v := range c.Vendors {
		if slices.Contains(d.TechStack, v) {
			add("tech_stack", v)
		}
	}
	for _, s := range c.Subdomains {
		if slices.Contains(d.Subdomains, s) {
			add("subdomain", s)
		}
	}
	if (d.StartFrom != "" || d.StartTo != "") && c.StartDate != "" {
		add("start_date", c.StartDate)
	}
	return out
}
