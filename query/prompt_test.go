package query

import (
	"reflect"
	"strconv"
	"testing"
)

func TestExtractPrompt(t *testing.T) {
	r := func(lo, hi int64) *IntRange {
		out := &IntRange{}
		if lo >= 0 {
			out.Min = &lo
		}
		if hi >= 0 {
			out.Max = &hi
		}
		return out
	}
	for _, tc := range []struct {
		prompt string
		want   Extraction
	}{
		{"cybersecurity companies in DACH with 50-500 employees selling to banks", Extraction{
			Countries: []string{"AT", "CH", "DE"}, Categories: []string{"CYBERSECURITY"}, Employees: r(50, 500),
			BusinessModels: []string{"B2B"}, ICPText: "cybersecurity companies selling to banks"}},
		{"Find me B2B SaaS startups in California using HubSpot with revenue over $10M", Extraction{
			Countries: []string{"US"}, States: []string{"US-CA"}, Categories: []string{"SAAS"}, Employees: r(-1, 50),
			Revenue: r(10_000_000, -1), BusinessModels: []string{"B2B"}, VendorNames: []string{"HubSpot"}, ICPText: "B2B SaaS startups"}},
		{"fintech companies in the Nordics with more than 200 employees", Extraction{
			Countries: []string{"AX", "DK", "FI", "FO", "GL", "IS", "NO", "SE"}, Categories: []string{"FINTECH"}, Employees: r(201, -1),
			ICPText: "fintech companies"}},
		{"German manufacturers with $10-50M in revenue", Extraction{
			Countries: []string{"DE"}, Categories: []string{"MANUFACTURING"}, Revenue: r(10_000_000, 50_000_000), ICPText: "manufacturers"}},
		{"law firms in Texas", Extraction{Countries: []string{"US"}, States: []string{"US-TX"}, Categories: []string{"LEGAL_SERVICES"}, ICPText: "law firms"}},
		{"ecommerce brands built on Shopify and Klaviyo in the UK", Extraction{
			Countries: []string{"GB"}, Categories: []string{"E_COMMERCE"}, VendorNames: []string{"Shopify", "Klaviyo"}, ICPText: "ecommerce brands"}},
		{"software for hospitals in France with under 1,000 employees", Extraction{
			Countries: []string{"FR"}, Categories: []string{"SOFTWARE"}, Employees: r(-1, 999), BusinessModels: []string{"B2B"},
			ICPText: "software for hospitals"}},
		{"direct-to-consumer skincare brands for consumers", Extraction{BusinessModels: []string{"D2C", "B2C"}, ICPText: "direct-to-consumer skincare brands for consumers"}},
		// Lower-case words that are also country codes are not countries.
		{"it consulting firms that use no code tools", Extraction{Categories: []string{"IT_SERVICES"}, VendorNames: []string{"no"}, ICPText: "it consulting firms that code tools"}},
		{"mid-market logistics providers in Bavaria, Germany", Extraction{
			Countries: []string{"DE"}, States: []string{"DE-BY"}, Categories: []string{"TRANSPORTATION_LOGISTICS"}, Employees: r(51, 1000), ICPText: "mid-market logistics providers"}},
		{"hi", Extraction{}},
	} {
		t.Run(tc.prompt, func(t *testing.T) {
			got := ExtractPrompt(tc.prompt)
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got  %s\nwant %s", show(got), show(tc.want))
			}
		})
	}
}

func show(x Extraction) string {
	rs := func(r *IntRange) string {
		if r == nil {
			return "nil"
		}
		s := "["
		if r.Min != nil {
			s += itoa(*r.Min)
		}
		s += ","
		if r.Max != nil {
			s += itoa(*r.Max)
		}
		return s + "]"
	}
	return "countries=" + join(x.Countries) + " states=" + join(x.States) + " categories=" + join(x.Categories) +
		" employees=" + rs(x.Employees) + " revenue=" + rs(x.Revenue) + " models=" + join(x.BusinessModels) +
		" vendors=" + join(x.VendorNames) + " icp=" + x.ICPText
}

func join(s []string) string {
	out := ""
	for i, v := range s {
		if i > 0 {
			out += "|"
		}
		out += v
	}
	return out
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func FuzzExtractPrompt(f *testing.F) {
	f.Add("cybersecurity companies in DACH with 50-500 employees selling to banks")
	f.Add("revenue between $1.5 and 20bn using shopify.com, Stripe in São Paulo")
	f.Fuzz(func(t *testing.T, s string) {
		x := ExtractPrompt(s)
		if len([]rune(x.ICPText)) > MaxICPTextChars {
			t.Fatalf("icp text of %d chars", len([]rune(x.ICPText)))
		}
		if x.Employees != nil && x.Employees.Min != nil && x.Employees.Max != nil && *x.Employees.Min > *x.Employees.Max {
			t.Fatalf("employees %d > %d", *x.Employees.Min, *x.Employees.Max)
		}
	})
}
