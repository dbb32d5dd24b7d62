package prospecting

import (
	"slices"
	"testing"
)

func TestReadBrief(t *testing.T) {
	for _, tc := range []struct {
		brief       string
		target, per int
		accounts    bool
		questions   int
	}{
		{"find me 200 companies like these and three people at each with working emails", 200, 3, false, 0},
		{"Find 1,500 fintech companies in Germany", 1500, 0, false, 0},
		{"2k SaaS companies selling to banks, 2 contacts per company", 2000, 2, false, 0},
		{"cybersecurity vendors in DACH, companies only", 0, 0, true, 0},
		{"50 companies or maybe 80 companies in retail", 0, 0, false, 1},
		{"find 20000 companies in payroll software", 0, 0, false, 1},
		{"find 40 companies with 12 people at each company", 40, 0, false, 1},
		{"payroll software sellers in France", 0, 0, false, 0},
		{"Find 200 B2B companies and 2 managers at each", 200, 2, false, 0},
	} {
		q := ReadBrief(tc.brief)
		if q.Target != tc.target || q.ContactsPer != tc.per || q.AccountsOnly != tc.accounts || len(q.Questions) != tc.questions {
			t.Errorf("ReadBrief(%q) = %+v", tc.brief, q)
		}
	}
}

func FuzzReadBrief(f *testing.F) {
	for _, s := range []string{"200 companies and 3 people at each", "1.5k companies", "ten firms, two contacts per firm"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q := ReadBrief(s)
		if q.Target < 0 || q.Target > MaxTarget || q.ContactsPer < 0 || q.ContactsPer > MaxContactsPer {
			t.Fatalf("out of range: %+v", q)
		}
		_ = slices.Clone(q.Questions)
	})
}
