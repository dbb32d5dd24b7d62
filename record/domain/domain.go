// Package domain normalizes what users type as a company's domain (bare
// hosts, URLs, subdomains, internationalized names) to the registrable root
// domain that keys every company record.
package domain

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"

	"golang.org/x/net/idna"
	"golang.org/x/net/publicsuffix"
)

// ErrInvalid is wrapped by every normalization error.
var ErrInvalid = errors.New("invalid domain")

var profile = idna.New(idna.MapForLookup(), idna.BidiRule(), idna.StrictDomainName(true), idna.Transitional(false))

// Host returns the lower-case ASCII (IDNA) host of raw, keeping subdomains
// but dropping a leading "www.". raw may be a bare host or a URL with any
// scheme, path, port or user info; an e-mail address yields its domain.
func Host(raw string) (string, error) {
	s := strings.TrimSpace(raw)
	if h, ok := plainHost(s); ok {
		return strings.TrimPrefix(h, "www."), nil
	}
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
		// Bare host, possibly with a path, port, or as user@host.
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

// plainHost returns s lower-cased, without a trailing dot, when s is
// already a bare host name in letters, digits, hyphens and dots that the
// general path of Host would accept: that is most values, and the general
// path's URL parsing, IP parsing and IDNA mapping cost far more than this
// check. It takes two labels or more, each 1-63 characters that neither
// start nor end with a hyphen nor have hyphens in the 3rd and 4th places
// (the IDNA profile refuses those, or decodes them: "xn--"); a letter
// somewhere rules out an IP address. ok is false for anything else, which
// the general path then reads and reports.
func plainHost(s string) (host string, ok bool) {
	s = strings.TrimSuffix(s, ".")
	if len(s) > 253 {
		return "", false
	}
	if strings.IndexByte(s, '.') < 0 {
		return "", false
	}
	// One table load per byte instead of a chain of range checks: this
	// runs on every domain, redirect source and e-mail of a load.
	var seen uint8
	start := 0
	for i := 0; i < len(s); i++ {
		class := hostBytes[s[i]]
		switch class {
		case 0:
			return "", false
		case hostDot:
			if !plainLabel(s[start:i]) {
				return "", false
			}
			start = i + 1
		}
		seen |= class
	}
	if !plainLabel(s[start:]) || seen&(hostLower|hostUpper) == 0 {
		return "", false
	}
	if seen&hostUpper != 0 {
		s = strings.ToLower(s)
	}
	return s, true
}

// plainLabel reports whether a label of plainHost has 1-63 characters,
// neither starts nor ends with a hyphen nor has hyphens in the 3rd and
// 4th places.
func plainLabel(label string) bool {
	n := len(label)
	return n > 0 && n <= 63 && label[0] != '-' && label[n-1] != '-' && !(n >= 4 && label[2] == '-' && label[3] == '-')
}

// Byte classes of plainHost; 0 is a byte it does not take.
const (
	hostLower = 1 << iota
	hostUpper
	hostDigitOrHyphen
	hostDot
)

var hostBytes = func() (t [256]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = hostLower
		t[c-'a'+'A'] = hostUpper
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = hostDigitOrHyphen
	}
	t['-'] = hostDigitOrHyphen
	t['.'] = hostDot
	return t
}()

// Normalize returns the registrable root domain of raw ("eTLD+1" by the
// public suffix list): "http://www.shop.example.co.uk:8080/x" gives
// "example.co.uk". Private suffixes count as suffixes, so
// "acme.github.io" stays its own domain: such sites belong to separate
// owners.
func Normalize(raw string) (string, error) {
	host, err := Host(raw)
	if err != nil {
		return "", err
	}
	suffix, icann := publicsuffix.PublicSuffix(host)
	if !icann && strings.IndexByte(suffix, '.') < 0 {
		// The list's default rule ("*") matched: the TLD is not a known
		// one (e.g. "example.local", "foo.invalidtld").
		return "", fmt.Errorf("%w %q: unknown top-level domain %q", ErrInvalid, raw, suffix)
	}
	// publicsuffix.EffectiveTLDPlusOne, without looking the suffix up a
	// second time.
	i := len(host) - len(suffix) - 1
	if i < 0 || host[i] != '.' || strings.HasPrefix(host, ".") || strings.HasSuffix(host, ".") || strings.Contains(host, "..") {
		return "", fmt.Errorf("%w %q: %q is a public suffix, not a company domain", ErrInvalid, raw, host)
	}
	return host[1+strings.LastIndexByte(host[:i], '.'):], nil
}
