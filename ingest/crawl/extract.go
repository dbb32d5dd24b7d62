package crawl

import (
	"errors"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Page is what Extract reads from an HTML document.
type Page struct {
	Title       string
	Description string // <meta name="description">
	// Lang is the <html lang> attribute as written.
	Lang string
	// Blocks are the visible text of the body, one entry per block
	// element (paragraph, heading, list item, cell…), whitespace
	// collapsed, in document order.
	Blocks []string
	// Truncated: the text reached the cap and the rest was not read.
	Truncated bool
}

// Text joins the title, the description and the blocks, one per line: the
// site text the index stores.
func (p Page) Text() string {
	var b strings.Builder
	for _, s := range append([]string{p.Title, p.Description}, p.Blocks...) {
		if s == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(s)
	}
	return b.String()
}

// skipped are elements whose content is not visible text.
var skipped = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true, atom.Svg: true,
	atom.Math: true, atom.Iframe: true, atom.Object: true, atom.Canvas: true, atom.Select: true,
	atom.Textarea: true, atom.Noembed: true, atom.Noframes: true,
}

// blockLevel are elements that end a block of text.
var blockLevel = map[atom.Atom]bool{
	atom.P: true, atom.Div: true, atom.Br: true, atom.Li: true, atom.Ul: true, atom.Ol: true,
	atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true,
	atom.Tr: true, atom.Td: true, atom.Th: true, atom.Table: true, atom.Section: true, atom.Article: true,
	atom.Header: true, atom.Footer: true, atom.Nav: true, atom.Aside: true, atom.Main: true,
	atom.Blockquote: true, atom.Pre: true, atom.Hr: true, atom.Dd: true, atom.Dt: true, atom.Dl: true,
	atom.Form: true, atom.Fieldset: true, atom.Figcaption: true, atom.Figure: true, atom.Address: true,
	atom.Button: true, atom.Option: true, atom.Label: true, atom.Body: true, atom.Html: true,
}

// Extract reads the visible text of an HTML document from r (already
// decoded to UTF-8), keeping at most maxText bytes of it. It stops reading
// once the cap is reached. The tokenizer never buffers a token longer than
// maxToken bytes, so memory stays bounded whatever the input; a longer
// token ends the document. Malformed HTML is read as browsers read it.
func Extract(r io.Reader, maxText, maxToken int) (Page, error) {
	z := html.NewTokenizer(r)
	z.SetMaxBuf(maxToken)
	var (
		p        Page
		skip     int // depth inside skipped elements
		inHead   bool
		inTitle  bool
		title    strings.Builder
		block    strings.Builder
		size     int
		pendingS bool // a space is due before the next word of the block
	)
	flush := func() {
		if block.Len() > 0 {
			p.Blocks = append(p.Blocks, block.String())
			size += block.Len() + 1
			block.Reset()
		}
		pendingS = false
	}
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			flush()
			p.Title = collapse(title.String(), 1000)
			if err := z.Err(); err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, html.ErrBufferExceeded) {
				return p, err
			}
			return p, nil
		case html.StartTagToken, html.SelfClosingTagToken, html.EndTagToken:
			name, hasAttr := z.TagName()
			a := atom.Lookup(name)
			start := tt != html.EndTagToken
			switch {
			case a == atom.Title:
				inTitle = start && tt == html.StartTagToken
				continue
			case a == atom.Html && start:
				for hasAttr {
					var k, v []byte
					k, v, hasAttr = z.TagAttr()
					if string(k) == "lang" {
						p.Lang = collapse(string(v), 35)
					}
				}
			case a == atom.Head:
				// Browsers end the head at <body> or at the first
				// element that belongs in a body, as below.
				inHead = tt == html.StartTagToken
			case a == atom.Body && start:
				inHead = false
			case a == atom.Meta && start && skip == 0:
				var name, content string
				for hasAttr {
					var k, v []byte
					k, v, hasAttr = z.TagAttr()
					switch string(k) {
					case "name":
						name = strings.ToLower(string(v))
					case "content":
						content = string(v)
					}
				}
				if name == "description" && p.Description == "" {
					p.Description = collapse(content, 2000)
				}
			case skipped[a]:
				if tt == html.StartTagToken {
					skip++
				} else if tt == html.EndTagToken && skip > 0 {
					skip--
				}
			}
			if blockLevel[a] {
				if start {
					inHead = false
				}
				flush()
			} else if a == atom.Img && start && skip == 0 {
				pendingS = block.Len() > 0
			}
		case html.TextToken:
			if inTitle {
				if title.Len() < 4000 {
					title.Write(z.Text())
				}
				continue
			}
			if skip > 0 || inHead {
				continue
			}
			text := z.Text()
			for len(text) > 0 {
				r, n := utf8.DecodeRune(text)
				text = text[n:]
				if unicode.IsSpace(r) || r == utf8.RuneError && n <= 1 || unicode.IsControl(r) {
					pendingS = block.Len() > 0
					continue
				}
				if size+block.Len()+n+1 > maxText {
					flush()
					p.Truncated = true
					p.Title = collapse(title.String(), 1000)
					return p, nil
				}
				if pendingS {
					block.WriteByte(' ')
					pendingS = false
				}
				block.WriteRune(r)
			}
		}
	}
}

// collapse folds runs of white space to one space, trims, drops control
// characters and cuts at max bytes (on a rune boundary).
func collapse(s string, max int) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) || r == utf8.RuneError {
			space = b.Len() > 0
			continue
		}
		if b.Len()+utf8.RuneLen(r)+1 > max {
			break
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}
