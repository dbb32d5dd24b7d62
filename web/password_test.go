package web

import (
	"strings"
	"testing"
)

func TestPasswordHash(t *testing.T) {
	h, err := hashPassword("correct horse battery staple")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") || strings.Contains(h, "horse") {
		t.Fatalf("hash %q", h)
	}
	h2, _ := hashPassword("correct horse battery staple")
	if h == h2 {
		t.Error("two hashes of one password are equal: no salt")
	}
	for _, tc := range []struct {
		pw, hash string
		ok       bool
		err      bool
	}{
		{"correct horse battery staple", h, true, false},
		{"correct horse battery stapl", h, false, false},
		{"x", "$bcrypt$nope", false, true},
		{"x", "$argon2id$v=19$m=0,t=2,p=1$AAAA$AAAA", false, true},
		{"x", "$argon2id$v=19$m=19456,t=2,p=1$!!$AAAA", false, true},
	} {
		ok, err := checkPassword(tc.pw, tc.hash)
		if ok != tc.ok || (err != nil) != tc.err {
			t.Errorf("checkPassword(%q, %q) = %v, %v", tc.pw, tc.hash, ok, err)
		}
	}
}

func TestSafeNext(t *testing.T) {
	for in, want := range map[string]string{
		"/oauth/2.1/authorize?x=1": "/oauth/2.1/authorize?x=1",
		"//evil.example/":          "/app/",
		"/\\evil.example":          "/app/",
		"https://evil.example":     "/app/",
		"/app/\r\nSet-Cookie: x":   "/app/",
		"":                         "/app/",
	} {
		if got := safeNext(in); got != want {
			t.Errorf("safeNext(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzCheckPassword: a stored hash of any shape never panics the check.
func FuzzCheckPassword(f *testing.F) {
	h, _ := hashPassword("pw")
	f.Add("pw", h)
	f.Add("pw", "$argon2id$v=19$m=1,t=1,p=1$$")
	f.Fuzz(func(t *testing.T, pw, hash string) {
		_, _ = checkPassword(pw, hash)
	})
}
