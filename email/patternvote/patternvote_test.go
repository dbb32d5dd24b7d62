package patternvote

import (
	"testing"
)

// TestApply: every template of the inference, names without a
// first or last name, and text that only looks like a placeholder.
func TestApply(t *testing.T) {
	for _, c := range []struct{ tpl, first, last, want string }{
		{"{first}.{last}", "jane", "doe", "jane.doe"},
		{"{first}{last}", "jane", "doe", "janedoe"},
		{"{f}{last}", "jane", "doe", "jdoe"},
		{"{first}", "jane", "doe", "jane"},
		{"{first}_{last}", "jane", "doe", "jane_doe"},
		{"{f}.{last}", "jane", "doe", "j.doe"},
		{"{last}", "jane", "doe", "doe"},
		{"{first}{l}", "jane", "doe", "janed"},
		{"{last}.{first}", "jane", "doe", "doe.jane"},
		{"{last}{f}", "jane", "doe", "doej"},
		{"{first}-{last}", "jane", "doe", "jane-doe"},
		{"{f}{l}", "jane", "doe", "jd"},
		{"{first}.{last}", "priya", "", ""},
		{"{first}{l}", "priya", "", "priya"},
		{"{f}{l}", "", "shah", "s"},
		{"{first}.{last}", "jean", "de la cruz", "jean.de la cruz"},
		{"{x}{first}", "jane", "doe", "{x}jane"},
		{"}{f}{", "jane", "doe", "}j{"},
		{"{firs", "jane", "doe", "{firs"},
		{"plain", "jane", "doe", "plain"},
		{"", "jane", "doe", ""},
	} {
		if got := Apply(c.tpl, c.first, c.last); got != c.want {
			t.Errorf("Apply(%q, %q, %q) = %q, want %q", c.tpl, c.first, c.last, got, c.want)
		}
	}
}

// TestFollows: follows agrees with Apply on the templates, on names
// without a first or last name and on empty local parts ("@acme.com"
// follows every template Apply leaves empty).
func TestFollows(t *testing.T) {
	tpls := append(Templates[:], "{x}{first}", "}{f}{", "{firs", "plain", "")
	names := [][2]string{{"jane", "doe"}, {"priya", ""}, {"", "shah"}, {"", ""}, {"j", "d"}, {"jean", "de la cruz"}}
	locals := []string{"", "jane.doe", "janedoe", "jdoe", "jane", "jane_doe", "j.doe", "doe", "janed", "doe.jane", "doej",
		"jane-doe", "jd", "priya", "p", "s", "{x}jane", "}j{", "{firs", "plain", "jean.de la cruz", "jane.do", "jane.doex"}
	for _, tpl := range tpls {
		for _, n := range names {
			for _, l := range locals {
				if got, want := follows(tpl, n[0], n[1], l), Apply(tpl, n[0], n[1]) == l; got != want {
					t.Errorf("follows(%q, %q, %q, %q) = %v, Apply gives %q", tpl, n[0], n[1], l, got, Apply(tpl, n[0], n[1]))
				}
			}
		}
	}
}

// TestVote: the vote of one address, and the election from a tally.
func TestVote(t *testing.T) {
	for _, tc := range []struct {
		domain, email, name string
		validated           bool
		want                Vote
	}{
		{"acme.com", "Ana.Garcia@ACME.com", "Ana García", true, Vote{Weight: 2, Template: 0}},
		{"acme.com", "jurgen.muller@acme.com", "Jürgen Müller", false, Vote{Weight: 1, Template: 0}},
		{"acme.com", "annemarie.obrien@acme.com", "Anne-Marie O'Brien", false, Vote{Weight: 1, Template: 0}},
		{"acme.com", "anne.brien@acme.com", "Anne-Marie O'Brien", false, Vote{Weight: 1, Template: -1}},
		{"acme.com", "priya@acme.com", "Priya", false, Vote{Weight: 1, Template: 3}},
		{"acme.com", "@acme.com", "Priya", false, Vote{Weight: 1, Template: 0}},
		{"acme.com", "x.y@acme.com", "Priya", false, Vote{Weight: 1, Template: -1}},
		{"acme.com", "other.domain@gmail.com", "Other Domain", true, Vote{Template: -1}},
		{"acme.com", "no-at-sign", "No Sign", true, Vote{Template: -1}},
		{"acme.com", "x@acme.com", "東京", true, Vote{Template: -1}},
		{"acme.com", "", "Ana García", true, Vote{Template: -1}},
	} {
		if got := VoteOf(tc.domain, tc.email, tc.name, tc.validated); got != tc.want {
			t.Errorf("VoteOf(%q, %q, %q, %v) = %+v, want %+v", tc.domain, tc.email, tc.name, tc.validated, got, tc.want)
		}
	}
	var tl Tally
	if _, _, ok := tl.Best(); ok {
		t.Fatal("an empty tally elected a template")
	}
	tl.Add(Vote{Weight: 2, Template: 2})
	tl.Add(Vote{Weight: 1, Template: 0})
	tl.Add(Vote{Weight: 1, Template: 0})
	tl.Add(Vote{Weight: 1, Template: -1})
	tl.Add(Vote{Template: 5})
	if tpl, conf, ok := tl.Best(); !ok || tpl != "{first}.{last}" || conf != 0.33 || tl.Total != 5 {
		t.Fatalf("tie goes to the earlier template: %q %v %v %+v", tpl, conf, ok, tl)
	}
}

// FuzzFollows: for any template, name and local part, follows agrees with
// Apply (the engine votes with follows, the guesses are built with Apply).
func FuzzFollows(f *testing.F) {
	f.Add("{first}.{last}", "jane", "doe", "jane.doe")
	f.Add("{f}{l}", "", "shah", "s")
	f.Add("{last}", "priya", "", "")
	f.Fuzz(func(t *testing.T, tpl, first, last, local string) {
		if got, want := follows(tpl, first, last, local), Apply(tpl, first, last) == local; got != want {
			t.Fatalf("follows(%q, %q, %q, %q) = %v, Apply gives %q", tpl, first, last, local, got, Apply(tpl, first, last))
		}
	})
}
