package main

import (
	"fmt"
	"strconv"
	"time"

	"github.com/openprospect/prospectd/email"
)

// emailFlags are serve's email lookup settings.
type emailFlags struct {
	dns, sender, proxy, rate *string
	port, maxActive          *int
	allowPrivate             *bool
	greylist, command        *time.Duration
}

func addEmailFlags(fs *flagSet) *emailFlags {
	return &emailFlags{
		dns:          fs.String("email-dns", "PROSPECT_EMAIL_DNS", "", "DNS server (host:port) for MX lookups; the system resolver's first nameserver when empty"),
		sender:       fs.String("email-sender-domain", "PROSPECT_EMAIL_SENDER_DOMAIN", "", "domain email probes introduce themselves with (EHLO, MAIL FROM verify@DOMAIN); set it to a domain you control"),
		proxy:        fs.String("email-socks5", "PROSPECT_EMAIL_SOCKS5", "", "socks5://[user:pass@]host:port to send SMTP probes through (for hosts that block outbound port 25)"),
		rate:         fs.String("email-rate", "PROSPECT_EMAIL_RATE", "70", "SMTP lookups per minute across the server; 0 or a negative number lifts the limit"),
		port:         fs.Int("email-smtp-port", "PROSPECT_EMAIL_SMTP_PORT", 25, "SMTP port of mail exchangers (test worlds use an unprivileged port)"),
		maxActive:    fs.Int("email-max-active", "PROSPECT_EMAIL_MAX_ACTIVE", email.DefaultMaxActive, "queued-or-running email lookups per account; more is refused with 429"),
		allowPrivate: fs.Bool("email-allow-private", "PROSPECT_EMAIL_ALLOW_PRIVATE", false, "let SMTP probes reach loopback and private addresses (test worlds only)"),
		greylist:     fs.Duration("email-greylist-delay", "PROSPECT_EMAIL_GREYLIST_DELAY", email.DefaultGreylistDelay, "least wait before a greylisted lookup is rechecked"),
		command:      fs.Duration("email-smtp-timeout", "PROSPECT_EMAIL_SMTP_TIMEOUT", 30*time.Second, "timeout of each SMTP command"),
	}
}

func (f *emailFlags) config() (email.Config, error) {
	r, err := strconv.ParseFloat(*f.rate, 64)
	if err != nil {
		return email.Config{}, fmt.Errorf("--email-rate %q: not a number", *f.rate)
	}
	if r <= 0 {
		r = -1
	}
	if *f.port < 1 || *f.port > 65535 {
		return email.Config{}, fmt.Errorf("--email-smtp-port %d: want 1-65535", *f.port)
	}
	cfg := email.Config{DNSServer: *f.dns, SMTPPort: *f.port, SenderDomain: *f.sender, AllowPrivate: *f.allowPrivate, Proxy: *f.proxy,
		RatePerMinute: r, GreylistDelay: *f.greylist, MaxActive: *f.maxActive, CommandTimeout: *f.command}
	return cfg, cfg.Validate()
}
