package saved

import (
	"strings"
	"unicode"
)

// Tag limits (spec: at most 20 tags, each 2-50 characters).
const (
	MaxTags      = 20
	MinTagLen    = 2
	MaxTagLen    = 50
	MaxNameLen   = 255
	maxListedBad = 20
)

// NormalizeTag is a tag's stored form: lower-cased, runs of white space
// become one hyphen, characters other than letters, digits, '-' and '_'
// are removed, and hyphens at either end are trimmed. The result may be
// shorter than MinTagLen (even empty); ValidTags refuses those.
func NormalizeTag(raw string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.TrimSpace(raw) {
		switch {
		case unicode.IsSpace(r):
			space = true
			continue
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
		default:
			continue
		}
		if space {
			b.WriteByte('-')
			space = false
		}
		b.WriteRune(unicode.ToLower(r))
	}
	out := b.String()
	for strings.Contains(out, "--") {
		out = strings.ReplaceAll(out, "--", "-")
	}
	return strings.Trim(out, "-")
}

// ValidTags normalizes tags for storage: duplicates (after normalization)
// are dropped keeping the first, and each must be 2-50 characters, at most
// 20 in all. A nil or empty list is an empty list.
func ValidTags(raw []string) ([]string, error) {
	out := make([]string, 0, len(raw))
	seen := map[string]bool{}
	for i, t := range raw {
		n := NormalizeTag(t)
		if l := len([]rune(n)); l < MinTagLen || l > MaxTagLen {
			return nil, invalid("tags", "tag %d (%q) is %q after normalization: each tag must be %d-%d characters of letters, digits, '-' or '_'",
				i, t, n, MinTagLen, MaxTagLen)
		}
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	if len(out) > MaxTags {
		return nil, invalid("tags", "at most %d tags, got %d", MaxTags, len(out))
	}
	return out, nil
}

// FilterTags reads the tags of a list filter: each value may hold several
// comma-separated tags; each is normalized like a stored tag, and those
// that normalize to nothing are ignored.
func FilterTags(raw []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, v := range raw {
		for _, t := range strings.Split(v, ",") {
			if n := NormalizeTag(t); n != "" && !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	return out
}
