package record

import (
	"maps"
	"math/rand/v2"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

func TestIndustriesAreFiftyThreeUniqueUppercase(t *testing.T) {
	if len(Industries) != 53 {
		t.Fatalf("got %d industries, want 53", len(Industries))
	}
	seen := map[string]bool{}
	for _, s := range Industries {
		if seen[s] {
			t.Errorf("duplicate industry %q", s)
		}
		seen[s] = true
		for _, r := range s {
			if !(r >= 'A' && r <= 'Z' || r == '_') {
				t.Errorf("industry %q is not uppercase snake case", s)
			}
		}
	}
	for _, s := range []string{"SAAS", "SOFTWARE", "FINANCIAL_SERVICES", "HEALTHCARE", "CLOUD_COMPUTING", "CYBERSECURITY", "IT_SERVICES"} {
		if !seen[s] {
			t.Errorf("spec industry %q missing", s)
		}
	}
}

func TestEmployeeBucket(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{{0, ""}, {1, "1-10"}, {10, "1-10"}, {11, "11-50"}, {200, "51-200"}, {1000, "501-1000"}, {10000, "5001-10000"}, {10001, "10001+"}, {927839, "10001+"}} {
		if got := EmployeeBucket(tc.n); got != tc.want {
			t.Errorf("EmployeeBucket(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

func TestRevenueBucket(t *testing.T) {
	for _, tc := range []struct {
		usd  int64
		want string
	}{{0, "<1M"}, {999_999, "<1M"}, {1_000_000, "1-10M"}, {99_999_999, "10-100M"}, {100_000_000, "100M-1B"}, {5_000_000_000, ">1B"}} {
		if got := RevenueBucket(tc.usd); got != tc.want {
			t.Errorf("RevenueBucket(%d) = %q, want %q", tc.usd, got, tc.want)
		}
	}
}

func TestSocialNetworkOf(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"https://www.linkedin.com/company/acme", "linkedin"},
		{"https://de.linkedin.com/company/acme", "linkedin"},
		{"twitter.com/acme", "twitter"},
		{"https://x.com/acme", "x"},
		{"https://play.google.com/store/apps/details?id=x", "googleplay"},
		{"https://bsky.app/profile/acme", "bluesky"},
		{"https://example.com/acme", ""},
		{"::::", ""},
	} {
		if got := SocialNetworkOf(tc.in); got != tc.want {
			t.Errorf("SocialNetworkOf(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestLeadGen(t *testing.T) {
	c := Company{Score: 40}
	if !c.LeadGen() {
		t.Error("low score without contact channels should be lead-gen")
	}
	c.Phones = []string{"+15551234567"}
	if c.LeadGen() {
		t.Error("a phone number clears the lead-gen suspicion")
	}
	if (&Company{Score: 300}).LeadGen() {
		t.Error("a high score is not lead-gen")
	}
}

// socialNetworkByParse is SocialNetworkOf without the plain-URL fast path.
func socialNetworkByParse(raw string) string {
	if !strings.Contains(raw, "://") {
		raw = "https://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return socialNetworkOfHost(u.Hostname())
}

func FuzzSocialNetworkOf(f *testing.F) {
	for _, s := range []string{
		"https://www.linkedin.com/company/acme", "http://de.LinkedIn.com/in/x", "https://x.com/acme?lang=en",
		"https://facebook.com#top", "https://www.facebook.com", "https://user@facebook.com/x", "https://facebook.com:443/x",
		"https://facebook.com/%zz", "https://facebook.com/a b", "https:///x", "https://", "linkedin.com/company/x",
		"https://[::1]/x", "https://instagram.com/\x7f", "ftp://facebook.com/x",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		if got, want := SocialNetworkOf(raw), socialNetworkByParse(raw); got != want {
			t.Errorf("SocialNetworkOf(%q) = %q, url.Parse gives %q", raw, got, want)
		}
	})
}

func TestKeysByWeight(t *testing.T) {
	for _, tc := range []struct {
		m    map[string]float64
		want []string
	}{
		{nil, nil},
		{map[string]float64{}, nil},
		{map[string]float64{"b": 0.5, "a": 0.5, "c": 0.9, "d": 0}, []string{"c", "a", "b", "d"}},
		{map[string]float64{"x": -0.0, "w": 0}, []string{"w", "x"}},
	} {
		if got := KeysByWeight(tc.m); !slices.Equal(got, tc.want) || (got == nil) != (tc.want == nil) {
			t.Errorf("KeysByWeight(%v) = %#v, want %#v", tc.m, got, tc.want)
		}
	}
	// An industry list is empty, not nil: it is [] in JSON.
	if got := (&Company{}).Industries(); got == nil || len(got) != 0 {
		t.Errorf("Industries() of no groups = %#v, want an empty list", got)
	}
	// Against sorting the keys with the weights looked up in the map, on
	// random maps with many ties.
	rng := rand.New(rand.NewPCG(5, 6))
	for range 2000 {
		m := map[string]float64{}
		for range rng.IntN(20) {
			m[strconv.Itoa(rng.IntN(50))] = float64(rng.IntN(5)) / 4
		}
		want := slices.Collect(maps.Keys(m))
		sort.Slice(want, func(i, j int) bool {
			if m[want[i]] != m[want[j]] {
				return m[want[i]] > m[want[j]]
			}
			return want[i] < want[j]
		})
		if got := KeysByWeight(m); len(m) > 0 && !slices.Equal(got, want) {
			t.Fatalf("KeysByWeight(%v) = %v, want %v", m, got, want)
		}
	}
}
