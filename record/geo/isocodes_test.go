package geo

import "testing"

// TestISOCodesSubdivisions: subdivisions the library lacks come from the
// iso-codes list, by full code, local code, English and alternative name.
func TestISOCodesSubdivisions(t *testing.T) {
	for _, tc := range []struct {
		country, in, want string
	}{
		{"GB", "ENG", "GB-ENG"},
		{"GB", "GB-ENG", "GB-ENG"},
		{"GB", "england", "GB-ENG"},
		{"GB", "SCT", "GB-SCT"},
		{"GB", "Scotland", "GB-SCT"},
		{"GB", "WLS", "GB-WLS"},
		{"GB", "Wales", "GB-WLS"},
		{"GB", "Cymru", "GB-WLS"},
		{"GB", "GB-CYM", "GB-WLS"},
		{"GB", "NIR", "GB-NIR"},
		{"GB", "Northern Ireland", "GB-NIR"},
		{"gb", "gb-nir", "GB-NIR"},
		{"GB", "GB-LND", "GB-LND"}, // the library's own entries stay
		{"US", "California", "US-CA"},
		{"US", "England", ""},
		{"GB", "Narnia", ""},
	} {
		t.Run(tc.country+"/"+tc.in, func(t *testing.T) {
			sd, ok := LookupSubdivision(tc.country, tc.in)
			if ok != (tc.want != "") || sd.Code != tc.want {
				t.Errorf("LookupSubdivision(%q, %q) = %+v %v, want %q", tc.country, tc.in, sd, ok, tc.want)
			}
		})
	}
	subs := Subdivisions("GB")
	for i := 1; i < len(subs); i++ {
		if subs[i-1].Code >= subs[i].Code {
			t.Fatalf("GB subdivisions out of order at %s, %s", subs[i-1].Code, subs[i].Code)
		}
	}
}
