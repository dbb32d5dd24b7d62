package refresh

import (
	"errors"
	"testing"
)

// FuzzParseConfig: any bytes give a configuration or an ErrConfig, never
// a panic, and an accepted source has a valid mode and close fraction.
func FuzzParseConfig(f *testing.F) {
	f.Add([]byte(`{"operator_orgs": ["ops"], "sources": [{"name": "a", "kind": "url", "url": "https://x/e.csv", "mode": "snapshot", "schedule": "0 3 * * *"}]}`))
	f.Add([]byte(`{"sources": [{"name": "d", "kind": "directory", "path": "/x", "mode": "incremental", "max_close_fraction": 0.1}]}`))
	f.Add([]byte(`{"sources": [{}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := ParseConfig(b, DefaultKinds())
		if err != nil {
			if !errors.Is(err, ErrConfig) {
				t.Fatalf("error without ErrConfig: %v", err)
			}
			return
		}
		for _, s := range c.Sources {
			if (s.Mode != Snapshot && s.Mode != Incremental) || s.MaxCloseFraction <= 0 || s.MaxCloseFraction > 1 || !nameRE.MatchString(s.Name) {
				t.Fatalf("accepted %+v", s)
			}
		}
	})
}

// FuzzContentRange: the Content-Range parser (a server's header) never
// panics, and a start it accepts is not negative.
func FuzzContentRange(f *testing.F) {
	f.Add("bytes 100-199/200")
	f.Add("bytes */200")
	f.Fuzz(func(t *testing.T, h string) {
		if n, ok := contentRangeStart(h); ok && n < 0 {
			t.Fatalf("%q: start %d", h, n)
		}
	})
}
