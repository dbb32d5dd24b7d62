package smtpprobe

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
)

// ErrNonPublic: the target address is not a public unicast address and
// the operator flag for test worlds (Config.AllowPrivate) is off.
var ErrNonPublic = errors.New("refusing to connect to a non-public address")

// nonPublic lists the ranges an SMTP probe must never reach in production:
// loopback, private, link-local, CGNAT, benchmarking, documentation,
// multicast and reserved space, in both families.
var nonPublic = func() []netip.Prefix {
	var out []netip.Prefix
	for _, s := range []string{
		"0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
		"192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24", "192.168.0.0/16", "198.18.0.0/15", "198.51.100.0/24",
		"203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4",
		"::/128", "::1/128", "::ffff:0:0/96", "64:ff9b:1::/48", "100::/64", "2001:db8::/32", "fc00::/7", "fe80::/10", "ff00::/8",
	} {
		out = append(out, netip.MustParsePrefix(s))
	}
	return out
}()

// IsPublic reports whether ip is a public unicast address.
func IsPublic(ip net.IP) bool {
	a, ok := netip.AddrFromSlice(ip)
	if !ok {
		return false
	}
	a = a.Unmap()
	for _, p := range nonPublic {
		if p.Contains(a) {
			return false
		}
	}
	return true
}

// checkTarget refuses a non-public target unless allowed; it runs at
// connect time on the address actually dialled, so a DNS answer that
// changes between lookup and connect cannot slip a private address in.
func checkTarget(addr string, allowPrivate bool) error {
	if allowPrivate {
		return nil
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("check target %s: %w", addr, err)
	}
	ip := net.ParseIP(host)
	if ip == nil || !IsPublic(ip) {
		return fmt.Errorf("%s: %w", addr, ErrNonPublic)
	}
	return nil
}
