package ingest

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/openprospect/prospectd/record"
)

// TestAppendDatasetFields: the fields behind the append datasets
// domain_status, redirects and growth load from JSON (nested and flat) and
// CSV, and are normalized.
func TestAppendDatasetFields(t *testing.T) {
	want := record.Company{
		HTTPStatus:      &record.HTTPStatus{Code: 301, Reason: "Moved Permanently", RecordDate: "2026-10-02"},
		RedirectSources: []string{"acme.net", "getacme.com"}, RedirectCount: 5,
		Growth: &record.Growth{Through: "2026-Q3", Scores: []int{400, 410}, Subdomains: []int{2, 3}},
	}
	decodeJSON := func(in string) (record.Company, error) {
		var c record.Company
		err := decodeJSONCompany([]byte(in), &c)
		return c, err
	}
	// only reads the one row a source must hold.
	only := func(src Source, err error) (record.Company, error) {
		if err != nil {
			return record.Company{}, err
		}
		rows, fatal := drain(t, src)
		if fatal != nil || len(rows) != 1 || rows[0].reason != "" {
			return record.Company{}, fmt.Errorf("rows %+v, fatal %v", rows, fatal)
		}
		return rows[0].c, nil
	}
	decodeCSV := func(in string) (record.Company, error) { return only(NewCSV(strings.NewReader(in))) }
	decodeXLSX := func(string) (record.Company, error) {
		// 46297 is 2026-10-02 as an Excel date serial.
		b := xlsxBytes(t, map[string][][]any{"Sheet1": {
			{"domain", "status_code", "record_date", "redirect_sources", "redirect_count", "growth"},
			{"acme.com", 301, 46297, "acme.net;getacme.com", 5, `{"through":"2026-Q3","scores":[400,410],"subdomains":[2,3]}`},
		}})
		return only(NewXLSX(bytes.NewReader(b)))
	}
	for _, tc := range []struct {
		name   string
		decode func(string) (record.Company, error)
		in     string
	}{
		{"JSON nested", decodeJSON, `{"domain":"acme.com","http_status":{"status_code":301,"record_date":"2026-10-02T10:00:00Z"},
			"redirect_sources":["https://www.acme.net/","GetAcme.com","acme.com","acme.net"],"redirect_count":5,
			"growth":{"through":"2026-Q3","scores":[400,"410"],"subdomains":[2,3]}}`},
		{"JSON flat", decodeJSON, `{"domain":"acme.com","status_code":"301","status_reason":"Moved Permanently","record_date":"2026-10-02",
			"redirect_sources":"acme.net;getacme.com","redirect_count":5,"growth":{"through":"2026-Q3","scores":"400|410","subdomains":[2,3]}}`},
		{"XLSX with a date cell", decodeXLSX, ""},
		{"CSV", decodeCSV, "domain,status_code,record_date,redirect_sources,redirect_count,growth\n" +
			`acme.com,301,2026-10-02,acme.net; getacme.com,5,"{""through"":""2026-Q3"",""scores"":[400,410],""subdomains"":[2,3]}"` + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := tc.decode(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if err := Normalize(&c); err != nil {
				t.Fatal(err)
			}
			got := record.Company{HTTPStatus: c.HTTPStatus, RedirectSources: c.RedirectSources, RedirectCount: c.RedirectCount, Growth: c.Growth}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got %+v %+v %+v\nwant %+v %+v %+v", got.HTTPStatus, got, got.Growth, want.HTTPStatus, want, want.Growth)
			}
		})
	}
}

func TestNormalizeAppendDatasets(t *testing.T) {
	many := make([]string, 1500)
	for i := range many {
		many[i] = fmt.Sprintf("acme%d.com", i)
	}
	c := record.Company{Domain: "acme.com", RedirectSources: many, HTTPStatus: &record.HTTPStatus{}, Growth: &record.Growth{Through: "2026-Q1"}}
	if err := Normalize(&c); err != nil {
		t.Fatal(err)
	}
	if len(c.RedirectSources) != record.MaxRedirectSources || c.RedirectCount != 1500 {
		t.Errorf("redirects: %d kept, count %d; want the cap and the true total", len(c.RedirectSources), c.RedirectCount)
	}
	if c.HTTPStatus != nil || c.Growth != nil {
		t.Errorf("empty status and history must be dropped: %+v %+v", c.HTTPStatus, c.Growth)
	}

	for _, tc := range []struct {
		in   record.Company
		want string
	}{
		{record.Company{HTTPStatus: &record.HTTPStatus{Code: 99}}, "status_code: 99 is not an HTTP status code (100-599)"},
		{record.Company{HTTPStatus: &record.HTTPStatus{Reason: "OK"}}, "status_code: 0 is not an HTTP status code"},
		{record.Company{HTTPStatus: &record.HTTPStatus{Code: 200, RecordDate: "last week"}}, `record_date: "last week" is not a YYYY-MM-DD date`},
		{record.Company{RedirectCount: -2}, "redirect_count: -2 is negative"},
		{record.Company{Growth: &record.Growth{Through: "2026Q3", Scores: []int{1}}}, `growth.through: quarter "2026Q3" is not of the form YYYY-QN`},
		{record.Company{Growth: &record.Growth{Through: "2026-Q5", Scores: []int{1}}}, "growth.through"},
		{record.Company{Growth: &record.Growth{Through: "2026-Q1", Scores: []int{1, 2}, Subdomains: []int{1}}}, "growth: 2 scores but 1 subdomain counts"},
		{record.Company{Growth: &record.Growth{Through: "2026-Q1", Scores: []int{1, 900}}}, "growth.scores[1]: 900 is outside 0-800"},
		{record.Company{Growth: &record.Growth{Through: "2026-Q1", Subdomains: []int{-1}}}, "growth.subdomains[0]: -1 is negative"},
		{record.Company{Growth: &record.Growth{Through: "2026-Q1", Scores: make([]int, 41)}}, "growth: 41 quarters, at most 40"},
	} {
		c := tc.in
		c.Domain = "a.com"
		if err := Normalize(&c); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Normalize(%+v) = %v, want %q", tc.in, err, tc.want)
		}
	}
	var c2 record.Company
	if err := decodeJSONCompany([]byte(`{"domain":"a.com","growth":{"scores":[1.5]}}`), &c2); err == nil || !strings.Contains(err.Error(), "growth.scores[0]: 1.5 is not an integer") {
		t.Errorf("fractional history value: %v", err)
	}
	if err := decodeJSONCompany([]byte(`{"domain":"a.com","http_status":"ok"}`), &c2); err == nil || !strings.Contains(err.Error(), "http_status: want an object, got a string") {
		t.Errorf("status as text: %v", err)
	}
}
