// Package patternvote is the one place the email-pattern inference of
// contact search reads addresses: the local-part templates it tries, the
// folding of a name into the first and last name the templates use, and
// the vote of one known address. query infers a domain's pattern from
// contact profiles with it; the embedded engine keeps each contact's vote
// resident (a byte) and tallies a domain's votes without reading profiles.
// Both must give the same pattern, so neither keeps its own copy.
//
// It imports nothing of the module: index, the engines and query use it.
//
// The embedded engine stores, in the entries it writes, whether its
// folded name gives NameParts' first and last name or else the parts
// themselves: a change to Fold or NameParts must come with rewriting those
// entries (or marking them unknown); the templates and the vote are
// computed when entries are read and may change freely.
package patternvote

import (
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// NumTemplates is the number of Templates.
const NumTemplates = 12

// Templates are the local-part templates tried, most common first; an
// address votes for the first one it follows. Their order is part of the
// inference (ties go to the earlier template), and the embedded engine
// stores an index into them per contact in memory only, so changing the
// list needs no data migration.
var Templates = [NumTemplates]string{"{first}.{last}", "{first}{last}", "{f}{last}", "{first}", "{first}_{last}", "{f}.{last}",
	"{last}", "{first}{l}", "{last}.{first}", "{last}{f}", "{first}-{last}", "{f}{l}"}

// Vote is what one known address tells about its domain's template.
type Vote struct {
	// Weight is 0 when the address does not count (no '@', another host
	// than the domain, no first name), 2 when it was validated, else 1.
	Weight int
	// Template is the index of the first template the address follows,
	// -1 when it follows none (it still counts in the total).
	Template int
}

// VoteOf returns the vote of a contact at domain with this address and
// name. The address is compared lower-cased; the domain as given.
func VoteOf(domain, email, name string, validated bool) Vote {
	first, last := NameParts(name)
	return VoteOfParts(domain, email, first, last, validated)
}

// VoteOfParts is VoteOf with the name already split by NameParts.
func VoteOfParts(domain, email, first, last string, validated bool) Vote {
	return VoteOfLower(domain, strings.ToLower(email), first, last, validated)
}

// VoteOfLower is VoteOfParts with the address already lower-cased by
// strings.ToLower (the embedded engine keeps it so).
func VoteOfLower(domain, email, first, last string, validated bool) Vote {
	local, host, ok := strings.Cut(email, "@")
	if !ok || host != domain || first == "" {
		return Vote{Template: -1}
	}
	v := Vote{Weight: 1, Template: -1}
	if validated {
		v.Weight = 2
	}
	for t, tpl := range Templates {
		if follows(tpl, first, last, local) {
			v.Template = t
			break
		}
	}
	return v
}

// Tally sums the votes of a domain's known addresses. The weights are
// small integers, so the sums are exact and the order of the votes does
// not matter.
type Tally struct {
	Votes [NumTemplates]int32 // weight per template
	Total int32               // weight of every counted address
}

// Add counts one vote.
func (t *Tally) Add(v Vote) {
	if v.Weight == 0 {
		return
	}
	t.Total += int32(v.Weight)
	if v.Template >= 0 {
		t.Votes[v.Template] += int32(v.Weight)
	}
}

// Best returns the template most of the evidence follows (ties: the
// earlier template) and its confidence, the share of the evidence the
// winner explains shrunk for small samples: votes / (total + 1), rounded
// to 0.01. ok is false when no address follows any template.
func (t *Tally) Best() (template string, confidence float64, ok bool) {
	best, bestVotes := -1, int32(0)
	for i, n := range t.Votes {
		if n > bestVotes {
			best, bestVotes = i, n
		}
	}
	if best < 0 {
		return "", 0, false
	}
	return Templates[best], math.Round(float64(bestVotes)/float64(t.Total+1)*100) / 100, true
}

// NameParts returns the folded ASCII first and last name (Fold): the first
// and the last word, "" for a missing one.
func NameParts(name string) (first, last string) {
	words := strings.Fields(Fold(name))
	if len(words) == 0 {
		return "", ""
	}
	if len(words) == 1 {
		return words[0], ""
	}
	return words[0], words[len(words)-1]
}

// Apply fills template t with a first and last name; "" when t needs a
// last name and there is none. Text that is not a placeholder is kept.
func Apply(t, first, last string) string {
	f, l := initials(first, last)
	if last == "" && strings.Contains(t, "{last}") {
		return ""
	}
	// A scan instead of a strings.Replacer: the inference applies up to 12
	// templates to each of up to 200 contacts a domain, and building a
	// Replacer each time cost more than the rest of the inference.
	var b strings.Builder
	b.Grow(len(t) + len(first) + len(last))
	for t != "" {
		i := strings.IndexByte(t, '{')
		if i < 0 {
			b.WriteString(t)
			break
		}
		b.WriteString(t[:i])
		t = t[i:]
		token, val := placeholder(t, first, last, f, l)
		b.WriteString(val)
		t = t[len(token):]
	}
	return b.String()
}

// follows reports whether Apply(t, first, last) == local, without
// building the string (the embedded engine votes every contact it loads).
func follows(t, first, last, local string) bool {
	f, l := initials(first, last)
	if last == "" && strings.Contains(t, "{last}") {
		return local == ""
	}
	for t != "" {
		i := strings.IndexByte(t, '{')
		if i < 0 {
			return local == t
		}
		if !strings.HasPrefix(local, t[:i]) {
			return false
		}
		local, t = local[i:], t[i:]
		token, val := placeholder(t, first, last, f, l)
		if !strings.HasPrefix(local, val) {
			return false
		}
		local, t = local[len(val):], t[len(token):]
	}
	return local == ""
}

func initials(first, last string) (f, l string) {
	if first != "" {
		f = first[:1]
	}
	if last != "" {
		l = last[:1]
	}
	return f, l
}

// placeholder returns the placeholder t starts with ('{' first) and its
// value; a '{' that starts none stands for itself.
func placeholder(t, first, last, f, l string) (token, val string) {
	switch {
	case strings.HasPrefix(t, "{first}"):
		return "{first}", first
	case strings.HasPrefix(t, "{last}"):
		return "{last}", last
	case strings.HasPrefix(t, "{f}"):
		return "{f}", f
	case strings.HasPrefix(t, "{l}"):
		return "{l}", l
	}
	return "{", "{"
}

// Fold lower-cases and strips accents (FoldAccents); '-' and '\” are
// dropped ("O'Brien" -> "obrien"), every other character but a-z becomes a
// space.
func Fold(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(FoldAccents(s)) {
		switch {
		case r >= 'a' && r <= 'z', r == ' ':
			b.WriteRune(r)
		case r == '-' || r == '\'':
		default:
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// letterFolder spells out the letters that have no combining mark; a
// Replacer is safe for concurrent use.
var letterFolder = strings.NewReplacer("ß", "ss", "ø", "o", "Ø", "O", "æ", "ae", "Æ", "AE", "ł", "l", "Ł", "L", "đ", "d", "ı", "i", "İ", "I")

// FoldAccents strips combining marks ("Müller" -> "Muller") and spells out
// the letters that have none ("ß" -> "ss", "ø" -> "o"). A transform.Chain
// keeps state between calls, so concurrent callers each make their own.
func FoldAccents(s string) string {
	ascii := true
	for i := 0; i < len(s) && ascii; i++ {
		ascii = s[i] < utf8.RuneSelf
	}
	if ascii {
		return s // nothing to decompose or spell out
	}
	out, _, err := transform.String(transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC), s)
	if err != nil {
		out = s
	}
	return letterFolder.Replace(out)
}
