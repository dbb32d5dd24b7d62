// Package mailtest runs a real SMTP server on loopback for tests
// (github.com/emersion/go-smtp) and keeps what it receives.
package mailtest

import (
	"io"
	"net"
	"sync"
	"testing"

	"github.com/emersion/go-smtp"
)

// Message is one received email.
type Message struct {
	From string
	To   []string
	Data string
}

// Server is a loopback SMTP sink.
type Server struct {
	URL string // smtp://127.0.0.1:PORT

	mu   sync.Mutex
	msgs []Message
}

// Start starts a server that stops when the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{URL: "smtp://" + ln.Addr().String()}
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) { return &session{s: s}, nil }))
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return s
}

// Messages returns what was received so far.
func (s *Server) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.msgs...)
}

type session struct {
	s   *Server
	msg Message
}

func (x *session) Reset()        { x.msg = Message{} }
func (x *session) Logout() error { return nil }
func (x *session) Mail(from string, _ *smtp.MailOptions) error {
	x.msg.From = from
	return nil
}
func (x *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	x.msg.To = append(x.msg.To, to)
	return nil
}
func (x *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	x.msg.Data = string(b)
	x.s.mu.Lock()
	x.s.msgs = append(x.s.msgs, x.msg)
	x.s.mu.Unlock()
	return nil
}
