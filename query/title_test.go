package query

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/openprospect/prospectd/index"
)

func TestParseTitles(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want TitleTerm
	}{
		// A word or phrase; case kept, spaces collapsed.
		{"Head of  Growth", TitleTerm{Text: "Head of Growth", Alternatives: []string{"Head of Growth"}}},
		// "+" makes a term required.
		{"+marketing", TitleTerm{Text: "marketing", Required: true, Alternatives: []string{"marketing"}}},
		// C-suite acronyms expand to the spelled-out form ...
		{"CFO", TitleTerm{Text: "CFO", Alternatives: []string{"CFO", "chief financial officer"}}},
		// ... and back, inside longer terms too.
		{"Chief Executive Officer", TitleTerm{Text: "Chief Executive Officer", Alternatives: []string{"Chief Executive Officer", "ceo"}}},
		{"deputy ciso", TitleTerm{Text: "deputy ciso", Alternatives: []string{"deputy ciso", "deputy chief information security officer"}}},
		// Quoting matches literally: no expansion.
		{`"CTO"`, TitleTerm{Text: "CTO", Literal: true, Alternatives: []string{"CTO"}}},
		{`+"vp sales"`, TitleTerm{Text: "vp sales", Required: true, Literal: true, Alternatives: []string{"vp sales"}}},
	} {
		got, err := ParseTitles([]string{tc.in})
		if err != nil {
			t.Fatalf("%q: %v", tc.in, err)
		}
		slices.Sort(got[0].Alternatives[1:])
		slices.Sort(tc.want.Alternatives[1:])
		if !reflect.DeepEqual(got[0], tc.want) {
			t.Errorf("%q: got %+v, want %+v", tc.in, got[0], tc.want)
		}
	}
	cto, _ := ParseTitles([]string{"cto"})
	if !slices.Contains(cto[0].Alternatives, "chief technology officer") || !slices.Contains(cto[0].Alternatives, "chief technical officer") {
		t.Errorf("cto alternatives %v", cto[0].Alternatives)
	}
	for _, bad := range []string{"", "  ", "+", `"unbalanced`, `a "b" c`, `""`, "+" + strings.Repeat("x", 201)} {
		if _, err := ParseTitles([]string{bad}); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestTitleFilter(t *testing.T) {
	terms, _ := ParseTitles([]string{"+sales", "vp", `"head of"`})
	want := index.And{
		index.Phrase{Field: index.TitleField, Text: "sales"},
		index.Or{index.Phrase{Field: index.TitleField, Text: "vp"}, index.Phrase{Field: index.TitleField, Text: "head of"}},
	}
	if got := TitleFilter(terms); !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v", got)
	}
	one, _ := ParseTitles([]string{"engineer"})
	if got := TitleFilter(one); !reflect.DeepEqual(got, index.Or{index.Phrase{Field: index.TitleField, Text: "engineer"}}) {
		t.Errorf("single optional term: %#v", got)
	}
	neg, _ := ParseTitles([]string{"intern", "+assistant"})
	if got := NegateTitleFilter(neg); !reflect.DeepEqual(got, index.Not{Filter: index.Or{
		index.Phrase{Field: index.TitleField, Text: "intern"}, index.Phrase{Field: index.TitleField, Text: "assistant"}}}) {
		t.Errorf("negation: %#v", got)
	}
}

func FuzzParseTitles(f *testing.F) {
	f.Add(`+"vp sales"`)
	f.Add("chief technology officer emea")
	f.Fuzz(func(t *testing.T, s string) {
		terms, err := ParseTitles([]string{s})
		if err != nil {
			return
		}
		for _, term := range terms {
			if term.Text == "" || len(term.Alternatives) == 0 || term.Alternatives[0] != term.Text || strings.Contains(term.Text, `"`) {
				t.Fatalf("%q -> %+v", s, term)
			}
			if term.Literal && len(term.Alternatives) != 1 {
				t.Fatalf("literal term expanded: %+v", term)
			}
		}
		_ = TitleFilter(terms)
		_ = NegateTitleFilter(terms)
	})
}
