// Package textfold is the one text folding both search engines use, so a
// phrase or a name matches the same text on the embedded engine and on
// Elasticsearch: lower case, diacritics stripped (ß becomes ss, as
// Elasticsearch's asciifolding does), words joined by single spaces.
package textfold

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Words folds s: lower case, diacritics stripped, every run of
// characters that are neither letters nor digits becomes one space, no
// space at either end. A phrase then matches folded text as a substring
// bounded by spaces (ContainsPhrase).
func Words(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := true
	if !isASCII(s) {
		s = norm.NFD.String(s)
	}
	for _, r := range s {
		switch {
		case unicode.Is(unicode.Mn, r):
			continue
		case r == 'ß':
			b.WriteString("ss")
			space = false
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(unicode.ToLower(r))
			space = false
		default:
			if !space {
				b.WriteByte(' ')
				space = true
			}
		}
	}
	return strings.TrimSuffix(b.String(), " ")
}

// ContainsPhrase reports whether folded text contains folded phrase as
// whole consecutive words.
func ContainsPhrase(text, phrase string) bool {
	if phrase == "" {
		return false
	}
	for i := 0; ; {
		j := strings.Index(text[i:], phrase)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(phrase)
		if (j == 0 || text[j-1] == ' ') && (end == len(text) || text[end] == ' ') {
			return true
		}
		i = j + 1
	}
}

// isASCII lets ASCII text, which NFD leaves unchanged, skip normalizing.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
