package email

import (
	"strings"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// Name is a person's name in the forms address local parts use, the most
// likely first: "Jean-Pierre" gives jeanpierre, jean-pierre, jean;
// "van der Berg" gives vanderberg, berg, van-der-berg.
type Name struct {
	Firsts []string
	Lasts  []string
}

// A transform.Chain keeps state between calls, so one is made per call:
// lookups normalize names concurrently.
func accentFolder() transform.Transformer {
	return transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
}

// letters without a combining-mark decomposition.
var spelled = strings.NewReplacer("ß", "ss", "ø", "o", "Ø", "o", "æ", "ae", "Æ", "ae", "œ", "oe", "Œ", "oe",
	"ł", "l", "Ł", "l", "đ", "d", "Đ", "d", "ð", "d", "þ", "th", "ı", "i", "İ", "i")

// fold lower-cases, strips accents and spells out the letters that have
// none ("Müller" -> "muller", "Łukasz" -> "lukasz").
func fold(s string) string {
	out, _, err := transform.String(accentFolder(), s)
	if err != nil {
		out = s
	}
	return strings.ToLower(spelled.Replace(out))
}

// particles are surname prefixes people often drop in addresses.
var particles = map[string]bool{
	"van": true, "von": true, "der": true, "den": true, "de": true, "del": true, "della": true, "di": true, "da": true,
	"du": true, "la": true, "le": true, "dos": true, "das": true, "do": true, "ten": true, "ter": true, "af": true,
	"al": true, "el": true, "bin": true, "ibn": true, "zu": true, "st": true,
}

// words splits a folded name into words of a-z0-9, dropping apostrophes
// (O'Brien -> obrien) and dots, splitting on spaces and hyphens; hyphen
// reports whether a hyphen joined words.
func words(s string) (ws []string, hyphen bool) {
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			ws = append(ws, b.String())
			b.Reset()
		}
	}
	for _, r := range fold(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == '\'' || r == '’' || r == '.':
		case r == '-':
			hyphen = true
			flush()
		default:
			flush()
		}
	}
	flush()
	return ws, hyphen
}

func appendUnique(list []string, vs ...string) []string {
	for _, v := range vs {
		if v == "" {
			continue
		}
		dup := false
		for _, x := range list {
			if x == v {
				dup = true
				break
			}
		}
		if !dup {
			list = append(list, v)
		}
	}
	return list
}

// NormalizeName returns the address forms of a name; ok is false when
// either part has no letter or digit left.
func NormalizeName(first, last string) (n Name, ok bool) {
	fw, fh := words(first)
	lw, lh := words(last)
	if len(fw) == 0 || len(lw) == 0 {
		return Name{}, false
	}
	n.Firsts = appendUnique(n.Firsts, strings.Join(fw, ""))
	if fh {
		n.Firsts = appendUnique(n.Firsts, strings.Join(fw, "-"))
	}
	n.Firsts = appendUnique(n.Firsts, fw[0])

	// Surname: all words joined; without leading particles; the last word;
	// hyphenated forms when the name was hyphenated or had particles.
	n.Lasts = appendUnique(n.Lasts, strings.Join(lw, ""))
	core := lw
	for len(core) > 1 && particles[core[0]] {
		core = core[1:]
	}
	n.Lasts = appendUnique(n.Lasts, strings.Join(core, ""), lw[len(lw)-1])
	if lh || len(core) < len(lw) {
		n.Lasts = appendUnique(n.Lasts, strings.Join(lw, "-"))
	}
	if lh && len(lw) > 1 {
		n.Lasts = appendUnique(n.Lasts, lw[0])
	}
	return n, true
}
