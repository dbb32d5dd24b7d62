package email_test

import (
	"encoding/binary"
	"io"
	"net"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/openprospect/prospectd/email"
	"github.com/openprospect/prospectd/email/smtpprobe"
)

// socks5 is a minimal SOCKS5 server (no authentication, CONNECT to IPv4)
// on loopback that records the targets it connected to.
type socks5 struct {
	l       net.Listener
	mu      sync.Mutex
	targets []string
}

func startSOCKS5(t *testing.T) *socks5 {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &socks5{l: l}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go s.serve(c)
		}
	}()
	return s
}

func (s *socks5) serve(c net.Conn) {
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	hdr := make([]byte, 2)
	if _, err := io.ReadFull(c, hdr); err != nil || hdr[0] != 5 {
		return
	}
	methods := make([]byte, hdr[1])
	io.ReadFull(c, methods)
	c.Write([]byte{5, 0})
	req := make([]byte, 4)
	if _, err := io.ReadFull(c, req); err != nil || req[1] != 1 || req[3] != 1 {
		c.Write([]byte{5, 7, 0, 1, 0, 0, 0, 0, 0, 0})
		return
	}
	addr := make([]byte, 6)
	io.ReadFull(c, addr)
	target := net.JoinHostPort(net.IP(addr[:4]).String(), strconv.Itoa(int(binary.BigEndian.Uint16(addr[4:]))))
	s.mu.Lock()
	s.targets = append(s.targets, target)
	s.mu.Unlock()
	up, err := net.Dial("tcp", target)
	if err != nil {
		c.Write([]byte{5, 5, 0, 1, 0, 0, 0, 0, 0, 0})
		return
	}
	defer up.Close()
	c.Write([]byte{5, 0, 0, 1, 0, 0, 0, 0, 0, 0})
	c.SetDeadline(time.Time{})
	go io.Copy(up, c)
	io.Copy(c, up)
}

func (s *socks5) seen() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.targets...)
}

// TestSOCKS5: probes go through the configured proxy, and the public-address
// guard still applies to the target behind it.
func TestSOCKS5(t *testing.T) {
	w := testWorld(t)
	proxy := startSOCKS5(t)
	f := testFinder(t, w, smtpprobe.Config{AllowPrivate: true, Proxy: "socks5://" + proxy.l.Addr().String()})
	r := find(t, f, "Jane", "Doe", "strict.example.com", "")
	if r.Status != email.StatusFound {
		t.Fatalf("through the proxy: %s %+v", r.Status, r.Evidence)
	}
	if got := proxy.seen(); len(got) != 1 || got[0] != r.Evidence.Steps[0].Arg {
		t.Fatalf("proxy connected to %v, want the exchanger %s", got, r.Evidence.Steps[0].Arg)
	}
	guarded := testFinder(t, w, smtpprobe.Config{Proxy: "socks5://" + proxy.l.Addr().String()})
	if r := find(t, guarded, "Jane", "Doe", "strict.example.com", ""); r.Status != email.StatusError || len(proxy.seen()) != 1 {
		t.Fatalf("non-public target through the proxy: %s, proxy saw %v", r.Status, proxy.seen())
	}
}
