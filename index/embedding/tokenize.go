package embedding

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/snowballstem"
	"golang.org/x/text/unicode/norm"
)

// The tokenizer is part of the model format: a model stores hashes of the
// terms it produces, so any change to folding, stop words, stemming or term
// construction must bump the model version (see modelVersion).

// Rune classes.
const (
	clsSep  uint8 = iota // separates words; a bigram may span it (space, hyphen, &)
	clsWord              // part of a word
	clsJoin              // ignored inside a word (apostrophes, combining marks, soft hyphen)
	clsStop              // ends a phrase: no bigram spans it (. , ; : ! ? brackets quotes)
	clsCJK               // a character of a script written without spaces
)

var asciiClass = func() (t [utf8.RuneSelf]uint8) {
	for c := range t {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
			t[c] = clsWord
		case c == '\'':
			t[c] = clsJoin
		case strings.IndexByte(".,;:!?()[]{}\"|\n\r\t", byte(c)) >= 0:
			t[c] = clsStop
		default:
			t[c] = clsSep
		}
	}
	return t
}()

// asciiLower maps the ASCII letters and digits to their lower-case form and
// every other byte to 0, so one load both classifies and folds a byte.
var asciiLower = func() (t [256]uint8) {
	for c := range utf8.RuneSelf {
		if asciiClass[c] == clsWord {
			t[c] = byte(unicode.ToLower(rune(c)))
		}
	}
	return t
}()

// foldLimit bounds the precomputed fold table: it covers Latin, Greek,
// Cyrillic, Hebrew, Arabic, Indic and Thai, where nearly all accented
// letters fall. Runes above it are classified on the fly (classifyHigh).
const foldLimit = 0x2000

type foldEntry struct {
	cls  uint8
	text string // folded form of a clsWord rune: lower case, no diacritics
}

var (
	foldOnce  sync.Once
	foldTable []foldEntry
)

func foldTableLookup(r rune) foldEntry {
	foldOnce.Do(func() {
		foldTable = make([]foldEntry, foldLimit-utf8.RuneSelf)
		for r := rune(utf8.RuneSelf); r < foldLimit; r++ {
			foldTable[r-utf8.RuneSelf] = foldRune(r)
		}
	})
	return foldTable[r-utf8.RuneSelf]
}

// specialFolds are letters that Unicode does not decompose but that
// Elasticsearch's asciifolding, and readers, treat as Latin letters.
var specialFolds = map[rune]string{
	'ß': "ss", 'ẞ': "ss", 'æ': "ae", 'Æ': "ae", 'œ': "oe", 'Œ': "oe", 'ø': "o", 'Ø': "o",
	'ł': "l", 'Ł': "l", 'đ': "d", 'Đ': "d", 'ð': "d", 'Ð': "d", 'þ': "th", 'Þ': "th", 'ı': "i",
}

// foldRune classifies a non-ASCII rune below foldLimit and folds it when
// it is a letter or digit; it fills the fold table.
func foldRune(r rune) foldEntry {
	if s, ok := specialFolds[r]; ok {
		return foldEntry{clsWord, s}
	}
	switch {
	case r >= 0x0900 && r <= 0x0DFF && (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.In(r, unicode.Mn, unicode.Mc)):
		// Indic scripts write vowels as marks: they are part of the word,
		// not accents to fold away.
		return foldEntry{clsWord, string(r)}
	case unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf) || r == 'ʼ':
		// Accents, and optional vowel points of Arabic and Hebrew, are
		// dropped; so are Thai marks, whose runs become character bigrams.
		return foldEntry{cls: clsJoin}
	case isCJK(r):
		return foldEntry{cls: clsCJK}
	case unicode.Is(unicode.Mc, r):
		return foldEntry{clsWord, string(r)}
	case unicode.IsLetter(r) || unicode.IsDigit(r):
		var b strings.Builder
		for _, d := range norm.NFD.String(string(unicode.ToLower(r))) {
			if !unicode.In(d, unicode.Mn, unicode.Me) {
				b.WriteRune(d)
			}
		}
		return foldEntry{clsWord, b.String()}
	case r == '‐' || r == '‑': // hyphens, like '-'
		return foldEntry{cls: clsSep}
	case unicode.In(r, unicode.Ps, unicode.Pe, unicode.Pi, unicode.Pf, unicode.Po, unicode.Pd) || r == '\u2028' || r == '\u2029':
		return foldEntry{cls: clsStop}
	default:
		return foldEntry{cls: clsSep}
	}
}

// isCJK reports whether r belongs to a script written without spaces
// between words; such runs are split into overlapping character bigrams.
// Korean separates words with spaces and is tokenized as words.
func isCJK(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar) ||
		r == 'ー' || r == 'ｰ' // prolonged sound marks belong to no script but sit inside katakana words
}

// classifyHigh classifies a rune above the fold table. Such letters are
// only lower-cased: decomposition there would split Hangul syllables into
// jamo, and the accented Latin and Greek letters all lie below foldLimit.
func classifyHigh(r rune) uint8 {
	switch {
	case r >= 0xFF01 && r <= 0xFF5E:
		return asciiClass[byte(r-0xFEE0)]
	case unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf) || r == '’' || r == 'ʼ':
		return clsJoin
	case isCJK(r):
		return clsCJK
	case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mc, r):
		return clsWord
	case r == '‐' || r == '‑':
		return clsSep
	case unicode.In(r, unicode.Ps, unicode.Pe, unicode.Pi, unicode.Pf, unicode.Po, unicode.Pd) || r == '\u2028' || r == '\u2029':
		return clsStop
	}
	return clsSep
}

// maxStopLen is the length of the longest stop word: longer words skip the
// map lookup.
var maxStopLen = func() (n int) {
	for w := range stopWords {
		n = max(n, len(w))
	}
	return n
}()

// stopWords are English function words, which say nothing about what a
// company does. "it" is not one: "IT services" matters more than the
// pronoun hurts (IDF discounts it). Tokens shorter than two bytes and pure
// numbers are dropped as well.
var stopWords = func() map[string]struct{} {
	m := map[string]struct{}{}
	for _, w := range strings.Fields(`a about above after again against all also am among an and any are around as at be
	because been before being below between both but by can could did do does doing down during each either et etc few for
	from further had has have having he her here hers him his how however i if in into is its itself just may me might
	more most much my no nor not of off on once only or other others our ours out over own per same several she should
	since so some such than that the their theirs them then there these they this those through thus to too under until up
	upon us very via was we were what when where whether which while who whom whose why will with within without would you
	your yours`) {
		m[w] = struct{}{}
	}
	return m
}()

// stopTable holds the stop words by their term hash (open addressing,
// linear probing), so a word is checked with the hash the tokenizer
// computes anyway rather than by hashing it again for a map.
var stopTable = func() (t [512]struct {
	h uint64
	w string
}) {
	for w := range stopWords {
		h := termHash([]byte(w))
		i := h & uint64(len(t)-1)
		for t[i].w != "" {
			i = (i + 1) & uint64(len(t)-1)
		}
		t[i].h, t[i].w = h, w
	}
	return t
}()

// isStopWord reports whether w, whose term hash is h, is a stop word.
func isStopWord(w []byte, h uint64) bool {
	for i := h & uint64(len(stopTable)-1); stopTable[i].w != ""; i = (i + 1) & uint64(len(stopTable)-1) {
		if stopTable[i].h == h && stopTable[i].w == string(w) {
			return true
		}
	}
	return false
}

// termSink receives the terms of a text, each with its termHash: unigrams,
// word bigrams ("w1 w2") and character bigrams. The bytes are valid only
// during the call, and for word bigrams only when the tokenizer's text flag
// is set (hashing needs no copy of the pair).
type termSink interface {
	term(t []byte, h uint64)
}

// tokenizer holds the buffers of one tokenization so repeated calls do not
// allocate.
type tokenizer struct {
	text             bool // build word bigram bytes for the sink
	word, prev, pair []byte
	// The hashes of word and of the bigram it would end (from prevSpace
	// on), kept up to date as bytes are appended: hashing in the same pass
	// as scanning costs almost nothing beside it, where hashing the word
	// again at its end waits on every multiply.
	wordHash, pairHash uint64
	prevSpace          uint64   // hash state after the previous word and a space
	cjk                []byte   // the folded runes of the current CJK run
	cjkEnds            []int    // end offset of each rune in cjk
	hashes             []uint64 // the term hashes, when terms has no sink
	hasPrev            bool
	stemming           Stemming // StemPlural when zero
	env                *snowballstem.Env
	stems              map[uint64]string // memo: word hash → stem ("": unchanged)
}

// appendWord appends folded bytes to the current word.
func (tk *tokenizer) appendWord(b string) {
	if len(tk.word) == 0 {
		tk.wordHash, tk.pairHash = fnvOffset, tk.prevSpace
	}
	tk.word = append(tk.word, b...)
	tk.wordHash, tk.pairHash = fnvAdd(tk.wordHash, b), fnvAdd(tk.pairHash, b)
}

// emit hands a term to out or, without a sink, appends its hash to
// tk.hashes: Embed and Fit need only the hashes, and a slice of them costs
// no interface call per term and lets the caller look them up in a loop
// whose memory accesses overlap.
func (tk *tokenizer) emit(out termSink, t []byte, h uint64) {
	if out == nil {
		tk.hashes = append(tk.hashes, h)
		return
	}
	out.term(t, h)
}

// terms emits the terms of s to out. Words are lower-cased, stripped of
// diacritics and lightly stemmed (plural s); stop words, one-letter words
// and numbers are dropped. A bigram joins two consecutive kept words unless
// a stop word or punctuation that ends a phrase lies between them: "bank of
// america" gives no "bank america", which measured slightly better than
// bridging stop words. Without a sink (out nil), the hashes of the terms
// are appended to tk.hashes.
func (tk *tokenizer) terms(s string, out termSink) {
	tk.word, tk.cjk, tk.cjkEnds, tk.hasPrev = tk.word[:0], tk.cjk[:0], tk.cjkEnds[:0], false
	for i := 0; i < len(s); {
		c := s[i]
		var e foldEntry
		if c < utf8.RuneSelf {
			if asciiLower[c] != 0 {
				// A run of ASCII letters and digits, most of any text:
				// folded and hashed in one tight loop, copied in one move.
				tk.flushCJK(out)
				h, p := tk.wordHash, tk.pairHash
				if len(tk.word) == 0 {
					h, p = fnvOffset, tk.prevSpace
				}
				start, upper := i, uint8(0)
				for ; i < len(s); i++ {
					l := asciiLower[s[i]]
					if l == 0 {
						break
					}
					upper |= l ^ s[i]
					h = (h ^ uint64(l)) * fnvPrime
					p = (p ^ uint64(l)) * fnvPrime
				}
				n := len(tk.word)
				tk.word = append(tk.word, s[start:i]...)
				if upper != 0 {
					for k := n; k < len(tk.word); k++ {
						tk.word[k] = asciiLower[tk.word[k]]
					}
				}
				tk.wordHash, tk.pairHash = h, p
				continue
			}
			i++
			e.cls = asciiClass[c]
			// "e-commerce", "x-ray": a hyphen after a single letter joins.
			if c == '-' && len(tk.word) == 1 {
				continue
			}
		} else {
			r, size := utf8.DecodeRuneInString(s[i:])
			i += size
			if r < foldLimit {
				e = foldTableLookup(r)
			} else if e.cls = classifyHigh(r); e.cls == clsWord {
				if r >= 0xFF01 && r <= 0xFF5E { // full-width ASCII
					r = unicode.ToLower(r - 0xFEE0)
				}
				tk.flushCJK(out)
				var b [utf8.UTFMax]byte
				tk.appendWord(string(utf8.AppendRune(b[:0], unicode.ToLower(r))))
				continue
			}
			if e.cls == clsCJK {
				tk.flushWord(out)
				tk.cjk = utf8.AppendRune(tk.cjk, r)
				tk.cjkEnds = append(tk.cjkEnds, len(tk.cjk))
				continue
			}
		}
		switch e.cls {
		case clsWord:
			tk.flushCJK(out)
			tk.appendWord(e.text)
		case clsJoin:
		case clsSep:
			tk.flushWord(out)
			tk.flushCJK(out)
		case clsStop:
			tk.flushWord(out)
			tk.flushCJK(out)
			tk.hasPrev = false
		}
	}
	tk.flushWord(out)
	tk.flushCJK(out)
}

func (tk *tokenizer) flushWord(out termSink) {
	w, h, p := tk.word, tk.wordHash, tk.pairHash
	if len(w) == 0 {
		return
	}
	tk.word = tk.word[:0]
	if len(w) < 2 || allDigits(w) {
		return
	}
	if len(w) <= maxStopLen && isStopWord(w, h) {
		tk.hasPrev = false
		return
	}
	if tk.stemming == StemEnglish {
		if s, changed := tk.snowball(w, h); changed {
			w, h = s, termHash(s)
			p = fnvAdd(tk.prevSpace, s)
		}
	} else if s := stem(w); len(s) != len(w) {
		// stem shortens the words it changes. The hashes drop what it cut
		// rather than hash the stem again: an FNV-1a step can be undone.
		if len(s) == len(w)-2 && s[len(s)-1] == 'y' { // "-ies" to "-y"
			h, p = fnvAdd(fnvSub(h, "ies"), "y"), fnvAdd(fnvSub(p, "ies"), "y")
		} else { // a cut, with the bytes left in place
			h, p = fnvSub(h, w[len(s):]), fnvSub(p, w[len(s):])
		}
		w = s
	}
	tk.emit(out, w, h)
	if tk.hasPrev {
		if tk.text {
			tk.pair = append(append(append(tk.pair[:0], tk.prev...), ' '), w...)
		}
		tk.emit(out, tk.pair, p)
	}
	if tk.text {
		tk.prev = append(tk.prev[:0], w...)
	}
	tk.prevSpace = fnvAdd(h, space)
	tk.hasPrev = true
}

var space = []byte{' '}

// flushCJK emits the character bigrams of a run (the lone character of a
// one-character run). The run stands apart from word bigrams. Called at
// every word and separator, almost always without a run: the check is
// inlined, the work is not.
func (tk *tokenizer) flushCJK(out termSink) {
	if len(tk.cjkEnds) != 0 {
		tk.flushCJKRun(out)
	}
}

func (tk *tokenizer) flushCJKRun(out termSink) {
	n := len(tk.cjkEnds)
	tk.hasPrev = false
	if n == 1 {
		tk.emit(out, tk.cjk, fnvAdd(fnvOffset, tk.cjk))
	}
	start := 0
	for k := 0; k+1 < n; k++ {
		t := tk.cjk[start:tk.cjkEnds[k+1]]
		tk.emit(out, t, fnvAdd(fnvOffset, t))
		start = tk.cjkEnds[k]
	}
	tk.cjk, tk.cjkEnds = tk.cjk[:0], tk.cjkEnds[:0]
}

func allDigits(w []byte) bool {
	for _, c := range w {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// stem removes an English plural s so "banks" meets "bank" and "services"
// meets "service": "-sses" to "-ss", "-ies" to "-y", and a final "s" not
// after s, u or i ("glass", "status" and "analysis" stay). Only ASCII words
// of four letters or more are touched, so "gas" stays. It may rewrite w in
// place. On the Wikipedia set it lifts precision@10 by about 0.01.
func stem(w []byte) []byte {
	n := len(w)
	if n < 4 || w[n-1] != 's' {
		return w
	}
	for _, c := range w {
		if c >= utf8.RuneSelf {
			return w
		}
	}
	// Compared as string(w[n-k:]) == "...", which does not copy w, where
	// strings.HasSuffix(string(w), ...) did.
	switch {
	case string(w[n-4:]) == "sses":
		return w[:n-2]
	case string(w[n-3:]) == "ies" && n > 4:
		w[n-3] = 'y'
		return w[:n-2]
	}
	switch w[n-2] {
	case 's', 'u', 'i':
		return w
	}
	return w[:n-1]
}

// termCollector gathers terms as strings, for Terms.
type termCollector struct{ out []string }

func (c *termCollector) term(t []byte, _ uint64) { c.out = append(c.out, string(t)) }

// Terms returns the terms the embedder reads in text, in order: unigrams,
// word bigrams joined by a space, and character bigrams of Chinese,
// Japanese and Thai runs. It shows what a model can know about a text and
// lets evaluations build baselines over the same features.
func Terms(text string) []string { return TermsWith(text, StemDefault) }

// TermsWith is Terms with the given stemmer (StemDefault: StemPlural).
func TermsWith(text string, s Stemming) []string {
	tk := tokenizer{text: true, stemming: s}
	var c termCollector
	tk.terms(text, &c)
	return c.out
}

// Term hashes are 64-bit FNV-1a of a term's folded bytes. Models store
// hashes rather than strings; a collision between two of a model's terms is
// about one in 10^10 for a 30,000-term vocabulary.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// fnvAdd continues an FNV-1a hash over b, so the hash of "w1 w2" follows
// from the state after "w1 " without copying the pair.
func fnvAdd[B []byte | string](h uint64, b B) uint64 {
	for i := 0; i < len(b); i++ {
		h ^= uint64(b[i])
		h *= fnvPrime
	}
	return h
}

// fnvPrimeInverse is the inverse of fnvPrime modulo 2^64.
const fnvPrimeInverse = 0xce965057aff6957b

// fnvSub undoes fnvAdd: fnvSub(fnvAdd(h, b), b) == h.
func fnvSub[B []byte | string](h uint64, b B) uint64 {
	for i := len(b) - 1; i >= 0; i-- {
		h *= fnvPrimeInverse
		h ^= uint64(b[i])
	}
	return h
}

// termHash is the hash of a whole term.
func termHash(t []byte) uint64 { return fnvAdd(fnvOffset, t) }
