package email

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"net/mail"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/openprospect/prospectd/email/dnsmx"
	"github.com/openprospect/prospectd/email/smtpprobe"
	"github.com/openprospect/prospectd/record/domain"
)

// PatternSource gives a domain's address template as measured from the
// contact index ("{first}.{last}"; "" when unknown) with its confidence.
type PatternSource interface {
	EmailPattern(ctx context.Context, domain string) (template string, confidence float64, err error)
}

// Defaults of the Finder's optional fields.
const (
	DefaultMaxCandidates        = 20
	DefaultMinPatternConfidence = 0.3
	DefaultRetries              = 3
	DefaultGreylistDelay        = 5 * time.Minute
	DefaultLookupTimeout        = 3 * time.Minute
	// MaxGreylistHint caps the delay a server may ask for.
	MaxGreylistHint = 30 * time.Minute
)

// Finder runs lookups: DNS, then one SMTP session per attempt.
type Finder struct {
	DNS *dnsmx.Resolver
	// Prober runs the SMTP sessions; its Pace is the process's shared
	// lookup rate (the spec's ~70 a minute).
	Prober   *smtpprobe.Prober
	Patterns PatternSource // optional

	MaxCandidates        int
	MinPatternConfidence float64
	// Retries bounds the sessions of one lookup against an exchanger
	// answering 421.
	Retries int
	// GreylistDelay is the least wait before a greylisted lookup is
	// rechecked; a server asking for longer (up to MaxGreylistHint) gets it.
	GreylistDelay time.Duration
	LookupTimeout time.Duration
	// ProbeSalt makes the catch-all probe's local part unguessable by
	// servers that would special-case it; a fixed default when empty.
	ProbeSalt string
	Now       func() time.Time
}

func (f *Finder) now() time.Time {
	if f.Now != nil {
		return f.Now()
	}
	return time.Now()
}

func orInt(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

func orDur(v, def time.Duration) time.Duration {
	if v > 0 {
		return v
	}
	return def
}

// ErrBadRequest marks a request that cannot be looked up as given.
var ErrBadRequest = errors.New("invalid email lookup request")

// FieldError names the request field that broke a rule.
type FieldError struct {
	Field, Rule string
}

func (e *FieldError) Error() string { return ErrBadRequest.Error() + ": " + e.Field + ": " + e.Rule }

// Unwrap makes errors.Is(err, ErrBadRequest) true.
func (e *FieldError) Unwrap() error { return ErrBadRequest }

func bad(field, format string, args ...any) error {
	return &FieldError{Field: field, Rule: fmt.Sprintf(format, args...)}
}

// Validate checks and normalizes a request of the kind: names with a
// letter or digit, a valid domain, a known pattern the parser reads, or a
// valid address for verify.
func Validate(kind string, r Request) (Request, error) {
	switch kind {
	case KindVerify:
		addr, err := mail.ParseAddress(strings.TrimSpace(r.Email))
		if err != nil || addr.Name != "" {
			return r, bad("email", "not a plain address")
		}
		local, host, _ := strings.Cut(strings.ToLower(addr.Address), "@")
		d, err := domain.Normalize(host)
		if err != nil || d != host && !strings.HasSuffix(host, "."+d) {
			return r, bad("email", "domain %q: not a valid domain", host)
		}
		if len(local) > 64 {
			return r, bad("email", "local part over 64 characters")
		}
		r.Email = local + "@" + host
		r.Domain = host
		return r, nil
	case KindFind:
		if strings.TrimSpace(r.FirstName) == "" {
			return r, bad("first_name", "required")
		}
		if strings.TrimSpace(r.LastName) == "" {
			return r, bad("last_name", "required")
		}
		if _, ok := NormalizeName(r.FirstName, r.LastName); !ok {
			return r, bad("first_name/last_name", "need a letter or digit each")
		}
		host := strings.ToLower(strings.TrimSpace(r.Domain))
		if host == "" {
			return r, bad("domain", "required")
		}
		// Users paste addresses and site URLs into domain fields.
		if _, rest, ok := strings.Cut(host, "://"); ok {
			host = rest
		}
		if i := strings.IndexAny(host, "/?#"); i >= 0 {
			host = host[:i]
		}
		if strings.Contains(host, "@") {
			_, host, _ = strings.Cut(host, "@")
		}
		host = strings.TrimPrefix(strings.TrimSuffix(host, "."), "www.")
		if _, err := domain.Normalize(host); err != nil {
			return r, bad("domain", "%v", err)
		}
		r.Domain = host
		if r.KnownPattern != "" {
			t, err := ParsePattern(r.KnownPattern)
			if err != nil {
				return r, bad("known_pattern", "%v", err)
			}
			r.KnownPattern = t
		}
		return r, nil
	}
	return r, bad("kind", "want find or verify")
}

// Find looks for a person's address at a domain. The request must have
// passed Validate.
func (f *Finder) Find(ctx context.Context, req Request) Result {
	start := time.Now()
	res := Result{FirstName: req.FirstName, LastName: req.LastName, Domain: req.Domain}
	ev := &Evidence{Method: MethodPattern}
	res.Evidence = ev
	defer func() { res.DurationMs = time.Since(start).Milliseconds() }()
	name, _ := NormalizeName(req.FirstName, req.LastName)
	known := req.KnownPattern
	if known != "" {
		ev.PatternSource = "known_pattern"
	} else if f.Patterns != nil {
		t, conf, err := f.Patterns.EmailPattern(ctx, req.Domain)
		if err == nil && t != "" && conf >= orFloat(f.MinPatternConfidence, DefaultMinPatternConfidence) {
			if p, err := ParsePattern(t); err == nil {
				known, ev.PatternSource, ev.PatternConfidence = p, "measured", conf
			}
		}
	}
	if ev.PatternSource == "" {
		ev.PatternSource = "common"
	}
	max := orInt(f.MaxCandidates, DefaultMaxCandidates)
	if req.Escalate {
		max *= 2
	}
	cands := Candidates(name, req.Domain, known, max)
	res = f.probe(ctx, res, req.Domain, cands, KindFind)
	res.DurationMs = time.Since(start).Milliseconds()
	return res
}

// Verify checks one given address. The request must have passed Validate.
func (f *Finder) Verify(ctx context.Context, req Request) Result {
	start := time.Now()
	res := Result{Domain: req.Domain, Email: req.Email, Evidence: &Evidence{}}
	res = f.probe(ctx, res, req.Domain, []Candidate{{Email: req.Email}}, KindVerify)
	res.DurationMs = time.Since(start).Milliseconds()
	return res
}

func orFloat(v, def float64) float64 {
	if v > 0 {
		return v
	}
	return def
}

// CatchAllResult answers a lookup at a domain known to accept every
// address, without asking its exchanger again.
func CatchAllResult(req Request, kind, provider string, checkedAt time.Time) Result {
	res := Result{FirstName: req.FirstName, LastName: req.LastName, Domain: req.Domain, Email: req.Email,
		Status: StatusCatchAll, IsCatchAll: true, Evidence: &Evidence{Method: MethodCatchAllCache, CheckedAt: checkedAt}}
	if provider != "" {
		res.Provider = &provider
	}
	if kind == KindFind && req.KnownPattern != "" {
		if n, ok := NormalizeName(req.FirstName, req.LastName); ok {
			if c := Candidates(n, req.Domain, req.KnownPattern, 1); len(c) > 0 {
				res.Status = StatusCatchAllPattern
				res.Result = &Found{Email: c[0].Email, Pattern: c[0].Pattern, Tier: 1, SMTPCode: 250, Valid: false}
			}
		}
	}
	return res
}

// probeLocal is a local part no one has, for the catch-all probe. It is
// the same for a domain on every lookup (derived from the salt): greylisting
// servers key on the recipient, so a fresh random address would be
// greylisted again on every recheck.
func (f *Finder) probeLocal(domain string) string {
	const letters = "abcdefghijklmnopqrstuvwxyz0123456789"
	salt := f.ProbeSalt
	if salt == "" {
		salt = "prospectd catch-all probe"
	}
	b := sha256.Sum256([]byte(salt + "\x00" + domain))
	out := make([]byte, 14)
	for i := range out {
		out[i] = letters[int(b[i])%len(letters)]
	}
	out[0] = letters[int(b[0])%26]
	return string(out)
}

// reply classes.
const (
	accepted = iota
	rejected // the mailbox does not exist
	grey     // try again later
	policy   // refused for another reason: says nothing about the mailbox
	unknown  // not asked or no reply
)

func classify(code int, enhanced, text string) int {
	switch {
	case code >= 250 && code <= 252:
		return accepted
	case code == 450 || code == 451 || code == 452:
		return grey
	case code >= 500 && code < 600:
		if strings.HasPrefix(enhanced, "5.7.") || code == 554 || code == 530 {
			return policy
		}
		low := strings.ToLower(text)
		for _, w := range []string{"blocked", "blacklist", "block list", "blocklist", "spamhaus", "policy", "denied", "reputation"} {
			if strings.Contains(low, w) && !strings.HasPrefix(enhanced, "5.1.") {
				return policy
			}
		}
		return rejected
	}
	return unknown
}

var greyHint = regexp.MustCompile(`(?i)(\d+)\s*(seconds?|secs?|s|minutes?|mins?|m)\b`)

// greylistWait is the recheck delay: the configured minimum, or what the
// server asked for when longer (capped).
func (f *Finder) greylistWait(text string) time.Duration {
	wait := orDur(f.GreylistDelay, DefaultGreylistDelay)
	if m := greyHint.FindStringSubmatch(text); m != nil {
		n, _ := strconv.Atoi(m[1])
		d := time.Duration(n) * time.Second
		if strings.HasPrefix(strings.ToLower(m[2]), "m") {
			d = time.Duration(n) * time.Minute
		}
		wait = max(wait, min(d, MaxGreylistHint))
	}
	return wait
}

// probe runs the DNS and SMTP stages and the verdict.
func (f *Finder) probe(ctx context.Context, res Result, dom string, cands []Candidate, kind string) Result {
	ctx, cancel := context.WithTimeout(ctx, orDur(f.LookupTimeout, DefaultLookupTimeout))
	defer cancel()
	ev := res.Evidence
	ev.CheckedAt = f.now().UTC()
	mx, err := f.DNS.Lookup(ctx, dom)
	for _, h := range mx.Hosts {
		ev.MX = append(ev.MX, h.Name)
	}
	ev.ImplicitMX = mx.Implicit
	if err != nil {
		ev.Method, ev.Error = MethodDNS, err.Error()
		switch {
		case errors.Is(err, dnsmx.ErrNoSuchDomain), errors.Is(err, dnsmx.ErrNoMailHost):
			res.Status = StatusUndeliverable
		case ctx.Err() != nil:
			res.Status = StatusTimeout
		default:
			res.Status = StatusError
		}
		return res
	}
	for _, h := range mx.Hosts {
		if p := Provider(h.Name); p != "" {
			res.Provider = &p
			break
		}
	}
	targets := make([]smtpprobe.Target, len(mx.Hosts))
	for i, h := range mx.Hosts {
		targets[i] = smtpprobe.Target{Name: h.Name, Addrs: h.Addrs}
	}
	rcpts := []string{f.probeLocal(dom) + "@" + dom}
	for _, c := range cands {
		rcpts = append(rcpts, c.Email)
	}
	var out smtpprobe.Outcome
	for attempt := 0; attempt < orInt(f.Retries, DefaultRetries); attempt++ {
		res.Attempts++
		var o smtpprobe.Outcome
		o, err = f.Prober.Probe(ctx, targets, rcpts)
		ev.Steps = append(ev.Steps, o.Steps...)
		out = o
		if !errors.Is(err, smtpprobe.ErrRateLimited) {
			break
		}
	}
	ev.Method = MethodSMTP
	ev.MXHost, ev.TLS = out.Host, out.TLS
	if err != nil {
		ev.Error = err.Error()
		switch {
		case errors.Is(err, smtpprobe.ErrRateLimited):
			res.Status = StatusRateLimited
		case errors.Is(err, smtpprobe.ErrTimeout), ctx.Err() != nil:
			res.Status = StatusTimeout
		case errors.Is(err, smtpprobe.ErrRefused):
			res.Status = StatusInconclusive
		default:
			res.Status = StatusError
		}
		return res
	}
	probeReply := out.Rcpts[0]
	ev.CatchAllProbe = &probeReply
	counts := [5]int{}
	var live []int
	greyText := ""
	for i, c := range cands {
		r := out.Rcpts[i+1]
		ev.Candidates = append(ev.Candidates, CandidateReply{Candidate: c, Code: r.Code, Enhanced: r.Enhanced, Text: r.Text})
		k := classify(r.Code, r.Enhanced, r.Text)
		counts[k]++
		if k == accepted {
			live = append(live, i)
		}
		if k == grey && greyText == "" {
			greyText = r.Text
		}
	}
	switch classify(probeReply.Code, probeReply.Enhanced, probeReply.Text) {
	case accepted:
		ev.Method = MethodCatchAllProbe
		res.IsCatchAll = true
		res.Status = StatusCatchAll
		if kind == KindFind && len(cands) > 0 && cands[0].Tier == 1 {
			c := cands[0]
			res.Status = StatusCatchAllPattern
			res.Result = &Found{Email: c.Email, Pattern: c.Pattern, Tier: c.Tier, SMTPCode: out.Rcpts[1].Code, Valid: false}
		}
		return res
	case grey:
		return f.greylisted(res, probeReply.Text)
	case unknown:
		res.Status = StatusInconclusive
		return res
	}
	switch {
	case counts[grey] > 0:
		return f.greylisted(res, greyText)
	case len(live) == 1:
		c := cands[live[0]]
		res.Status = StatusFound
		res.Result = &Found{Email: c.Email, Pattern: c.Pattern, Tier: c.Tier, SMTPCode: out.Rcpts[live[0]+1].Code, Valid: true}
	case len(live) > 1:
		res.Status = StatusAmbiguous
	case counts[policy] > 0 || counts[unknown] > 0:
		res.Status = StatusInconclusive
	case kind == KindVerify:
		res.Status = StatusUndeliverable
	default:
		res.Status = StatusNotFound
	}
	return res
}

func (f *Finder) greylisted(res Result, text string) Result {
	res.Status = StatusGreylisted
	at := f.now().Add(f.greylistWait(text)).UTC()
	res.RetryAt = &at
	return res
}
