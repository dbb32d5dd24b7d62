package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/index/embedded"
	"github.com/openprospect/prospectd/ingest"
	"github.com/openprospect/prospectd/internal/demo"
	"github.com/openprospect/prospectd/store"
	"github.com/openprospect/prospectd/store/sqlite"
)

func multipartBody(t testing.TB, fields map[string]string, fileName string, file []byte) (*bytes.Buffer, string) {
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for k, v := range fields {
		w.WriteField(k, v)
	}
	if fileName != "" {
		fw, _ := w.CreateFormFile("file", fileName)
		fw.Write(file)
	}
	w.Close()
	return &b, w.FormDataContentType()
}

func TestSegmentEndpoint(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := t.TempDir()
	eng, err := embedded.Open(filepath.Join(dir, "index"), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	g := demo.New(demo.Options{Companies: 400, Seed: 5})
	if _, err := (&ingest.Loader{Engine: eng}).Load(ctx, g.Source()); err != nil {
		t.Fatal(err)
	}
	st, _ := sqlite.Open(ctx, filepath.Join(dir, "state.db"))
	defer st.Close()
	srv := newServer(Deps{Engine: eng, Store: st, Log: zerolog.Nop()})
	if err := srv.StartJobs(ctx); err != nil {
		t.Fatal(err)
	}
	defer srv.StopJobs()
	f := fixture{srv: srv, st: st}
	f.key = f.keyFor(t, "acme", store.PlanTeam)

	send := func(fields map[string]string, name string, file []byte) (*http.Response, map[string]any) {
		return f.uploadJSON(t, f.key, "/v1/segment", fields, name, file)
	}
	var csv strings.Builder
	csv.WriteString("\ufeffCompany;Website\n")
	for i, d := range g.Domains(300) {
		fmt.Fprintf(&csv, "Co %d;https://www.%s/\n", i, d)
	}
	csv.WriteString("Unknown;never-indexed-company.com\n")
	res, out := send(nil, "list.csv", []byte(csv.String()))
	if res.StatusCode != http.StatusAccepted {
		t.Fatalf("submit: %d %v", res.StatusCode, out)
	}
	id := out["task_id"].(string)
	st1 := f.waitTask(t, "/v1/segment/status/"+id, 20*time.Second)
	if st1.Status != store.TaskCompleted {
		t.Fatalf("task %+v", st1)
	}
	var rows []SegmentedCompany
	if err := json.Unmarshal(st1.Results, &rows); err != nil {
		t.Fatal(err)
	}
	segs := map[int]bool{}
	for _, r := range rows {
		if r.Domain == "never-indexed-company.com" || r.Status.Status != "active" {
			t.Fatalf("row %s should be omitted", r.Domain)
		}
		segs[r.SegmentID] = true
		if (r.SegmentID == -1) != (r.SegmentDescription == "UNCLUSTERED") {
			t.Fatalf("row %+v", r)
		}
	}
	if len(rows) < 250 || len(segs) < 3 {
		t.Fatalf("%d rows in %d segments", len(rows), len(segs))
	}
	if res := f.getWith(t, f.keyFor(t, "other", store.PlanStarter), "/v1/segment/status/"+id, nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("another organization: %d", res.StatusCode)
	}

	for _, tc := range []struct {
		fields map[string]string
		name   string
		file   []byte
		status int
		detail string
	}{
		{nil, "", nil, 422, "upload exactly one CSV or Excel file"}, // a file is required unless query_id is given
		{map[string]string{"max_segments": "1"}, "a.csv", []byte("domain\na.com\n"), 422, "max_segments"},
		{map[string]string{"max_segments": "101"}, "a.csv", []byte("domain\na.com\n"), 422, "max_segments"},
		{nil, "a.csv", []byte("name,city\nAcme,Paris\n"), 422, "no column looks like domains"},
		{map[string]string{"domain_column": "web"}, "a.csv", []byte("domain\na.com\n"), 422, `no column "web"`},
		{nil, "a.csv", []byte("domain\nnot a domain\na.com\n"), 422, "not domains"},
		{nil, "a.xlsx", []byte("domain\na.com\n"), 422, "not an Excel workbook"},
		{nil, "a.csv", []byte("domain\n" + strings.Repeat("abcdefgh.com\n", 10_001)), 413, "more than 10000 rows"},
		{nil, "a.csv", append([]byte("domain\n"), bytes.Repeat([]byte("x"), 1<<20)...), 413, "limit is 1 MB"},
		{map[string]string{"query_id": "q1"}, "a.csv", []byte("domain\na.com\n"), 404, "saved query"},
	} {
		res, out := send(tc.fields, tc.name, tc.file)
		if res.StatusCode != tc.status || !strings.Contains(fmt.Sprint(out["detail"]), tc.detail) {
			t.Errorf("%s %v: %d %v", tc.name, tc.fields, res.StatusCode, out["detail"])
		}
	}
}
