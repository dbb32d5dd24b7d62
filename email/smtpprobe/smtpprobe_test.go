package smtpprobe

import (
	"context"
	"errors"
	"net"
	"testing"
)

func TestIsPublic(t *testing.T) {
	for ip, want := range map[string]bool{
		"8.8.8.8": true, "93.184.216.34": true, "2a00:1450:4001::1b": true,
		"127.0.0.1": false, "127.1.0.5": false, "10.1.2.3": false, "172.20.0.1": false, "192.168.1.1": false,
		"169.254.169.254": false, "100.64.0.1": false, "0.0.0.0": false, "::1": false, "fe80::1": false,
		"fd00::1": false, "::ffff:127.0.0.1": false, "224.0.0.1": false, "198.18.0.1": false,
	} {
		if got := IsPublic(net.ParseIP(ip)); got != want {
			t.Errorf("IsPublic(%s) = %v, want %v", ip, got, want)
		}
	}
}

// TestGuardAtConnect: without AllowPrivate, no connection is attempted to a
// private target, whatever the port.
func TestGuardAtConnect(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	accepted := make(chan struct{}, 1)
	go func() {
		if c, err := l.Accept(); err == nil {
			accepted <- struct{}{}
			c.Close()
		}
	}()
	p, err := New(Config{Port: l.Addr().(*net.TCPAddr).Port})
	if err != nil {
		t.Fatal(err)
	}
	out, err := p.Probe(context.Background(), []Target{{Name: "mx.local", Addrs: []net.IP{net.ParseIP("127.0.0.1")}}}, []string{"a@b.c"})
	if !errors.Is(err, ErrNonPublic) {
		t.Fatalf("Probe = %v, want ErrNonPublic", err)
	}
	if len(out.Steps) != 1 || out.Steps[0].Step != "connect" {
		t.Fatalf("steps %+v", out.Steps)
	}
	select {
	case <-accepted:
		t.Fatal("a connection reached the listener")
	default:
	}
}

func TestProxyURL(t *testing.T) {
	for _, u := range []string{"http://proxy:8080", "socks5://", "::"} {
		if _, err := New(Config{Proxy: u}); err == nil {
			t.Errorf("proxy %q accepted", u)
		}
	}
	if _, err := New(Config{Proxy: "socks5://user:pw@127.0.0.1:1080"}); err != nil {
		t.Fatal(err)
	}
}

func TestParseReplies(t *testing.T) {
	tr := "EHLO me\r\n250-mx.test Hello\r\n250-PIPELINING\r\n250 STARTTLS\r\nRCPT TO:<a@b>\r\n550 5.1.1 No such user\r\n"
	rs := parseReplies([]byte(tr))
	if len(rs) != 2 || rs[0].Code != 250 || rs[1].Code != 550 || rs[1].Enhanced != "5.1.1" || rs[1].Text != "No such user" {
		t.Fatalf("parseReplies = %+v", rs)
	}
	if !hasExtension("mx.test Hello\nPIPELINING\nSTARTTLS", "starttls") || hasExtension("STARTTLS", "STARTTLS") {
		t.Fatal("hasExtension")
	}
}
