package domain

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/publicsuffix"
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

// hostReference is Host without its plain-host fast path: what Host
// computed before plainHost, kept to check that the fast path changes no
// result and no error.
func hostReference(raw string) (string, error) {
	s := strings.TrimSpace(raw)
	if s == "" {
		return "", fmt.Errorf("%w: empty", ErrInvalid)
	}
	if strings.ContainsAny(s, " \t\r\n\"'<>\\") {
		return "", fmt.Errorf("%w %q: contains spaces, quotes or angle brackets", ErrInvalid, raw)
	}
	host := s
	if i := strings.Index(s, "://"); i >= 0 || strings.HasPrefix(s, "//") {
		if i < 0 {
			s = "http:" + s
		}
		u, err := url.Parse(s)
		if err != nil {
			return "", fmt.Errorf("%w %q: not a URL: %v", ErrInvalid, raw, err)
		}
		host = u.Hostname()
	} else {
		if i := strings.IndexAny(host, "/?#"); i >= 0 {
			host = host[:i]
		}
		if i := strings.LastIndexByte(host, '@'); i >= 0 {
			host = host[i+1:]
		}
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
	}
	host = strings.TrimSuffix(host, ".")
	if host == "" {
		return "", fmt.Errorf("%w %q: no host", ErrInvalid, raw)
	}
	if net.ParseIP(strings.Trim(host, "[]")) != nil {
		return "", fmt.Errorf("%w %q: an IP address is not a domain", ErrInvalid, raw)
	}
	ascii, err := profile.ToASCII(strings.ToLower(host))
	if err != nil {
		return "", fmt.Errorf("%w %q: %v", ErrInvalid, raw, err)
	}
	if len(ascii) > 253 {
		return "", fmt.Errorf("%w %q: longer than 253 characters", ErrInvalid, raw)
	}
	if !strings.Contains(ascii, ".") {
		return "", fmt.Errorf("%w %q: a single label has no public suffix", ErrInvalid, raw)
	}
	for _, label := range strings.Split(ascii, ".") {
		if label == "" {
			return "", fmt.Errorf("%w %q: empty label", ErrInvalid, raw)
		}
		if len(label) > 63 {
			return "", fmt.Errorf("%w %q: a label is longer than 63 characters", ErrInvalid, raw)
		}
	}
	return strings.TrimPrefix(ascii, "www."), nil
}

// normalizeReference is Normalize as it was before plainHost and the
// single public suffix lookup.
func normalizeReference(raw string) (string, error) {
	host, err := hostReference(raw)
	if err != nil {
		return "", err
	}
	suffix, icann := publicsuffix.PublicSuffix(host)
	if !icann && strings.IndexByte(suffix, '.') < 0 {
		return "", fmt.Errorf("%w %q: unknown top-level domain %q", ErrInvalid, raw, suffix)
	}
	root, err := publicsuffix.EffectiveTLDPlusOne(host)
	if err != nil {
		return "", fmt.Errorf("%w %q: %q is a public suffix, not a company domain", ErrInvalid, raw, host)
	}
	return root, nil
}

// checkReference fails when Host or Normalize differ from the reference
// in result or error message.
func checkReference(t *testing.T, s string) {
	t.Helper()
	errText := func(err error) string {
		if err == nil {
			return ""
		}
		return err.Error()
	}
	h, err := Host(s)
	rh, rerr := hostReference(s)
	if h != rh || errText(err) != errText(rerr) {
		t.Errorf("Host(%q) = %q, %v; reference %q, %v", s, h, err, rh, rerr)
	}
	d, err := Normalize(s)
	rd, rerr := normalizeReference(s)
	if d != rd || errText(err) != errText(rerr) {
		t.Errorf("Normalize(%q) = %q, %v; reference %q, %v", s, d, err, rd, rerr)
	}
}

var referenceCases = []string{
	"example.com", "Example.COM", "EXAMPLE.com.", "example.com..", ".example.com", "www.example.com", "WWW.Example.com",
	"www.com", "www.co.uk", "www.www.example.com", "example.co.uk", "shop.example.co.uk", "co.uk", "com", "uk.",
	"github.io", "acme.github.io", "blog.acme.github.io", "ACME.GitHub.IO", "foo.blogspot.com", "example.invalidtld",
	"example.local", "a.b.c.d.example.com.br", "1.2.3.4", "1.2.3.4.", "01.2.3.4", "1.2.3", "1.2.3.4.5", "127.0.0.1.com",
	"123.com", "1-2.com", "0x7f.0.0.1", "::1", "[::1]", "fe80::1", "xn--mnchen-3ya.de", "XN--MNCHEN-3YA.de",
	"xn--abc.com", "xn--.com", "ab--cd.com", "ab-cd.com", "a--b.com", "abc--d.com", "-foo.com", "foo-.com",
	"foo.-com", "foo.com-", "foo..com", "a.b", "a.b.", "a", "a.", ".", "..", "", "  ", " example.com ",
	"\texample.com\n", strings.Repeat("x", 63) + ".com", strings.Repeat("x", 64) + ".com",
	strings.Repeat("abc.", 62) + "com", strings.Repeat("abc.", 63) + "com", strings.Repeat("abc.", 62) + "co.uk",
	strings.Repeat("a.", 126) + "c", strings.Repeat("a.", 126) + "co", strings.Repeat("a.", 126) + "co.",
	"münchen.de", "example.com/path", "example.com:8080", "info@example.com", "http://example.com",
	"example_under.com", "ex ample.com", "example.com\u00a0", "\u00a0example.com", "e.x.a.m.p.l.e", "kawasaki.jp",
	"city.kawasaki.jp", "foo.city.kawasaki.jp", "foo.bar.kawasaki.jp", "s3.amazonaws.com", "bucket.s3.amazonaws.com",
	"zz", "test.zz", "a.xn--p1ai", "пример.рф", "EXAMPLE.ÇOM",
}

func TestNormalizeMatchesReference(t *testing.T) {
	for _, s := range referenceCases {
		checkReference(t, s)
	}
}

func FuzzNormalizeMatchesReference(f *testing.F) {
	for _, s := range referenceCases {
		f.Add(s)
	}
	f.Fuzz(checkReference)
}

func BenchmarkNormalize(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Normalize("https://www.shop.example.co.uk/path")
	}
}

// BenchmarkNormalizeBareHost is the common case of a value that is
// already a host name.
func BenchmarkNormalizeBareHost(b *testing.B) {
	for b.Loop() {
		Normalize("www.Shop.example.co.uk")
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
