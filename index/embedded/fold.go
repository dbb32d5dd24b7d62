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
	for _, r := range norm.NFD.String(s) {
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
