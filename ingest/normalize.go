package ingest

import (
	"fmt"
	"net/mail"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/nyaruka/phonenumbers"

	"github.com/openprospect/prospectd/record"
	"github.com/openprospect/prospectd/record/domain"
	"github.com/openprospect/prospectd/record/geo"
)

// Normalize validates c and rewrites it into canonical form. Values that
// identify or classify the company (domain, country, state, industry, size,
// dates, score) must be valid or the row is refused with the reason; contact
// details that fail validation (a phone, an e-mail, a vendor domain) are
// dropped, since one bad phone should not lose a company.
func Normalize(c *record.Company) error {
	d, err := domain.Normalize(c.Domain)
	if err != nil {
		return fmt.Errorf("domain: %w", err)
	}
	c.Domain = d
	c.Name = strings.TrimSpace(c.Name)
	if c.Name == "" {
		c.Name = d
	}

	switch s := strings.ToLower(strings.TrimSpace(c.Status.Status)); s {
	case "":
		c.Status.Status = record.StatusActive
	case record.StatusActive, record.StatusClosed:
		c.Status.Status = s
	default:
		return fmt.Errorf("status: %q is not active or closed", c.Status.Status)
	}
	if c.Status.Confidence == 0 {
		c.Status.Confidence = 1
	}
	if c.Status.Confidence < 0 || c.Status.Confidence > 1 {
		return fmt.Errorf("status confidence: %v is outside 0-1", c.Status.Confidence)
	}
	if c.Score < 0 || c.Score > 800 {
		return fmt.Errorf("score: %d is outside 0-800", c.Score)
	}
	for _, f := range []struct {
		name string
		v    *string
	}{{"start_date", &c.StartDate}, {"update_date", &c.UpdateDate}, {"end_date", c.EndDate}} {
		if f.v == nil {
			continue
		}
		day, err := normalizeDate(*f.v)
		if err != nil {
			return fmt.Errorf("%s: %v", f.name, err)
		}
		*f.v = day
	}
	if c.EndDate != nil && *c.EndDate == "" {
		c.EndDate = nil
	}

	if err := normalizeAddress(&c.Address); err != nil {
		return err
	}
	c.Phones = normalizePhones(c.Phones, c.Address.Country)
	c.PublicEmails = normalizeEmails(c.PublicEmails)
	c.SocialURLs = uniq(c.SocialURLs, func(s string) string {
		if strings.Contains(s, ".") && !strings.ContainsAny(s, " \t") {
			return s
		}
		return ""
	})
	if err := normalizeIndustries(c); err != nil {
		return err
	}
	if c.Employees, err = normalizeEmployees(c.Employees); err != nil {
		return err
	}
	if c.RevenueRange, err = normalizeRevenue(c.RevenueRange); err != nil {
		return err
	}
	c.BusinessModels = uniq(c.BusinessModels, func(s string) string {
		s = strings.ToUpper(s)
		if record.IsBusinessModel(s) {
			return s
		}
		return ""
	})
	c.Languages = uniq(c.Languages, func(s string) string {
		s = strings.ToLower(s)
		if len(s) == 2 && s[0] >= 'a' && s[0] <= 'z' && s[1] >= 'a' && s[1] <= 'z' {
			return s
		}
		return ""
	})
	c.Vendors = uniq(c.Vendors, func(s string) string { v, _ := domain.Normalize(s); return v })
	c.Subdomains = uniq(c.Subdomains, func(s string) string { return strings.ToLower(strings.TrimSuffix(s, "."+d)) })
	if c.RedirectDomain != nil {
		r, err := domain.Normalize(*c.RedirectDomain)
		if *c.RedirectDomain == "" || err != nil || r == d {
			c.RedirectDomain = nil
		} else {
			c.RedirectDomain = &r
		}
	}
	if mx := strings.TrimSpace(c.MXProvider); mx != "" {
		if v, err := domain.Normalize(mx); err == nil {
			c.MXProvider = v
		} else {
			c.MXProvider = strings.ToLower(mx)
		}
	}
	for k, v := range c.Keywords {
		if strings.TrimSpace(k) == "" {
			delete(c.Keywords, k)
		} else if k != strings.ToLower(strings.TrimSpace(k)) {
			delete(c.Keywords, k)
			c.Keywords[strings.ToLower(strings.TrimSpace(k))] = v
		}
	}
	return nil
}

func normalizeDate(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", nil
	}
	if len(s) > 10 {
		if t, err := time.Parse(time.RFC3339, s); err == nil {
			return t.UTC().Format(time.DateOnly), nil
		}
		if len(s) > 10 && (s[10] == 'T' || s[10] == ' ') {
			s = s[:10]
		}
	}
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return "", fmt.Errorf("%q is not a YYYY-MM-DD date", s)
	}
	return t.Format(time.DateOnly), nil
}

func normalizeAddress(a *record.Address) error {
	a.Street, a.City, a.Zip = strings.TrimSpace(a.Street), strings.TrimSpace(a.City), strings.TrimSpace(a.Zip)
	if a.Country != "" {
		c, ok := geo.LookupCountry(a.Country)
		if !ok {
			return fmt.Errorf("country: %q is not an ISO-3166-1 code or country name", a.Country)
		}
		a.Country = c.Code
	}
	if a.State != "" {
		if a.Country == "" {
			return fmt.Errorf("state: %q needs a country", a.State)
		}
		sd, ok := geo.LookupSubdivision(a.Country, a.State)
		if !ok {
			return fmt.Errorf("state: %q is not a subdivision of %s", a.State, a.Country)
		}
		a.State = sd.Code
	}
	return nil
}

func normalizePhones(in []string, country string) []string {
	region := country
	if region == "" {
		region = "US"
	}
	return uniq(in, func(p string) string {
		n, err := phonenumbers.Parse(p, region)
		if err != nil || !phonenumbers.IsValidNumber(n) {
			return ""
		}
		return phonenumbers.Format(n, phonenumbers.E164)
	})
}

func normalizeEmails(in []string) []string {
	return uniq(in, func(e string) string {
		a, err := mail.ParseAddress(e)
		if err != nil || !strings.Contains(a.Address, "@") {
			return ""
		}
		at := strings.LastIndexByte(a.Address, '@')
		d, err := domain.Host(a.Address[at+1:])
		if err != nil {
			return ""
		}
		return strings.ToLower(a.Address[:at]) + "@" + d
	})
}

// normalizeIndustries canonicalizes labels ("financial services" ->
// FINANCIAL_SERVICES), refuses unknown ones, and keeps the top two.
func normalizeIndustries(c *record.Company) error {
	if len(c.IndustryGroups) == 0 {
		return nil
	}
	out := map[string]float64{}
	for k, v := range c.IndustryGroups {
		label := strings.ToUpper(strings.NewReplacer(" ", "_", "-", "_", "&", "_").Replace(strings.TrimSpace(k)))
		if !record.IsIndustry(label) {
			return fmt.Errorf("industry_groups: %q is not one of the %d industry labels (e.g. SAAS, SOFTWARE, FINANCIAL_SERVICES)", k, len(record.Industries))
		}
		out[label] = max(out[label], v)
	}
	labels := make([]string, 0, len(out))
	for k := range out {
		labels = append(labels, k)
	}
	sort.Slice(labels, func(i, j int) bool {
		if out[labels[i]] != out[labels[j]] {
			return out[labels[i]] > out[labels[j]]
		}
		return labels[i] < labels[j]
	})
	for _, l := range labels[min(2, len(labels)):] {
		delete(out, l)
	}
	c.IndustryGroups = out
	return nil
}

func normalizeEmployees(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" || record.IsEmployeeBucket(s) {
		return s, nil
	}
	n, err := strconv.ParseFloat(strings.ReplaceAll(s, ",", ""), 64)
	if err != nil || n < 1 {
		return "", fmt.Errorf("employees: %q is neither a head count nor one of %s", s, strings.Join(record.EmployeeBuckets, ", "))
	}
	return record.EmployeeBucket(int(n)), nil
}

func normalizeRevenue(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" || record.IsRevenueBucket(s) {
		return s, nil
	}
	n, err := strconv.ParseFloat(strings.ReplaceAll(s, ",", ""), 64)
	if err != nil || n < 0 {
		return "", fmt.Errorf("revenue_range: %q is neither a USD amount nor one of %s", s, strings.Join(record.RevenueBuckets, ", "))
	}
	return record.RevenueBucket(int64(n)), nil
}

// uniq maps each value through norm, dropping empty results and duplicates.
func uniq(in []string, norm func(string) string) []string {
	if len(in) == 0 {
		return nil
	}
	out := in[:0:0]
	seen := make(map[string]bool, len(in))
	for _, v := range in {
		v = norm(strings.TrimSpace(v))
		if v != "" && !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}
