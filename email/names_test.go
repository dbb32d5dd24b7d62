package email

import (
	"reflect"
	"strings"
	"testing"
)

func TestNormalizeName(t *testing.T) {
	for _, tc := range []struct {
		first, last   string
		firsts, lasts []string
	}{
		{"Jane", "Doe", []string{"jane"}, []string{"doe"}},
		{"José", "Müller", []string{"jose"}, []string{"muller"}},
		{"Jean-Pierre", "Dupont", []string{"jeanpierre", "jean-pierre", "jean"}, []string{"dupont"}},
		{"Zoë", "van der Berg", []string{"zoe"}, []string{"vanderberg", "berg", "van-der-berg"}},
		{"Ana", "Smith-Jones", []string{"ana"}, []string{"smithjones", "jones", "smith-jones", "smith"}},
		{"Seán", "O'Brien", []string{"sean"}, []string{"obrien"}},
		{"Łukasz", "Straße", []string{"lukasz"}, []string{"strasse"}},
		{"Mary Ann", "De la Cruz", []string{"maryann", "mary"}, []string{"delacruz", "cruz", "de-la-cruz"}},
	} {
		n, ok := NormalizeName(tc.first, tc.last)
		if !ok || !reflect.DeepEqual(n.Firsts, tc.firsts) || !reflect.DeepEqual(n.Lasts, tc.lasts) {
			t.Errorf("NormalizeName(%q, %q) = %+v, %v; want %v %v", tc.first, tc.last, n, ok, tc.firsts, tc.lasts)
		}
	}
	for _, bad := range [][2]string{{"", "Doe"}, {"Jane", "  "}, {"---", "Doe"}, {"李", "王"}} {
		if _, ok := NormalizeName(bad[0], bad[1]); ok {
			t.Errorf("NormalizeName(%q, %q) accepted", bad[0], bad[1])
		}
	}
}

func TestParsePattern(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"{first}.{last}", "{first}.{last}"},
		{"{First}.{Last}@acme.com", "{first}.{last}"},
		{"flast", "{f}{last}"},
		{"first.last", "{first}.{last}"},
		{"{f}_{l}", "{f}_{l}"},
		{"{last}-{first}", "{last}-{first}"},
		{"", ""},
		{"{middle}", ""},
		{"...", ""},
		{"john.smith", ""},
	} {
		got, err := ParsePattern(tc.in)
		if (err != nil) != (tc.want == "") || got != tc.want {
			t.Errorf("ParsePattern(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func FuzzParsePattern(f *testing.F) {
	for _, s := range []string{"{first}.{last}", "flast", "{f}{l}@x.com", "{", "}{", "{first}{first}{first}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tpl, err := ParsePattern(s)
		if err != nil {
			return
		}
		// Any accepted template yields a valid local part or nothing.
		if local := Apply(tpl, "jane", "doe"); local != "" && !validLocal(local) {
			t.Fatalf("pattern %q gives invalid local part %q", s, local)
		}
		if !strings.Contains(tpl, "{") {
			t.Fatalf("pattern %q parsed to %q without a name", s, tpl)
		}
	})
}

func TestCandidates(t *testing.T) {
	n, _ := NormalizeName("Jane", "Doe")
	c := Candidates(n, "acme.test", "{last}{f}", 16)
	if c[0].Email != "doej@acme.test" || c[0].Tier != 1 {
		t.Fatalf("known pattern not first: %+v", c[0])
	}
	if c[1].Email != "jane.doe@acme.test" || c[1].Tier != 2 {
		t.Fatalf("most common pattern not second: %+v", c[1])
	}
	seen := map[string]bool{}
	for _, x := range c {
		if seen[x.Email] {
			t.Fatalf("duplicate %s", x.Email)
		}
		seen[x.Email] = true
	}
	if len(Candidates(n, "acme.test", "", 5)) != 5 {
		t.Fatal("max not honoured")
	}
	// Other name forms come after the primary forms.
	n, _ = NormalizeName("Jean-Pierre", "van der Berg")
	c = Candidates(n, "x.test", "", 40)
	if c[0].Email != "jeanpierre.vanderberg@x.test" {
		t.Fatalf("first candidate %s", c[0].Email)
	}
	found := false
	for _, x := range c {
		if x.Email == "jean.berg@x.test" {
			found = true
		}
	}
	if !found {
		t.Fatalf("no particle-less short form among %v", c)
	}
}

func TestProvider(t *testing.T) {
	for host, want := range map[string]string{
		"aspmx.l.google.com.":                  "google",
		"acme-com.mail.protection.outlook.com": "microsoft365",
		"mx0a-00123.pphosted.com":              "proofpoint",
		"eu-smtp-inbound-1.mimecast.com":       "mimecast",
		"mx.acme.com":                          "",
		"notgoogle.com":                        "",
		"inbound-smtp.us-east-1.amazonaws.com": "amazon_ses",
		"mx1.hc1234-56.iphmx.com":              "cisco",
	} {
		if got := Provider(host); got != want {
			t.Errorf("Provider(%q) = %q, want %q", host, got, want)
		}
	}
}

func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		code      int
		enh, text string
		want      int
	}{
		{250, "2.1.5", "OK", accepted},
		{550, "5.1.1", "User unknown", rejected},
		{550, "5.7.1", "Relaying denied", policy},
		{554, "", "Service unavailable", policy},
		{550, "", "blocked using spamhaus", policy},
		{451, "4.7.1", "Greylisted", grey},
		{0, "", "", unknown},
	} {
		if got := classify(tc.code, tc.enh, tc.text); got != tc.want {
			t.Errorf("classify(%d %s %s) = %d, want %d", tc.code, tc.enh, tc.text, got, tc.want)
		}
	}
}

func FuzzValidate(f *testing.F) {
	for _, s := range [][4]string{{"Jane", "Doe", "acme.com", ""}, {"José", "van der Berg", "https://www.acme.com/x", "flast"},
		{"", "", "@", "{"}, {"a", "b", "a@b@c", "{f}{l}"}} {
		f.Add(s[0], s[1], s[2], s[3])
	}
	f.Fuzz(func(t *testing.T, first, last, dom, pattern string) {
		r, err := Validate(KindFind, Request{FirstName: first, LastName: last, Domain: dom, KnownPattern: pattern})
		if err != nil {
			return
		}
		n, ok := NormalizeName(r.FirstName, r.LastName)
		if !ok || r.Domain == "" || strings.ContainsAny(r.Domain, "@/ ") {
			t.Fatalf("accepted %+v (name ok %v)", r, ok)
		}
		for _, c := range Candidates(n, r.Domain, r.KnownPattern, 40) {
			local, _, _ := strings.Cut(c.Email, "@")
			if !validLocal(local) {
				t.Fatalf("candidate %q", c.Email)
			}
		}
		if _, err := Validate(KindVerify, Request{Email: first + "@" + r.Domain}); err == nil && strings.Contains(first, " ") {
			t.Fatalf("verify accepted a local part with a space: %q", first)
		}
	})
}
