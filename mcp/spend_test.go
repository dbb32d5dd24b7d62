package mcp

import (
	"strings"
	"testing"
	"time"

	"github.com/openprospect/prospectd/store"
)

func testServer() *Server {
	now := time.Unix(1_800_000_000, 0)
	return &Server{cfg: Config{Secret: []byte("0123456789abcdef0123456789abcdef"), Now: func() time.Time { return now }}}
}

func testCall(org, grant, raw string) *call {
	return &call{caller: Caller{Principal: store.Principal{Org: store.Org{ID: org}, User: store.User{ID: "u"}}, Grant: grant}, raw: []byte(raw)}
}

func TestConfirmationTokenBinding(t *testing.T) {
	s := testServer()
	c := testCall("org", "g1", `{"domain":"acme.com"}`)
	tok, _ := s.confirmationToken("get_company", c, 7)
	if n, err := s.checkConfirmation(tok, "get_company", c); err != nil || n != 7 {
		t.Fatalf("own token: %d %v", n, err)
	}
	for name, tc := range map[string]struct {
		tool string
		c    *call
	}{
		"other tool":      {"lookup_contact", c},
		"other arguments": {"get_company", testCall("org", "g1", `{"domain":"acme.co"}`)},
		"other org":       {"get_company", testCall("org2", "g1", `{"domain":"acme.com"}`)},
		"other grant":     {"get_company", testCall("org", "g2", `{"domain":"acme.com"}`)},
	} {
		if _, err := s.checkConfirmation(tok, tc.tool, tc.c); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	// The credits are signed too.
	parts := strings.Split(tok, ".")
	parts[2] = "1"
	if _, err := s.checkConfirmation(strings.Join(parts, "."), "get_company", c); err == nil {
		t.Error("a token with changed credits was accepted")
	}
}

// FuzzConfirmationToken: no input panics, and only the issued token
// validates.
func FuzzConfirmationToken(f *testing.F) {
	s := testServer()
	c := testCall("org", "g", `{}`)
	good, _ := s.confirmationToken("t", c, 3)
	f.Add(good)
	f.Add("ct1.1.1.x")
	f.Add("")
	f.Fuzz(func(t *testing.T, tok string) {
		_, err := s.checkConfirmation(tok, "t", c)
		if err == nil && tok != good {
			t.Fatalf("accepted %q", tok)
		}
	})
}
