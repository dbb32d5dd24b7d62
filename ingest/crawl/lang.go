package crawl

import (
	"cmp"
	"slices"
	"strings"
	"unicode"

	"github.com/abadojack/whatlanggo"
	"golang.org/x/text/language"
)

// Language detection settings.
const (
	// minDetectLetters is the least text a language is detected from;
	// below it trigram statistics are noise.
	minDetectLetters = 40
	// chunkLetters is how much text each detection reads: a page is cut
	// into chunks of about this size at block boundaries, so a bilingual
	// page gets both languages.
	chunkLetters = 300
	// maxChunks is how many chunks of a page are detected, spread evenly
	// over it: detection costs a trigram profile per chunk, and was three
	// quarters of the crawler's CPU when every chunk of a 64 KiB text was
	// read.
	maxChunks = 4
	// minShare is the share of the detected letters a language needs to
	// be listed; maxLanguages caps the list.
	minShare     = 0.2
	maxLanguages = 3
)

// Languages detects the languages of a page (ISO 639-1 codes, the most
// text first): up to four chunks of its blocks, spread over the page, are
// detected one by one and a language is kept when it holds at least a
// fifth of their letters. Text too short to detect falls back on the
// <html lang> attribute; nil when neither says.
func Languages(p Page) []string {
	blocks := append([]string{p.Title, p.Description}, p.Blocks...)
	type chunk struct{ from, to, letters int }
	var chunks []chunk
	cur := chunk{}
	for i, b := range blocks {
		for _, r := range b {
			if unicode.IsLetter(r) {
				cur.letters++
			}
		}
		cur.to = i + 1
		if cur.letters >= chunkLetters {
			chunks = append(chunks, cur)
			cur = chunk{from: i + 1, to: i + 1}
		}
	}
	if cur.letters > 0 {
		chunks = append(chunks, cur)
	}
	if len(chunks) > maxChunks {
		picked := make([]chunk, maxChunks)
		for i := range picked {
			picked[i] = chunks[i*len(chunks)/maxChunks]
		}
		chunks = picked
	}
	share := map[string]int{}
	total := 0
	for _, c := range chunks {
		if c.letters < minDetectLetters {
			continue
		}
		info := whatlanggo.Detect(strings.Join(blocks[c.from:c.to], "\n"))
		if code := info.Lang.Iso6391(); code != "" && info.Confidence > 0.5 {
			share[code] += c.letters
		}
		total += c.letters
	}
	if total == 0 {
		if tag, err := language.Parse(p.Lang); err == nil {
			if base, conf := tag.Base(); conf >= language.High && len(base.String()) == 2 {
				return []string{base.String()}
			}
		}
		return nil
	}
	var out []string
	for code, n := range share {
		if float64(n) >= minShare*float64(total) {
			out = append(out, code)
		}
	}
	slices.SortFunc(out, func(a, b string) int {
		return cmp.Or(cmp.Compare(share[b], share[a]), cmp.Compare(a, b))
	})
	if len(out) > maxLanguages {
		out = out[:maxLanguages]
	}
	return out
}
