package ingest

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/openprospect/prospectd/record"
)

// TestLenientNormalize: a record with one invalid optional field is kept
// with that field dropped and the reason reported; only the domain
// refuses a record whole.
func TestLenientNormalize(t *testing.T) {
	for _, tc := range []struct {
		name    string
		in      record.Company
		dropped string // prefix of the one reason; "" for none
		check   func(c record.Company) bool
	}{
		{"state of a UK nation by code", record.Company{Address: record.Address{Country: "GB", State: "ENG"}}, "",
			func(c record.Company) bool { return c.Address.State == "GB-ENG" }},
		{"state by full code", record.Company{Address: record.Address{Country: "United Kingdom", State: "GB-SCT"}}, "",
			func(c record.Company) bool { return c.Address.State == "GB-SCT" }},
		{"state by name", record.Company{Address: record.Address{Country: "GB", State: "Wales"}}, "",
			func(c record.Company) bool { return c.Address.State == "GB-WLS" }},
		{"unknown state", record.Company{Address: record.Address{Country: "GB", State: "Mercia"}}, `state: "Mercia" is not a subdivision of GB`,
			func(c record.Company) bool { return c.Address.State == "" && c.Address.Country == "GB" }},
		{"state without country", record.Company{Address: record.Address{State: "CA"}}, `state: "CA" needs a country`,
			func(c record.Company) bool { return c.Address.State == "" }},
		{"unknown country", record.Company{Address: record.Address{Country: "Narnia", City: "Cair"}}, `country: "Narnia"`,
			func(c record.Company) bool { return c.Address.Country == "" && c.Address.City == "Cair" }},
		{"phone", record.Company{Phones: []string{"+1 512 555 0100", "12"}, Address: record.Address{Country: "US"}}, `phones: "12" is not a valid phone number for US`,
			func(c record.Company) bool { return len(c.Phones) == 1 }},
		{"duplicate phones are no warning", record.Company{Phones: []string{"+15125550100", "+1 512 555 0100"}}, "",
			func(c record.Company) bool { return len(c.Phones) == 1 }},
		{"social URL", record.Company{SocialURLs: []string{"not a url", "linkedin.com/company/acme"}}, `social_urls: "not a url"`,
			func(c record.Company) bool { return len(c.SocialURLs) == 1 }},
		{"status code", record.Company{HTTPStatus: &record.HTTPStatus{Code: 999}}, "status_code: 999",
			func(c record.Company) bool { return c.HTTPStatus == nil }},
		{"growth history", record.Company{Growth: &record.Growth{Through: "2026-Q1", Scores: []int{1, 900}}}, "growth.scores[1]: 900",
			func(c record.Company) bool { return c.Growth == nil }},
		{"score out of range", record.Company{Score: 900}, "score: 900 is outside 0-800",
			func(c record.Company) bool { return c.Score == 0 }},
		{"unknown industry label: only it goes", record.Company{IndustryGroups: map[string]float64{"Alchemy": 0.9, "software": 0.5}}, `industry`,
			func(c record.Company) bool { return len(c.IndustryGroups) == 1 && c.IndustryGroups["SOFTWARE"] == 0.5 }},
		{"status", record.Company{Status: record.Status{Status: "maybe"}}, `status: "maybe"`,
			func(c record.Company) bool {
				return c.Status == record.Status{Status: record.StatusActive, Confidence: 1}
			}},
		{"closed with a bad confidence stays closed", record.Company{Status: record.Status{Status: "closed", Confidence: 7}}, "status confidence",
			func(c record.Company) bool {
				return c.Status == record.Status{Status: record.StatusClosed, Confidence: 1}
			}},
		{"date", record.Company{StartDate: "last year"}, `start_date: "last year"`,
			func(c record.Company) bool { return c.StartDate == "" }},
		{"employees", record.Company{Employees: "lots"}, `employees: "lots"`,
			func(c record.Company) bool { return c.Employees == "" }},
		{"revenue", record.Company{RevenueRange: "plenty"}, `revenue_range: "plenty"`,
			func(c record.Company) bool { return c.RevenueRange == "" }},
		{"language: the valid ones stay", record.Company{Languages: []string{"en", "klingon"}}, `languages: "klingon"`,
			func(c record.Company) bool { return len(c.Languages) == 1 && c.Languages[0] == "en" }},
		{"redirect count", record.Company{RedirectCount: -1}, "redirect_count: -1",
			func(c record.Company) bool { return c.RedirectCount == 0 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := newNormalizer()
			n.lenient = true
			c := tc.in
			c.Domain = "https://www.acme.co.uk/about"
			if err := n.normalize(&c); err != nil {
				t.Fatalf("refused: %v", err)
			}
			if c.Domain != "acme.co.uk" {
				t.Errorf("domain %q", c.Domain)
			}
			switch {
			case tc.dropped == "" && len(n.dropped) > 0:
				t.Errorf("dropped %q, want nothing", n.dropped)
			case tc.dropped != "" && (len(n.dropped) != 1 || !strings.HasPrefix(n.dropped[0], tc.dropped)):
				t.Errorf("dropped %q, want one reason starting %q", n.dropped, tc.dropped)
			}
			if !tc.check(c) {
				t.Errorf("record after normalization: %+v", c)
			}
			// The strict Normalize refuses what the lenient one drops,
			// except contact details, which it drops silently.
			strict := tc.in
			strict.Domain = "acme.co.uk"
			contact := strings.HasPrefix(tc.dropped, "phones") || strings.HasPrefix(tc.dropped, "social_urls")
			if err := Normalize(&strict); (err != nil) != (tc.dropped != "" && !contact) {
				t.Errorf("strict Normalize: %v", err)
			}
		})
	}
	n := newNormalizer()
	n.lenient = true
	if err := n.normalize(&record.Company{Domain: "not a domain", Score: 900}); err == nil || !strings.HasPrefix(err.Error(), "domain:") {
		t.Errorf("a record without a usable domain must be refused: %v", err)
	}
}

// TestLoaderDropsFields: a load keeps records with invalid optional
// fields and lists each dropped field in the rejects file.
func TestLoaderDropsFields(t *testing.T) {
	in := `{"domain":"acme.co.uk","country":"GB","state":"England","score":900,"phones":["12"]}
{"domain":"beta.co.uk","country":"GB","state":"ENG","industry_groups":{"Alchemy":1}}
{"domain":"","score":10}
`
	var rejects bytes.Buffer
	eng := newMemEngine()
	st, err := (&Loader{Engine: eng, Rejects: &rejects}).Load(context.Background(), NewJSONL(strings.NewReader(in)))
	if err != nil {
		t.Fatal(err)
	}
	if st != (Stats{Read: 3, Indexed: 2, Rejected: 1, Dropped: 3}) {
		t.Fatalf("stats %+v", st)
	}
	rej := readRejects(t, &rejects)
	want := []string{"1 acme.co.uk dropped score: 900", "1 acme.co.uk dropped phones: \"12\"", "2 beta.co.uk dropped industry", "3  domain:"}
	if len(rej) != len(want) {
		t.Fatalf("rejects %q", rej)
	}
	for i, w := range want {
		if got := strings.Join(rej[i], " "); !strings.HasPrefix(got, w) {
			t.Errorf("rejects line %d: %q, want prefix %q", i+1, got, w)
		}
	}
	got, _ := eng.GetCompanies(context.Background(), []string{"acme.co.uk", "beta.co.uk"})
	if len(got) != 2 || got[0].Address.State != "GB-ENG" || got[1].Address.State != "GB-ENG" || got[0].Score != 0 {
		t.Errorf("stored %+v", got)
	}
}

// TestReadersDropFields: a value of the wrong type is left out by the
// JSON lines and CSV readers of a load, not the row; a strict read (no
// loader) still refuses it.
func TestReadersDropFields(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		open     func(string) (Source, error)
		want     []string // rejects lines, "row domain reason" prefixes
		stats    Stats
	}{
		{"JSON lines", `{"domain":"a.com","score":"abc","name":"A"}
{"domain":"b.com","growth":{"scores":[1.5]}}
{"domain":"c.com","status_code":"x","address":{"state":{"x":1},"country":"GB"}}
{"domain":{"x":1}}
{"domain":"d.com","score":tru}
`, func(s string) (Source, error) { return NewJSONL(strings.NewReader(s)), nil },
			[]string{`1 a.com dropped score: "abc" is not a number`, "2 b.com dropped growth.scores[0]: 1.5 is not an integer",
				`3 c.com dropped status_code: "x"`, "3 c.com dropped state", "4  domain", "5 "},
			Stats{Read: 5, Indexed: 3, Rejected: 2, Dropped: 4}},
		{"CSV", "domain,score,status_code,employees\ne.com,abc,x,12\nnot a domain,1,200,\n",
			func(s string) (Source, error) { return NewCSV(strings.NewReader(s)) },
			[]string{`1 e.com dropped score: "abc"`, `1 e.com dropped status_code: "x"`, "2 not a domain domain:"},
			Stats{Read: 2, Indexed: 1, Rejected: 1, Dropped: 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, err := tc.open(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			var rejects bytes.Buffer
			eng := newMemEngine()
			st, err := (&Loader{Engine: eng, Rejects: &rejects, Workers: 1}).Load(context.Background(), src)
			if err != nil {
				t.Fatal(err)
			}
			if st != tc.stats {
				t.Errorf("stats %+v, want %+v", st, tc.stats)
			}
			rej := readRejects(t, &rejects)
			if len(rej) != len(tc.want) {
				t.Fatalf("rejects %q", rej)
			}
			for i, w := range tc.want {
				if got := strings.Join(rej[i], " "); !strings.HasPrefix(got, w) {
					t.Errorf("rejects line %d: %q, want prefix %q", i+1, got, w)
				}
			}
			// The strict readers refuse the first row.
			src, _ = tc.open(tc.in)
			if _, _, err := src.Next(); err == nil {
				t.Error("a strict read accepted a value of the wrong type")
			}
		})
	}
}

// FuzzLenientJSONDecode: the lenient decoder reads what the strict one
// reads, identically and without drops; on valid JSON it fails only where
// the strict one fails on the domain or on the record's shape, and
// invalid JSON stays refused.
func FuzzLenientJSONDecode(f *testing.F) {
	for _, s := range []string{
		`{"domain":"acme.com","score":"abc","growth":{"scores":[1.5]},"address":{"state":{"x":1}}}`,
		`{"domain":"acme.com","status_code":"x","phones":[1,{"a":2}],"keywords":[1]}`,
		`{"domain":{"x":1}}`, `{"domain":"a.com","score":tru}`, `{}`, `[]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var strict, lenient record.Company
		strictErr := decodeJSONCompany(b, &strict)
		var dropped []string
		lenientErr := decodeJSONCompanyLenient(b, &lenient, &dropped)
		if strictErr == nil {
			if lenientErr != nil || len(dropped) > 0 || !reflect.DeepEqual(strict, lenient) {
				t.Fatalf("lenient differs on %q: %v %q\n%+v\n%+v", b, lenientErr, dropped, strict, lenient)
			}
			return
		}
		if lenientErr == nil && !json.Valid(b) {
			t.Fatalf("lenient accepted invalid JSON %q", b)
		}
	})
}
