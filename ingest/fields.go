package ingest

import (
	"slices"
	"strings"
)

// field identifies a company field that an input column or JSON key fills.
type field uint8

const (
	fieldUnknown field = iota
	fieldDomain
	fieldName
	fieldStatus
	fieldStatusConfidence
	fieldScore
	fieldStartDate
	fieldEndDate
	fieldUpdateDate
	fieldAddress // JSON only: the nested address object
	fieldStreet
	fieldCity
	fieldState
	fieldZip
	fieldCountry
	fieldPhones
	fieldPublicEmails
	fieldSocialURLs
	fieldVendors
	fieldSubdomains
	fieldBusinessModels
	fieldLanguages
	fieldKeywords
	fieldIndustryGroups
	fieldDescription
	fieldSiteText
	fieldEmployees
	fieldRevenueRange
	fieldRedirectDomain
	fieldMXProvider
	fieldHTTPStatus // JSON object {status_code, status_reason, record_date}
	fieldStatusCode
	fieldStatusReason
	fieldRecordDate
	fieldRedirectSources
	fieldRedirectCount
	fieldGrowth
)

// fieldNames are the accepted names: the profile's JSON field names
// (record.Company's tags), plus the flat forms of the nested ones.
var fieldNames = map[string]field{
	"domain": fieldDomain, "name": fieldName, "status": fieldStatus, "status_confidence": fieldStatusConfidence,
	"score": fieldScore, "start_date": fieldStartDate, "end_date": fieldEndDate, "update_date": fieldUpdateDate,
	"address": fieldAddress, "street": fieldStreet, "city": fieldCity, "state": fieldState, "zip": fieldZip,
	"country": fieldCountry, "phones": fieldPhones, "public_emails": fieldPublicEmails, "social_urls": fieldSocialURLs,
	"vendors": fieldVendors, "subdomains": fieldSubdomains, "business_models": fieldBusinessModels,
	"languages": fieldLanguages, "keywords": fieldKeywords, "industry_groups": fieldIndustryGroups,
	"description": fieldDescription, "site_text": fieldSiteText, "employees": fieldEmployees,
	"revenue_range": fieldRevenueRange, "redirect_domain": fieldRedirectDomain, "mx_provider": fieldMXProvider,
	"http_status": fieldHTTPStatus, "status_code": fieldStatusCode, "status_reason": fieldStatusReason,
	"record_date": fieldRecordDate, "redirect_sources": fieldRedirectSources, "redirect_count": fieldRedirectCount,
	"growth": fieldGrowth,
}

// knownField is fieldNames[string(name)] without hashing the name: a
// switch on strings compares lengths first and then a few bytes, which
// costs a record's decoding less than the map. TestKnownField keeps the
// two in step.
func knownField(name []byte) (field, bool) {
	switch string(name) {
	case "domain":
		return fieldDomain, true
	case "name":
		return fieldName, true
	case "status":
		return fieldStatus, true
	case "status_confidence":
		return fieldStatusConfidence, true
	case "score":
		return fieldScore, true
	case "start_date":
		return fieldStartDate, true
	case "end_date":
		return fieldEndDate, true
	case "update_date":
		return fieldUpdateDate, true
	case "address":
		return fieldAddress, true
	case "street":
		return fieldStreet, true
	case "city":
		return fieldCity, true
	case "state":
		return fieldState, true
	case "zip":
		return fieldZip, true
	case "country":
		return fieldCountry, true
	case "phones":
		return fieldPhones, true
	case "public_emails":
		return fieldPublicEmails, true
	case "social_urls":
		return fieldSocialURLs, true
	case "vendors":
		return fieldVendors, true
	case "subdomains":
		return fieldSubdomains, true
	case "business_models":
		return fieldBusinessModels, true
	case "languages":
		return fieldLanguages, true
	case "keywords":
		return fieldKeywords, true
	case "industry_groups":
		return fieldIndustryGroups, true
	case "description":
		return fieldDescription, true
	case "site_text":
		return fieldSiteText, true
	case "employees":
		return fieldEmployees, true
	case "revenue_range":
		return fieldRevenueRange, true
	case "redirect_domain":
		return fieldRedirectDomain, true
	case "mx_provider":
		return fieldMXProvider, true
	case "http_status":
		return fieldHTTPStatus, true
	case "status_code":
		return fieldStatusCode, true
	case "status_reason":
		return fieldStatusReason, true
	case "record_date":
		return fieldRecordDate, true
	case "redirect_sources":
		return fieldRedirectSources, true
	case "redirect_count":
		return fieldRedirectCount, true
	case "growth":
		return fieldGrowth, true
	}
	return fieldUnknown, false
}

// fieldAliases are other names files commonly use for the same fields.
var fieldAliases = map[string]field{
	"website": fieldDomain, "url": fieldDomain, "company_domain": fieldDomain, "company_website": fieldDomain,
	"domain_name": fieldDomain, "company_name": fieldName, "status_status": fieldStatus,
	"postal_code": fieldZip, "zip_code": fieldZip, "postcode": fieldZip, "province": fieldState,
	"phone": fieldPhones, "email": fieldPublicEmails, "emails": fieldPublicEmails, "socials": fieldSocialURLs,
	"industry": fieldIndustryGroups, "industries": fieldIndustryGroups, "business_model": fieldBusinessModels,
	"language": fieldLanguages, "revenue": fieldRevenueRange, "http_status_code": fieldStatusCode,
	"http_status_reason": fieldStatusReason,
}

// addressFields may also be written "address.city" or "address_city".
var addressFields = map[string]field{
	"street": fieldStreet, "city": fieldCity, "state": fieldState, "zip": fieldZip, "country": fieldCountry,
	"postal_code": fieldZip, "zip_code": fieldZip, "postcode": fieldZip, "province": fieldState,
}

// lookupField resolves a column header or JSON key: case-insensitive, with
// surrounding space and a byte-order mark dropped, spaces, dashes and dots
// read as underscores, and an "address" prefix allowed. It returns the
// canonical name too, so duplicates can be reported under it.
func lookupField(name string) (field, string) {
	if f, ok := fieldNames[name]; ok { // the common, already canonical case: no allocation
		return f, name
	}
	canon := canonicalName(name)
	if f, ok := fieldNames[canon]; ok {
		return f, canon
	}
	if f, ok := fieldAliases[canon]; ok {
		return f, canonicalOf(f)
	}
	if rest, ok := strings.CutPrefix(canon, "address_"); ok {
		if f, ok := addressFields[rest]; ok {
			return f, canonicalOf(f)
		}
	}
	return fieldUnknown, canon
}

func canonicalName(s string) string {
	s = strings.TrimSpace(strings.TrimPrefix(s, "\ufeff"))
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		case c == ' ' || c == '-' || c == '.':
			c = '_'
		}
		b = append(b, c)
	}
	return string(b)
}

func canonicalOf(f field) string {
	for name, g := range fieldNames {
		if g == f {
			return name
		}
	}
	return ""
}

// acceptedNames lists the canonical names and aliases for messages.
func acceptedNames() string {
	var names []string
	for name, f := range fieldNames {
		if f != fieldAddress {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	var aliases []string
	for name := range fieldAliases {
		aliases = append(aliases, name)
	}
	slices.Sort(aliases)
	return strings.Join(names, ", ") + " (aliases: " + strings.Join(aliases, ", ") + "; address fields may be prefixed \"address.\")"
}
