package geo

import (
	"sort"
	"strings"
)

// Region definitions. Where a region follows a geographic grouping the
// library's region/subregion data supplies the members; political groupings
// are listed by membership as of 2026.
var fixedRegions = map[string][]string{
	"ANZ":     {"AU", "NZ"},
	"ASEAN":   {"BN", "KH", "ID", "LA", "MY", "MM", "PH", "SG", "TH", "VN"},
	"BENELUX": {"BE", "NL", "LU"},
	"DACH":    {"DE", "AT", "CH"},
	"GCC":     {"BH", "KW", "OM", "QA", "SA", "AE"},
	"EU": {"AT", "BE", "BG", "HR", "CY", "CZ", "DK", "EE", "FI", "FR", "DE", "GR", "HU", "IE", "IT", "LV", "LT", "LU",
		"MT", "NL", "PL", "PT", "RO", "SK", "SI", "ES", "SE"},
	// Central and Eastern Europe: the EU's eastern members, the Western
	// Balkans, and Ukraine, Moldova and Belarus.
	"CEE": {"AL", "BA", "BG", "BY", "CZ", "EE", "HR", "HU", "LT", "LV", "MD", "ME", "MK", "PL", "RO", "RS", "SI", "SK", "UA", "XK"},
	// The five Nordic states plus their autonomous territories.
	"NORDICS": {"DK", "FI", "IS", "NO", "SE", "FO", "GL", "AX"},
	// Middle East and North Africa (World Bank definition plus Türkiye).
	"MENA": {"DZ", "BH", "EG", "IR", "IQ", "IL", "JO", "KW", "LB", "LY", "MA", "OM", "PS", "QA", "SA", "SY", "TN", "TR", "AE", "YE", "EH", "DJ"},
}

// buildRegions derives the geographic regions from the library's data.
func buildRegions(d *data) map[string][]string {
	out := map[string][]string{}
	for k, v := range fixedRegions {
		out[k] = v
	}
	var emea, apac, latam []string
	for _, c := range d.countries {
		parts := strings.SplitN(d.subregion[c.Code], "|", 2)
		sub, region := parts[0], ""
		if len(parts) == 2 {
			region = parts[1]
		}
		switch {
		case region == "Europe" || region == "Africa":
			emea = append(emea, c.Code)
		case region == "Asia" && sub == "Western Asia":
			emea = append(emea, c.Code) // the Middle East
		case region == "Asia" || region == "Oceania":
			apac = append(apac, c.Code)
		case region == "Americas" && sub != "Northern America":
			latam = append(latam, c.Code)
		}
	}
	// Iran is in Southern Asia in the library's data but in the Middle East
	// for sales territories.
	emea = append(emea, "IR")
	apac = remove(apac, "IR")
	out["EMEA"], out["APAC"], out["LATAM"] = emea, apac, latam
	for k, v := range out {
		out[k] = uniqueSorted(keepKnown(d, v))
	}
	return out
}

func keepKnown(d *data, codes []string) []string {
	var out []string
	for _, c := range codes {
		if _, ok := d.byKey[strings.ToLower(c)]; ok {
			out = append(out, c)
		}
	}
	return out
}

func remove(list []string, s string) []string {
	out := list[:0]
	for _, v := range list {
		if v != s {
			out = append(out, v)
		}
	}
	return out
}

func uniqueSorted(list []string) []string {
	sort.Strings(list)
	out := list[:0]
	for i, v := range list {
		if i == 0 || v != list[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// Region returns the member countries of a region code (case-insensitive).
func Region(code string) ([]string, bool) {
	m, ok := load().regions[strings.ToUpper(strings.TrimSpace(code))]
	return append([]string(nil), m...), ok
}

// Regions returns the region codes, sorted.
func Regions() []string {
	r := load().regions
	out := make([]string, 0, len(r))
	for k := range r {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
