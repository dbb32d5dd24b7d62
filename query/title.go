package query

import (
	"fmt"
	"strings"

	"github.com/openprospect/prospectd/index"
)

// TitleTerm is one parsed item of the title (or negate_title) parameter.
type TitleTerm struct {
	Text     string // the phrase, without quotes or "+"
	Required bool   // "+" prefix: every required term must match
	Literal  bool   // quoted: matched as written, no acronym expansion
	// Alternatives are the phrases that match this term: the text and,
	// unless literal, its C-suite acronym or spelled-out form.
	Alternatives []string
}

// ParseTitles parses title items. Each item is one term: a word or a
// phrase (matched as consecutive words, ignoring case and accents),
// optionally quoted to match literally, optionally prefixed by "+" to be
// required. A C-suite acronym and its spelled-out form match each other
// ("CTO" matches "Chief Technology Officer" and back) unless quoted.
func ParseTitles(items []string) ([]TitleTerm, error) {
	var out []TitleTerm
	for _, raw := range items {
		s := strings.TrimSpace(raw)
		var t TitleTerm
		if strings.HasPrefix(s, "+") {
			t.Required = true
			s = strings.TrimSpace(s[1:])
		}
		if strings.HasPrefix(s, `"`) {
			if len(s) < 2 || !strings.HasSuffix(s, `"`) {
				return nil, fmt.Errorf("%q: unbalanced quote", raw)
			}
			s = strings.TrimSpace(s[1 : len(s)-1])
			t.Literal = true
		}
		if strings.Contains(s, `"`) {
			return nil, fmt.Errorf("%q: quotes must enclose the whole term", raw)
		}
		s = strings.Join(strings.Fields(s), " ")
		if s == "" {
			return nil, fmt.Errorf("%q: empty term", raw)
		}
		if len([]rune(s)) > 200 {
			return nil, fmt.Errorf("%q: a term has at most 200 characters", raw[:50])
		}
		t.Text = s
		t.Alternatives = []string{s}
		if !t.Literal {
			for _, alt := range expandCSuite(s) {
				t.Alternatives = appendNew(t.Alternatives, alt)
			}
		}
		out = append(out, t)
	}
	return out, nil
}

// TitleFilter is the filter of parsed title terms: every required term,
// and at least one of the optional ones when there are any.
func TitleFilter(terms []TitleTerm) index.Filter {
	var and index.And
	var optional index.Or
	for _, t := range terms {
		f := termFilter(t)
		if t.Required {
			and = append(and, f)
		} else {
			optional = append(optional, f)
		}
	}
	if len(optional) > 0 {
		and = append(and, optional)
	}
	if len(and) == 1 {
		return and[0]
	}
	return and
}

// NegateTitleFilter matches contacts whose title matches any of the terms
// ("+" has no meaning in a negation).
func NegateTitleFilter(terms []TitleTerm) index.Filter {
	var or index.Or
	for _, t := range terms {
		or = append(or, termFilter(t))
	}
	return index.Not{Filter: or}
}

func termFilter(t TitleTerm) index.Filter {
	if len(t.Alternatives) == 1 {
		return index.Phrase{Field: index.TitleField, Text: t.Alternatives[0]}
	}
	or := make(index.Or, len(t.Alternatives))
	for i, a := range t.Alternatives {
		or[i] = index.Phrase{Field: index.TitleField, Text: a}
	}
	return or
}

// cSuite maps C-suite acronyms to their spelled-out forms.
var cSuite = map[string][]string{
	"ceo":  {"chief executive officer"},
	"cto":  {"chief technology officer", "chief technical officer"},
	"cfo":  {"chief financial officer"},
	"coo":  {"chief operating officer", "chief operations officer"},
	"cmo":  {"chief marketing officer"},
	"cio":  {"chief information officer"},
	"ciso": {"chief information security officer"},
	"cso":  {"chief security officer", "chief strategy officer"},
	"cro":  {"chief revenue officer", "chief risk officer"},
	"cpo":  {"chief product officer", "chief people officer"},
	"cdo":  {"chief data officer", "chief digital officer"},
	"chro": {"chief human resources officer"},
	"cco":  {"chief commercial officer", "chief customer officer", "chief compliance officer"},
	"clo":  {"chief legal officer"},
	"cao":  {"chief administrative officer"},
}

var spelledOut = func() map[string]string {
	m := map[string]string{}
	for acr, forms := range cSuite {
		for _, f := range forms {
			m[f] = acr
		}
	}
	return m
}()

// expandCSuite returns the other forms of a term that is a C-suite
// acronym or spelled-out title, or that contains one as a word sequence
// ("CTO Europe" -> "chief technology officer europe").
func expandCSuite(s string) []string {
	low := strings.ToLower(s)
	var out []string
	words := strings.Fields(low)
	for i, w := range words {
		for _, f := range cSuite[w] {
			out = append(out, strings.Join(append(append(append([]string{}, words[:i]...), f), words[i+1:]...), " "))
		}
	}
	for form, acr := range spelledOut {
		if i := strings.Index(" "+low+" ", " "+form+" "); i >= 0 {
			out = append(out, strings.TrimSpace(low[:i]+acr+low[i+len(form):]))
		}
	}
	return out
}
