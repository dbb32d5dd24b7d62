package saved_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"unicode"

	"github.com/openprospect/prospectd/saved"
)

func FuzzNormalizeTag(f *testing.F) {
	for _, s := range []string{"CRM", "  Open   Deals ", "Q3/2026!", "--a--b--", "Zürich Kunden", "\u00a0x\ty", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		n := saved.NormalizeTag(raw)
		if saved.NormalizeTag(n) != n {
			t.Fatalf("not idempotent: %q -> %q -> %q", raw, n, saved.NormalizeTag(n))
		}
		if strings.Contains(n, "--") || strings.HasPrefix(n, "-") || strings.HasSuffix(n, "-") {
			t.Fatalf("%q -> %q: stray hyphens", raw, n)
		}
		for _, r := range n {
			if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_') || unicode.ToLower(r) != r {
				t.Fatalf("%q -> %q: character %q kept", raw, n, r)
			}
		}
	})
}

// FuzzSaveResults feeds arbitrary bodies through decoding and the row
// rules: every outcome is a stored query or a 400/413, never a panic.
func FuzzSaveResults(f *testing.F) {
	svc, c := newService(f)
	for _, s := range []string{
		`{"query_name":"x","action":"discover","data":[{"domain":"acme.com"}]}`,
		`{"query_name":"x","action":"contacts","data":[{"persona_id":12},{"persona_id":1.5}]}`,
		`{"query_name":"x","action":"append","domain_column":"w","data":[{"w":7},[1],null]}`,
		`{"query_name":"x","action":"match","data":{}}`,
		`[]`, `{"data":[{"domain":"https://www.example.co.uk/x"}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		in, err := svc.DecodeSaveResults(body)
		if err == nil {
			_, err = svc.SaveResults(context.Background(), c, in)
		}
		if err != nil && !errors.Is(err, saved.ErrInvalid) && !errors.Is(err, saved.ErrTooLarge) {
			t.Fatalf("%s: unexpected error %v", body, err)
		}
	})
}
