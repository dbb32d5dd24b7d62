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
	chunkLetters = 400
	// minShare is the share of the page's letters a language needs to be
	// listed; maxLanguages caps the list.
	minShare     = 0.2
	maxLanguages = 3
	// maxDetectBytes bounds the text detection reads.
	maxDetectBytes = 16 << 10
)

// Languages detects the languages of a page (ISO 639-1 codes, the most
// text first): chunks of its blocks are detected one by one and a
// language is kept when it holds at least a fifth of the letters. Text too
// short to detect falls back on the <html lang> attribute; nil when
// neither says.
func Languages(p Page) []string {
	share := map[string]int{}
	total := 0
	var chunk strings.Builder
	letters, read := 0, 0
	detect := func() {
		if letters >= minDetectLetters {
			info := whatlanggo.Detect(chunk.String())
			if code := info.Lang.Iso6391(); code != "" && info.Confidence > 0.5 {
				share[code] += letters
			}
			total += letters
		}
		chunk.Reset()
		letters = 0
	}
	for _, b := range append([]string{p.Title, p.Description}, p.Blocks...) {
		if read >= maxDetectBytes {
			break
		}
		read += len(b)
		chunk.WriteString(b)
		chunk.WriteByte('\n')
		for _, r := range b {
			if unicode.IsLetter(r) {
				letters++
			}
		}
		if letters >= chunkLetters {
			detect()
		}
	}
	detect()
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
