package embedding

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// termHash is FNV-1a 64. The model stores term hashes, not strings, so the
// hash is part of the model format and must be stable across processes.
func termHash(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// pairHash combines two token hashes into the hash of the bigram.
func pairHash(a, b uint64) uint64 {
	h := a*0x9E3779B97F4A7C15 ^ (b + 0x632BE59BD9B4E5A9 + (a << 6) + (a >> 2))
	return h ^ h>>29
}

var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a about above after again against all also am an and any are as at be because been
	before being below between both but by can could did do does doing down during each few for from further had has have
	having he her here hers him his how i if in into is it its itself just me more most my no nor not now of off on once only
	or other our ours out over own same she should so some such than that the their theirs them then there these they this
	those through to too under until up very was we were what when where which while who whom why will with would you your
	yours inc ltd llc gmbh plc corp co company companies www com http https also one two new well known based including
	within many largest first world year years since founded headquartered`) {
		m[w] = true
	}
	return m
}()

// tokens appends the folded word tokens of s to dst: lower-case, accents
// stripped, split on anything but letters and digits; stop words, single
// letters and pure numbers dropped. Han, Hiragana, Katakana and Hangul runs
// become character bigrams, since those scripts do not separate words.
func tokens(dst []string, s string) []string {
	if !isASCII(s) {
		s = norm.NFD.String(s)
	}
	var b strings.Builder
	var cjk []rune
	flushWord := func() {
		if b.Len() == 0 {
			return
		}
		w := b.String()
		b.Reset()
		if len(w) < 2 || stopWords[w] || isNumber(w) {
			return
		}
		dst = append(dst, w)
	}
	flushCJK := func() {
		switch len(cjk) {
		case 0:
			return
		case 1:
			dst = append(dst, string(cjk))
		default:
			for i := 0; i+1 < len(cjk); i++ {
				dst = append(dst, string(cjk[i:i+2]))
			}
		}
		cjk = cjk[:0]
	}
	for _, r := range s {
		switch {
		case r < utf8.RuneSelf:
			if 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			}
			if 'a' <= r && r <= 'z' || '0' <= r && r <= '9' {
				flushCJK()
				b.WriteRune(r)
				continue
			}
			flushWord()
			flushCJK()
		case unicode.Is(unicode.Mn, r):
		case isCJK(r):
			flushWord()
			cjk = append(cjk, r)
		case r == 'ß':
			b.WriteString("ss")
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			flushCJK()
			b.WriteRune(unicode.ToLower(r))
		default:
			flushWord()
			flushCJK()
		}
	}
	flushWord()
	flushCJK()
	return dst
}

func isCJK(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func isNumber(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < '0' || w[i] > '9' {
			return false
		}
	}
	return true
}
