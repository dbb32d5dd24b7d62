package api

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/export"
	"github.com/openprospect/prospectd/index/embedded"
	"github.com/openprospect/prospectd/ingest"
	"github.com/openprospect/prospectd/internal/demo"
	"github.com/openprospect/prospectd/store"
	"github.com/openprospect/prospectd/store/sqlite"
)

// exportFixture serves a 600-company demo corpus with its contacts and
// keeps export files in a temporary directory.
func exportFixture(t *testing.T) (fixture, *export.Files) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	dir := t.TempDir()
	eng, err := embedded.Open(filepath.Join(dir, "index"), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	g := demo.New(demo.Options{Companies: 600, Seed: 9})
	if _, err := (&ingest.Loader{Engine: eng}).Load(ctx, g.Source()); err != nil {
		t.Fatal(err)
	}
	if _, err := (&ingest.ContactLoader{Contacts: eng, Companies: eng}).Load(ctx, g.ContactSource()); err != nil {
		t.Fatal(err)
	}
	st, err := sqlite.Open(ctx, filepath.Join(dir, "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	files := &export.Files{Dir: filepath.Join(dir, "data", "exports")}
	srv := newServer(Deps{Engine: eng, Store: st, Log: zerolog.Nop(), Exports: files})
	if err := srv.StartJobs(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.StopJobs() })
	f := fixture{srv: srv, st: st}
	f.key = f.keyFor(t, "acme", store.PlanTeam)
	return f, files
}

func (f fixture) download(t *testing.T, key, target string) (*http.Response, []byte) {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, target, nil)
	req.Header.Set("X-API-Key", key)
	res, err := f.srv.App().Test(req, -1)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	return res, b
}

func TestExportEndpoints(t *testing.T) {
	f, files := exportFixture(t)
	other := f.keyFor(t, "other", store.PlanTeam)
	const q = "min_digital_footprint=0&exclude_leadgen=false&redirect=true"

	// The discovery pages of the same query, as the reference.
	var pages []json.RawMessage
	if res := f.getJSON(t, "/v1/discover?"+q+"&max_records=1000", &pages); res.StatusCode != 200 {
		t.Fatalf("discover: %d", res.StatusCode)
	}
	if len(pages) < 500 {
		t.Fatalf("only %d companies", len(pages))
	}

	res, body := f.call(t, f.key, http.MethodPost, "/v1/exports/discover?"+q+"&format=csv", "")
	want(t, res, body, http.StatusAccepted, "")
	id := body["task_id"].(string)
	st := f.waitTask(t, "/v1/exports/"+id, 60*time.Second)
	if st.Status != store.TaskCompleted {
		t.Fatalf("task %+v", st)
	}
	var result export.Result
	if err := json.Unmarshal(st.Results, &result); err != nil {
		t.Fatal(err)
	}
	if result.Records != len(pages) || result.File != "/v1/exports/"+id+"/file" || result.CreditsBilled != 0 {
		// The pages bought every company a moment ago: the export is free.
		t.Fatalf("result %+v, want %d free records", result, len(pages))
	}
	dres, file := f.download(t, f.key, result.File)
	if dres.StatusCode != 200 || !strings.HasPrefix(dres.Header.Get("Content-Type"), "text/csv") ||
		!strings.Contains(dres.Header.Get("Content-Disposition"), id+".csv") || int64(len(file)) != result.Bytes {
		t.Fatalf("download: %d %v %d bytes", dres.StatusCode, dres.Header, len(file))
	}
	rows, err := csv.NewReader(strings.NewReader(string(file))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	cols := rows[0]
	if len(rows)-1 != len(pages) {
		t.Fatalf("%d rows, want %d", len(rows)-1, len(pages))
	}
	for i, p := range pages {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(p, &m); err != nil {
			t.Fatal(err)
		}
		for j, c := range cols {
			if got, w := rows[i+1][j], export.CellText(m[c]); got != w {
				t.Fatalf("row %d %s: %q, want %q", i, c, got, w)
			}
		}
	}
	// Files are private to the service.
	for _, p := range []string{files.Dir, filepath.Join(files.Dir, id+".csv")} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s: mode %v", p, fi.Mode().Perm())
		}
	}

	// Another organization sees neither the task nor the file.
	if res := f.getWith(t, other, "/v1/exports/"+id, nil); res.StatusCode != 404 {
		t.Errorf("other org status: %d", res.StatusCode)
	}
	if res, _ := f.download(t, other, result.File); res.StatusCode != 404 {
		t.Errorf("other org file: %d", res.StatusCode)
	}
	// An id of another kind of task is not an export.
	if res, _ := f.download(t, f.key, "/v1/exports/no-such-task/file"); res.StatusCode != 404 {
		t.Errorf("unknown export: %d", res.StatusCode)
	}

	// A contact export of JSON lines.
	res, body = f.call(t, f.key, http.MethodPost, "/v1/exports/contacts?format=jsonl&max_records=700&seniority=Director,Manager", "")
	want(t, res, body, http.StatusAccepted, "")
	cid := body["task_id"].(string)
	st = f.waitTask(t, "/v1/exports/"+cid, 60*time.Second)
	if st.Status != store.TaskCompleted {
		t.Fatalf("contact task %+v", st)
	}
	var cres export.Result
	json.Unmarshal(st.Results, &cres)
	dres, file = f.download(t, f.key, cres.File)
	lines := strings.Split(strings.TrimSpace(string(file)), "\n")
	if dres.StatusCode != 200 || dres.Header.Get("Content-Type") != "application/x-ndjson" || len(lines) != cres.Records || cres.Records == 0 || cres.CreditsBilled == 0 {
		t.Fatalf("contact export %d: %+v, %d lines", dres.StatusCode, cres, len(lines))
	}
	for _, l := range lines {
		var c ContactOut
		if err := json.Unmarshal([]byte(l), &c); err != nil || c.PersonaID == 0 || c.Seniority == nil || (*c.Seniority != "director" && *c.Seniority != "manager") {
			t.Fatalf("contact line %s: %v", l, err)
		}
	}
	u := f.usage(t)
	if u["records_billed"] == nil {
		t.Fatalf("usage %v", u)
	}

	// Saved-query ids: the owner's work, another organization's are 404.
	res, body = f.call(t, f.key, http.MethodPost, "/v1/queries/exclusion-list", `{"query_name":"customers","domains":`+domainsJSON(25)+`}`)
	want(t, res, body, 200, "")
	qid := body["query_id"].(string)
	for _, path := range []string{"/v1/exports/discover?exclusion_query_id=", "/v1/exports/contacts?inclusion_query_id="} {
		res, body = f.call(t, other, http.MethodPost, path+qid, "")
		want(t, res, body, 404, qid)
		res, body = f.call(t, f.key, http.MethodPost, path+qid+"&max_records=10", "")
		want(t, res, body, http.StatusAccepted, "")
		if st := f.waitTask(t, "/v1/exports/"+body["task_id"].(string), 60*time.Second); st.Status != store.TaskCompleted {
			t.Fatalf("%s: %+v", path, st)
		}
	}
}

func (f fixture) usage(t *testing.T) map[string]any {
	t.Helper()
	var u map[string]any
	f.getJSON(t, "/v1/usage", &u)
	return u
}

func TestExportBadRequests(t *testing.T) {
	f, _ := exportFixture(t)
	none := f.keyFor(t, "free", store.PlanNone)
	for _, tc := range []struct {
		key, target string
		status      int
		detail      string
	}{
		{f.key, "/v1/exports/discover?format=pdf", 422, "query.format"},
		{f.key, "/v1/exports/discover?max_records=0", 422, "query.max_records"},
		{f.key, "/v1/exports/discover?max_records=1000001", 422, "query.max_records"},
		{f.key, "/v1/exports/discover?offset=100", 422, "query.offset"},
		{f.key, "/v1/exports/discover?country=Atlantis", 422, "query.country"},
		{f.key, "/v1/exports/discover?shoe_size=9", 422, "query.shoe_size"},
		{f.key, "/v1/exports/contacts?results_by_company=3", 422, "query.results_by_company"},
		{f.key, "/v1/exports/contacts?department=sales", 422, "query.department"},
		{f.key, "/v1/exports/discover?inclusion_query_id=nope", 404, "nope"},
		{none, "/v1/exports/discover", 403, "paid plan"},
		{"", "/v1/exports/discover", 401, ""},
	} {
		res, body := f.call(t, tc.key, http.MethodPost, tc.target, "")
		want(t, res, body, tc.status, tc.detail)
	}
	// A file asked for before the export completed is a 409; once its
	// file is gone, a 410.
	res, body := f.call(t, f.key, http.MethodPost, "/v1/exports/discover?min_digital_footprint=0", "")
	want(t, res, body, http.StatusAccepted, "")
	id := body["task_id"].(string)
	if st := f.waitTask(t, "/v1/exports/"+id, 60*time.Second); st.Status != store.TaskCompleted {
		t.Fatalf("%+v", st)
	}
	os.Remove(filepath.Join(f.srv.deps.Exports.Dir, id+".csv"))
	if res, b := f.download(t, f.key, fmt.Sprintf("/v1/exports/%s/file", id)); res.StatusCode != http.StatusGone {
		t.Fatalf("removed file: %d %s", res.StatusCode, b)
	}
}
