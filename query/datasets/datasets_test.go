package datasets

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/openprospect/prospectd/record"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want []Name
		err  string
	}{
		{in: []string{"bizdata"}, want: []Name{Bizdata}},
		{in: []string{"vendors", "BIZDATA", "vendors"}, want: []Name{Bizdata, Vendors}},
		{in: []string{"growth, redirects", "subdomains"}, want: []Name{Redirects, Growth, Subdomains}},
		{in: nil, err: "at least one"},
		{in: []string{" ", ","}, err: "at least one"},
		{in: []string{"bizdata", "funding"}, err: `"funding" is not one of bizdata, domain_status`},
	} {
		got, err := Parse(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.HasPrefix(err.Error(), "dataset: ") {
				t.Errorf("Parse(%q) error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("Parse(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

// TestNaming checks the spec's column naming rules.
func TestNaming(t *testing.T) {
	c := company("acme.com")
	in := Input{Header: []string{"Website", "Owner"}, Rows: [][]string{{"acme.com", "Ann"}}}
	lines := []Line{{Domain: "acme.com", Company: &c}}
	for _, tc := range []struct {
		sets []Name
		has  []string
		not  []string
	}{
		{[]Name{Bizdata}, []string{"domain", "input:Website", "input:Owner", "name", "status", "address", "mx_provider"}, []string{"bizdata:name", "vendors"}},
		{[]Name{Vendors}, []string{"domain", "vendors"}, []string{"vendors:vendors", "name"}},
		{[]Name{DomainStatus}, []string{"status_code", "status_reason", "record_date"}, []string{"domain_status:status_code"}},
		{[]Name{Bizdata, Vendors, Growth}, []string{"name", "vendors:vendors", "growth:score_2026q3", "growth:score_growth_3m"}, []string{"vendors", "bizdata:name"}},
		{[]Name{Vendors, Subdomains}, []string{"domain", "vendors:vendors", "subdomains:subdomains"}, []string{"vendors", "subdomains"}},
		{[]Name{Redirects, Growth}, []string{"redirects:redirect_sources", "redirects:redirect_count", "growth:subdomains_2026q1"}, []string{"redirect_count"}},
	} {
		tab := Build(in, lines, tc.sets)
		if tab.Columns[0] != "domain" {
			t.Errorf("%v: first column %q", tc.sets, tab.Columns[0])
		}
		for _, h := range tc.has {
			if !slices.Contains(tab.Columns, h) {
				t.Errorf("%v: no column %q in %v", tc.sets, h, tab.Columns)
			}
		}
		for _, h := range tc.not {
			if slices.Contains(tab.Columns, h) {
				t.Errorf("%v: unexpected column %q", tc.sets, h)
			}
		}
		if len(tab.Rows[0]) != len(tab.Columns) {
			t.Errorf("%v: %d values for %d columns", tc.sets, len(tab.Rows[0]), len(tab.Columns))
		}
	}
}

func company(d string) record.Company {
	return record.Company{
		Domain: d, Name: "Acme", Status: record.Status{Status: "active", Confidence: 0.9}, Score: 420,
		Address:    record.Address{City: "Austin", State: "US-TX", Country: "US"},
		Keywords:   map[string]float64{"security": 0.8},
		Vendors:    []string{"hubspot.com"},
		Subdomains: []string{"www", "app"},
		HTTPStatus: &record.HTTPStatus{Code: 200, Reason: "OK", RecordDate: "2026-10-01"},
		Growth:     &record.Growth{Through: "2026-Q3", Scores: []int{400, 410, 420}, Subdomains: []int{1, 2, 2}},
	}
}

func TestBuildValues(t *testing.T) {
	big := company("big.com")
	for i := range 1500 {
		big.RedirectSources = append(big.RedirectSources, fmt.Sprintf("big%d.com", i))
	}
	big.RedirectCount = 2400
	for i := range 150 {
		big.Vendors = append(big.Vendors, fmt.Sprintf("v%d.com", i))
	}
	for i := range 400 {
		big.Subdomains = append(big.Subdomains, fmt.Sprintf("s%d", i))
	}
	// An older history: the growth columns are the union of both.
	big.Growth = &record.Growth{Through: "2026-Q1", Scores: []int{0, 300}, Subdomains: []int{0, 3}}
	small := company("small.com")
	small.Vendors, small.Subdomains, small.HTTPStatus = nil, nil, nil

	in := Input{Header: []string{"site"}, Rows: [][]string{{"big.com"}, {"small.com"}, {"not a domain"}, {"unknown.com"}}}
	lines := []Line{{"big.com", &big}, {"small.com", &small}, {"", nil}, {"unknown.com", nil}}
	tab := Build(in, lines, []Name{DomainStatus, Redirects, Growth, Vendors, Subdomains})
	get := func(row int, col string) any {
		j := slices.Index(tab.Columns, col)
		if j < 0 {
			t.Fatalf("no column %q in %v", col, tab.Columns)
		}
		return tab.Rows[row][j]
	}
	if n := len(get(0, "redirects:redirect_sources").([]string)); n != MaxRedirectSources {
		t.Errorf("redirect_sources: %d, want the cap %d", n, MaxRedirectSources)
	}
	if got := get(0, "redirects:redirect_count"); got != 2400 {
		t.Errorf("redirect_count %v, want the true total", got)
	}
	if n := len(get(0, "vendors:vendors").([]string)); n != MaxVendors {
		t.Errorf("vendors: %d", n)
	}
	if s := get(0, "subdomains:subdomains").([]string); len(s) != MaxSubdomains || s[0] != "www" {
		t.Errorf("subdomains: %d, first %q", len(s), s[0])
	}
	wantQ := []string{"growth:score_2025q4", "growth:score_2026q1", "growth:score_2026q2", "growth:score_2026q3"}
	var gotQ []string
	for _, c := range tab.Columns {
		if strings.HasPrefix(c, "growth:score_2") {
			gotQ = append(gotQ, c)
		}
	}
	if !slices.Equal(gotQ, wantQ) {
		t.Errorf("growth columns %v, want %v", gotQ, wantQ)
	}
	for _, tc := range []struct {
		row  int
		col  string
		want any
	}{
		{0, "growth:score_2026q1", 300}, {0, "growth:score_2026q3", nil}, {0, "growth:score_growth_3m", nil},
		{1, "growth:score_2026q3", 420}, {1, "growth:score_growth_3m", 2.4}, {1, "growth:subdomain_growth_3m", 0.0},
		{1, "growth:subdomains_2026q2", 2}, {1, "growth:score_2025q4", nil},
		{0, "domain_status:status_code", 200}, {1, "domain_status:status_code", nil},
		{2, "domain", nil}, {2, "input:site", "not a domain"}, {2, "vendors:vendors", nil},
		{3, "domain", "unknown.com"}, {3, "redirects:redirect_count", nil},
		{1, "redirects:redirect_count", 0}, {1, "vendors:vendors", []string{}},
	} {
		if got := get(tc.row, tc.col); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("row %d %s = %#v, want %#v", tc.row, tc.col, got, tc.want)
		}
	}
	// Rows without data are free: small.com has no vendors, redirects or
	// status; unknown rows have nothing.
	for n, rows := range map[Name][]int{DomainStatus: {0}, Redirects: {0}, Growth: {0, 1}, Vendors: {0}, Subdomains: {0}} {
		if !slices.Equal(tab.Billable[n], rows) {
			t.Errorf("billable %s rows %v, want %v", n, tab.Billable[n], rows)
		}
	}
	tab.Withhold(0, Vendors)
	if get(0, "vendors:vendors") != nil || get(0, "subdomains:subdomains") == nil {
		t.Error("Withhold must blank exactly the dataset's columns")
	}
}

func TestEncodings(t *testing.T) {
	c := company("acme.com")
	in := Input{Header: []string{"Website", "Note"}, Rows: [][]string{{"acme.com", `say "hi", ok`}, {"x", ""}}}
	tab := Build(in, []Line{{"acme.com", &c}, {"", nil}}, []Name{Bizdata, Vendors})

	var js bytes.Buffer
	if err := tab.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var rows []map[string]any
	if err := json.Unmarshal(js.Bytes(), &rows); err != nil {
		t.Fatalf("%v: %s", err, js.String())
	}
	if len(rows) != 2 || rows[0]["name"] != "Acme" || rows[0]["input:Note"] != `say "hi", ok` || rows[1]["domain"] != nil {
		t.Errorf("JSON rows %v", rows)
	}
	// Keys follow the column order.
	if !bytes.HasPrefix(js.Bytes(), []byte(`[{"domain":"acme.com","input:Website":"acme.com","input:Note":`)) {
		t.Errorf("JSON key order: %.80s", js.String())
	}

	var cs bytes.Buffer
	if err := tab.WriteCSV(&cs); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&cs).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	head := recs[0]
	col := func(name string) int {
		i := slices.Index(head, name)
		if i < 0 {
			t.Fatalf("CSV has no column %q: %v", name, head)
		}
		return i
	}
	if recs[1][col("address.city")] != "Austin" || recs[1][col("status.status")] != "active" ||
		recs[1][col("vendors:vendors")] != "hubspot.com" || recs[1][col("input:Note")] != `say "hi", ok` ||
		recs[1][col("keywords")] != `{"security":0.8}` || recs[1][col("score")] != "420" {
		t.Errorf("CSV row %v", recs[1])
	}
	if recs[2][col("domain")] != "" || recs[2][col("name")] != "" || len(recs[2]) != len(head) {
		t.Errorf("CSV row for a non-domain %v", recs[2])
	}
}
