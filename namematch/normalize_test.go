package namematch

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestNormalize(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Acme Inc.", "acme"},
		{"ACME, INC", "acme"},
		{"Acme LLC", "acme"},
		{"Wachdienst GmbH & Co. KG", "wachdienst"},
		{"Société Générale S.A.", "societe generale"},
		{"Fiat S.p.A.", "fiat"},
		{"Philips B.V.", "philip"},
		{"Volvo AB (publ)", "volvo"},
		{"Nokia Oyj", "nokia"},
		{"Nokia Oy", "nokia"},
		{"Woolworths Pty Ltd", "woolworth"},
		{"Sony K.K.", "sony"},
		{"Inditex, S.L.", "inditex"},
		{"Bimbo S.A. de C.V.", "bimbo"},
		{"Dupont SARL", "dupont"},
		{"Hartley & Co.", "hartley"},
		{"Hartley & Moore", "hartley moore"},
		{"Hartley and Moore LLP", "hartley moore"},
		{"Acme Intl", "acme intl"},
		{"Acme International", "acme intl"},
		{"Int'l Business Machines Corp", "intl business machine"},
		{"Zentrix Technologies", "zentrix tech"},
		{"Zentrix Tech", "zentrix tech"},
		{"Blue Mfg Co", "blue mfg"},
		{"Blue Manufacturing Company", "blue mfg"},
		{"Summit Svcs", "summit svc"},
		{"Summit Services", "summit svc"},
		{"BluePeak Dental", "blue peak dental"},
		{"Ünïcödé Straße", "unicode strasse"},
		{"Øresund Æble", "oresund aeble"},
		{"PT Telkom Indonesia Tbk", "telkom indonesia"},
		{"The Co.", "the co"},
		{"Inc.", "inc"},
		{"  ", ""},
		{"---", ""},
	} {
		got := Normalize(tc.in)
		if s := strings.Join(got.Tokens, " "); s != tc.want {
			t.Errorf("Normalize(%q) = %q, want %q", tc.in, s, tc.want)
		}
		if got.Compact != strings.ReplaceAll(tc.want, " ", "") {
			t.Errorf("Normalize(%q).Compact = %q", tc.in, got.Compact)
		}
	}
}

func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"Acme Inc.", "S.p.A.", "Ünïcödé GmbH & Co. KG", "&&&", "BluePeak", "a.b.c.", "\xff\xfe", "Ǆ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := Normalize(s)
		if !utf8.ValidString(n.Compact) {
			return // invalid input bytes pass through as U+FFFD at most
		}
		for _, tok := range n.Tokens {
			if tok == "" || strings.ContainsAny(tok, " \t\n") {
				t.Fatalf("Normalize(%q): bad token %q", s, tok)
			}
		}
		if n.Compact != strings.Join(n.Tokens, "") {
			t.Fatalf("Normalize(%q): compact %q of %q", s, n.Compact, n.Tokens)
		}
		if isASCII(s) {
			for _, r := range n.Compact {
				if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
					t.Fatalf("Normalize(%q): compact %q has %q", s, n.Compact, r)
				}
			}
		}
		// Matching never panics on any name.
		x := BuildFrom(nil)
		if r := x.NewMatcher().Match(Query{Name: s}); r.Domain != "" {
			t.Fatalf("empty index matched %q", s)
		}
	})
}
