package query

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/openprospect/prospectd/record/geo"
)

// Extraction is what the built-in, deterministic prompt reader found in an
// icp_prompt: filters, vendor names still to resolve against the index,
// and the ICP text left once the filter phrases are taken out.
type Extraction struct {
	Countries      []string
	States         []string
	Categories     []string
	Employees      *IntRange
	Revenue        *IntRange
	BusinessModels []string
	VendorNames    []string // as written: "Shopify", "hubspot.com"
	ICPText        string
}

// ExtractPrompt reads a prompt such as "cybersecurity companies in DACH
// with 50-500 employees selling to banks". It is rule-based on purpose:
// the same prompt always gives the same filters, with no LLM or network.
// Words that describe the customers ("selling to banks") stay in the ICP
// text and never become the company's own industry or size.
func ExtractPrompt(prompt string) Extraction {
	var x Extraction
	text := " " + strings.Join(strings.Fields(prompt), " ") + " "
	cut := func(loc []int) {
		text = text[:loc[0]] + " " + text[loc[1]:]
	}

	// Sizes and revenues first: their numbers must not be read as anything
	// else.
	for _, m := range employeeRe.FindAllStringSubmatchIndex(text, -1) {
		if r, ok := employeeRange(text, m); ok {
			x.Employees = &r
		}
	}
	text = employeeRe.ReplaceAllString(text, " ")
	for _, re := range revenueRes {
		if m := re.FindStringSubmatchIndex(text); m != nil {
			if r, ok := revenueRange(text, m, re.SubexpNames()); ok {
				x.Revenue = &r
				cut(m)
			}
		}
	}
	// Vendors: "using Shopify", "built on HubSpot and Salesforce".
	for _, m := range vendorRe.FindAllStringSubmatchIndex(text, -1) {
		for _, g := range []int{2, 3} { // the one or two names after the verb
			if m[2*g] >= 0 {
				x.VendorNames = appendNew(x.VendorNames, strings.Trim(text[m[2*g]:m[2*g+1]], ".,;-"))
			}
		}
	}
	text = vendorRe.ReplaceAllString(text, " ")

	// Places apply to the companies wherever they are written.
	words := tokenize(text)
	var geoSpans [][2]int
	for i := 0; i < len(words); {
		n, codes := matchCountry(words, i)
		if n == 0 {
			i++
			continue
		}
		for _, c := range codes {
			x.Countries = appendNew(x.Countries, c)
		}
		geoSpans = append(geoSpans, [2]int{words[i].start, words[i+n-1].end})
		i += n
	}
	if len(x.Countries) <= 1 {
		// Subdivisions of the one country named (the United States when
		// none is): "law firms in Texas", "Bavaria, Germany".
		country := "US"
		if len(x.Countries) == 1 {
			country = x.Countries[0]
		}
		for i := 0; i < len(words); {
			n, code := matchSubdivision(words, i, country)
			if n == 0 {
				i++
				continue
			}
			x.States = appendNew(x.States, code)
			x.Countries = appendNew(x.Countries, country)
			geoSpans = append(geoSpans, [2]int{words[i].start, words[i+n-1].end})
			i += n
		}
	}
	slices.SortFunc(geoSpans, func(a, b [2]int) int { return a[0] - b[0] })
	for k := len(geoSpans) - 1; k >= 0; k-- {
		s, e := geoSpans[k][0], geoSpans[k][1]
		// Take the preposition ("in the Nordics") with the place.
		for _, w := range []string{"the", ""} {
			p := strings.LastIndex(strings.TrimRight(text[:s], " ,"), " ")
			if p < 0 {
				break
			}
			prev := strings.ToLower(strings.Trim(text[p:s], " ,"))
			if w == "the" && prev == "the" {
				s = p
				continue
			}
			if slices.Contains([]string{"in", "from", "across", "based", "within", "throughout", "of"}, prev) {
				s = p
			}
			break
		}
		text = text[:s] + " " + text[e:]
	}

	// The customer clause stays in the ICP text; it only says who the
	// companies sell to (a business model), never their own industry or
	// size.
	own, customer := text, ""
	if loc := customerRe.FindStringIndex(text); loc != nil {
		own, customer = text[:loc[0]], text[loc[0]:]
	}
	x.BusinessModels = businessModels(text, customer)
	words = tokenize(own)
	for i := 0; i < len(words); i++ {
		for n := 3; n >= 1; n-- {
			if i+n > len(words) {
				continue
			}
			if ind, ok := industryWords[phraseOf(words[i:i+n])]; ok {
				x.Categories = appendNew(x.Categories, ind)
				i += n - 1
				break
			}
		}
	}
	if x.Employees == nil {
		x.Employees = sizeWord(words)
	}
	slices.Sort(x.Countries)

	// ICP text: the rest, without the request filler ("find me").
	icp := text
	icp = fillerRe.ReplaceAllString(icp, " ")
	icp = strings.Join(strings.Fields(icp), " ")
	icp = strings.Trim(icp, " ,.;:-")
	icp = strings.TrimSuffix(strings.TrimSuffix(icp, " with"), " and")
	if len([]rune(icp)) > MaxICPTextChars {
		icp = string([]rune(icp)[:MaxICPTextChars])
	}
	if len([]rune(icp)) >= MinICPTextChars {
		x.ICPText = icp
	}
	return x
}

var (
	num        = `(\d[\d,.]*\s*[kK]?)`
	staffWords = `(?:employees|employee|staff|people|workers|headcount|fte|ftes|personnel)`
	employeeRe = regexp.MustCompile(`(?i)(?:\bwith\s+)?(?:(?P<between>between\s+)?` + num + `\s*(?:-|–|to|and)\s*` + num + `|(?P<cmp>more than|over|above|at least|greater than|>=?|fewer than|less than|under|below|up to|at most|no more than|<=?)\s*` + num + `|` + num + `\s*\+)\s*` + staffWords + `\b`)
	money      = `\$?\s?(\d+(?:\.\d+)?)\s*(k|m|mm|mn|million|b|bn|billion)?\b`
	revenueRes = []*regexp.Regexp{
		regexp.MustCompile(`(?i)(?:with\s+)?(?:annual\s+)?(?:revenue|revenues|sales|turnover|arr)\s+(?:of\s+)?(?P<cmp>over|above|more than|at least|under|below|less than|up to|between)?\s*` + money + `(?:\s*(?:-|–|to|and)\s*` + money + `)?`),
		regexp.MustCompile(`(?i)(?:with\s+)?(?P<cmp>over|above|more than|at least|under|below|less than|up to|between)?\s*` + money + `(?:\s*(?:-|–|to|and)\s*` + money + `)?\+?\s+(?:in\s+)?(?:annual\s+)?(?:revenue|revenues|sales|turnover|arr)\b`),
	}
	vendorRe   = regexp.MustCompile(`(?i)\b(using|uses|use|built on|built with|running on|runs on|powered by|customers of)\s+([A-Za-z0-9][\w.\-]*)(?:\s*(?:,|and|or)\s+([A-Za-z0-9][\w.\-]*))?`)
	customerRe = regexp.MustCompile(`(?i)\b(?:selling to|sells to|sell to|serving|that serve|who serve|serve|targeting|for)\s`)
	fillerRe   = regexp.MustCompile(`(?i)^\s*(?:please\s+)?(?:i am looking for|i'm looking for|we are looking for|we're looking for|looking for|look for|search for|find me|show me|give me|get me|find|list|i want|we want|i need|we need)\b\s*(?:all\s+|some\s+)?`)
)

// employeeRange reads one employeeRe match.
func employeeRange(text string, m []int) (IntRange, bool) {
	group := func(g int) string {
		if m[2*g] < 0 {
			return ""
		}
		return text[m[2*g]:m[2*g+1]]
	}
	// Groups: 1 between, 2 lo, 3 hi, 4 cmp, 5 n, 6 n+.
	switch {
	case group(2) != "":
		lo, ok1 := count(group(2))
		hi, ok2 := count(group(3))
		if ok1 && ok2 && lo <= hi {
			return IntRange{Min: &lo, Max: &hi}, true
		}
	case group(4) != "":
		n, ok := count(group(5))
		if !ok {
			return IntRange{}, false
		}
		switch strings.ToLower(group(4)) {
		case "more than", "over", "above", "greater than", ">":
			n++
			return IntRange{Min: &n}, true
		case "at least", ">=":
			return IntRange{Min: &n}, true
		case "fewer than", "less than", "under", "below", "<":
			n--
			return IntRange{Max: &n}, true
		default:
			return IntRange{Max: &n}, true
		}
	case group(6) != "":
		if n, ok := count(group(6)); ok {
			return IntRange{Min: &n}, true
		}
	}
	return IntRange{}, false
}

// count parses "1,000", "1.5k", "500".
func count(s string) (int64, bool) {
	s = strings.ToLower(strings.ReplaceAll(strings.TrimSpace(s), " ", ""))
	mult := 1.0
	if strings.HasSuffix(s, "k") {
		mult, s = 1000, strings.TrimSuffix(s, "k")
		s = strings.ReplaceAll(s, ",", ".")
	} else {
		s = strings.NewReplacer(",", "", ".", "").Replace(s)
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 || f > 1e9 {
		return 0, false
	}
	return int64(f * mult), true
}

// revenueRange reads one revenue match: cmp, then one or two amounts.
func revenueRange(text string, m []int, names []string) (IntRange, bool) {
	var cmp string
	var vals []string
	for g := 1; g < len(names); g++ {
		if m[2*g] < 0 {
			if names[g] == "" {
				vals = append(vals, "")
			}
			continue
		}
		v := text[m[2*g]:m[2*g+1]]
		if names[g] == "cmp" {
			cmp = strings.ToLower(v)
		} else {
			vals = append(vals, v)
		}
	}
	// vals: amount1, unit1, amount2, unit2.
	for len(vals) < 4 {
		vals = append(vals, "")
	}
	a, ok := amount(vals[0], vals[1], vals[3])
	if !ok {
		return IntRange{}, false
	}
	if vals[2] != "" {
		b, ok := amount(vals[2], vals[3], "")
		if !ok || a > b {
			return IntRange{}, false
		}
		return IntRange{Min: &a, Max: &b}, true
	}
	switch cmp {
	case "under", "below", "less than", "up to":
		return IntRange{Max: &a}, true
	default: // over, above, more than, at least, or a bare amount: that much or more
		return IntRange{Min: &a}, true
	}
}

// amount converts "10" with unit "m" to 10,000,000. A first amount without
// its own unit borrows the second's ("$10-50M").
func amount(v, unit, fallbackUnit string) (int64, bool) {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return 0, false
	}
	if unit == "" {
		unit = fallbackUnit
	}
	switch strings.ToLower(unit) {
	case "k":
		f *= 1e3
	case "m", "mm", "mn", "million":
		f *= 1e6
	case "b", "bn", "billion":
		f *= 1e9
	case "":
		if f < 1000 { // "revenue over 50" is not a revenue figure
			return 0, false
		}
	}
	return int64(f), true
}

// sizeWord reads size words about the companies themselves: startups
// (up to 50 people), small businesses (up to 200), mid-market (51-1,000),
// enterprises (over 1,000).
func sizeWord(words []word) *IntRange {
	r := func(lo, hi int64) *IntRange {
		out := &IntRange{}
		if lo > 0 {
			out.Min = &lo
		}
		if hi > 0 {
			out.Max = &hi
		}
		return out
	}
	for i, w := range words {
		next := ""
		if i+1 < len(words) {
			next = words[i+1].text
		}
		switch {
		case w.text == "startups" || w.text == "startup" || w.text == "start-ups":
			return r(0, 50)
		case w.text == "small" && (next == "businesses" || next == "business" || next == "companies"), w.text == "smb", w.text == "smbs", w.text == "smes":
			return r(0, 200)
		case w.text == "mid-market" || w.text == "mid-sized" || w.text == "midsize" || w.text == "mid-size" || w.text == "midmarket":
			return r(51, 1000)
		case w.text == "enterprises" || w.text == "enterprise" && (next == "companies" || next == "businesses") ||
			w.text == "large" && (next == "companies" || next == "enterprises" || next == "corporations"):
			return r(1001, 0)
		}
	}
	return nil
}

func businessModels(text, customer string) []string {
	var out []string
	low := strings.ToLower(text)
	for _, w := range tokenize(low) {
		switch w.text {
		case "b2b", "b2c", "b2g", "g2b", "g2c", "d2c", "c2c", "c2b":
			out = appendNew(out, strings.ToUpper(w.text))
		case "dtc":
			out = appendNew(out, "D2C")
		}
	}
	if strings.Contains(low, "direct-to-consumer") || strings.Contains(low, "direct to consumer") {
		out = appendNew(out, "D2C")
	}
	for _, w := range tokenize(strings.ToLower(customer)) {
		switch w.text {
		case "businesses", "business", "companies", "enterprises", "enterprise", "smbs", "smb", "smes", "startups",
			"banks", "retailers", "manufacturers", "brands", "agencies", "firms", "hospitals", "clinics", "insurers", "schools":
			if w.text == "agencies" && strings.Contains(customer, "government") {
				continue
			}
			out = appendNew(out, "B2B")
		case "consumers", "consumer", "shoppers", "households", "individuals", "families", "homeowners", "patients":
			out = appendNew(out, "B2C")
		case "government", "governments", "municipalities", "cities", "ministries", "public":
			out = appendNew(out, "B2G")
		}
	}
	return out
}

type word struct {
	text       string // lower case
	raw        string
	start, end int
}

func tokenize(s string) []word {
	var out []word
	start := -1
	for i, r := range s + " " {
		inWord := unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '&' || r == '\''
		if inWord && start < 0 {
			start = i
		}
		if !inWord && start >= 0 {
			raw := strings.Trim(s[start:i], "-'")
			if raw != "" {
				out = append(out, word{text: strings.ToLower(raw), raw: raw, start: start, end: start + len(raw)})
			}
			start = -1
		}
	}
	return out
}

func phraseOf(ws []word) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = w.text
	}
	return strings.Join(parts, " ")
}

// matchCountry matches a region, country name or demonym starting at
// words[i], longest first. Codes count only when written in capitals
// ("US", "DACH"), so the words "in", "it" and "no" are not countries.
func matchCountry(words []word, i int) (n int, codes []string) {
	for n = 3; n >= 1; n-- {
		if i+n > len(words) {
			continue
		}
		ph := phraseOf(words[i : i+n])
		raw := words[i].raw
		upper := n == 1 && strings.ToUpper(raw) == raw && len(raw) <= 7
		if upper {
			if m, ok := geo.Region(raw); ok {
				return 1, m
			}
		}
		if m, ok := placeAliases[ph]; ok {
			return n, m
		}
		if len(ph) >= 4 || upper && len(ph) == 2 {
			if c, ok := geo.LookupCountry(ph); ok {
				return n, []string{c.Code}
			}
		}
	}
	return 0, nil
}

// matchSubdivision matches a capitalized subdivision name of country at
// words[i] (names only: "CA" or "in" are not states).
func matchSubdivision(words []word, i int, country string) (int, string) {
	for n := 3; n >= 1; n-- {
		if i+n > len(words) {
			continue
		}
		ph := phraseOf(words[i : i+n])
		if len(ph) < 4 || !unicode.IsUpper([]rune(words[i].raw)[0]) {
			continue
		}
		if sd, ok := geo.LookupSubdivision(country, ph); ok && !strings.EqualFold(sd.Code, ph) && !strings.EqualFold(sd.Code, country+"-"+ph) {
			return n, sd.Code
		}
	}
	return 0, ""
}

// placeAliases are names people write for groups of countries and
// demonyms, which the country data does not carry.
var placeAliases = func() map[string][]string {
	m := map[string][]string{
		"america": {"US"}, "american": {"US"}, "us-based": {"US"}, "united states": {"US"}, "north america": {"CA", "US"},
		"north american": {"CA", "US"}, "british": {"GB"}, "britain": {"GB"}, "uk-based": {"GB"}, "german": {"DE"},
		"french": {"FR"}, "spanish": {"ES"}, "italian": {"IT"}, "dutch": {"NL"}, "swiss": {"CH"}, "austrian": {"AT"},
		"belgian": {"BE"}, "swedish": {"SE"}, "danish": {"DK"}, "norwegian": {"NO"}, "finnish": {"FI"}, "irish": {"IE"},
		"polish": {"PL"}, "portuguese": {"PT"}, "canadian": {"CA"}, "australian": {"AU"}, "indian": {"IN"},
		"japanese": {"JP"}, "chinese": {"CN"}, "brazilian": {"BR"}, "mexican": {"MX"}, "israeli": {"IL"},
		"singaporean": {"SG"}, "korean": {"KR"}, "south african": {"ZA"}, "new zealand": {"NZ"},
	}
	for _, r := range []struct{ name, code string }{
		{"dach", "DACH"}, {"nordics", "NORDICS"}, {"nordic", "NORDICS"}, {"scandinavia", "NORDICS"}, {"scandinavian", "NORDICS"},
		{"benelux", "BENELUX"}, {"latin america", "LATAM"}, {"latam", "LATAM"}, {"middle east", "MENA"}, {"mena", "MENA"},
		{"emea", "EMEA"}, {"apac", "APAC"}, {"asia pacific", "APAC"}, {"asia-pacific", "APAC"}, {"southeast asia", "ASEAN"},
		{"asean", "ASEAN"}, {"gulf", "GCC"}, {"eastern europe", "CEE"}, {"central europe", "CEE"}, {"european union", "EU"},
		{"anz", "ANZ"}, {"australia and new zealand", "ANZ"},
	} {
		m[r.name], _ = geo.Region(r.code)
	}
	eu, _ := geo.Region("EU")
	europe := append(eu, "GB", "CH", "NO", "IS")
	m["europe"], m["european"] = europe, europe
	return m
}()

// industryWords maps words people use for an industry to its label. The
// labels' own words come first ("financial services", "cybersecurity").
var industryWords = func() map[string]string {
	m := map[string]string{}
	for _, ind := range []struct {
		label string
		words string
	}{
		{"SAAS", "saas|software as a service|saas companies|saas startups"},
		{"SOFTWARE", "software|software companies|software vendors|isv|isvs"},
		{"FINANCIAL_SERVICES", "financial services|finance|financial"},
		{"HEALTHCARE", "healthcare|health care|hospitals|clinics|health systems"},
		{"CLOUD_COMPUTING", "cloud computing|cloud providers|cloud infrastructure|hosting|iaas|paas"},
		{"CYBERSECURITY", "cybersecurity|cyber security|cyber-security|infosec|security software|information security"},
		{"IT_SERVICES", "it services|managed service providers|msp|msps|it consulting|system integrators"},
		{"ARTIFICIAL_INTELLIGENCE", "ai|artificial intelligence|machine learning|genai|generative ai|llm"},
		{"DATA_ANALYTICS", "data analytics|analytics|business intelligence|big data"},
		{"FINTECH", "fintech|fintechs|payments|payment processing|neobanks"},
		{"BANKING", "banking|banks|credit unions"},
		{"INSURANCE", "insurance|insurers|insurtech|insurance carriers"},
		{"INVESTMENT_MANAGEMENT", "investment management|asset management|asset managers|wealth management|hedge funds|private equity"},
		{"REAL_ESTATE", "real estate|proptech|property management"},
		{"CONSTRUCTION", "construction|contractors|builders"},
		{"ARCHITECTURE_DESIGN", "architecture|architects|design studios|interior design"},
		{"MANUFACTURING", "manufacturing|manufacturers|factories"},
		{"INDUSTRIAL_AUTOMATION", "industrial automation|robotics|automation"},
		{"AEROSPACE_DEFENSE", "aerospace|defense|defence|aviation"},
		{"AUTOMOTIVE", "automotive|car dealers|dealerships|auto parts"},
		{"SEMICONDUCTORS", "semiconductors|semiconductor|chipmakers|chips"},
		{"HARDWARE_ELECTRONICS", "hardware|electronics|consumer electronics"},
		{"TELECOMMUNICATIONS", "telecommunications|telecom|telecoms|telcos|isps"},
		{"ENERGY", "energy|utilities and energy|power generation"},
		{"RENEWABLE_ENERGY", "renewable energy|renewables|solar|wind energy|clean energy|cleantech"},
		{"OIL_GAS", "oil and gas|oil & gas|oil|petroleum"},
		{"UTILITIES", "utilities|utility companies|water utilities"},
		{"MINING_METALS", "mining|metals|steel"},
		{"CHEMICALS", "chemicals|chemical companies|specialty chemicals"},
		{"AGRICULTURE", "agriculture|agtech|farming|farms"},
		{"FOOD_BEVERAGE", "food and beverage|food & beverage|food|beverage|beverages|breweries|bakeries"},
		{"CONSUMER_GOODS", "consumer goods|cpg|fmcg|consumer products"},
		{"RETAIL", "retail|retailers|stores"},
		{"E_COMMERCE", "e-commerce|ecommerce|e commerce|online stores|online retailers|webshops|dtc brands|d2c brands"},
		{"FASHION_APPAREL", "fashion|apparel|clothing|footwear"},
		{"HOSPITALITY", "hospitality|hotels|restaurants|resorts"},
		{"TRAVEL_TOURISM", "travel|tourism|travel agencies|tour operators"},
		{"TRANSPORTATION_LOGISTICS", "logistics|transportation|freight|shipping|trucking|supply chain"},
		{"PHARMACEUTICALS", "pharmaceuticals|pharmaceutical|pharma"},
		{"BIOTECHNOLOGY", "biotechnology|biotech|life sciences"},
		{"MEDICAL_DEVICES", "medical devices|medtech|medical device"},
		{"EDUCATION", "education|edtech|schools|universities|e-learning"},
		{"MEDIA_PUBLISHING", "media|publishing|publishers|news"},
		{"ENTERTAINMENT", "entertainment|film|music|streaming"},
		{"GAMING", "gaming|games|game studios|video games"},
		{"ADVERTISING_MARKETING", "marketing|advertising|marketing agencies|ad agencies|adtech|martech"},
		{"CONSULTING", "consulting|consultancies|consultants|management consulting"},
		{"LEGAL_SERVICES", "legal|law firms|legal services|legaltech"},
		{"HUMAN_RESOURCES", "hr|human resources|recruiting|staffing|recruitment|hr tech"},
		{"GOVERNMENT", "government|public sector|agencies"},
		{"NONPROFIT", "nonprofit|nonprofits|non-profit|non-profits|ngo|ngos|charities"},
		{"ENVIRONMENTAL_SERVICES", "environmental services|waste management|recycling"},
		{"SPORTS_FITNESS", "sports|fitness|gyms|sporting goods"},
	} {
		for _, w := range strings.Split(ind.words, "|") {
			m[w] = ind.label
		}
	}
	return m
}()

func appendNew(list []string, s string) []string {
	if s == "" || slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}
