package textfold

import (
	"testing"
	"unicode/utf8"
)

func TestWords(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Zero-trust Endpoint Protection", "zero trust endpoint protection"},
		{"Straße und Büro", "strasse und buro"},
		{"  Jürgen   MÜLLER! ", "jurgen muller"},
		{"Ana García-Núñez", "ana garcia nunez"},
		{"Ångström Señor Façade", "angstrom senor facade"},
		{"Zoë O'Brien", "zoe o brien"},
		{"東京 株式会社", "東京 株式会社"},
		{"rocket 🚀 launch", "rocket launch"},
		{"İstanbul", "istanbul"},
		{"", ""},
		{"--", ""},
	} {
		if got := Words(tc.in); got != tc.want {
			t.Errorf("Words(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestContainsPhrase(t *testing.T) {
	for _, tc := range []struct {
		text, phrase string
		want         bool
	}{
		{"Zero-trust Endpoint Protection", "endpoint protection", true},
		{"Straße und Büro", "strasse und buro", true},
		{"secure endpoints", "endpoint", false},
		{"a b c", "b c", true},
		{"ab abc", "abc", true},
		{"abc", "", false},
	} {
		if got := ContainsPhrase(Words(tc.text), Words(tc.phrase)); got != tc.want {
			t.Errorf("ContainsPhrase(%q, %q) = %v", tc.text, tc.phrase, got)
		}
	}
}

func FuzzWords(f *testing.F) {
	f.Add("Straße und Büro")
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return // requests and documents are UTF-8 by then
		}
		w := Words(s)
		if Words(w) != w {
			t.Fatalf("Words is not idempotent on %q: %q then %q", s, w, Words(w))
		}
	})
}
