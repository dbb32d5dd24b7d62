package geo

import (
	"errors"
	"reflect"
	"testing"
)

func TestLookupCountry(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"US", "US"}, {"us", "US"}, {"USA", "US"}, {"United States", "US"}, {"germany", "DE"}, {"Deutschland", "DE"},
		{"DEU", "DE"}, {"Côte d'Ivoire", "CI"}, {"cote d ivoire", "CI"}, {"United Kingdom", "GB"}, {"UK", "GB"}, {"Japan", "JP"},
	} {
		c, ok := LookupCountry(tc.in)
		if !ok || c.Code != tc.want {
			t.Errorf("LookupCountry(%q) = %+v, %v; want %s", tc.in, c, ok, tc.want)
		}
	}
	for _, in := range []string{"", "XX", "Atlantis", "EU"} {
		if c, ok := LookupCountry(in); ok {
			t.Errorf("LookupCountry(%q) = %+v; want not found", in, c)
		}
	}
	if n := len(Countries()); n < 240 {
		t.Errorf("only %d countries", n)
	}
}

func TestSubdivisions(t *testing.T) {
	if n := SubdivisionCountries(); n < 120 {
		t.Fatalf("subdivisions for only %d countries, want 120+", n)
	}
	for _, tc := range []struct{ country, in, want string }{
		{"US", "US-CA", "US-CA"}, {"US", "us-ca", "US-CA"}, {"US", "CA", "US-CA"}, {"US", "California", "US-CA"}, {"us", "california", "US-CA"},
		{"DE", "Bayern", "DE-BY"}, {"DE", "BY", "DE-BY"}, {"DE", "baden wurttemberg", "DE-BW"}, {"DE", "Baden-Württemberg", "DE-BW"},
	} {
		sd, ok := LookupSubdivision(tc.country, tc.in)
		if !ok || sd.Code != tc.want {
			t.Errorf("LookupSubdivision(%q, %q) = %+v, %v; want %s", tc.country, tc.in, sd, ok, tc.want)
		}
	}
	if _, ok := LookupSubdivision("US", "Bavaria"); ok {
		t.Error("Bavaria is not a US state")
	}
	if got := Subdivisions("US"); len(got) < 50 || got[0].Country != "US" {
		t.Errorf("Subdivisions(US) = %d entries", len(got))
	}
}

func TestRegions(t *testing.T) {
	if got := Regions(); len(got) != 12 {
		t.Fatalf("Regions() = %v, want the spec's 12", got)
	}
	for _, r := range Regions() {
		members, _ := Region(r)
		if len(members) == 0 {
			t.Errorf("region %s is empty", r)
		}
		for _, m := range members {
			if _, ok := LookupCountry(m); !ok {
				t.Errorf("region %s member %s is not a country", r, m)
			}
		}
	}
	for _, tc := range []struct {
		region   string
		has, not []string
	}{
		{"DACH", []string{"DE", "AT", "CH"}, []string{"NL"}},
		{"EMEA", []string{"DE", "ZA", "AE", "NG", "GB"}, []string{"US", "JP"}},
		{"APAC", []string{"JP", "AU", "IN", "SG"}, []string{"DE", "AE"}},
		{"LATAM", []string{"BR", "MX", "AR", "CO"}, []string{"US", "CA"}},
		{"eu", []string{"FR", "PL"}, []string{"GB", "CH", "NO"}},
		{"NORDICS", []string{"SE", "NO", "IS"}, []string{"DE"}},
	} {
		m, ok := Region(tc.region)
		if !ok {
			t.Fatalf("Region(%s) missing", tc.region)
		}
		set := map[string]bool{}
		for _, c := range m {
			set[c] = true
		}
		for _, c := range tc.has {
			if !set[c] {
				t.Errorf("%s lacks %s", tc.region, c)
			}
		}
		for _, c := range tc.not {
			if set[c] {
				t.Errorf("%s must not include %s", tc.region, c)
			}
		}
	}
}

func TestExpandCountries(t *testing.T) {
	got, err := ExpandCountries([]string{"DACH", "de", "France", "ANZ"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"AT", "AU", "CH", "DE", "FR", "NZ"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("ExpandCountries = %v, want %v", got, want)
	}
	if _, err := ExpandCountries([]string{"US", "Narnia"}); !errors.Is(err, ErrUnknownCountry) {
		t.Fatalf("unknown value: %v", err)
	}
}

func BenchmarkLookupCountry(b *testing.B) {
	load()
	for i := 0; i < b.N; i++ {
		LookupCountry("Germany")
	}
}
