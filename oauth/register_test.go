package oauth

import (
	"net/url"
	"strings"
	"testing"
)

func TestCheckRedirect(t *testing.T) {
	tests := []struct {
		uri string
		ok  bool
	}{
		{"https://agent.example/cb", true},
		{"http://127.0.0.1:8123/callback", true},
		{"http://[::1]:9/cb", true},
		{"http://localhost:3000/cb", true},
		{"com.example.agent:/oauth", true},
		{"http://agent.example/cb", false},
		{"https://agent.example/cb#frag", false},
		{"javascript:alert(1)", false},
		{"myapp:/cb", false},
		{"/relative", false},
		{"https:///nohost", false},
		{"https://" + strings.Repeat("a", 2001), false},
	}
	for _, tc := range tests {
		if err := checkRedirect(tc.uri); (err == nil) != tc.ok {
			t.Errorf("checkRedirect(%q) = %v, want ok=%v", tc.uri, err, tc.ok)
		}
	}
}

// FuzzCheckRedirect: any accepted redirect URI is absolute, has no
// fragment, and is https, loopback http or a reversed-domain scheme.
func FuzzCheckRedirect(f *testing.F) {
	for _, s := range []string{"https://a.example/cb", "http://127.0.0.1/x", "com.a.b:/cb", "http://evil.example", "x#y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if checkRedirect(s) != nil {
			return
		}
		u, err := url.Parse(s)
		if err != nil || u.Scheme == "" || strings.Contains(s, "#") {
			t.Fatalf("accepted %q", s)
		}
		if u.Scheme == "http" && u.Hostname() != "localhost" && !strings.HasPrefix(u.Hostname(), "127.") && u.Hostname() != "::1" {
			t.Fatalf("accepted non-loopback http %q", s)
		}
	})
}
