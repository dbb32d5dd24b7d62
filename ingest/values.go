package ingest

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/openprospect/prospectd/record"
)

// splitList splits a cell holding several values separated by ";" or "|".
// Commas do not separate: they occur inside values ("Acme, Inc.") and are
// the usual CSV delimiter.
func splitList(s string) []string {
	var out []string
	for len(s) > 0 {
		i := strings.IndexAny(s, ";|")
		part := s
		if i >= 0 {
			part, s = s[:i], s[i+1:]
		} else {
			s = ""
		}
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

// scoresFromList turns a list of labels, strongest first, into label ->
// score: 1 for the first, 0.1 less for each next one, at least 0.1. A
// list without scores still ranks, so "SAAS;SOFTWARE" keeps SAAS first.
func scoresFromList(list []string) map[string]float64 {
	if len(list) == 0 {
		return nil
	}
	m := make(map[string]float64, len(list))
	for i, k := range list {
		if _, dup := m[k]; !dup {
			m[k] = max(1-0.1*float64(i), 0.1)
		}
	}
	return m
}

// parseScore reads an integer score; "300.0" is 300, "1.5" is refused.
// The range is checked by Normalize.
func parseScore(dst *int, s string) error {
	if f, err := strconv.ParseFloat(strings.TrimSpace(s), 64); (err == nil || isRangeErr(err)) && (f < -1e9 || f > 1e9) {
		return fmt.Errorf("score: %s is outside 0-800", s)
	}
	return parseInt("score", dst, s)
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// setCell sets field f of c from the text of a CSV or Excel cell. List
// fields take a JSON array or values separated by ";" or "|"; keywords and
// industry_groups also take a JSON object of label -> score.
func setCell(c *record.Company, f field, v string) error {
	switch f {
	case fieldDomain:
		c.Domain = v
	case fieldName:
		c.Name = v
	case fieldStatus:
		if strings.HasPrefix(v, "{") {
			return decodeCell("status", v, func(d *jsonDecoder) error { return d.status(c) })
		}
		c.Status.Status = v
	case fieldStatusConfidence:
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return fmt.Errorf("status_confidence: %q is not a number", v)
		}
		c.Status.Confidence = f
	case fieldScore:
		return parseScore(&c.Score, v)
	case fieldStartDate:
		c.StartDate = v
	case fieldEndDate:
		c.EndDate = &v
	case fieldUpdateDate:
		c.UpdateDate = v
	case fieldStreet:
		c.Address.Street = v
	case fieldCity:
		c.Address.City = v
	case fieldState:
		c.Address.State = v
	case fieldZip:
		c.Address.Zip = v
	case fieldCountry:
		c.Address.Country = v
	case fieldPhones:
		return cellList(v, "phones", &c.Phones)
	case fieldPublicEmails:
		return cellList(v, "public_emails", &c.PublicEmails)
	case fieldSocialURLs:
		return cellList(v, "social_urls", &c.SocialURLs)
	case fieldVendors:
		return cellList(v, "vendors", &c.Vendors)
	case fieldSubdomains:
		return cellList(v, "subdomains", &c.Subdomains)
	case fieldBusinessModels:
		return cellList(v, "business_models", &c.BusinessModels)
	case fieldLanguages:
		return cellList(v, "languages", &c.Languages)
	case fieldKeywords:
		return cellScores(v, "keywords", &c.Keywords)
	case fieldIndustryGroups:
		return cellScores(v, "industry_groups", &c.IndustryGroups)
	case fieldDescription:
		c.Description = v
	case fieldSiteText:
		c.SiteText = v
	case fieldEmployees:
		c.Employees = v
	case fieldRevenueRange:
		c.RevenueRange = v
	case fieldRedirectDomain:
		c.RedirectDomain = &v
	case fieldMXProvider:
		c.MXProvider = v
	case fieldHTTPStatus:
		return decodeCell("http_status", v, func(d *jsonDecoder) error { return d.httpStatus(c) })
	case fieldStatusCode:
		return parseInt("status_code", &c.HTTPStatusOrNew().Code, v)
	case fieldStatusReason:
		c.HTTPStatusOrNew().Reason = v
	case fieldRecordDate:
		c.HTTPStatusOrNew().RecordDate = v
	case fieldRedirectSources:
		return cellList(v, "redirect_sources", &c.RedirectSources)
	case fieldRedirectCount:
		return parseInt("redirect_count", &c.RedirectCount, v)
	case fieldGrowth:
		return decodeCell("growth", v, func(d *jsonDecoder) error { return d.growth(c) })
	}
	return nil
}

// parseInt reads a whole number; "3.0" is 3, "1.5" is refused.
func parseInt(name string, dst *int, s string) error {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	switch {
	case err != nil && !isRangeErr(err):
		return fmt.Errorf("%s: %q is not a number", name, s)
	case f < -1e9 || f > 1e9:
		return fmt.Errorf("%s: %s is out of range", name, s)
	case f != float64(int(f)):
		return fmt.Errorf("%s: %s is not an integer", name, s)
	}
	*dst = int(f)
	return nil
}

func parseInts(name string, dst *[]int, list []string) error {
	if len(list) == 0 {
		*dst = nil
		return nil
	}
	out := make([]int, len(list))
	for i, s := range list {
		if err := parseInt(fmt.Sprintf("%s[%d]", name, i), &out[i], s); err != nil {
			return err
		}
	}
	*dst = out
	return nil
}

func cellList(v, name string, dst *[]string) error {
	if strings.HasPrefix(v, "[") {
		return decodeCell(name, v, func(d *jsonDecoder) error { return d.list(name, dst) })
	}
	*dst = splitList(v)
	return nil
}

func cellScores(v, name string, dst *map[string]float64) error {
	if strings.HasPrefix(v, "{") || strings.HasPrefix(v, "[") {
		return decodeCell(name, v, func(d *jsonDecoder) error { return d.scores(name, dst) })
	}
	*dst = scoresFromList(splitList(v))
	return nil
}

// decodeCell decodes a cell holding one JSON value of field name.
func decodeCell(name, v string, decode func(*jsonDecoder) error) error {
	d := jsonDecoder{b: []byte(v)}
	err := decode(&d)
	if err == nil {
		if d.ws(); d.i < len(d.b) {
			err = d.syntax("unexpected data after the value")
		}
	}
	var se *jsonSyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("%s: %w", name, err)
	}
	return err
}
