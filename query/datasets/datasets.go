// Package datasets owns the append datasets: which fields each dataset adds
// to a row of domains, the spec's column naming rules (unprefixed,
// `<dataset>:` and `input:` columns), the per-dataset caps, which rows
// carry billable data, and the JSON and CSV forms of the rows.
package datasets

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"

	"github.com/openprospect/prospectd/record"
)

// Name is an append dataset.
type Name string

// The datasets of POST /v1/append.
const (
	Bizdata      Name = "bizdata"
	DomainStatus Name = "domain_status"
	Redirects    Name = "redirects"
	Growth       Name = "growth"
	Vendors      Name = "vendors"
	Subdomains   Name = "subdomains"
)

// All lists the datasets in the order their columns are written.
var All = []Name{Bizdata, DomainStatus, Redirects, Growth, Vendors, Subdomains}

// Caps on list fields (spec: Limits).
const (
	MaxRedirectSources = record.MaxRedirectSources
	MaxVendors         = 100
	MaxSubdomains      = 300
)

// Parse reads the dataset parameter: repeatable, each value possibly
// comma-separated, case-insensitive. At least one is required; duplicates
// are dropped; the result is in All's order.
func Parse(values []string) ([]Name, error) {
	want := map[Name]bool{}
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			part = strings.ToLower(strings.TrimSpace(part))
			if part == "" {
				continue
			}
			if !slices.Contains(All, Name(part)) {
				return nil, fmt.Errorf("dataset: %q is not one of %s", part, names(All))
			}
			want[Name(part)] = true
		}
	}
	if len(want) == 0 {
		return nil, fmt.Errorf("dataset: give at least one of %s", names(All))
	}
	var out []Name
	for _, n := range All {
		if want[n] {
			out = append(out, n)
		}
	}
	return out, nil
}

func names(ns []Name) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = string(n)
	}
	return strings.Join(s, ", ")
}

// Prefix is the column prefix of dataset n's fields in a request for sets:
// profile fields are never prefixed; another dataset is unprefixed only
// when it is the only dataset requested.
func Prefix(n Name, sets []Name) string {
	if n == Bizdata || (len(sets) == 1 && sets[0] == n) {
		return ""
	}
	return string(n) + ":"
}

// Input is an uploaded table of domains.
type Input struct {
	Header []string
	Rows   [][]string
	// DomainColumn is the index of the domain column in Header.
	DomainColumn int
}

// Line is one input row resolved against the index.
type Line struct {
	// Domain is the row's normalized root domain, "" when the cell was
	// empty or not a domain.
	Domain string
	// Company is the indexed company, nil when not found.
	Company *record.Company
}

// Table is the append result: column names and rows of values, one row per
// input row in input order.
type Table struct {
	Columns []string
	Rows    [][]any
	// Lines are the resolved input rows, one per row.
	Lines []Line
	// Billable lists, per dataset other than bizdata, the rows whose data
	// is billed (rows without data are free).
	Billable map[Name][]int
	spans    map[Name][2]int // each dataset's columns
}

// Build shapes the append rows. Every input row gives one output row:
// `domain` first (null when the cell is not a domain), the input columns
// prefixed `input:`, then each dataset's fields, null where there is no
// data.
func Build(in Input, lines []Line, sets []Name) Table {
	t := Table{Lines: lines, Billable: map[Name][]int{}, spans: map[Name][2]int{}}
	t.Columns = append(t.Columns, "domain")
	for _, h := range in.Header {
		t.Columns = append(t.Columns, "input:"+h)
	}
	quarters := growthQuarters(lines)
	for _, n := range sets {
		p, start := Prefix(n, sets), len(t.Columns)
		for _, f := range fieldsOf(n, quarters) {
			t.Columns = append(t.Columns, p+f)
		}
		t.spans[n] = [2]int{start, len(t.Columns)}
	}
	t.Rows = make([][]any, len(lines))
	for i, l := range lines {
		row := make([]any, 0, len(t.Columns))
		if l.Domain == "" {
			row = append(row, nil)
		} else {
			row = append(row, l.Domain)
		}
		for j := range in.Header {
			v := ""
			if j < len(in.Rows[i]) {
				v = in.Rows[i][j]
			}
			row = append(row, v)
		}
		for _, n := range sets {
			var has bool
			row, has = appendValues(row, n, l.Company, quarters)
			if has && n != Bizdata {
				t.Billable[n] = append(t.Billable[n], i)
			}
		}
		t.Rows[i] = row
	}
	return t
}

// Withhold blanks dataset n's values on row i: data the credits did not
// cover.
func (t *Table) Withhold(i int, n Name) {
	if sp, ok := t.spans[n]; ok {
		clear(t.Rows[i][sp[0]:sp[1]])
	}
}

// profileFields are record.Profile's JSON fields without domain, in order.
var profileFields = func() []struct {
	name  string
	index int
} {
	var out []struct {
		name  string
		index int
	}
	t := reflect.TypeOf(record.Profile{})
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" && name != "domain" {
			out = append(out, struct {
				name  string
				index int
			}{name, i})
		}
	}
	return out
}()

// fieldsOf returns dataset n's field names.
func fieldsOf(n Name, quarters []record.Quarter) []string {
	switch n {
	case Bizdata:
		out := make([]string, len(profileFields))
		for i, f := range profileFields {
			out[i] = f.name
		}
		return out
	case DomainStatus:
		return []string{"status_code", "status_reason", "record_date"}
	case Redirects:
		return []string{"redirect_sources", "redirect_count"}
	case Growth:
		var out []string
		for _, q := range quarters {
			out = append(out, "score_"+q.Column())
		}
		for _, q := range quarters {
			out = append(out, "subdomains_"+q.Column())
		}
		return append(out, "score_growth_3m", "subdomain_growth_3m")
	case Vendors:
		return []string{"vendors"}
	case Subdomains:
		return []string{"subdomains"}
	}
	return nil
}

// appendValues appends dataset n's values for c (nulls when c is nil or
// has no such data) and reports whether c had data for it.
func appendValues(row []any, n Name, c *record.Company, quarters []record.Quarter) ([]any, bool) {
	nulls := func(k int) []any {
		for range k {
			row = append(row, nil)
		}
		return row
	}
	switch n {
	case Bizdata:
		if c == nil {
			return nulls(len(profileFields)), false
		}
		p := reflect.ValueOf(record.ProfileOf(*c))
		for _, f := range profileFields {
			row = append(row, p.Field(f.index).Interface())
		}
		return row, true
	case DomainStatus:
		if c == nil || c.HTTPStatus == nil {
			return nulls(3), false
		}
		h := c.HTTPStatus
		var date any
		if h.RecordDate != "" {
			date = h.RecordDate
		}
		return append(row, h.Code, h.Reason, date), true
	case Redirects:
		if c == nil {
			return nulls(2), false
		}
		src := c.RedirectSources
		if src == nil {
			src = []string{}
		}
		return append(row, src[:min(len(src), MaxRedirectSources)], c.RedirectCount), c.RedirectCount > 0
	case Growth:
		if c == nil || c.Growth == nil {
			return nulls(2*len(quarters) + 2), false
		}
		return appendGrowth(row, c.Growth, quarters), true
	case Vendors:
		if c == nil {
			return nulls(1), false
		}
		return append(row, capped(c.Vendors, MaxVendors)), len(c.Vendors) > 0
	case Subdomains:
		if c == nil {
			return nulls(1), false
		}
		return append(row, capped(c.Subdomains, MaxSubdomains)), len(c.Subdomains) > 0
	}
	return row, false
}

func capped(s []string, n int) []string {
	if s == nil {
		return []string{}
	}
	return s[:min(len(s), n)]
}

// growthQuarters is the union of the quarters the companies' histories
// cover, oldest first.
func growthQuarters(lines []Line) []record.Quarter {
	seen := map[record.Quarter]bool{}
	var out []record.Quarter
	for _, l := range lines {
		if l.Company == nil || l.Company.Growth == nil {
			continue
		}
		g := l.Company.Growth
		n := max(len(g.Scores), len(g.Subdomains))
		for k := range n {
			q := g.Through.Add(k - n + 1)
			if !seen[q] {
				seen[q] = true
				out = append(out, q)
			}
		}
	}
	// "YYYY-QN" sorts chronologically as text.
	slices.Sort(out)
	return out
}

func appendGrowth(row []any, g *record.Growth, quarters []record.Quarter) []any {
	at := func(vals []int, q record.Quarter) any {
		n := max(len(g.Scores), len(g.Subdomains))
		for k := range vals {
			if g.Through.Add(k-n+1) == q {
				return vals[k]
			}
		}
		return nil
	}
	for _, q := range quarters {
		row = append(row, at(g.Scores, q))
	}
	for _, q := range quarters {
		row = append(row, at(g.Subdomains, q))
	}
	return append(row, change(g.Scores), change(g.Subdomains))
}

// change is the percent change over the last quarter (three months),
// rounded to 0.1; null without two quarters or from zero.
func change(vals []int) any {
	if len(vals) < 2 || vals[len(vals)-2] == 0 {
		return nil
	}
	prev, last := float64(vals[len(vals)-2]), float64(vals[len(vals)-1])
	return math.Round((last-prev)/prev*1000) / 10
}
