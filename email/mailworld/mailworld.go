// Package mailworld is a simulated mail world on loopback for tests and
// benchmarks: a DNS server (github.com/miekg/dns) answering MX and A
// queries for made-up domains, and SMTP servers (github.com/emersion/go-smtp)
// on 127.0.x.y addresses sharing one unprivileged port, each with a
// behaviour real exchangers show: strict (550 for unknown mailboxes),
// catch-all domains, greylisting, rate limiting (421), tarpits, dropped
// connections, STARTTLS required, recipient caps, policy blocks. Domains
// absent from the world are NXDOMAIN. Every RCPT is logged, and any DATA
// is counted (a verifier must never send one).
package mailworld

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/emersion/go-smtp"
	"github.com/miekg/dns"
)

// Behaviour is how an exchanger treats its clients.
type Behaviour struct {
	// GreylistDelay > 0: every recipient is answered 451 until this long
	// after it was first asked for.
	GreylistDelay time.Duration
	// RejectOddConns: the 1st, 3rd, 5th... connection is answered 421
	// and closed (a rate-limiting exchanger).
	RejectOddConns bool
	// Tarpit delays every reply after the greeting.
	Tarpit time.Duration
	// DropAfter > 0: the connection is cut without a reply at this RCPT
	// of a session.
	DropAfter int
	// RequireTLS offers STARTTLS and refuses MAIL without it (530).
	RequireTLS bool
	// OfferTLS offers STARTTLS without requiring it.
	OfferTLS bool
	// MaxRcpts > 0: 452 for recipients beyond this many per transaction.
	MaxRcpts int
	// PolicyBlock answers every recipient 550 5.7.1 (a host that blocks
	// verifiers: no mailbox can be judged).
	PolicyBlock bool
}

// Domain is a mail domain of the world.
type Domain struct {
	Name string
	// MX lists exchanger host names by preference (index order; the
	// preference is 10*(i+1)). Empty with A set: implicit MX.
	MX []string
	// A is the domain's own address (implicit MX) when MX is empty.
	A string // host name whose address the domain's A record carries
	// Mailboxes are the local parts that exist.
	Mailboxes []string
	CatchAll  bool
}

// RcptEvent is one RCPT a server answered.
type RcptEvent struct {
	Host, Address string
	Code          int
	At            time.Time
}

// World is a running mail world.
type World struct {
	dns     *dns.Server
	dnsAddr string
	port    int
	tlsCfg  *tls.Config

	mu       sync.Mutex
	hosts    map[string]*host // by name
	domains  map[string]*Domain
	nextIP   int
	greylist map[string]time.Time
	rcpts    []RcptEvent
	data     atomic.Int64
	servers  []*smtp.Server
}

type host struct {
	name    string
	ip      string
	b       Behaviour
	conns   atomic.Int64
	active  atomic.Int64
	maxOpen atomic.Int64
}

// New starts the DNS server and picks the SMTP port.
func New() (*World, error) {
	w := &World{hosts: map[string]*host{}, domains: map[string]*Domain{}, greylist: map[string]time.Time{}, nextIP: 1}
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("mailworld: dns listen: %w", err)
	}
	w.dnsAddr = pc.LocalAddr().String()
	w.dns = &dns.Server{PacketConn: pc, Handler: dns.HandlerFunc(w.serveDNS)}
	started := make(chan struct{})
	w.dns.NotifyStartedFunc = func() { close(started) }
	go w.dns.ActivateAndServe()
	<-started
	cert, err := selfSigned()
	if err != nil {
		w.Close()
		return nil, err
	}
	w.tlsCfg = &tls.Config{Certificates: []tls.Certificate{cert}}
	return w, nil
}

// DNSAddr is the DNS server's host:port.
func (w *World) DNSAddr() string { return w.dnsAddr }

// SMTPPort is the port every exchanger of the world listens on (0 until
// the first AddHost).
func (w *World) SMTPPort() int { return w.port }

// Close stops every server.
func (w *World) Close() {
	w.dns.Shutdown()
	w.mu.Lock()
	servers := w.servers
	w.mu.Unlock()
	for _, s := range servers {
		s.Close()
	}
}

// ip returns the next free loopback address: 127.0.1.1, 127.0.1.2, ...
func (w *World) allocIP() string {
	n := w.nextIP
	w.nextIP++
	return fmt.Sprintf("127.%d.%d.%d", 1+n/65025, (n/255)%255, n%255+1)
}

// AddHost starts an exchanger called name with behaviour b.
func (w *World) AddHost(name string, b Behaviour) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	h := &host{name: strings.ToLower(name), ip: w.allocIP(), b: b}
	addr := net.JoinHostPort(h.ip, fmt.Sprint(w.port))
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("mailworld: listen %s: %w", addr, err)
	}
	if w.port == 0 {
		w.port = l.Addr().(*net.TCPAddr).Port
	}
	s := smtp.NewServer(&backend{w: w, h: h})
	s.Domain = h.name
	s.ReadTimeout = time.Minute
	s.WriteTimeout = time.Minute
	s.ErrorLog = quietLog{}
	if b.RequireTLS || b.OfferTLS {
		s.TLSConfig = w.tlsCfg
	}
	w.servers = append(w.servers, s)
	w.hosts[h.name] = h
	go s.Serve(l)
	return nil
}

// AddDownHost names an exchanger whose address has no server (connection
// refused), for MX fallbacks.
func (w *World) AddDownHost(name string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.hosts[strings.ToLower(name)] = &host{name: strings.ToLower(name), ip: w.allocIP()}
}

// AddDomain adds (or replaces) a domain.
func (w *World) AddDomain(d Domain) {
	w.mu.Lock()
	defer w.mu.Unlock()
	d.Name = strings.ToLower(d.Name)
	cp := d
	w.domains[d.Name] = &cp
}

// AddMailbox creates a mailbox at an existing domain.
func (w *World) AddMailbox(domain, local string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if d := w.domains[strings.ToLower(domain)]; d != nil {
		d.Mailboxes = append(d.Mailboxes, strings.ToLower(local))
	}
}

// Rcpts returns the RCPT log so far.
func (w *World) Rcpts() []RcptEvent {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]RcptEvent(nil), w.rcpts...)
}

// DataCommands counts DATA commands received (a verifier sends none).
func (w *World) DataCommands() int64 { return w.data.Load() }

// Connections is how many connections the named exchanger accepted.
func (w *World) Connections(name string) int64 {
	w.mu.Lock()
	h := w.hosts[strings.ToLower(name)]
	w.mu.Unlock()
	if h == nil {
		return 0
	}
	return h.conns.Load()
}

// MaxConcurrent is the most sessions the named exchanger had open at once.
func (w *World) MaxConcurrent(name string) int64 {
	w.mu.Lock()
	h := w.hosts[strings.ToLower(name)]
	w.mu.Unlock()
	if h == nil {
		return 0
	}
	return h.maxOpen.Load()
}

func (w *World) serveDNS(rw dns.ResponseWriter, r *dns.Msg) {
	m := new(dns.Msg)
	m.SetReply(r)
	m.Authoritative = true
	if len(r.Question) != 1 {
		m.Rcode = dns.RcodeFormatError
		rw.WriteMsg(m)
		return
	}
	q := r.Question[0]
	name := strings.TrimSuffix(strings.ToLower(q.Name), ".")
	w.mu.Lock()
	d, isDomain := w.domains[name]
	h, isHost := w.hosts[name]
	var aTarget *host
	if isDomain && d.A != "" {
		aTarget = w.hosts[strings.ToLower(d.A)]
	}
	var mx []string
	if isDomain {
		mx = append(mx, d.MX...)
	}
	w.mu.Unlock()
	switch {
	case !isDomain && !isHost:
		m.Rcode = dns.RcodeNameError
	case q.Qtype == dns.TypeMX && isDomain:
		for i, x := range mx {
			m.Answer = append(m.Answer, &dns.MX{Hdr: dns.RR_Header{Name: q.Name, Rrtype: dns.TypeMX, Class: dns.ClassINET, Ttl: 60},
				Preference: uint16(10 * (i + 1)), Mx: dns.Fqdn(x)})
		}
	case q.Qtype == dns.TypeA:
		ip := ""
		if isHost {
			ip = h.ip
		} else if aTarget != nil {
			ip = aTarget.ip
		}
		if ip != "" {
			m.Answer = append(m.Answer, &dns.A{Hdr: dns.RR_Header{Name: q.Name, Rrtype: dns.TypeA, Class: dns.ClassINET, Ttl: 60}, A: net.ParseIP(ip)})
		}
	}
	rw.WriteMsg(m)
}

type backend struct {
	w *World
	h *host
}

func (b *backend) NewSession(c *smtp.Conn) (smtp.Session, error) {
	n := b.h.conns.Add(1)
	if b.h.b.RejectOddConns && n%2 == 1 {
		time.AfterFunc(20*time.Millisecond, func() { c.Close() })
		return nil, &smtp.SMTPError{Code: 421, EnhancedCode: smtp.EnhancedCode{4, 7, 0}, Message: "Too many connections, try again later"}
	}
	open := b.h.active.Add(1)
	for {
		m := b.h.maxOpen.Load()
		if open <= m || b.h.maxOpen.CompareAndSwap(m, open) {
			break
		}
	}
	return &session{w: b.w, h: b.h, c: c}, nil
}

type session struct {
	w     *World
	h     *host
	c     *smtp.Conn
	rcpts int
}

func (s *session) tarpit() {
	if s.h.b.Tarpit > 0 {
		time.Sleep(s.h.b.Tarpit)
	}
}

func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	s.tarpit()
	if s.h.b.RequireTLS {
		if _, ok := s.c.TLSConnectionState(); !ok {
			return &smtp.SMTPError{Code: 530, EnhancedCode: smtp.EnhancedCode{5, 7, 0}, Message: "Must issue a STARTTLS command first"}
		}
	}
	s.rcpts = 0
	return nil
}

func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.tarpit()
	s.rcpts++
	if s.h.b.DropAfter > 0 && s.rcpts >= s.h.b.DropAfter {
		s.c.Conn().Close()
		return errors.New("dropped")
	}
	code, err := s.answer(strings.ToLower(to))
	s.w.mu.Lock()
	s.w.rcpts = append(s.w.rcpts, RcptEvent{Host: s.h.name, Address: strings.ToLower(to), Code: code, At: time.Now()})
	s.w.mu.Unlock()
	if code == 421 {
		time.AfterFunc(20*time.Millisecond, func() { s.c.Close() })
	}
	return err
}

func (s *session) answer(to string) (int, error) {
	b := s.h.b
	if b.MaxRcpts > 0 && s.rcpts > b.MaxRcpts {
		return 452, &smtp.SMTPError{Code: 452, EnhancedCode: smtp.EnhancedCode{4, 5, 3}, Message: "Too many recipients"}
	}
	if b.PolicyBlock {
		return 550, &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 7, 1}, Message: "Service unavailable; client host blocked"}
	}
	local, dom, _ := strings.Cut(to, "@")
	s.w.mu.Lock()
	d := s.w.domains[dom]
	exists := false
	catchAll := false
	if d != nil {
		catchAll = d.CatchAll
		for _, m := range d.Mailboxes {
			if m == local {
				exists = true
				break
			}
		}
	}
	var first time.Time
	if b.GreylistDelay > 0 {
		var ok bool
		if first, ok = s.w.greylist[to]; !ok {
			first = time.Now()
			s.w.greylist[to] = first
		}
	}
	s.w.mu.Unlock()
	if d == nil {
		return 550, &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 7, 1}, Message: "Relaying denied"}
	}
	if b.GreylistDelay > 0 {
		if left := b.GreylistDelay - time.Since(first); left > 0 {
			return 451, &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 7, 1},
				Message: fmt.Sprintf("Greylisted, please try again in %d seconds", int(left.Seconds()+0.999))}
		}
	}
	if exists || catchAll {
		return 250, nil
	}
	return 550, &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "The email account that you tried to reach does not exist"}
}

func (s *session) Data(r io.Reader) error {
	s.w.data.Add(1)
	io.Copy(io.Discard, r)
	return &smtp.SMTPError{Code: 554, EnhancedCode: smtp.EnhancedCode{5, 7, 0}, Message: "verifiers must not send DATA"}
}

func (s *session) Reset() {}
func (s *session) Logout() error {
	s.h.active.Add(-1)
	return nil
}

type quietLog struct{}

func (quietLog) Printf(string, ...interface{}) {}
func (quietLog) Println(...interface{})        {}

func selfSigned() (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("mailworld: key: %w", err)
	}
	tpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "mailworld.test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour), DNSNames: []string{"mailworld.test"}}
	der, err := x509.CreateCertificate(rand.Reader, tpl, tpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("mailworld: certificate: %w", err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, nil
}
