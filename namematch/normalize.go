// Package namematch owns company name → domain matching: name
// normalization (folding, legal-form stripping, abbreviation
// canonicalization), an in-memory candidate index over every indexed
// company (token postings weighted by IDF and character-trigram postings
// for typo tolerance), the scorer (IDF-weighted fuzzy token overlap,
// Jaro-Winkler and trigram Dice on the compact name, agreement of country,
// state, city, zip and phone, a popularity prior) and the calibration that
// turns a raw score into match_confidence, the measured precision of
// matches scored like it (calibration.go, rebuilt by `go generate`).
//
// The API's POST /v1/bulkmatch is a thin task over Service.
package namematch

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Name is a normalized company name.
type Name struct {
	// Tokens are the canonical words without legal forms and stop words,
	// in input order.
	Tokens []string
	// Compact is the tokens concatenated: "Blue Peak" and "BluePeak" meet.
	Compact string
}

// letterMap folds letters that Unicode does not decompose into a base
// letter and a mark.
var letterMap = map[rune]string{
	'ß': "ss", 'æ': "ae", 'Æ': "ae", 'ø': "o", 'Ø': "o", 'œ': "oe", 'Œ': "oe", 'ł': "l", 'Ł': "l",
	'đ': "d", 'Đ': "d", 'ð': "d", 'þ': "th", 'ı': "i", 'ħ': "h",
}

// fold lower-cases s, strips diacritics, splits camel case ("BluePeak" →
// "blue peak", where a capital starts a lower-case word), deletes dots and apostrophes inside words ("S.p.A." →
// "spa", "Int'l" → "intl"), reads & and + as "and", and turns every other
// separator into a space.
func fold(s string) string {
	if !isASCII(s) {
		s = norm.NFD.String(s)
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	prevLower := false
	space := func() {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		prevLower = false
	}
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case unicode.Is(unicode.Mn, r):
		case r == '.' || r == '\'' || r == '’' || r == '`' || r == '´':
			// Deleted: "S.A." is "sa", "O'Brien" is "obrien".
		case r == '&' || r == '+':
			space()
			b.WriteString("and ")
		case letterMap[r] != "":
			b.WriteString(letterMap[r])
			prevLower = true
		case unicode.IsUpper(r):
			// "BluePeak" splits; "GmbH" and "S.p.A." do not.
			if prevLower && i+1 < len(rs) && unicode.IsLower(rs[i+1]) {
				b.WriteByte(' ')
			}
			b.WriteRune(unicode.ToLower(r))
			prevLower = false
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(unicode.ToLower(r))
			prevLower = unicode.IsLower(r)
		default:
			space()
		}
	}
	return b.String()
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// stopWords carry no identity.
var stopWords = set("and", "the", "of", "und", "et", "y", "e", "en", "di", "de", "la", "le", "les", "der", "die", "das")

// legalForms are legal-form words and sequences (after folding, dots
// deleted), stripped from the end of a name, repeatedly. Multi-word forms
// are listed as space-joined sequences.
var legalForms = buildForms(
	// English-speaking
	"inc", "incorporated", "llc", "llp", "lp", "ltd", "limited", "corp", "corporation", "co", "company", "plc", "pllc", "pc",
	"pty", "pty ltd", "proprietary limited", "pvt", "pvt ltd", "private limited", "lllp", "na",
	// German-speaking, Dutch, Nordic
	"gmbh", "ag", "kg", "ohg", "ug", "gbr", "ev", "gmbh and co kg", "and co kg", "co kg", "kgaa", "se", "mbh",
	"bv", "nv", "vof", "cv", "ab", "publ", "ab publ", "oy", "oyj", "as", "asa", "aps", "a s", "hf", "ehf", "ky",
	// Romance
	"sa", "sas", "sasu", "sarl", "eurl", "sci", "snc", "sca", "spa", "srl", "srls", "sapa", "sl", "slu", "sll", "slne",
	"sa de cv", "s de rl", "s de rl de cv", "sab de cv", "sapi de cv", "de cv", "ltda", "eireli", "me", "epp", "sc", "scs",
	"lda", "unipessoal lda", "sgps",
	// Central and Eastern Europe
	"sro", "spol sro", "as", "sp z oo", "spzoo", "sp j", "sp k", "zrt", "kft", "nyrt", "bt", "doo", "dd", "ad", "ood", "ead", "eood",
	"ooo", "zao", "oao", "pao", "tov", "srl", "sia", "uab", "ou", "as",
	// Asia, Middle East, Africa
	"kk", "gk", "yk", "co ltd", "bhd", "sdn bhd", "pte", "pte ltd", "pt", "tbk", "pt tbk", "jsc", "wll", "fzc", "fze", "fz llc",
	"saog", "psc", "qsc", "ltd sti", "as", "sti",
	// Greek
	"ae", "epe", "ike",
	// Not-for-profit and group words that are forms, not names
	"holding ag", "holdings ltd",
)

// leadingForms are legal forms written before the name.
var leadingForms = buildForms("pt", "ooo", "zao", "oao", "pao", "tov", "cv", "kk", "the")

// abbreviations map variant words to one canonical form, so "Intl" and
// "International", "Tech" and "Technologies" meet.
var abbreviations = func() map[string]string {
	m := map[string]string{}
	for canon, variants := range map[string][]string{
		"intl":     {"international", "internacional", "internationale", "international", "inter"},
		"tech":     {"technology", "technologies", "technologie", "technologies", "technik", "techn", "tecnologia", "technical", "techs"},
		"mfg":      {"manufacturing", "manufacturers", "manufacturer", "mfrs", "mfr", "manuf"},
		"svc":      {"services", "service", "svcs", "srvcs", "serv", "servicios", "servizi"},
		"assoc":    {"associates", "associated", "association", "assocs", "assn", "asso"},
		"bros":     {"brothers", "bro"},
		"group":    {"grp", "gruppe", "groupe", "grupo", "gruppo"},
		"holding":  {"holdings", "hldgs", "hldg"},
		"ind":      {"industries", "industry", "industrial", "inds", "indus"},
		"lab":      {"laboratories", "laboratory", "labs"},
		"sys":      {"systems", "system", "syst"},
		"sol":      {"solutions", "solution", "soln", "solns"},
		"mgmt":     {"management", "mgt", "mngt"},
		"eng":      {"engineering", "engineers", "engg", "engr"},
		"dev":      {"development", "developments", "devel"},
		"ptnr":     {"partners", "partner", "ptnrs", "partnership"},
		"natl":     {"national", "nat"},
		"consult":  {"consulting", "consultants", "consultancy", "consultant", "cons"},
		"comm":     {"communications", "communication", "comms"},
		"prod":     {"products", "product", "prods"},
		"ins":      {"insurance", "insur"},
		"fin":      {"financial", "finance", "finl"},
		"med":      {"medical"},
		"pharma":   {"pharmaceuticals", "pharmaceutical", "pharm"},
		"dist":     {"distribution", "distributors", "distributor", "distr"},
		"ent":      {"enterprises", "enterprise", "entps"},
		"elec":     {"electronics", "electronic", "electric", "electrical"},
		"ctr":      {"center", "centre", "cntr"},
		"univ":     {"university"},
		"inst":     {"institute", "institut", "instituto"},
		"dept":     {"department"},
		"mktg":     {"marketing"},
		"invest":   {"investments", "investment", "inv"},
		"constr":   {"construction", "constructions", "const"},
		"equip":    {"equipment"},
		"transp":   {"transport", "transportation", "trans"},
		"amer":     {"american", "america"},
		"mtn":      {"mountain", "mount", "mt"},
		"st":       {"saint", "sankt", "san"},
		"ctrl":     {"control", "controls"},
		"net":      {"network", "networks"},
		"software": {"sw"},
	} {
		m[canon] = canon
		for _, v := range variants {
			m[v] = canon
		}
	}
	return m
}()

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// forms is a set of word sequences, by length.
type forms struct {
	seqs   map[string]bool
	maxLen int
}

func buildForms(seqs ...string) forms {
	f := forms{seqs: map[string]bool{}}
	for _, s := range seqs {
		f.seqs[s] = true
		f.maxLen = max(f.maxLen, len(strings.Fields(s)))
	}
	return f
}

// suffixLen returns how many trailing words of w form a legal form (the
// longest), 0 when none.
func (f forms) suffixLen(w []string) int {
	for n := min(f.maxLen, len(w)); n > 0; n-- {
		if f.seqs[strings.Join(w[len(w)-n:], " ")] {
			return n
		}
	}
	return 0
}

func (f forms) prefixLen(w []string) int {
	for n := min(f.maxLen, len(w)); n > 0; n-- {
		if f.seqs[strings.Join(w[:n], " ")] {
			return n
		}
	}
	return 0
}

// Normalize folds a company name into canonical tokens: accents,
// case and punctuation are folded, legal forms are stripped from the end
// (and a few from the start: "PT", "OOO"), stop words dropped,
// abbreviations canonicalized and plurals reduced. A name that would lose
// every word keeps its folded words instead ("The Co." stays "the co").
func Normalize(s string) Name {
	words := strings.Fields(fold(s))
	all := words
	for {
		n := legalForms.suffixLen(words)
		if n == 0 || n == len(words) {
			break
		}
		words = words[:len(words)-n]
		// "Hartley and Co" : the "and" before a stripped form goes too.
		for len(words) > 1 && stopWords[words[len(words)-1]] {
			words = words[:len(words)-1]
		}
	}
	if n := leadingForms.prefixLen(words); n > 0 && n < len(words) {
		words = words[n:]
	}
	toks := make([]string, 0, len(words))
	for _, w := range words {
		if stopWords[w] {
			continue
		}
		toks = append(toks, canonical(w))
	}
	if len(toks) == 0 {
		for _, w := range all {
			toks = append(toks, canonical(w))
		}
	}
	return Name{Tokens: toks, Compact: strings.Join(toks, "")}
}

// canonical maps a word to its abbreviation class, or strips a plural s.
func canonical(w string) string {
	if c, ok := abbreviations[w]; ok {
		return c
	}
	if len(w) > 4 && w[len(w)-1] == 's' && w[len(w)-2] != 's' && w[len(w)-2] != 'u' && w[len(w)-2] != 'i' {
		if c, ok := abbreviations[w[:len(w)-1]]; ok {
			return c
		}
		return w[:len(w)-1]
	}
	return w
}

// FoldAccents strips the diacritics of s, keeping case and punctuation.
func FoldAccents(s string) string {
	if isASCII(s) {
		return s
	}
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, r):
		case letterMap[r] != "":
			b.WriteString(letterMap[r])
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
