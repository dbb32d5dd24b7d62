// Package smtpprobe asks a domain's mail exchangers whether mailboxes
// exist, over real SMTP (github.com/emersion/go-smtp's client): EHLO,
// STARTTLS when offered, MAIL FROM the configured sender, one RCPT TO per
// address on one connection, RSET — never DATA, so nothing is ever sent.
//
// It is a good citizen by construction: one session at a time per
// exchanger address, an idle connection reused by the next probe of that
// exchanger, a growing backoff after a 421, per-command and connect
// timeouts, and no connection at all to a non-public address unless the
// operator allows it for test worlds. Every reply is kept as evidence.
package smtpprobe

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/textproto"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-smtp"
	"golang.org/x/net/proxy"
	"golang.org/x/time/rate"
)

// Sentinel errors callers branch on.
var (
	// ErrRateLimited: the exchanger answered 421 (or kept backing us off);
	// it is being left alone for a while.
	ErrRateLimited = errors.New("exchanger is rate limiting")
	// ErrTimeout: a connect or a command did not finish in time.
	ErrTimeout = errors.New("smtp timeout")
	// ErrUnreachable: no exchanger address accepted a connection.
	ErrUnreachable = errors.New("no exchanger reachable")
	// ErrRefused: the exchanger refused the session itself (greeting,
	// EHLO or MAIL FROM answered 5xx), so no mailbox can be judged.
	ErrRefused = errors.New("exchanger refused the session")
	// ErrDropped: the exchanger kept closing the connection mid-session.
	ErrDropped = errors.New("exchanger dropped the connection")
)

// Config tunes a Prober; zero values take the defaults named.
type Config struct {
	Port     int    // SMTP port of every exchanger; 25 when 0
	HeloName string // EHLO name; "localhost" when empty
	MailFrom string // envelope sender (MAIL FROM); empty is the null sender <>
	// AllowPrivate lets probes reach loopback and private addresses: the
	// operator flag for test worlds. Off, such targets are refused at
	// connect time with ErrNonPublic.
	AllowPrivate bool
	// Proxy is a socks5:// URL the SMTP connections go through (cloud
	// hosts often block outbound port 25); direct when empty.
	Proxy          string
	ConnectTimeout time.Duration // 10 s
	CommandTimeout time.Duration // per command, greeting included; 30 s
	IdleTimeout    time.Duration // how long a connection waits for reuse; 30 s
	MaxReuse       int           // mail transactions per connection; 20
	MaxConns       int           // connections per probe after drops (each 452 allows one more, up to 10); 3
	Backoff        time.Duration // first pause after a 421, doubling; 30 s
	MaxBackoff     time.Duration // longest pause; 5 min
	// MaxWait is the longest a probe waits for a host's backoff to end
	// before giving up with ErrRateLimited; Backoff when 0.
	MaxWait time.Duration
	// Pace spaces the sessions of every probe (the global lookup rate):
	// one token per probe, taken once the exchanger is free and has
	// answered, so neither a busy exchanger nor an unreachable one eats
	// into the pace. nil: no limit.
	Pace *rate.Limiter
}

func (c Config) withDefaults() Config {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	if c.Port == 0 {
		c.Port = 25
	}
	if c.HeloName == "" {
		c.HeloName = "localhost"
	}
	def(&c.ConnectTimeout, 10*time.Second)
	def(&c.CommandTimeout, 30*time.Second)
	def(&c.IdleTimeout, 30*time.Second)
	def(&c.Backoff, 30*time.Second)
	def(&c.MaxBackoff, 5*time.Minute)
	def(&c.MaxWait, c.Backoff)
	if c.MaxReuse <= 0 {
		c.MaxReuse = 20
	}
	if c.MaxConns <= 0 {
		c.MaxConns = 3
	}
	return c
}

// Reply is one exchange of a session, kept as evidence.
type Reply struct {
	Step     string    `json:"step"` // connect, greeting, ehlo, starttls, mail, rcpt, rset
	Arg      string    `json:"arg,omitempty"`
	Host     string    `json:"host,omitempty"`
	Code     int       `json:"code"` // 0 when no reply came (connect failure, timeout, drop)
	Enhanced string    `json:"enhanced,omitempty"`
	Text     string    `json:"text,omitempty"`
	At       time.Time `json:"at"`
	Ms       int64     `json:"ms"`
}

// Target is one exchanger with its addresses.
type Target struct {
	Name  string
	Addrs []net.IP
}

// Outcome is what one probe saw.
type Outcome struct {
	Host        string  `json:"host"` // exchanger name that answered
	Addr        string  `json:"addr"`
	TLS         bool    `json:"tls"`
	Reused      bool    `json:"reused"` // the first connection was a kept one
	Connections int     `json:"connections"`
	Steps       []Reply `json:"steps"`
	// Rcpts has one reply per address asked for, in order; Code 0 for an
	// address the probe did not get to.
	Rcpts []Reply `json:"-"`
}

// Prober runs probes. It is safe for concurrent use; probes of one
// exchanger address run one at a time.
type Prober struct {
	cfg   Config
	dial  func(ctx context.Context, addr string) (net.Conn, error)
	mu    sync.Mutex
	slots map[string]*slot
}

// New returns a Prober; an invalid proxy URL is an error.
func New(cfg Config) (*Prober, error) {
	cfg = cfg.withDefaults()
	p := &Prober{cfg: cfg, slots: map[string]*slot{}}
	d := &net.Dialer{Timeout: cfg.ConnectTimeout}
	p.dial = func(ctx context.Context, addr string) (net.Conn, error) { return d.DialContext(ctx, "tcp", addr) }
	if cfg.Proxy != "" {
		u, err := url.Parse(cfg.Proxy)
		if err != nil || (u.Scheme != "socks5" && u.Scheme != "socks5h") || u.Host == "" {
			return nil, fmt.Errorf("smtp proxy %q: want socks5://[user:pass@]host:port", cfg.Proxy)
		}
		pd, err := proxy.FromURL(u, d)
		if err != nil {
			return nil, fmt.Errorf("smtp proxy: %w", err)
		}
		cd, ok := pd.(proxy.ContextDialer)
		if !ok {
			return nil, fmt.Errorf("smtp proxy: dialer without context support")
		}
		p.dial = func(ctx context.Context, addr string) (net.Conn, error) { return cd.DialContext(ctx, "tcp", addr) }
	}
	return p, nil
}

// Config returns the effective configuration.
func (p *Prober) Config() Config { return p.cfg }

// Close closes the kept connections.
func (p *Prober) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, s := range p.slots {
		s.mu.Lock()
		if s.idle != nil {
			s.idle.close()
			s.idle = nil
		}
		s.mu.Unlock()
	}
}

// slot serializes the sessions of one exchanger address and keeps its idle
// connection and backoff.
type slot struct {
	sem chan struct{}

	mu           sync.Mutex
	idle         *session
	idleTimer    *time.Timer
	backoffUntil time.Time
	backoffStep  time.Duration
}

func (p *Prober) slot(addr string) *slot {
	p.mu.Lock()
	defer p.mu.Unlock()
	s, ok := p.slots[addr]
	if !ok {
		s = &slot{sem: make(chan struct{}, 1)}
		p.slots[addr] = s
	}
	return s
}

func (s *slot) take() *session {
	s.mu.Lock()
	defer s.mu.Unlock()
	ss := s.idle
	s.idle = nil
	if s.idleTimer != nil {
		s.idleTimer.Stop()
	}
	return ss
}

func (s *slot) put(ss *session, idle time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.idle != nil {
		s.idle.close()
	}
	s.idle = ss
	s.idleTimer = time.AfterFunc(idle, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.idle == ss {
			ss.close()
			s.idle = nil
		}
	})
}

// backoff records a 421 and returns how long the host is left alone.
func (s *slot) backoff(cfg Config) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.backoffStep == 0 {
		s.backoffStep = cfg.Backoff
	} else {
		s.backoffStep = min(2*s.backoffStep, cfg.MaxBackoff)
	}
	s.backoffUntil = time.Now().Add(s.backoffStep)
	return s.backoffStep
}

func (s *slot) clearBackoff() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.backoffStep = 0
}

func (s *slot) backoffLeft() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return time.Until(s.backoffUntil)
}

// session is one SMTP connection.
type session struct {
	c    *smtp.Client
	conn net.Conn
	tr   *bytes.Buffer
	uses int
	tls  bool
	stop func() bool // unhooks the context watcher
}

func (ss *session) close() {
	ss.unwatch()
	ss.c.Close()
}

// watch closes the connection when ctx ends (a lookup's deadline or
// cancellation interrupts a blocked read); unwatch before keeping it idle.
func (ss *session) watch(ctx context.Context) {
	ss.unwatch()
	conn := ss.conn
	ss.stop = context.AfterFunc(ctx, func() { conn.Close() })
}

func (ss *session) unwatch() {
	if ss.stop != nil {
		ss.stop()
		ss.stop = nil
	}
}

// Probe asks the first reachable target (in the order given, lowest MX
// preference first) about each address in rcpts. Only a failure to
// connect moves on to the next address or exchanger: a server that
// answered is the authority for its domain.
func (p *Prober) Probe(ctx context.Context, targets []Target, rcpts []string) (Outcome, error) {
	out := Outcome{Rcpts: make([]Reply, len(rcpts))}
	var lastErr error = ErrUnreachable
	for _, t := range targets {
		for _, ip := range t.Addrs {
			addr := net.JoinHostPort(ip.String(), strconv.Itoa(p.cfg.Port))
			err := p.probeAddr(ctx, t.Name, addr, rcpts, &out)
			if err == nil {
				return out, nil
			}
			lastErr = err
			var ce *connectError
			if !errors.As(err, &ce) || errors.Is(err, ErrNonPublic) {
				return out, err
			}
		}
	}
	if errors.Is(lastErr, ErrTimeout) || errors.Is(lastErr, ErrNonPublic) {
		return out, lastErr
	}
	return out, fmt.Errorf("%w: %v", ErrUnreachable, lastErr)
}

// connectError marks a failure to reach an address at all.
type connectError struct{ err error }

func (e *connectError) Error() string { return "connect: " + e.err.Error() }
func (e *connectError) Unwrap() error { return e.err }

func (p *Prober) probeAddr(ctx context.Context, host, addr string, rcpts []string, out *Outcome) error {
	if err := checkTarget(addr, p.cfg.AllowPrivate); err != nil {
		out.Steps = append(out.Steps, Reply{Step: "connect", Arg: addr, Host: host, Text: err.Error(), At: time.Now()})
		return &connectError{err}
	}
	sl := p.slot(addr)
	select {
	case sl.sem <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-sl.sem }()
	if wait := sl.backoffLeft(); wait > 0 {
		if wait > p.cfg.MaxWait {
			return fmt.Errorf("%s backed off for %s: %w", host, wait.Round(time.Second), ErrRateLimited)
		}
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		}
	}
	out.Host, out.Addr = host, addr
	// Connections allowed: MaxConns for drops, one more for each 452 (a
	// recipient cap is the server's rule, not a failure), at most 10.
	i, conns, allowed, first := 0, 0, p.cfg.MaxConns, true
	for i < len(rcpts) {
		ss := sl.take()
		reused := ss != nil
		if reused {
			ss.watch(ctx)
		}
		if ss == nil {
			if conns >= allowed {
				return fmt.Errorf("%s after %d connections: %w", host, conns, ErrDropped)
			}
			var err error
			ss, err = p.open(ctx, host, addr, out)
			conns++
			out.Connections++
			if err != nil {
				if isCode(err, 421) {
					sl.backoff(p.cfg)
					return fmt.Errorf("%s: %w", host, ErrRateLimited)
				}
				return err
			}
		}
		if first {
			out.Reused = reused
			first = false
			// One token per session, taken once the exchanger answered:
			// an unreachable backup MX costs none.
			if p.cfg.Pace != nil {
				if err := p.cfg.Pace.Wait(ctx); err != nil {
					ss.close()
					return fmt.Errorf("%s: waiting for the global rate: %w", host, ErrTimeout)
				}
			}
		}
		out.TLS = out.TLS || ss.tls
		ss.uses++
		err := p.step(ctx, ss, host, "mail", p.cfg.MailFrom, out, func() error { return ss.c.Mail(p.cfg.MailFrom, nil) })
		if err != nil {
			ss.close()
			switch {
			case reused && !isReply(err):
				continue // a kept connection the server had closed: open a fresh one
			case isCode(err, 421):
				sl.backoff(p.cfg)
				return fmt.Errorf("%s: %w", host, ErrRateLimited)
			case isTimeout(err):
				return fmt.Errorf("%s MAIL FROM: %w", host, ErrTimeout)
			case isReply(err):
				return fmt.Errorf("%s MAIL FROM: %w: %v", host, ErrRefused, err)
			}
			continue // dropped: try again on a new connection
		}
		broken := false
		for i < len(rcpts) {
			rc := rcpts[i]
			err := p.step(ctx, ss, host, "rcpt", rc, out, func() error { return ss.c.Rcpt(rc, nil) })
			last := out.Steps[len(out.Steps)-1]
			if err != nil && !isReply(err) {
				ss.close()
				if isTimeout(err) {
					return fmt.Errorf("%s RCPT TO: %w", host, ErrTimeout)
				}
				broken = true
				break
			}
			switch last.Code {
			case 421:
				ss.close()
				sl.backoff(p.cfg)
				return fmt.Errorf("%s: %w", host, ErrRateLimited)
			case 452: // too many recipients: the rest on a new connection
				ss.close()
				broken = true
				allowed = min(allowed+1, 10)
			default:
				out.Rcpts[i] = last
				i++
				continue
			}
			break
		}
		if broken {
			continue
		}
		sl.clearBackoff()
		if ss.uses < p.cfg.MaxReuse && p.step(ctx, ss, host, "rset", "", out, ss.c.Reset) == nil {
			ss.unwatch()
			sl.put(ss, p.cfg.IdleTimeout)
		} else {
			ss.c.Quit()
			ss.close()
		}
	}
	return nil
}

// open connects, reads the greeting, says EHLO and upgrades to TLS when
// the server offers it. go-smtp's client (v0.25) only offers STARTTLS at
// creation and then introduces itself as "localhost", so the plain-text
// opening (greeting, EHLO with our name, STARTTLS) is spoken here with
// net/textproto, and the client takes over the (possibly TLS) connection
// for a second EHLO and the mail transaction.
func (p *Prober) open(ctx context.Context, host, addr string, out *Outcome) (*session, error) {
	start := time.Now()
	dctx, cancel := context.WithTimeout(ctx, p.cfg.ConnectTimeout)
	conn, err := p.dial(dctx, addr)
	cancel()
	r := Reply{Step: "connect", Arg: addr, Host: host, At: start, Ms: time.Since(start).Milliseconds()}
	if err != nil {
		r.Text = err.Error()
		out.Steps = append(out.Steps, r)
		if isTimeout(err) {
			return nil, &connectError{fmt.Errorf("connect %s: %w", addr, ErrTimeout)}
		}
		return nil, &connectError{fmt.Errorf("connect %s: %w", addr, err)}
	}
	out.Steps = append(out.Steps, r)
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	fail := func(what string, err error) (*session, error) {
		stop()
		conn.Close()
		if ctx.Err() != nil {
			err = fmt.Errorf("%w: %w", ErrTimeout, ctx.Err())
		}
		return nil, sessionErr(host, what, err)
	}
	tp := textproto.NewConn(conn)
	plain := func(name, arg, cmd string, want int) (string, error) {
		t0 := time.Now()
		conn.SetDeadline(t0.Add(p.cfg.CommandTimeout))
		if cmd != "" {
			if _, err := tp.Cmd("%s", cmd); err != nil {
				out.Steps = append(out.Steps, Reply{Step: name, Arg: arg, Host: host, Text: err.Error(), At: t0})
				return "", err
			}
		}
		code, msg, err := tp.ReadResponse(want)
		rep := Reply{Step: name, Arg: arg, Host: host, Code: code, At: t0, Ms: time.Since(t0).Milliseconds()}
		var pe *textproto.Error
		if errors.As(err, &pe) {
			code, msg = pe.Code, pe.Msg
			err = &smtp.SMTPError{Code: code, Message: msg}
			rep.Code = code
		}
		if code != 0 {
			if rs := parseReplies([]byte(replyLines(code, msg))); len(rs) > 0 {
				rep.Enhanced, rep.Text = rs[0].Enhanced, rs[0].Text
			}
		} else if err != nil {
			rep.Text = err.Error()
		}
		out.Steps = append(out.Steps, rep)
		return msg, err
	}
	if _, err := plain("greeting", "", "", 220); err != nil {
		return fail("greeting", err)
	}
	ext, err := plain("ehlo", p.cfg.HeloName, "EHLO "+p.cfg.HeloName, 250)
	if err != nil {
		return fail("EHLO", err)
	}
	tlsOn := false
	var c net.Conn = conn
	if hasExtension(ext, "STARTTLS") {
		if _, err := plain("starttls", "", "STARTTLS", 220); err != nil {
			return fail("STARTTLS", err)
		}
		// Opportunistic TLS (RFC 7435): exchanger certificates rarely
		// match their names and nothing secret is sent, so the
		// certificate is not verified; refusing it would only lose the
		// answer.
		tc := tls.Client(conn, &tls.Config{ServerName: host, InsecureSkipVerify: true})
		if err := tc.HandshakeContext(ctx); err != nil {
			out.Steps = append(out.Steps, Reply{Step: "tls", Host: host, Text: err.Error(), At: time.Now()})
			return fail("TLS handshake", err)
		}
		c, tlsOn = tc, true
	}
	conn.SetDeadline(time.Time{})
	ss := &session{c: smtp.NewClient(&greeted{Conn: c, pending: []byte("220 " + host + " continued\r\n")}), conn: c, tr: &bytes.Buffer{}, tls: tlsOn, stop: stop}
	ss.c.CommandTimeout = p.cfg.CommandTimeout
	ss.c.DebugWriter = ss.tr
	if tlsOn {
		if err := p.step(ctx, ss, host, "ehlo", p.cfg.HeloName, out, func() error { return ss.c.Hello(p.cfg.HeloName) }); err != nil {
			ss.close()
			return nil, sessionErr(host, "EHLO", err)
		}
	} else if err := ss.c.Hello(p.cfg.HeloName); err != nil { // the same EHLO again, unrecorded
		ss.close()
		return nil, sessionErr(host, "EHLO", err)
	}
	return ss, nil
}

// greeted replays a greeting to go-smtp's client, which reads one first,
// on a connection whose real greeting was already read.
type greeted struct {
	net.Conn
	pending []byte
}

func (g *greeted) Read(b []byte) (int, error) {
	if len(g.pending) > 0 {
		n := copy(b, g.pending)
		g.pending = g.pending[n:]
		return n, nil
	}
	return g.Conn.Read(b)
}

// replyLines turns textproto's joined message back into reply lines.
func replyLines(code int, msg string) string {
	lines := strings.Split(msg, "\n")
	var b strings.Builder
	for i, l := range lines {
		sep := "-"
		if i == len(lines)-1 {
			sep = " "
		}
		fmt.Fprintf(&b, "%d%s%s\r\n", code, sep, l)
	}
	return b.String()
}

func hasExtension(ehlo, name string) bool {
	for _, l := range strings.Split(ehlo, "\n")[1:] {
		if f := strings.Fields(l); len(f) > 0 && strings.EqualFold(f[0], name) {
			return true
		}
	}
	return false
}

func sessionErr(host, what string, err error) error {
	switch {
	case isCode(err, 421):
		return err
	case isTimeout(err):
		return fmt.Errorf("%s %s: %w", host, what, ErrTimeout)
	case isReply(err):
		return fmt.Errorf("%s %s: %w: %v", host, what, ErrRefused, err)
	}
	return fmt.Errorf("%s %s: %w: %v", host, what, ErrDropped, err)
}

// step runs one command through the client and records its reply.
func (p *Prober) step(ctx context.Context, ss *session, host, name, arg string, out *Outcome, f func() error) error {
	ss.tr.Reset()
	start := time.Now()
	err := f()
	if err != nil && ctx.Err() != nil {
		err = fmt.Errorf("%w: %w", ErrTimeout, ctx.Err())
	}
	ms := time.Since(start).Milliseconds()
	replies := parseReplies(ss.tr.Bytes())
	r := Reply{Step: name, Arg: arg, Host: host, At: start, Ms: ms}
	if n := len(replies); n > 0 {
		last := replies[n-1]
		r.Code, r.Enhanced, r.Text = last.Code, last.Enhanced, last.Text
	}
	var se *smtp.SMTPError
	if errors.As(err, &se) && r.Code == 0 {
		r.Code, r.Text = se.Code, se.Message
	}
	if r.Code == 0 && err != nil {
		r.Text = err.Error()
	}
	out.Steps = append(out.Steps, r)
	return err
}

// parseReplies reads the server replies out of a session transcript (which
// also holds our commands): lines "NNN-text" continue a reply, "NNN text"
// ends it.
func parseReplies(b []byte) []Reply {
	var out []Reply
	var cur []string
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimRight(line, "\r")
		if len(line) < 3 || line[0] < '2' || line[0] > '5' || line[1] < '0' || line[1] > '9' || line[2] < '0' || line[2] > '9' {
			continue
		}
		code, _ := strconv.Atoi(line[:3])
		rest := ""
		if len(line) > 4 {
			rest = line[4:]
		}
		cur = append(cur, rest)
		if len(line) > 3 && line[3] == '-' {
			continue
		}
		r := Reply{Code: code}
		text := cur[0]
		if f := strings.Fields(text); len(f) > 0 && isEnhanced(f[0]) {
			r.Enhanced = f[0]
			text = strings.TrimSpace(strings.TrimPrefix(text, f[0]))
		}
		if len(cur) > 1 {
			text += " (+" + strconv.Itoa(len(cur)-1) + " lines: " + strings.Join(cur[1:], ", ") + ")"
		}
		if len(text) > 300 {
			text = text[:300]
		}
		r.Text = text
		out = append(out, r)
		cur = nil
	}
	return out
}

func isEnhanced(s string) bool {
	parts := strings.Split(s, ".")
	if len(parts) != 3 || (parts[0] != "2" && parts[0] != "4" && parts[0] != "5") {
		return false
	}
	for _, p := range parts[1:] {
		if _, err := strconv.Atoi(p); err != nil {
			return false
		}
	}
	return true
}

func isReply(err error) bool {
	var se *smtp.SMTPError
	return errors.As(err, &se)
}

func isCode(err error, code int) bool {
	var se *smtp.SMTPError
	return errors.As(err, &se) && se.Code == code
}

func isTimeout(err error) bool {
	if errors.Is(err, ErrTimeout) || errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
