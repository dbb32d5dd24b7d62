package crawl

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestExtract(t *testing.T) {
	tests := []struct {
		name, html string
		want       Page
	}{
		{"blocks and inline", `<html lang="en-GB"><head><title> Acme  Inc </title><meta name="Description" content="We make&amp;sell  anvils"></head>
<body><h1>Anvils</h1><p>Heavy <b>and</b> <i>durable</i>.<br>Since 1920.</p><ul><li>One</li><li>Two</li></ul></body></html>`,
			Page{Title: "Acme Inc", Description: "We make&sell anvils", Lang: "en-GB", Blocks: []string{"Anvils", "Heavy and durable.", "Since 1920.", "One", "Two"}}},
		{"hidden content", `<body><script>alert("x")</script><style>p{}</style><noscript>enable js</noscript><template><p>tpl</p></template><svg><text>logo</text></svg><p>visible</p><textarea>input</textarea></body>`,
			Page{Blocks: []string{"visible"}}},
		{"head without end tag", `<head><title>T</title><body><p>body text</p>`, Page{Title: "T", Blocks: []string{"body text"}}},
		{"no head, no body", `<p>just a paragraph`, Page{Blocks: []string{"just a paragraph"}}},
		{"entities and whitespace", "<p>caf&eacute;&nbsp;&nbsp;bar\n\t baz &lt;tag&gt;</p>", Page{Blocks: []string{"café bar baz <tag>"}}},
		{"unclosed script", `<p>before</p><script>var a = "<p>not text</p>`, Page{Blocks: []string{"before"}}},
		{"meta description in body ignored when head had one", `<head><meta name="description" content="first"></head><body><meta name="description" content="second"><p>x</p></body>`,
			Page{Description: "first", Blocks: []string{"x"}}},
		{"images separate words", `<p>left<img src=a.png>right</p>`, Page{Blocks: []string{"left right"}}},
		{"empty", ``, Page{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Extract(strings.NewReader(tc.html), 1<<20, 1<<20)
			if err != nil {
				t.Fatal(err)
			}
			if got.Title != tc.want.Title || got.Description != tc.want.Description || got.Lang != tc.want.Lang ||
				!slices.Equal(got.Blocks, tc.want.Blocks) || got.Truncated {
				t.Errorf("got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestExtractCaps(t *testing.T) {
	doc := "<p>" + strings.Repeat("word ", 10000) + "</p><p>after</p>"
	got, err := Extract(strings.NewReader(doc), 1000, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Truncated || len(got.Text()) > 1000 || len(got.Text()) < 900 {
		t.Errorf("truncated %v, %d bytes of text", got.Truncated, len(got.Text()))
	}
	// A token longer than the tokenizer's buffer ends the document
	// without an error and without growing the buffer past it.
	got, err = Extract(strings.NewReader("<p>ok</p><p>"+strings.Repeat("y", 1<<20)+"</p><p>after</p>"), 1<<20, 4096)
	if err != nil || len(got.Blocks) == 0 || got.Blocks[0] != "ok" || len(got.Text()) > 4096+3 || strings.Contains(got.Text(), "after") {
		t.Errorf("long token: %d blocks, %d bytes, %v", len(got.Blocks), len(got.Text()), err)
	}
}

func TestLanguages(t *testing.T) {
	en := "Our analysts watch your network around the clock and respond to threats before they become incidents for our customers."
	de := "Unsere Analysten überwachen Ihr Netzwerk rund um die Uhr und reagieren auf Bedrohungen, bevor sie zu Vorfällen werden."
	tests := []struct {
		name string
		page Page
		want []string
	}{
		{"english", Page{Blocks: []string{en, en}}, []string{"en"}},
		{"german", Page{Blocks: []string{de, de}}, []string{"de"}},
		{"bilingual", Page{Blocks: append(slices.Repeat([]string{en}, 8), slices.Repeat([]string{de}, 8)...)}, []string{"de", "en"}},
		{"minor language under a fifth", Page{Blocks: append(slices.Repeat([]string{en}, 20), de)}, []string{"en"}},
		{"too short: the lang attribute", Page{Lang: "fr-CA", Blocks: []string{"Bonjour"}}, []string{"fr"}},
		{"too short, bad attribute", Page{Lang: "xx-invalid-!!", Blocks: []string{"Hi"}}, nil},
		{"nothing", Page{}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Languages(tc.page)
			if tc.name == "bilingual" {
				slices.Sort(got)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func FuzzExtract(f *testing.F) {
	for _, s := range []string{english, "<p>a<b>b</p>", "<script>", "<html lang=\xff>", "<head><meta name=description content='x'>", "\x00<p>\x01</p>"} {
		f.Add(s, 100)
	}
	f.Fuzz(func(t *testing.T, doc string, maxText int) {
		maxText = 1 + abs(maxText)%5000
		p, err := Extract(strings.NewReader(doc), maxText, 1<<16)
		if err != nil {
			t.Fatal(err)
		}
		size := 0
		for _, b := range p.Blocks {
			if b == "" || strings.TrimSpace(b) != b || strings.Contains(b, "  ") || !utf8.ValidString(b) {
				t.Fatalf("bad block %q", b)
			}
			size += len(b) + 1
		}
		if size > maxText+1 {
			t.Fatalf("%d bytes of text, cap %d", size, maxText)
		}
		if !utf8.ValidString(p.Title) || !utf8.ValidString(p.Description) || len(p.Title) > 1000 || len(p.Description) > 2000 {
			t.Fatalf("bad title or description %q %q", p.Title, p.Description)
		}
		Languages(p) // must not panic
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
