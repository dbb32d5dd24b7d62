package email

import (
	"fmt"
	"strings"
)

// Templates are the local-part patterns tried, most prevalent first. The
// order follows the shares the demo corpus draws from (first.last 42%,
// flast 18%, firstlast 8%, f.last 7%, first 6%, ...), which follow
// published surveys of business address formats; the index's own
// measurement of a domain, when it has one, comes before all of them.
var Templates = []string{"{first}.{last}", "{f}{last}", "{first}{last}", "{f}.{last}", "{first}",
	"{first}_{last}", "{first}{l}", "{last}.{first}", "{first}-{last}", "{last}{f}", "{last}", "{f}{l}"}

// commonTier2 is how many of Templates count as tier 2; the rest are 3.
const commonTier2 = 5

// templateAliases maps pattern spellings without braces to templates.
var templateAliases = map[string]string{
	"first.last": "{first}.{last}", "flast": "{f}{last}", "firstlast": "{first}{last}", "f.last": "{f}.{last}",
	"first": "{first}", "first_last": "{first}_{last}", "firstl": "{first}{l}", "last.first": "{last}.{first}",
	"first-last": "{first}-{last}", "lastf": "{last}{f}", "last": "{last}", "fl": "{f}{l}",
	"f_last": "{f}_{last}", "first.l": "{first}.{l}", "last_first": "{last}_{first}", "lastfirst": "{last}{first}",
}

// ParsePattern reads a local-part pattern: a template such as
// "{first}.{last}" (with or without "@domain"), or a brace-less spelling
// such as "first.last" or "flast". The template may use {first}, {last},
// {f}, {l} and the separators . _ -; it must use a first or last name.
func ParsePattern(s string) (string, error) {
	p := strings.ToLower(strings.TrimSpace(s))
	if i := strings.IndexByte(p, '@'); i >= 0 {
		p = p[:i]
	}
	if t, ok := templateAliases[p]; ok {
		return t, nil
	}
	rest := p
	named := false
	for rest != "" {
		switch {
		case strings.HasPrefix(rest, "{first}"), strings.HasPrefix(rest, "{last}"):
			named = true
			rest = rest[strings.IndexByte(rest, '}')+1:]
		case strings.HasPrefix(rest, "{f}"), strings.HasPrefix(rest, "{l}"):
			named = true
			rest = rest[3:]
		case rest[0] == '.' || rest[0] == '_' || rest[0] == '-':
			rest = rest[1:]
		default:
			return "", fmt.Errorf("pattern %q: use {first}, {last}, {f}, {l} and . _ - (e.g. {first}.{last}), or a spelling such as first.last or flast", s)
		}
	}
	if !named || len(p) > 60 {
		return "", fmt.Errorf("pattern %q: must use {first}, {last}, {f} or {l}", s)
	}
	return p, nil
}

// Apply fills a template with name forms; "" when the result is not a
// valid local part.
func Apply(tpl, first, last string) string {
	f, l := "", ""
	if first != "" {
		f = first[:1]
	}
	if last != "" {
		l = last[:1]
	}
	out := strings.NewReplacer("{first}", first, "{last}", last, "{f}", f, "{l}", l).Replace(tpl)
	if !validLocal(out) {
		return ""
	}
	return out
}

func validLocal(s string) bool {
	if s == "" || len(s) > 64 || s[0] == '.' || s[len(s)-1] == '.' || strings.Contains(s, "..") {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// Candidate is an address to try.
type Candidate struct {
	Email   string `json:"email"`
	Pattern string `json:"pattern"` // template, e.g. {first}.{last}
	Tier    int    `json:"tier"`    // 1 known pattern, 2 most common, 3 the rest
}

// Candidates ranks the addresses to try for a name at a domain: the known
// template first (tier 1) with every name form, then the common templates
// (tier 2, then 3) with the primary forms, then the other forms with the
// most common templates; at most max, without duplicates.
func Candidates(n Name, domain, known string, max int) []Candidate {
	var out []Candidate
	seen := map[string]bool{}
	add := func(tpl, first, last string, tier int) {
		if len(out) >= max {
			return
		}
		local := Apply(tpl, first, last)
		if local == "" || seen[local] {
			return
		}
		seen[local] = true
		out = append(out, Candidate{Email: local + "@" + domain, Pattern: tpl, Tier: tier})
	}
	if known != "" {
		for _, f := range n.Firsts {
			for _, l := range n.Lasts {
				add(known, f, l, 1)
			}
		}
	}
	for i, t := range Templates {
		tier := 2
		if i >= commonTier2 {
			tier = 3
		}
		add(t, n.Firsts[0], n.Lasts[0], tier)
	}
	for _, t := range Templates[:commonTier2-1] {
		for fi, f := range n.Firsts {
			for li, l := range n.Lasts {
				if fi+li > 0 {
					add(t, f, l, 3)
				}
			}
		}
	}
	return out
}
