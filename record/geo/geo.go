// Package geo resolves countries (ISO 3166-1 alpha-2), their subdivisions
// (ISO 3166-2) and the spec's region codes. Country and subdivision data come
// from github.com/pariz/gountries, subdivisions completed from the iso-codes
// project's ISO 3166-2 list (isocodes_3166-2.json, see gen_isocodes.go);
// only the region groupings, which are our product's definitions, are
// written here.
package geo

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/pariz/gountries"
	"golang.org/x/text/unicode/norm"
)

// Sentinel errors.
var (
	ErrUnknownCountry     = errors.New("unknown country")
	ErrUnknownSubdivision = errors.New("unknown subdivision")
)

// Country is an ISO 3166-1 country.
type Country struct {
	Code string // alpha-2, upper case
	Name string
}

// Subdivision is an ISO 3166-2 subdivision; Code is the full code ("US-CA").
type Subdivision struct {
	Code, Name, Country string
}

type data struct {
	countries []Country
	byKey     map[string]Country // alpha-2, alpha-3, folded names
	subs      map[string][]Subdivision
	subByKey  map[string]map[string]Subdivision // country -> key -> subdivision
	regions   map[string][]string
	subregion map[string]string // alpha-2 -> library subregion
}

var (
	once sync.Once
	db   *data
)

func load() *data {
	once.Do(func() {
		q := gountries.New()
		d := &data{byKey: map[string]Country{}, subs: map[string][]Subdivision{}, subByKey: map[string]map[string]Subdivision{}, subregion: map[string]string{}}
		all := q.FindAllCountries()
		for _, c := range all {
			code := strings.ToUpper(c.Alpha2)
			if len(code) != 2 {
				continue
			}
			country := Country{Code: code, Name: c.Name.Common}
			d.countries = append(d.countries, country)
			d.subregion[code] = c.SubRegion + "|" + c.Region
			for _, k := range []string{c.Alpha2, c.Alpha3, c.Name.Common, c.Name.Official} {
				if k != "" {
					d.byKey[fold(k)] = country
				}
			}
			for _, n := range c.Name.Native {
				for _, k := range []string{n.Common, n.Official} {
					if _, taken := d.byKey[fold(k)]; k != "" && !taken {
						d.byKey[fold(k)] = country
					}
				}
			}
			keys := map[string]Subdivision{}
			for _, s := range c.SubDivisions() {
				sd := Subdivision{Code: code + "-" + strings.ToUpper(s.Code), Name: s.Name, Country: code}
				d.subs[code] = append(d.subs[code], sd)
				keys[fold(sd.Code)] = sd
				keys[fold(s.Code)] = sd
				for _, n := range append([]string{s.Name}, s.Names...) {
					if _, taken := keys[fold(n)]; n != "" && !taken {
						keys[fold(n)] = sd
					}
				}
			}
			if len(keys) > 0 {
				sort.Slice(d.subs[code], func(i, j int) bool { return d.subs[code][i].Code < d.subs[code][j].Code })
				d.subByKey[code] = keys
			}
		}
		addISOCodes(d)
		// Common names the library's data lacks.
		for k, v := range map[string]string{"usa": "US", "uk": "GB", "great britain": "GB", "england": "GB", "south korea": "KR", "russia": "RU", "uae": "AE"} {
			if c, ok := d.byKey[fold(v)]; ok {
				if _, taken := d.byKey[k]; !taken {
					d.byKey[k] = c
				}
			}
		}
		sort.Slice(d.countries, func(i, j int) bool { return d.countries[i].Code < d.countries[j].Code })
		d.regions = buildRegions(d)
		db = d
	})
	return db
}

// fold lower-cases s, strips diacritics and collapses separators so that
// "Baden-Württemberg" and "baden wurttemberg" meet.
func fold(s string) string {
	var b strings.Builder
	space := false
	for _, r := range norm.NFD.String(strings.TrimSpace(s)) {
		switch {
		case unicode.Is(unicode.Mn, r):
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(unicode.ToLower(r))
		default:
			space = true
		}
	}
	return b.String()
}

// Countries returns every country, sorted by code.
func Countries() []Country { return append([]Country(nil), load().countries...) }

// LookupCountry resolves an alpha-2 or alpha-3 code or a common, official or
// native name, ignoring case and accents.
func LookupCountry(s string) (Country, bool) {
	c, ok := load().byKey[fold(s)]
	return c, ok
}

// Subdivisions returns the subdivisions of a country, sorted by code.
func Subdivisions(country string) []Subdivision {
	return append([]Subdivision(nil), load().subs[strings.ToUpper(country)]...)
}

// LookupSubdivision resolves a subdivision of country by full code ("US-CA"),
// local code ("CA") or name, ignoring case and accents.
func LookupSubdivision(country, s string) (Subdivision, bool) {
	keys := load().subByKey[strings.ToUpper(country)]
	sd, ok := keys[fold(s)]
	return sd, ok
}

// SubdivisionCountries returns how many countries have subdivision data.
func SubdivisionCountries() int { return len(load().subByKey) }

// ExpandCountries resolves each value (alpha-2 code, region code or country
// name) and returns the unique alpha-2 codes, sorted.
func ExpandCountries(values []string) ([]string, error) {
	set := map[string]bool{}
	for _, v := range values {
		if members, ok := Region(v); ok {
			for _, m := range members {
				set[m] = true
			}
			continue
		}
		c, ok := LookupCountry(v)
		if !ok {
			return nil, fmt.Errorf("%w: %q is neither an ISO-3166-1 alpha-2 code, a region code (%s) nor a country name", ErrUnknownCountry, v, strings.Join(Regions(), ", "))
		}
		set[c.Code] = true
	}
	out := make([]string, 0, len(set))
	for c := range set {
		out = append(out, c)
	}
	sort.Strings(out)
	return out, nil
}

// isoCodes3166_2 is the iso-codes project's ISO 3166-2 list as [code,
// name] pairs, written by gen_isocodes.go.
//
//go:embed isocodes_3166-2.json
var isoCodes3166_2 []byte

// addISOCodes completes the library's subdivisions with the iso-codes
// list: gountries lacks some (the four nations of GB-ENG, GB-SCT,
// GB-WLS and GB-NIR among them). A code the library has keeps its name;
// a name or local code it already resolves keeps its subdivision. A name
// such as "Wales [Cymru GB-CYM]" gives "Wales" and "Cymru", and the
// alternative code GB-CYM.
func addISOCodes(d *data) {
	var pairs [][2]string
	if err := json.Unmarshal(isoCodes3166_2, &pairs); err != nil {
		panic(fmt.Sprintf("geo: embedded iso-codes list: %v", err)) // a build defect, caught by every test
	}
	for _, p := range pairs {
		full := strings.ToUpper(p[0])
		country, local, ok := strings.Cut(full, "-")
		if !ok || d.byKey[fold(country)].Code != country {
			continue
		}
		keys := d.subByKey[country]
		if keys == nil {
			keys = map[string]Subdivision{}
			d.subByKey[country] = keys
		}
		name, alt, _ := strings.Cut(p[1], " [")
		name = strings.TrimSpace(name)
		sd, known := keys[fold(full)]
		if !known {
			sd = Subdivision{Code: full, Name: name, Country: country}
			i := sort.Search(len(d.subs[country]), func(i int) bool { return d.subs[country][i].Code >= full })
			d.subs[country] = slices.Insert(d.subs[country], i, sd)
		}
		add := func(k string) {
			if _, taken := keys[fold(k)]; k != "" && !taken {
				keys[fold(k)] = sd
			}
		}
		add(full)
		add(local)
		add(name)
		// "Cymru GB-CYM]": alternative names, then an alternative code.
		for _, part := range strings.Split(strings.TrimSuffix(alt, "]"), ";") {
			words := strings.Fields(part)
			if n := len(words); n > 0 && strings.HasPrefix(words[n-1], country+"-") {
				add(words[n-1])
				add(strings.TrimPrefix(words[n-1], country+"-"))
				words = words[:n-1]
			}
			add(strings.Join(words, " "))
		}
	}
}
