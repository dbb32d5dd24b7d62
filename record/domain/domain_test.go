package domain

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestNormalize(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"example.com", "example.com"},
		{"  EXAMPLE.com.  ", "example.com"},
		{"www.example.com", "example.com"},
		{"http://www.sgcc.com.cn/ywlm/default.shtml", "sgcc.com.cn"},
		{"https://shop.example.co.uk:8443/x?y=1#z", "example.co.uk"},
		{"//cdn.example.org/a.js", "example.org"},
		{"example.com/path/page", "example.com"},
		{"example.com:8080", "example.com"},
		{"info@Example.com", "example.com"},
		{"ftp://user:pw@files.example.de/", "example.de"},
		{"münchen.de", "xn--mnchen-3ya.de"},
		{"http://www.müller.de", "xn--mller-kva.de"},
		{"a.b.c.example.com.br", "example.com.br"},
		{"acme.github.io", "acme.github.io"},
		{"blog.acme.github.io", "acme.github.io"},
	} {
		got, err := Normalize(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("Normalize(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestNormalizeRejects(t *testing.T) {
	for _, in := range []string{
		"", "   ", "localhost", "co.uk", "com", "github.io", "192.168.1.1", "http://[::1]:80/", "not a domain",
		"exa mple.com", "foo..com", "-foo.com", "example.invalidtld", "<script>.com", `"quoted.com"`,
		stringsRepeat("x", 64) + ".com", stringsRepeat("abc.", 70) + "com", "http://", "@",
	} {
		if got, err := Normalize(in); err == nil || !errors.Is(err, ErrInvalid) {
			t.Errorf("Normalize(%q) = %q, %v; want ErrInvalid", in, got, err)
		}
	}
}

func stringsRepeat(s string, n int) string {
	out := ""
	for i := 0; i < n; i++ {
		out += s
	}
	return out
}

func TestHostKeepsSubdomains(t *testing.T) {
	got, err := Host("https://WWW.Docs.Example.com/x")
	if err != nil || got != "docs.example.com" {
		t.Fatalf("Host = %q, %v", got, err)
	}
}

func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"example.com", "http://www.sgcc.com.cn/x", "münchen.de", "a@b.co.uk", "[::1]", "co.uk", "%%%", "xn--"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := Normalize(s)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error does not wrap ErrInvalid: %v", err)
			}
			return
		}
		again, err := Normalize(d)
		if err != nil || again != d {
			t.Fatalf("not idempotent: %q -> %q -> %q, %v", s, d, again, err)
		}
	})
}

func BenchmarkNormalize(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Normalize("https://www.shop.example.co.uk/path")
	}
}

// TestWikipediaWebsites normalizes the website column of the shared real
// dataset (opt-in: needs ../shared/data) and reports agreement with the
// file's own domain_guess.
func TestWikipediaWebsites(t *testing.T) {
	path := os.Getenv("PROSPECT_SHARED_DATA")
	if path == "" {
		path = "../../../shared/data"
	}
	f, err := os.Open(filepath.Join(path, "wikipedia-companies.jsonl"))
	if err != nil {
		t.Skip("shared dataset not found (set PROSPECT_SHARED_DATA): skipped")
	}
	defer f.Close()
	var total, ok, agree int
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var r struct {
			Website, DomainGuess string `json:"-"`
		}
		var raw map[string]any
		if json.Unmarshal(sc.Bytes(), &raw) != nil {
			continue
		}
		r.Website, _ = raw["website"].(string)
		r.DomainGuess, _ = raw["domain_guess"].(string)
		total++
		d, err := Normalize(r.Website)
		if err != nil {
			continue
		}
		ok++
		if d == r.DomainGuess {
			agree++
		}
	}
	t.Logf("wikipedia websites: %d rows, %d normalized, %d equal to domain_guess", total, ok, agree)
	if ok < total*9/10 {
		t.Errorf("only %d of %d real websites normalized", ok, total)
	}
}
