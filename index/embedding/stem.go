package embedding

import (
	"unicode/utf8"

	"github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/english"
)

// Stemming selects how the tokenizer reduces words to stems. It is part of
// a model (its format version says which), so a model always tokenizes as
// when it was fitted.
type Stemming uint8

const (
	// StemDefault selects the default, StemPlural.
	StemDefault Stemming = iota
	// StemPlural removes an English plural s only (see stem): the
	// tokenizer of format-version-2 models.
	StemPlural
	// StemEnglish applies the Snowball English (Porter2) stemmer to plain
	// ASCII words, whatever the text's language: "banking" meets "bank",
	// "manufacturer" "manufacturing", "insurer" "insurance". Words with
	// other letters (folded Latin is ASCII, so this means other scripts)
	// are left alone. Format-version-3 models.
	StemEnglish
)

// stemCacheSize bounds a tokenizer's memo of stems (grown as needed,
// started over when full). 8,192 kept refilling on 20,000 demo companies
// (13 stemmer runs per document); 32,768 leaves one or two.
const stemCacheSize = 1 << 15

// snowball returns the English stem of the ASCII word w whose term hash is
// h, written over w (changed true), or w itself when the stemmer leaves it
// alone or w is not plain ASCII. Results are memoized per tokenizer by the
// word's hash.
func (tk *tokenizer) snowball(w []byte, h uint64) (_ []byte, changed bool) {
	if len(w) < 3 {
		return w, false
	}
	for _, c := range w {
		if c >= utf8.RuneSelf {
			return w, false
		}
	}
	if s, ok := tk.stems[h]; ok {
		if s == "" {
			return w, false
		}
		return append(w[:0], s...), true
	}
	if tk.stems == nil || len(tk.stems) >= stemCacheSize {
		tk.stems = make(map[uint64]string, 256)
	}
	if tk.env == nil {
		tk.env = snowballstem.NewEnv("")
	}
	tk.env.SetCurrent(string(w))
	english.Stem(tk.env)
	s := tk.env.Current()
	if s == string(w) || s == "" {
		tk.stems[h] = ""
		return w, false
	}
	tk.stems[h] = s
	return append(w[:0], s...), true
}
