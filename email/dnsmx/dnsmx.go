// Package dnsmx finds the mail exchangers of a domain through a DNS server
// the operator chooses (github.com/miekg/dns), so tests and deployments can
// point it at their own resolver: MX records by preference, the implicit
// MX of RFC 5321 §5.1 (the domain's own A record) when there is none, and
// the addresses of each exchanger.
package dnsmx

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sort"
	"strings"
	"time"

	"github.com/miekg/dns"
)

// Sentinel errors callers branch on.
var (
	// ErrNoSuchDomain: the domain does not exist (NXDOMAIN).
	ErrNoSuchDomain = errors.New("no such domain")
	// ErrNoMailHost: the domain exists but has neither MX nor A records,
	// or its only MX is the null MX of RFC 7505.
	ErrNoMailHost = errors.New("domain accepts no mail")
)

// MaxHosts bounds the exchangers resolved per domain.
const MaxHosts = 5

// Host is one mail exchanger.
type Host struct {
	Name       string   `json:"name"`
	Preference uint16   `json:"preference"`
	Addrs      []net.IP `json:"addrs"`
}

// Result is what a lookup found.
type Result struct {
	Domain   string `json:"domain"`
	Hosts    []Host `json:"hosts"`              // by preference, lowest first
	Implicit bool   `json:"implicit,omitempty"` // no MX: the domain's A record
}

// Resolver queries one DNS server.
type Resolver struct {
	// Server is host:port of the recursive resolver; the first nameserver
	// of /etc/resolv.conf when empty.
	Server  string
	Timeout time.Duration // per query; 5 s when 0
}

func (r *Resolver) server() (string, error) {
	if r.Server != "" {
		return r.Server, nil
	}
	cfg, err := dns.ClientConfigFromFile("/etc/resolv.conf")
	if err != nil || len(cfg.Servers) == 0 {
		return "", fmt.Errorf("no DNS server configured and none in /etc/resolv.conf: %v", err)
	}
	return net.JoinHostPort(cfg.Servers[0], cfg.Port), nil
}

// query sends one question, over TCP again when the UDP answer was
// truncated.
func (r *Resolver) query(ctx context.Context, name string, qtype uint16) (*dns.Msg, error) {
	server, err := r.server()
	if err != nil {
		return nil, err
	}
	m := new(dns.Msg)
	m.SetQuestion(dns.Fqdn(name), qtype)
	m.RecursionDesired = true
	timeout := r.Timeout
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	c := &dns.Client{Timeout: timeout}
	in, _, err := c.ExchangeContext(ctx, m, server)
	if err == nil && in.Truncated {
		c.Net = "tcp"
		in, _, err = c.ExchangeContext(ctx, m, server)
	}
	if err != nil {
		return nil, fmt.Errorf("dns %s %s: %w", dns.TypeToString[qtype], name, err)
	}
	switch in.Rcode {
	case dns.RcodeSuccess:
		return in, nil
	case dns.RcodeNameError:
		return nil, fmt.Errorf("dns %s %s: %w", dns.TypeToString[qtype], name, ErrNoSuchDomain)
	default:
		return nil, fmt.Errorf("dns %s %s: server answered %s", dns.TypeToString[qtype], name, dns.RcodeToString[in.Rcode])
	}
}

// addrs returns the IPv4 then IPv6 addresses of name.
func (r *Resolver) addrs(ctx context.Context, name string) ([]net.IP, error) {
	var out []net.IP
	var firstErr error
	for _, t := range []uint16{dns.TypeA, dns.TypeAAAA} {
		in, err := r.query(ctx, name, t)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		for _, rr := range in.Answer {
			switch v := rr.(type) {
			case *dns.A:
				out = append(out, v.A)
			case *dns.AAAA:
				out = append(out, v.AAAA)
			}
		}
	}
	if len(out) == 0 && firstErr != nil {
		return nil, firstErr
	}
	return out, nil
}

// Lookup returns the domain's exchangers with their addresses. Exchangers
// whose names do not resolve are dropped; ErrNoMailHost when none is left.
func (r *Resolver) Lookup(ctx context.Context, domain string) (Result, error) {
	domain = strings.TrimSuffix(strings.ToLower(domain), ".")
	res := Result{Domain: domain}
	in, err := r.query(ctx, domain, dns.TypeMX)
	if err != nil {
		return res, err
	}
	for _, rr := range in.Answer {
		if mx, ok := rr.(*dns.MX); ok {
			res.Hosts = append(res.Hosts, Host{Name: strings.TrimSuffix(strings.ToLower(mx.Mx), "."), Preference: mx.Preference})
		}
	}
	if len(res.Hosts) == 1 && res.Hosts[0].Name == "" { // null MX (RFC 7505)
		return res, fmt.Errorf("%s: null MX: %w", domain, ErrNoMailHost)
	}
	if len(res.Hosts) == 0 {
		res.Implicit = true
		res.Hosts = []Host{{Name: domain}}
	}
	sort.SliceStable(res.Hosts, func(i, j int) bool { return res.Hosts[i].Preference < res.Hosts[j].Preference })
	if len(res.Hosts) > MaxHosts {
		res.Hosts = res.Hosts[:MaxHosts]
	}
	kept := res.Hosts[:0]
	var lastErr error
	for _, h := range res.Hosts {
		a, err := r.addrs(ctx, h.Name)
		if err != nil || len(a) == 0 {
			lastErr = err
			continue
		}
		h.Addrs = a
		kept = append(kept, h)
	}
	res.Hosts = kept
	if len(kept) == 0 {
		if lastErr != nil && !errors.Is(lastErr, ErrNoSuchDomain) && ctx.Err() == nil {
			return res, fmt.Errorf("%s: no exchanger resolves: %w", domain, lastErr)
		}
		return res, fmt.Errorf("%s: %w", domain, ErrNoMailHost)
	}
	return res, nil
}
