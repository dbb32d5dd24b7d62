package email

import (
	"fmt"
	"os"
	"time"

	"github.com/rs/zerolog"
	"golang.org/x/time/rate"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/email/dnsmx"
	"github.com/openprospect/prospectd/email/smtpprobe"
	"github.com/openprospect/prospectd/store"
)

// DefaultRatePerMinute is the spec's shared pace of lookups.
const DefaultRatePerMinute = 70

// Config is the operator's configuration of email lookups.
type Config struct {
	// DNSServer is host:port of the resolver used for MX lookups; the
	// system's first nameserver when empty.
	DNSServer string
	// SMTPPort is the exchangers' port: 25 in production; test worlds run
	// unprivileged servers on another.
	SMTPPort int
	// SenderDomain names us: EHLO <SenderDomain> and MAIL FROM
	// <verify@SenderDomain>. Empty: EHLO with the host name and the null
	// sender <>.
	SenderDomain string
	// AllowPrivate lets lookups connect to loopback and private addresses
	// (test worlds only).
	AllowPrivate bool
	// Proxy is a socks5:// URL for the SMTP connections.
	Proxy string
	// RatePerMinute paces SMTP sessions across the process (default 70);
	// negative lifts the limit.
	RatePerMinute  float64
	GreylistDelay  time.Duration // least wait before a greylisting recheck (5 min)
	MaxActive      int           // account cap on queued-or-running lookups (1,000)
	ConnectTimeout time.Duration // 10 s
	CommandTimeout time.Duration // 30 s
	Backoff        time.Duration // first pause after a 421 (30 s)
	Parallel       int           // lookups in flight per batch (8)
}

// Validate checks what NewService would refuse, for a clear error at
// start-up.
func (c Config) Validate() error {
	if c.Proxy != "" {
		if _, err := smtpprobe.New(smtpprobe.Config{Proxy: c.Proxy}); err != nil {
			return fmt.Errorf("email lookups: %w", err)
		}
	}
	if c.SMTPPort < 0 || c.SMTPPort > 65535 {
		return fmt.Errorf("email lookups: SMTP port %d: want 1-65535", c.SMTPPort)
	}
	return nil
}

// Limiter returns the global pace of lookups, nil when lifted.
func (c Config) Limiter() *rate.Limiter {
	perMin := c.RatePerMinute
	if perMin == 0 {
		perMin = DefaultRatePerMinute
	}
	if perMin < 0 {
		return nil
	}
	return rate.NewLimiter(rate.Limit(perMin/60), 1)
}

// OrgsAndTasks reads organizations and tasks (the state store).
type OrgsAndTasks interface {
	Orgs
	TaskReader
}

// NewService wires a Service from the configuration.
func NewService(cfg Config, st store.EmailStore, orgs OrgsAndTasks, biller *account.Biller, tasks Submitter, patterns PatternSource, log zerolog.Logger) (*Service, error) {
	helo, from := cfg.SenderDomain, ""
	if helo == "" {
		helo, _ = os.Hostname()
	} else {
		from = "verify@" + cfg.SenderDomain
	}
	p, err := smtpprobe.New(smtpprobe.Config{Port: cfg.SMTPPort, HeloName: helo, MailFrom: from, AllowPrivate: cfg.AllowPrivate,
		Proxy: cfg.Proxy, ConnectTimeout: cfg.ConnectTimeout, CommandTimeout: cfg.CommandTimeout, Backoff: cfg.Backoff, Pace: cfg.Limiter()})
	if err != nil {
		return nil, fmt.Errorf("email lookups: %w", err)
	}
	f := &Finder{DNS: &dnsmx.Resolver{Server: cfg.DNSServer}, Prober: p, Patterns: &FeedbackPatterns{Store: st, Index: patterns},
		GreylistDelay: cfg.GreylistDelay}
	return &Service{Store: st, Orgs: orgs, TaskStatus: orgs, Finder: f, Biller: biller, Tasks: tasks, Log: log,
		MaxActive: cfg.MaxActive, Parallel: cfg.Parallel}, nil
}
