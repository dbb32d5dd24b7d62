package netguard

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"testing"
)

func TestValidateURL(t *testing.T) {
	for _, tc := range []struct {
		url          string
		allowPrivate bool
		ok           bool
	}{
		{"https://api.example.com/v1", false, true},
		{"http://api.example.com:8080/v1", false, true},
		{"https://93.184.216.34/v1", false, true},
		{"ftp://api.example.com", false, false},
		{"https://api.example.com/v1 x", false, false},
		{"https://api.example.com/\"x", false, false},
		{"https://api.example.com/<x>", false, false},
		{"https://user:pw@api.example.com", false, false},
		{"https://localhost:8000", false, false},
		{"https://localhost:8000", true, true},
		{"http://ollama:11434/v1", false, false},
		{"http://ollama:11434/v1", true, true},
		{"http://127.0.0.1:8000", false, false},
		{"http://127.0.0.1:8000", true, true},
		{"http://10.1.2.3", false, false},
		{"http://169.254.169.254/latest/meta-data", false, false},
		{"http://[::1]:80", false, false},
		{"http://[::ffff:127.0.0.1]:80", false, false},
		{"http://[::ffff:10.0.0.1]:80", false, false},
		{"http://[64:ff9b::a00:1]", false, false},
		{"http://[fd00:ec2::254]", false, false},
		{"http://0.0.0.0", false, false},
		{"http://bad_host-.example.com", false, false},
		{"http://", false, false},
		{"", false, false},
		{"https://api.exämple.com", false, false},
		{"http://api.example.com:99999", false, false},
	} {
		_, err := ValidateURL(tc.url, tc.allowPrivate)
		if (err == nil) != tc.ok {
			t.Errorf("ValidateURL(%q, %v) = %v, want ok=%v", tc.url, tc.allowPrivate, err, tc.ok)
		}
		if err != nil && !errors.Is(err, ErrForbidden) {
			t.Errorf("ValidateURL(%q): %v is not ErrForbidden", tc.url, err)
		}
	}
}

func TestCheckAddr(t *testing.T) {
	for _, tc := range []struct {
		ip string
		ok bool
	}{
		{"8.8.8.8", true}, {"2606:4700::1111", true},
		{"127.0.0.1", false}, {"10.0.0.1", false}, {"172.16.0.1", false}, {"192.168.1.1", false},
		{"169.254.169.254", false}, {"100.64.0.1", false}, {"::1", false}, {"fe80::1", false},
		{"fc00::1", false}, {"::ffff:127.0.0.1", false}, {"::ffff:8.8.8.8", true}, {"64:ff9b::7f00:1", false},
		{"2002:7f00:1::", false}, {"224.0.0.1", false}, {"255.255.255.255", false}, {"::", false},
	} {
		err := CheckAddr(netip.MustParseAddr(tc.ip))
		if (err == nil) != tc.ok {
			t.Errorf("CheckAddr(%s) = %v, want ok=%v", tc.ip, err, tc.ok)
		}
	}
}

// The guard refuses at connect time, whatever the URL said: loopback by
// literal, by IPv4-mapped IPv6 literal, and by a name that resolves to
// loopback (the rebinding case: nothing is checked at validation time
// that could go stale).
func TestClientRefusesPrivateTargets(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("secret")) }))
	defer srv.Close()
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	lookup := func(ctx context.Context, host string) ([]netip.Addr, error) {
		return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
	}
	guarded := NewClient(Options{Lookup: lookup})
	for _, target := range []string{
		srv.URL,
		"http://[::ffff:127.0.0.1]:" + port,
		"http://rebind.example.com:" + port,
	} {
		resp, err := guarded.Get(target)
		if err == nil {
			resp.Body.Close()
			t.Errorf("GET %s: connected", target)
			continue
		}
		if !errors.Is(err, ErrForbidden) {
			t.Errorf("GET %s: %v, want ErrForbidden", target, err)
		}
	}
	// The operator flag lets the same requests through.
	open := NewClient(Options{AllowPrivate: true, Lookup: lookup})
	resp, err := open.Get("http://rebind.example.com:" + port)
	if err != nil {
		t.Fatalf("AllowPrivate: %v", err)
	}
	resp.Body.Close()
}

func TestRedirectsRechecked(t *testing.T) {
	c := NewClient(Options{})
	req := &http.Request{URL: mustURL("http://169.254.169.254/latest")}
	if err := c.CheckRedirect(req, []*http.Request{{}}); !errors.Is(err, ErrForbidden) {
		t.Fatalf("redirect to metadata: %v", err)
	}
	// A loopback server redirecting to a loopback address, with private
	// addresses allowed, follows; refused targets would fail in Dial.
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }))
	defer target.Close()
	hop := httptest.NewServer(http.RedirectHandler(target.URL, http.StatusFound))
	defer hop.Close()
	resp, err := NewClient(Options{AllowPrivate: true}).Get(hop.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	bad := httptest.NewServer(http.RedirectHandler("gopher://x.example.com/", http.StatusFound))
	defer bad.Close()
	if _, err := NewClient(Options{AllowPrivate: true}).Get(bad.URL); !errors.Is(err, ErrForbidden) {
		t.Fatalf("redirect to gopher: %v", err)
	}
}

func mustURL(s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		panic(err)
	}
	return u
}

func FuzzValidateURL(f *testing.F) {
	for _, s := range []string{"https://api.example.com/v1", "http://[::1]", "http://a b", "http://127.0.0.1:1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := ValidateURL(s, false)
		if err != nil {
			return
		}
		if strings.ContainsAny(s, badChars) || (u.Scheme != "http" && u.Scheme != "https") {
			t.Fatalf("accepted %q", s)
		}
		if ip, err := netip.ParseAddr(u.Hostname()); err == nil && CheckAddr(ip) != nil {
			t.Fatalf("accepted private literal %q", s)
		}
	})
}
