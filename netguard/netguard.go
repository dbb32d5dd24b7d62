// Package netguard is the HTTP client for addresses customers give us
// (integration base_url values, company homepages): it refuses to connect
// to loopback, private, link-local, metadata and other non-public
// addresses, so the service cannot be pointed at its own network (SSRF).
//
// The address check runs in net.Dialer.Control, on the address actually
// being connected to after DNS resolution, so a name that resolves to a
// public address when validated and to a private one when used (DNS
// rebinding) is still refused. Redirects are re-validated hop by hop.
// Operators of self-hosted models on a private network set AllowPrivate.
package netguard

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// ErrForbidden is returned for a URL or address the guard refuses.
var ErrForbidden = errors.New("address not allowed")

// Options configure a guarded client.
type Options struct {
	// AllowPrivate lets connections reach loopback and private addresses
	// (self-hosted models); off by default.
	AllowPrivate bool
	// Timeout bounds a whole request; 60 s when 0.
	Timeout time.Duration
	// Lookup resolves host names (tests map names to addresses with it);
	// the system resolver when nil. Whatever it returns is still checked
	// at connect time.
	Lookup func(ctx context.Context, host string) ([]netip.Addr, error)
	// MaxRedirects bounds redirects followed; 5 when 0.
	MaxRedirects int
}

// badChars may not appear anywhere in a base_url (spec: no whitespace,
// quotes or angle brackets).
const badChars = " \t\r\n\v\f\"'<>`"

// ValidateURL checks a customer-supplied URL: http or https, a valid host
// name, no whitespace, quotes or angle brackets, no user info. With
// allowPrivate false the host must look public: not localhost, not a
// single-label name, and an IP literal must be a public address.
func ValidateURL(raw string, allowPrivate bool) (*url.URL, error) {
	if raw == "" {
		return nil, fmt.Errorf("empty URL: %w", ErrForbidden)
	}
	if strings.ContainsAny(raw, badChars) {
		return nil, fmt.Errorf("URL contains whitespace, quotes or angle brackets: %w", ErrForbidden)
	}
	for _, r := range raw {
		if r < 0x20 || r == 0x7f || r > 0x7e {
			return nil, fmt.Errorf("URL contains control or non-ASCII characters: %w", ErrForbidden)
		}
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("not a URL: %w", ErrForbidden)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("scheme must be http or https: %w", ErrForbidden)
	}
	if u.User != nil {
		return nil, fmt.Errorf("URL must not carry user info: %w", ErrForbidden)
	}
	host := u.Hostname()
	if host == "" {
		return nil, fmt.Errorf("URL has no host: %w", ErrForbidden)
	}
	if p := u.Port(); p != "" {
		if n, err := parsePort(p); err != nil || n == 0 {
			return nil, fmt.Errorf("bad port %q: %w", p, ErrForbidden)
		}
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		if !allowPrivate {
			if err := CheckAddr(ip); err != nil {
				return nil, err
			}
		}
		return u, nil
	}
	if !validHostname(host) {
		return nil, fmt.Errorf("invalid host name %q: %w", host, ErrForbidden)
	}
	if !allowPrivate {
		h := strings.ToLower(strings.TrimSuffix(host, "."))
		if !strings.Contains(h, ".") || h == "localhost" || strings.HasSuffix(h, ".localhost") ||
			strings.HasSuffix(h, ".local") || strings.HasSuffix(h, ".internal") {
			return nil, fmt.Errorf("host %q is not a public host name: %w", host, ErrForbidden)
		}
	}
	return u, nil
}

func parsePort(p string) (int, error) {
	n := 0
	for _, c := range p {
		if c < '0' || c > '9' {
			return 0, errors.New("not a number")
		}
		n = n*10 + int(c-'0')
		if n > 65535 {
			return 0, errors.New("out of range")
		}
	}
	return n, nil
}

func validHostname(h string) bool {
	h = strings.TrimSuffix(h, ".")
	if len(h) == 0 || len(h) > 253 {
		return false
	}
	for _, label := range strings.Split(h, ".") {
		if len(label) == 0 || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return false
			}
		}
	}
	return true
}

// blocked are ranges refused besides what netip's predicates cover.
var blocked = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),       // "this" network
	netip.MustParsePrefix("100.64.0.0/10"),   // carrier-grade NAT
	netip.MustParsePrefix("192.0.0.0/24"),    // IETF protocol assignments
	netip.MustParsePrefix("192.0.2.0/24"),    // documentation
	netip.MustParsePrefix("198.18.0.0/15"),   // benchmarking
	netip.MustParsePrefix("198.51.100.0/24"), // documentation
	netip.MustParsePrefix("203.0.113.0/24"),  // documentation
	netip.MustParsePrefix("240.0.0.0/4"),     // reserved, broadcast
	netip.MustParsePrefix("100::/64"),        // discard
	netip.MustParsePrefix("2001:db8::/32"),   // documentation
	netip.MustParsePrefix("fd00:ec2::/32"),   // cloud metadata (also ULA)
}

// CheckAddr refuses every address that is not a public unicast address.
// IPv4-mapped IPv6 addresses are judged as their IPv4 address, and the
// IPv4 embedded in NAT64 (64:ff9b::/96) and 6to4 (2002::/16) addresses is
// checked too, so no encoding reaches a private host.
func CheckAddr(ip netip.Addr) error {
	ip = ip.Unmap().WithZone("")
	if !ip.IsValid() || ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsInterfaceLocalMulticast() || ip.IsMulticast() || ip.IsUnspecified() || !ip.IsGlobalUnicast() {
		return fmt.Errorf("%s is not a public address: %w", ip, ErrForbidden)
	}
	for _, p := range blocked {
		if p.Contains(ip) {
			return fmt.Errorf("%s is in reserved range %s: %w", ip, p, ErrForbidden)
		}
	}
	if ip.Is6() {
		b := ip.As16()
		var embedded netip.Addr
		switch {
		case netip.MustParsePrefix("64:ff9b::/96").Contains(ip):
			embedded = netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
		case netip.MustParsePrefix("2002::/16").Contains(ip):
			embedded = netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]})
		}
		if embedded.IsValid() {
			if err := CheckAddr(embedded); err != nil {
				return fmt.Errorf("%s embeds %w", ip, err)
			}
		}
	}
	return nil
}

// NewClient returns an http.Client whose every connection, redirect
// included, passes the guard.
func NewClient(o Options) *http.Client {
	control := func(network, address string, _ syscall.RawConn) error {
		if o.AllowPrivate {
			return nil
		}
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return fmt.Errorf("connect %s: %w", address, ErrForbidden)
		}
		return CheckAddr(ap.Addr())
	}
	dialer := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second, Control: control}
	tr := &http.Transport{
		Proxy:                 nil, // an environment proxy would connect on our behalf, unchecked
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   32,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: 0,
		DialContext:           dialer.DialContext,
	}
	if o.Lookup != nil {
		tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
			host, port, err := net.SplitHostPort(addr)
			if err != nil {
				return nil, err
			}
			if _, err := netip.ParseAddr(host); err == nil {
				return dialer.DialContext(ctx, network, addr)
			}
			ips, err := o.Lookup(ctx, host)
			if err != nil {
				return nil, fmt.Errorf("resolve %s: %w", host, err)
			}
			var last error = fmt.Errorf("resolve %s: no addresses", host)
			for _, ip := range ips {
				c, err := dialer.DialContext(ctx, network, net.JoinHostPort(ip.String(), port))
				if err == nil {
					return c, nil
				}
				last = err
			}
			return nil, last
		}
	}
	timeout := o.Timeout
	if timeout == 0 {
		timeout = 60 * time.Second
	}
	maxRedirects := o.MaxRedirects
	if maxRedirects == 0 {
		maxRedirects = 5
	}
	return &http.Client{
		Transport: tr,
		Timeout:   timeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= maxRedirects {
				return fmt.Errorf("stopped after %d redirects", maxRedirects)
			}
			if _, err := ValidateURL(req.URL.String(), o.AllowPrivate); err != nil {
				return fmt.Errorf("redirect to %s: %w", req.URL.Redacted(), err)
			}
			return nil
		},
	}
}
