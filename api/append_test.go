package api

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/enginetest"
	"github.com/openprospect/prospectd/store"
)

// upload posts a multipart form with the fixture's key.
func (f fixture) upload(t *testing.T, target string, fields map[string]string, name string, file []byte) (*http.Response, []byte) {
	t.Helper()
	return f.uploadWith(t, f.key, target, fields, name, file)
}

// uploadWith posts a multipart form with key.
func (f fixture) uploadWith(t *testing.T, key, target string, fields map[string]string, name string, file []byte) (*http.Response, []byte) {
	t.Helper()
	body, ct := multipartBody(t, fields, name, file)
	req := httptest.NewRequest(http.MethodPost, target, body)
	req.Header.Set("Content-Type", ct)
	req.Header.Set("X-API-Key", key)
	res, err := f.srv.App().Test(req, -1)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	return res, b
}

// uploadJSON is uploadWith with the answer decoded as a JSON object.
func (f fixture) uploadJSON(t *testing.T, key, target string, fields map[string]string, name string, file []byte) (*http.Response, map[string]any) {
	t.Helper()
	res, b := f.uploadWith(t, key, target, fields, name, file)
	var out map[string]any
	json.Unmarshal(b, &out)
	return res, out
}

// waitTask polls a task status path until the task leaves in_progress or
// the deadline passes, and returns the last status.
func (f fixture) waitTask(t *testing.T, statusPath string, within time.Duration) TaskStatusBody {
	t.Helper()
	var st TaskStatusBody
	for deadline := time.Now().Add(within); ; {
		f.getJSON(t, statusPath, &st)
		if st.Status != store.TaskInProgress || time.Now().After(deadline) {
			return st
		}
		time.Sleep(30 * time.Millisecond)
	}
}

// appendFixture is the standard fixture plus big.com, whose lists exceed
// the append caps.
func appendFixture(t *testing.T, credits int) fixture {
	plans := account.DefaultPlans()
	if credits > 0 {
		plans[store.PlanStarter] = account.PlanConfig{PricePer1K: 20, Credits: credits, RateMultiplier: 1}
	}
	var eng index.Engine
	f := newFixtureWith(t, func(d *Deps) { d.Plans, eng = plans, d.Engine.(index.Engine) })
	big := enginetest.Fixtures()[0]
	big.Company.Domain, big.Company.Name = "big.com", "Big"
	big.Company.RedirectSources, big.Company.RedirectCount = nil, 2500
	for i := range 1200 {
		big.Company.RedirectSources = append(big.Company.RedirectSources, fmt.Sprintf("big%d.net", i))
	}
	for i := range 130 {
		big.Company.Vendors = append(big.Company.Vendors, fmt.Sprintf("vendor%d.com", i))
	}
	for i := range 350 {
		big.Company.Subdomains = append(big.Company.Subdomains, fmt.Sprintf("s%d", i))
	}
	if _, err := eng.UpsertCompanies(context.Background(), []index.CompanyDoc{big}); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestAppend(t *testing.T) {
	f := appendFixture(t, 0)
	file := []byte("\ufeffCompany;Website\nAcme;https://www.acme.com/about\nBig;big.com\nNobody;nobody-here.com\nJunk;not a domain\n")
	post := func(q string, fields map[string]string, name string, file []byte) (*http.Response, []byte) {
		return f.upload(t, "/v1/append"+q, fields, name, file)
	}

	res, b := post("?dataset=bizdata&dataset=vendors", nil, "list.csv", file)
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("append: %d %s", res.StatusCode, b)
	}
	var rows []map[string]any
	if err := json.Unmarshal(b, &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 {
		t.Fatalf("%d rows, want one per input row", len(rows))
	}
	acme, big, nobody, junk := rows[0], rows[1], rows[2], rows[3]
	if acme["domain"] != "acme.com" || acme["name"] != "Acme Security" || acme["input:Website"] != "https://www.acme.com/about" ||
		acme["input:Company"] != "Acme" || fmt.Sprint(acme["vendors:vendors"]) != "[salesforce.com hubspot.com]" {
		t.Errorf("acme row %v", acme)
	}
	if _, ok := acme["site_text"]; ok {
		t.Error("site text is not a profile field")
	}
	if n := len(big["vendors:vendors"].([]any)); n != 100 {
		t.Errorf("vendors capped at 100, got %d", n)
	}
	if nobody["domain"] != "nobody-here.com" || nobody["name"] != nil || nobody["vendors:vendors"] != nil {
		t.Errorf("unknown domain row %v", nobody)
	}
	if junk["domain"] != nil || junk["input:Website"] != "not a domain" {
		t.Errorf("non-domain row %v", junk)
	}
	// Two bizdata records and two vendor rows.
	if res.Header.Get("X-Credits-Billed") != "4" {
		t.Errorf("billed %q, want 4", res.Header.Get("X-Credits-Billed"))
	}
	// Again: the profiles are cached for 90 days, the other datasets are not.
	res, _ = post("?dataset=bizdata,vendors", nil, "list.csv", file)
	if res.StatusCode != http.StatusOK || res.Header.Get("X-Credits-Billed") != "2" {
		t.Errorf("second append billed %q, want 2 (vendors only)", res.Header.Get("X-Credits-Billed"))
	}

	// Other datasets, caps, naming with a single dataset and as form fields.
	res, b = post("", map[string]string{"dataset": "redirects"}, "list.csv", file)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("redirects: %d %s", res.StatusCode, b)
	}
	rows = nil
	json.Unmarshal(b, &rows)
	if n := len(rows[1]["redirect_sources"].([]any)); n != 1000 || rows[1]["redirect_count"] != 2500.0 {
		t.Errorf("redirects: %d sources, count %v", n, rows[1]["redirect_count"])
	}
	res, b = post("?dataset=subdomains&dataset=domain_status&dataset=growth", nil, "list.csv", file)
	rows = nil
	json.Unmarshal(b, &rows)
	if res.StatusCode != http.StatusOK || len(rows[1]["subdomains:subdomains"].([]any)) != 300 ||
		rows[0]["domain_status:status_code"] != 200.0 || rows[0]["growth:score_2026q3"] != 420.0 ||
		rows[0]["growth:score_growth_3m"] != 2.4 || rows[2]["growth:score_2026q3"] != nil {
		t.Errorf("subdomains/status/growth: %d %v", res.StatusCode, rows[0])
	}

	// CSV out.
	res, b = post("?dataset=bizdata&csv=true", nil, "list.csv", file)
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/csv") {
		t.Fatalf("csv: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil || len(recs) != 5 {
		t.Fatalf("csv: %v, %d records", err, len(recs))
	}
	if i := slices.Index(recs[0], "address.city"); i < 0 || recs[1][i] != "Austin" {
		t.Errorf("csv header %v row %v", recs[0], recs[1])
	}

	// Excel in.
	xf := excelize.NewFile()
	xf.SetSheetRow("Sheet1", "A1", &[]any{"domain"})
	xf.SetSheetRow("Sheet1", "A2", &[]any{"acme.com"})
	var xb bytes.Buffer
	xf.Write(&xb)
	res, b = post("?dataset=domain_status", nil, "list.xlsx", xb.Bytes())
	rows = nil
	json.Unmarshal(b, &rows)
	if res.StatusCode != http.StatusOK || len(rows) != 1 || rows[0]["status_code"] != 200.0 || rows[0]["record_date"] != "2026-10-02" {
		t.Errorf("xlsx: %d %s", res.StatusCode, b)
	}

	for _, tc := range []struct {
		q      string
		fields map[string]string
		name   string
		file   []byte
		status int
		detail string
	}{
		{"", nil, "a.csv", file, 422, "dataset: give at least one"},
		{"?dataset=funding", nil, "a.csv", file, 422, `dataset: "funding" is not one of`},
		{"?dataset=bizdata&csv=maybe", nil, "a.csv", file, 422, "csv"},
		{"?dataset=bizdata", nil, "", nil, 422, "upload exactly one CSV or Excel file"}, // a file is required unless query_id is given
		{"?dataset=bizdata&query_id=q1", nil, "a.csv", file, 404, "saved query"},
		{"?dataset=bizdata", nil, "a.csv", []byte("name,city\nAcme,Paris\n"), 422, "no column looks like domains"},
		{"?dataset=bizdata&domain_column=web", nil, "a.csv", file, 422, `domain_column: no column "web"`},
		{"?dataset=bizdata", nil, "a.xlsx", []byte("domain\na.com\n"), 422, "not an Excel workbook"},
		{"?dataset=bizdata", nil, "a.csv", []byte("domain\n" + strings.Repeat("abcdefgh.com\n", 10_001)), 413, "more than 10000 rows"},
		{"?dataset=bizdata", nil, "a.csv", append([]byte("domain\n"), bytes.Repeat([]byte("x"), 5<<20)...), 413, "limit is 5 MB"},
		{"?dataset=bizdata", nil, "a.csv", nil, 422, "file"},
	} {
		res, b := post(tc.q, tc.fields, tc.name, tc.file)
		var body map[string]any
		json.Unmarshal(b, &body)
		if res.StatusCode != tc.status || !strings.Contains(fmt.Sprint(body["detail"]), tc.detail) {
			t.Errorf("%s %v %s: %d %s", tc.q, tc.fields, tc.name, res.StatusCode, b)
		}
	}
}

// TestAppendCredits: values the credits do not cover are withheld, never
// rows; with no credits at all the request is refused with 402.
func TestAppendCredits(t *testing.T) {
	f := appendFixture(t, 3)
	file := []byte("domain\nacme.com\nbig.com\nbrightbank.co.uk\nwachdienst.de\n")
	res, b := f.upload(t, "/v1/append?dataset=bizdata", nil, "a.csv", file)
	var rows []map[string]any
	json.Unmarshal(b, &rows)
	if res.StatusCode != http.StatusOK || len(rows) != 4 || res.Header.Get("X-Credits-Billed") != "3" ||
		res.Header.Get("X-Records-Withheld") != "1" || res.Header.Get("X-Credits-Remaining") != "0" {
		t.Fatalf("partial: %d %v %s", res.StatusCode, res.Header, b)
	}
	named := 0
	for _, r := range rows {
		if r["name"] != nil {
			named++
		}
	}
	if named != 3 || rows[3]["domain"] != "wachdienst.de" || rows[3]["name"] != nil {
		t.Errorf("withheld rows: %v", rows)
	}
	res, b = f.upload(t, "/v1/append?dataset=vendors", nil, "a.csv", file)
	if res.StatusCode != http.StatusPaymentRequired || !strings.Contains(string(b), "no credits left") {
		t.Errorf("no credits: %d %s", res.StatusCode, b)
	}
	// Rows without data cost nothing, so they still answer.
	res, _ = f.upload(t, "/v1/append?dataset=vendors", nil, "a.csv", []byte("domain\nnobody-here.com\n"))
	if res.StatusCode != http.StatusOK || res.Header.Get("X-Credits-Billed") != "0" {
		t.Errorf("free rows: %d %v", res.StatusCode, res.Header)
	}
}
