package api

import (
	"bytes"
	"context"
	csvpkg "encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/xuri/excelize/v2"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/index/embedded"
	"github.com/openprospect/prospectd/ingest"
	"github.com/openprospect/prospectd/internal/demo"
	"github.com/openprospect/prospectd/store"
	"github.com/openprospect/prospectd/store/sqlite"
)

type bulkMatchFixture struct {
	fixture
	g *demo.Generator
}

func newBulkMatchFixture(t *testing.T) bulkMatchFixture { return newBulkMatchFixtureWith(t, nil) }

// newBulkMatchFixtureWith serves a 400-company demo corpus with plans
// (account.DefaultPlans when nil) to a Team organization.
func newBulkMatchFixtureWith(t *testing.T, plans account.Plans) bulkMatchFixture {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	dir := t.TempDir()
	eng, err := embedded.Open(filepath.Join(dir, "index"), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	g := demo.New(demo.Options{Companies: 400, Seed: 5})
	if _, err := (&ingest.Loader{Engine: eng}).Load(ctx, g.Source()); err != nil {
		t.Fatal(err)
	}
	st, err := sqlite.Open(ctx, filepath.Join(dir, "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	srv := newServer(Deps{Engine: eng, Store: st, Log: zerolog.Nop(), Plans: plans})
	if err := srv.StartJobs(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.StopJobs)
	f := fixture{srv: srv, st: st}
	f.key = f.keyFor(t, "acme", store.PlanTeam)
	return bulkMatchFixture{fixture: f, g: g}
}

func (f bulkMatchFixture) submit(t *testing.T, key string, fields map[string]string, name string, file []byte) (*http.Response, map[string]any) {
	t.Helper()
	return f.uploadJSON(t, key, "/v1/bulkmatch", fields, name, file)
}

// results submits and waits for the task's rows.
func (f bulkMatchFixture) results(t *testing.T, fields map[string]string, name string, file []byte) (string, []map[string]any) {
	t.Helper()
	res, out := f.submit(t, f.key, fields, name, file)
	if res.StatusCode != http.StatusAccepted {
		t.Fatalf("submit: %d %v", res.StatusCode, out)
	}
	id := out["task_id"].(string)
	st := f.waitTask(t, "/v1/bulkmatch/status/"+id, 30*time.Second)
	if st.Status != store.TaskCompleted {
		t.Fatalf("task %+v", st)
	}
	var rows []map[string]any
	if err := json.Unmarshal(st.Results, &rows); err != nil {
		t.Fatal(err)
	}
	return id, rows
}

func TestBulkMatchEndpoint(t *testing.T) {
	f := newBulkMatchFixture(t)
	var csv strings.Builder
	csv.WriteString("Company;Land;Town;Notes\n")
	const n = 60
	for i := 0; i < n; i++ {
		c := f.g.Company(i)
		name := strings.ToUpper(c.Name)
		if i%2 == 0 {
			name = c.Name + " Inc."
		}
		fmt.Fprintf(&csv, "%s;%s;%s;row %d\n", name, c.Address.Country, c.Address.City, i)
	}
	csv.WriteString(";US;Austin;empty name\n")
	csv.WriteString("Qwzxv Plorkt Hyrdrum;FR;Paris;nothing like it\n")
	fields := map[string]string{"name_column": "Company", "country_column": "Land", "city_column": "Town"}
	id, rows := f.results(t, fields, "list.csv", []byte(csv.String()))
	if len(rows) != n+2 {
		t.Fatalf("%d rows, want one per input row (%d)", len(rows), n+2)
	}
	right := 0
	for i, r := range rows[:n] {
		if r["input:Notes"] != fmt.Sprintf("row %d", i) || r["input:Land"] == nil || r["input:Company"] == nil {
			t.Fatalf("row %d lacks its input columns: %v", i, r)
		}
		if r["domain"] == f.g.Company(i).Domain {
			right++
			conf, ok := r["match_confidence"].(float64)
			if !ok || conf < 50 || conf > 100 || conf != float64(int(conf)) {
				t.Errorf("row %d: match_confidence %v", i, r["match_confidence"])
			}
			for _, k := range []string{"name", "status", "score", "address", "phones", "industry_groups", "employees"} {
				if _, ok := r[k]; !ok {
					t.Errorf("row %d lacks profile field %s", i, k)
				}
			}
		}
		if _, ok := r["match_error"]; ok {
			t.Errorf("row %d: match_error %v", i, r["match_error"])
		}
	}
	if right < n*9/10 {
		t.Errorf("%d of %d rows matched their company", right, n)
	}
	if r := rows[n]; r["match_error"] != "search_failed" || r["domain"] != nil || r["input:Notes"] != "empty name" {
		t.Errorf("empty name row: %v", r)
	}
	if r := rows[n+1]; r["domain"] != nil || r["match_confidence"] != nil || r["match_error"] != nil {
		t.Errorf("no-match row: %v", r)
	}
	if res := f.getWith(t, f.keyFor(t, "other", store.PlanStarter), "/v1/bulkmatch/status/"+id, nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("another organization's task: %d", res.StatusCode)
	}
	if res := f.getWith(t, f.key, "/v1/segment/status/"+id, nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("a bulk match task on the segment status path: %d", res.StatusCode)
	}

	// A threshold of 100 keeps only certain matches.
	fields["min_match_confidence"] = "100"
	_, strict := f.results(t, fields, "list.csv", []byte(csv.String()))
	for i, r := range strict {
		if c, ok := r["match_confidence"].(float64); ok && c < 100 {
			t.Errorf("row %d: confidence %v below min_match_confidence 100", i, c)
		}
	}
}

func TestBulkMatchXLSX(t *testing.T) {
	f := newBulkMatchFixture(t)
	x := excelize.NewFile()
	rows := [][]any{{"Firm", "Phone"}}
	for i := 0; i < 5; i++ {
		c := f.g.Company(i)
		phone := ""
		if len(c.Phones) > 0 {
			phone = c.Phones[0]
		}
		rows = append(rows, []any{c.Name, phone})
	}
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		x.SetSheetRow("Sheet1", cell, &r)
	}
	var b bytes.Buffer
	if err := x.Write(&b); err != nil {
		t.Fatal(err)
	}
	_, got := f.results(t, map[string]string{"name_column": "firm", "phone_column": "Phone"}, "list.xlsx", b.Bytes())
	if len(got) != 5 {
		t.Fatalf("%d rows", len(got))
	}
	for i, r := range got {
		if r["domain"] != f.g.Company(i).Domain || r["input:Firm"] != f.g.Company(i).Name {
			t.Errorf("row %d: %v", i, r)
		}
	}
}

func TestBulkMatchValidation(t *testing.T) {
	f := newBulkMatchFixture(t)
	file := []byte("name,country\nAcme,US\n")
	for _, tc := range []struct {
		fields map[string]string
		name   string
		file   []byte
		status int
		detail string
	}{
		{map[string]string{}, "a.csv", file, 422, "name_column: required"},
		{map[string]string{"name_column": "name"}, "", nil, 422, "file: File required"}, // declared by BulkMatchForm, checked by Huma
		{map[string]string{"name_column": "company"}, "a.csv", file, 422, `name_column: no column "company"`},
		{map[string]string{"name_column": "name", "country_column": "land"}, "a.csv", file, 422, `country_column: no column "land"`},
		{map[string]string{"name_column": "name", "zip_code_column": "zip"}, "a.csv", file, 422, `zip_code_column`},
		{map[string]string{"name_column": "name", "min_match_confidence": "49"}, "a.csv", file, 422, "min_match_confidence"},
		{map[string]string{"name_column": "name", "min_match_confidence": "101"}, "a.csv", file, 422, "min_match_confidence"},
		{map[string]string{"name_column": "name", "min_match_confidence": "high"}, "a.csv", file, 422, "min_match_confidence"},
		{map[string]string{"name_column": "name"}, "a.csv", []byte("name\n"), 422, "no rows"},
		{map[string]string{"name_column": "name"}, "a.xlsx", file, 422, "not an Excel workbook"},
		{map[string]string{"name_column": "name"}, "a.csv", []byte("name\n" + strings.Repeat("Acme\n", 10_001)), 413, "more than 10000 rows"},
		{map[string]string{"name_column": "name"}, "a.csv", append([]byte("name\n"), bytes.Repeat([]byte("x"), 1<<20)...), 413, "limit is 1 MB"},
	} {
		res, out := f.submit(t, f.key, tc.fields, tc.name, tc.file)
		if res.StatusCode != tc.status || !strings.Contains(fmt.Sprint(out["detail"]), tc.detail) {
			t.Errorf("%s %v: %d %v", tc.name, tc.fields, res.StatusCode, out["detail"])
		}
	}
	// Parameters may be query parameters too.
	if res, b := f.upload(t, "/v1/bulkmatch?name_column=name&min_match_confidence=90", nil, "a.csv", file); res.StatusCode != http.StatusAccepted {
		t.Errorf("query parameters: %d %s", res.StatusCode, b)
	}
	if res, b := f.upload(t, "/v1/bulkmatch?name_column=name&min_match_confidence=10", nil, "a.csv", file); res.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("query parameter out of range: %d %s", res.StatusCode, b)
	}
	for _, inclusive := range []string{"50", "100"} {
		if res, out := f.submit(t, f.key, map[string]string{"name_column": "name", "min_match_confidence": inclusive}, "a.csv", file); res.StatusCode != http.StatusAccepted {
			t.Errorf("min_match_confidence %s: %d %v", inclusive, res.StatusCode, out)
		}
	}
	if res, _ := f.submit(t, f.keyFor(t, "free", store.PlanNone), map[string]string{"name_column": "name"}, "a.csv", file); res.StatusCode != http.StatusForbidden && res.StatusCode != http.StatusPaymentRequired {
		t.Errorf("free plan: %d", res.StatusCode)
	}
}

// TestBulkMatchCredits: matched rows the credits do not cover carry
// match_error no_credits and no profile; with no credits the task fails.
func TestBulkMatchCredits(t *testing.T) {
	plans := account.DefaultPlans()
	plans[store.PlanTeam] = account.PlanConfig{PricePer1K: 20, Credits: 3, RateMultiplier: 1}
	f := newBulkMatchFixtureWith(t, plans)
	var file bytes.Buffer
	w := csvpkg.NewWriter(&file)
	w.Write([]string{"Company"})
	for i := range 6 {
		w.Write([]string{f.g.Company(i).Name})
	}
	w.Flush()
	fields := map[string]string{"name_column": "Company", "min_match_confidence": "50"}
	_, rows := f.results(t, fields, "a.csv", file.Bytes())
	matched, refused := 0, 0
	for i, r := range rows {
		switch r["match_error"] {
		case nil:
			if r["domain"] != nil {
				matched++
			}
		case "no_credits":
			refused++
			if r["domain"] != nil || r["name"] != nil || r["input:Company"] != f.g.Company(i).Name {
				t.Errorf("uncovered row %d: %v", i, r)
			}
		default:
			t.Errorf("row %d: %v", i, r["match_error"])
		}
	}
	if matched != 3 || refused == 0 {
		t.Errorf("%d rows matched and %d refused with 3 credits: %v", matched, refused, rows)
	}
	// The credits are spent: a new match fails with the reason.
	res, out := f.submit(t, f.key, fields, "a.csv", []byte("Company\n\""+f.g.Company(10).Name+"\"\n"))
	if res.StatusCode != http.StatusAccepted {
		t.Fatalf("submit: %d %v", res.StatusCode, out)
	}
	st := f.waitTask(t, "/v1/bulkmatch/status/"+out["task_id"].(string), 30*time.Second)
	if st.Status != store.TaskFailed || !strings.Contains(st.Error, "no credits left") {
		t.Errorf("no credits: %+v", st)
	}
}
