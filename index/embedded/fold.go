package embedded

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// foldWords lower-cases s, strips diacritics (ß becomes ss, as
// Elasticsearch's asciifolding does), and returns its words joined by single
// spaces, so a phrase matches as a substring bounded by spaces.
func foldWords(s string) string {
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

// containsPhrase reports whether folded text contains folded phrase as
// whole consecutive words.
func containsPhrase(text, phrase string) bool {
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

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
