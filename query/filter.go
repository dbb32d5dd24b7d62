package query

import (
	"slices"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/record"
)

// Applied is the set of filters and inputs a discovery actually used, after
// region expansion, defaults and prompt extraction. It is returned as the
// X-Applied-Filters header, so a user can see what a prompt turned into.
type Applied struct {
	Domain                []string `json:"domain,omitempty"`
	DomainNotFound        []string `json:"domain_not_found,omitempty"`
	SuggestedDomain       []string `json:"suggested_domain,omitempty"`
	NegateDomain          []string `json:"negate_domain,omitempty"`
	ICPText               string   `json:"icp_text,omitempty"`
	NegateICPText         string   `json:"negate_icp_text,omitempty"`
	PhraseMatch           []string `json:"phrase_match,omitempty"`
	NegatePhraseMatch     []string `json:"negate_phrase_match,omitempty"`
	Country               []string `json:"country,omitempty"`
	NegateCountry         []string `json:"negate_country,omitempty"`
	State                 []string `json:"state,omitempty"`
	NegateState           []string `json:"negate_state,omitempty"`
	MinDigitalFootprint   int      `json:"min_digital_footprint"`
	MaxDigitalFootprint   int      `json:"max_digital_footprint"`
	FootprintFloorCapped  *int     `json:"min_digital_footprint_requested,omitempty"`
	StartDate             string   `json:"start_date,omitempty"`
	Category              []string `json:"category,omitempty"`
	NegateCategory        []string `json:"negate_category,omitempty"`
	EmployeeRange         []string `json:"employee_range,omitempty"`
	RevenueRange          []string `json:"revenue_range,omitempty"`
	RevenueIncludeUnknown bool     `json:"revenue_include_unknown,omitempty"`
	BusinessModel         []string `json:"business_model,omitempty"`
	NegateBusinessModel   []string `json:"negate_business_model,omitempty"`
	Social                []string `json:"social,omitempty"`
	NegateSocial          []string `json:"negate_social,omitempty"`
	Language              []string `json:"language,omitempty"`
	NegateLanguage        []string `json:"negate_language,omitempty"`
	Redirect              bool     `json:"redirect"`
	ExcludeLeadgen        bool     `json:"exclude_leadgen"`
	TechStack             []string `json:"tech_stack,omitempty"`
	NegateTechStack       []string `json:"negate_tech_stack,omitempty"`
	Subdomain             []string `json:"subdomain,omitempty"`
	NegateSubdomain       []string `json:"negate_subdomain,omitempty"`
	ExcludeDomain         []string `json:"exclude_domain,omitempty"`
	Status                string   `json:"status"`
	MinSimilarity         int      `json:"min_similarity,omitempty"`
	Consensus             int      `json:"consensus,omitempty"`
	Variance              string   `json:"variance,omitempty"`
	Notes                 []string `json:"notes,omitempty"`
	// FootprintUnknown: companies without a digital-footprint score pass
	// the footprint range (min_digital_footprint was not given).
	FootprintUnknown bool `json:"digital_footprint_include_unknown,omitempty"`
}

// companyFilter builds the engine filter of d and records it in a. floor
// is the effective digital-footprint floor (see scoreFloor); excluded are
// domains kept out of the results (exclude_domain and, unless
// include_search_domains, the example domains).
func companyFilter(d *Discover, floor int, excluded []string, a *Applied) index.Filter {
	f := index.And{index.Terms{Field: index.StatusField, Values: []string{record.StatusActive}}}
	a.Status = record.StatusActive
	terms := func(field index.Field, vals []string, dst *[]string) {
		if len(vals) > 0 {
			f = append(f, index.Terms{Field: field, Values: vals})
			*dst = vals
		}
	}
	notTerms := func(field index.Field, vals []string, dst *[]string) {
		if len(vals) > 0 {
			f = append(f, index.Not{Filter: index.Terms{Field: field, Values: vals}})
			*dst = vals
		}
	}
	terms(index.CountryField, d.Countries, &a.Country)
	notTerms(index.CountryField, d.NegateCountries, &a.NegateCountry)
	terms(index.StateField, d.States, &a.State)
	notTerms(index.StateField, d.NegateStates, &a.NegateState)

	a.MinDigitalFootprint, a.MaxDigitalFootprint = floor, d.MaxScore
	if floor > 0 || d.MaxScore < MaxScore {
		var sf index.Filter = index.Range{Field: index.ScoreField, Min: index.IntPtr(floor), Max: index.IntPtr(d.MaxScore)}
		// An unknown score is not a low one: only a floor the caller set
		// (min_digital_footprint above 0) keeps unknown scores out; the
		// default floor and a ceiling alone do not. An explicit floor of 0
		// includes them through the range (unknown is stored as 0).
		if !d.minScoreGiven && floor > 0 {
			sf = index.Or{sf, index.Not{Filter: index.Exists{Field: index.ScoreField}}}
			a.FootprintUnknown = true
		}
		f = append(f, sf)
	}
	if d.StartFrom != "" || d.StartTo != "" {
		f = append(f, index.DateRange{Field: index.StartDateField, From: d.StartFrom, To: d.StartTo})
		a.StartDate = d.StartFrom + "," + d.StartTo
		if d.StartTo == "" {
			a.StartDate = d.StartFrom
		}
	}
	terms(index.IndustryField, d.Categories, &a.Category)
	notTerms(index.IndustryField, d.NegateCategories, &a.NegateCategory)

	if d.Employees != nil {
		buckets := overlapping(record.EmployeeBuckets, d.Employees, func(b string) (int64, int64) {
			lo, hi, _ := record.EmployeeBucketRange(b)
			return int64(lo), int64(hi)
		})
		f = append(f, index.Terms{Field: index.EmployeesField, Values: buckets})
		a.EmployeeRange = nonNil(buckets)
	}
	if d.Revenue != nil {
		buckets := overlapping(record.RevenueBuckets, d.Revenue, func(b string) (int64, int64) {
			lo, hi, _ := record.RevenueBucketRange(b)
			return lo, hi
		})
		var rf index.Filter = index.Terms{Field: index.RevenueField, Values: buckets}
		// Unknown revenue is most often a small company's: it stays in when
		// the range reaches below 1M.
		if slices.Contains(buckets, record.RevenueBuckets[0]) {
			rf = index.Or{rf, index.Not{Filter: index.Exists{Field: index.RevenueField}}}
			a.RevenueIncludeUnknown = true
		}
		f = append(f, rf)
		a.RevenueRange = nonNil(buckets)
	}
	terms(index.BusinessModelField, d.BusinessModels, &a.BusinessModel)
	notTerms(index.BusinessModelField, d.NegateBusinessModels, &a.NegateBusinessModel)
	terms(index.SocialField, socialTerms(d.Social), &a.Social)
	notTerms(index.SocialField, socialTerms(d.NegateSocial), &a.NegateSocial)
	terms(index.LanguageField, d.Languages, &a.Language)
	notTerms(index.LanguageField, d.NegateLanguages, &a.NegateLanguage)
	if !d.Redirect {
		f = append(f, index.Not{Filter: index.Exists{Field: index.RedirectField}})
	}
	a.Redirect = d.Redirect
	if d.ExcludeLeadgen {
		f = append(f, index.Not{Filter: LeadGen()})
	}
	a.ExcludeLeadgen = d.ExcludeLeadgen
	terms(index.VendorField, d.TechStack, &a.TechStack)
	notTerms(index.VendorField, d.NegateTechStack, &a.NegateTechStack)
	terms(index.SubdomainField, d.Subdomains, &a.Subdomain)
	notTerms(index.SubdomainField, d.NegateSubdomains, &a.NegateSubdomain)
	if len(d.Phrases) > 0 {
		f = append(f, phrases(d.Phrases))
		a.PhraseMatch = d.Phrases
	}
	if len(d.NegatePhrases) > 0 {
		f = append(f, index.Not{Filter: phrases(d.NegatePhrases)})
		a.NegatePhraseMatch = d.NegatePhrases
	}
	if d.inclusion != nil {
		f = append(f, index.Terms{Field: index.DomainField, Values: d.inclusion})
	}
	if len(excluded) > 0 {
		f = append(f, index.Not{Filter: index.Terms{Field: index.DomainField, Values: excluded}})
	}
	a.ExcludeDomain = d.ExcludeDomains
	return f
}

// Filter is the engine filter of a parsed request as discovery sends it
// with its query vector, before the lookups that need an engine (the
// start_date cap of the score floor, saved queries, prompt extraction).
func Filter(d Discover) index.Filter {
	var a Applied
	return companyFilter(&d, d.MinScore, excludedDomains(&d), &a)
}

// excludedDomains are kept out of the results: exclude_domain and, unless
// include_search_domains, the example domains.
func excludedDomains(d *Discover) []string {
	out := slices.Clone(d.ExcludeDomains)
	if !d.IncludeSearchDomains {
		for _, dm := range d.Domains {
			out = appendNew(out, dm)
		}
	}
	return out
}

// LeadGen matches suspected lead-generation sites: a low digital footprint
// and no phone, public email or social profile (record.Company.LeadGen).
func LeadGen() index.Filter {
	return index.And{
		index.Exists{Field: index.ScoreField}, // an unknown score is not a low one
		index.Range{Field: index.ScoreField, Max: index.IntPtr(record.LeadGenMaxScore - 1)},
		index.Not{Filter: index.Exists{Field: index.PhoneField}},
		index.Not{Filter: index.Exists{Field: index.EmailField}},
		index.Not{Filter: index.Exists{Field: index.SocialURLField}},
	}
}

// phrases matches a company whose site text or description contains any
// of the phrases.
func phrases(list []string) index.Filter {
	or := make(index.Or, len(list))
	for i, p := range list {
		or[i] = index.Phrase{Field: index.TextField, Text: p}
	}
	return or
}

// socialTerms maps the spec's network names to indexed ones: twitter and
// x are the same network under two hosts.
func socialTerms(in []string) []string {
	var out []string
	for _, s := range in {
		if s == "twitter" || s == "x" {
			for _, t := range []string{"twitter", "x"} {
				if !slices.Contains(out, t) {
					out = append(out, t)
				}
			}
			continue
		}
		out = append(out, s)
	}
	return out
}

// overlapping returns the buckets whose bounds intersect r.
func overlapping(buckets []string, r *IntRange, bounds func(string) (int64, int64)) []string {
	var out []string
	for _, b := range buckets {
		lo, hi := bounds(b)
		if (r.Max == nil || lo <= *r.Max) && (r.Min == nil || hi >= *r.Min) {
			out = append(out, b)
		}
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
