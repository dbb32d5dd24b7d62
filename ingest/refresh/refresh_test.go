package refresh

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/embedded"
	"github.com/openprospect/prospectd/ingest"
	"github.com/openprospect/prospectd/record"
	"github.com/openprospect/prospectd/store"
	"github.com/openprospect/prospectd/store/sqlite"
)

// company returns a JSON line of a valid company.
func company(domain, name, employees string) string {
	b, _ := json.Marshal(map[string]any{
		"domain": domain, "name": name, "employees": employees, "score": 300,
		"description": "industrial pumps and valves for " + name,
		"address":     map[string]string{"country": "US", "state": "US-CA", "city": "San Jose"},
	})
	return string(b)
}

func lines(ls ...string) []byte { return []byte(strings.Join(ls, "\n") + "\n") }

type fixture struct {
	t   *testing.T
	eng *embedded.Engine
	st  *sqlite.Store
	svc *Service
	dir string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	dir := t.TempDir()
	eng, err := embedded.Open(filepath.Join(dir, "index"), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	st, err := sqlite.Open(context.Background(), filepath.Join(dir, "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f := &fixture{t: t, eng: eng, st: st, dir: dir}
	f.svc = &Service{Kinds: DefaultKinds(), State: st, Engine: eng, Env: Env{DataDir: dir, Index: eng}, Log: zerolog.Nop(),
		Wait: 20 * time.Millisecond}
	return f
}

func (f *fixture) configure(cfg string) {
	f.t.Helper()
	c, err := ParseConfig([]byte(cfg), f.svc.Kinds)
	if err != nil {
		f.t.Fatal(err)
	}
	f.svc.Config = c
}

// run submits and runs a refresh of name as the task runner would.
func (f *fixture) run(name string) (RunCounts, store.RefreshRun, error) {
	f.t.Helper()
	ctx := context.Background()
	rec, err := f.svc.Submit(ctx, name, TriggerManual)
	if err != nil {
		f.t.Fatal(err)
	}
	task := store.Task{ID: rec.TaskID, Kind: KindRefresh, Attempts: 1, CreatedAt: rec.CreatedAt}
	c, err := f.svc.Run(ctx, task, Input{Source: name, Trigger: TriggerManual}, func(int) {})
	got, gerr := f.st.RefreshRunByTask(ctx, rec.TaskID)
	if gerr != nil {
		f.t.Fatal(gerr)
	}
	return c, got, err
}

func (f *fixture) mustRun(name string) RunCounts {
	f.t.Helper()
	c, rec, err := f.run(name)
	if err != nil {
		f.t.Fatalf("refresh %s: %v", name, err)
	}
	if rec.Status != store.RefreshCompleted || rec.Progress != 100 || rec.FinishedAt == nil {
		f.t.Fatalf("run record after success = %+v", rec)
	}
	var stored RunCounts
	if err := json.Unmarshal(rec.Counts, &stored); err != nil || stored.Read != c.Read || stored.Changed != c.Changed || stored.Closed != c.Closed {
		f.t.Fatalf("stored counts %s, returned %+v", rec.Counts, c)
	}
	return c
}

func (f *fixture) company(domain string) record.Company {
	f.t.Helper()
	cs, err := f.eng.GetCompanies(context.Background(), []string{domain})
	if err != nil || len(cs) != 1 {
		f.t.Fatalf("GetCompanies(%s) = %v, %v", domain, cs, err)
	}
	return cs[0]
}

func write(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	// A rewrite within the file system's timestamp granularity must still
	// look changed.
	later := time.Now().Add(time.Duration(len(b)) * time.Millisecond)
	os.Chtimes(path, later, later)
}

func TestFileSnapshot(t *testing.T) {
	f := newFixture(t)
	path := filepath.Join(f.dir, "companies.jsonl")
	write(t, path, lines(company("alpha.com", "Alpha", "11-50"), company("beta.com", "Beta", "11-50"), company("gamma.com", "Gamma", "51-200"),
		company("delta.com", "Delta", "1-10"), company("epsilon.com", "Epsilon", "1-10"), `{"domain": "not a domain"}`))
	f.configure(fmt.Sprintf(`{"sources": [{"name": "registry", "kind": "file", "path": %q, "mode": "snapshot", "schedule": "@daily"}]}`, path))

	for _, tc := range []struct {
		name   string
		before func()
		want   RunCounts
	}{
		{"first load", nil, RunCounts{Read: 6, Changed: 5, Rejected: 1, Files: []string{"companies.jsonl"}}},
		{"same file", nil, RunCounts{NotModified: true}},
		{"rewritten unchanged", func() {
			b, _ := os.ReadFile(path)
			write(t, path, append(b, '\n'))
		}, RunCounts{Read: 6, Unchanged: 5, Rejected: 1, Files: []string{"companies.jsonl"}}},
		{"one changed, one gone, one new", func() {
			write(t, path, lines(company("alpha.com", "Alpha", "11-50"), company("beta.com", "Beta Renamed", "201-500"),
				company("gamma.com", "Gamma", "51-200"), company("delta.com", "Delta", "1-10"), company("zeta.com", "Zeta", "1-10")))
		}, RunCounts{Read: 5, Changed: 2, Unchanged: 3, Closed: 1, Files: []string{"companies.jsonl"}}},
		{"gone stays closed", func() {
			b, _ := os.ReadFile(path)
			write(t, path, append(b, ' ', '\n'))
		}, RunCounts{Read: 5, Unchanged: 5, Files: []string{"companies.jsonl"}}},
		{"back again reopens", func() {
			b, _ := os.ReadFile(path)
			write(t, path, append(b, lines(company("epsilon.com", "Epsilon", "1-10"))...))
		}, RunCounts{Read: 6, Changed: 1, Unchanged: 5, Files: []string{"companies.jsonl"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.before != nil {
				tc.before()
			}
			got := f.mustRun("registry")
			gj, _ := json.Marshal(got)
			wj, _ := json.Marshal(tc.want)
			if !bytes.Equal(gj, wj) {
				t.Fatalf("counts = %s, want %s", gj, wj)
			}
			switch tc.name {
			case "one changed, one gone, one new":
				if c := f.company("epsilon.com"); !c.Closed() || c.Status.Confidence != ClosedConfidence || c.Name != "Epsilon" {
					t.Fatalf("missing company = %+v, want kept and closed", c.Status)
				}
				if c := f.company("beta.com"); c.Name != "Beta Renamed" || c.Employees != "201-500" {
					t.Fatalf("changed company = %s %s", c.Name, c.Employees)
				}
				n, _ := f.eng.CountCompanies(context.Background(), nil)
				if n != 6 {
					t.Fatalf("index holds %d companies, want 6 (none deleted)", n)
				}
			case "back again reopens":
				if c := f.company("epsilon.com"); c.Closed() {
					t.Fatal("company listed again is still closed")
				}
			}
		})
	}
	runs, _ := f.st.RefreshRuns(context.Background(), "registry", 10)
	if len(runs) != 6 {
		t.Fatalf("%d runs in the history, want 6", len(runs))
	}
	var rejs []Reject
	if err := json.Unmarshal(runs[len(runs)-1].Rejects, &rejs); err != nil || len(rejs) != 1 || rejs[0].Row != 6 || rejs[0].File != "companies.jsonl" {
		t.Fatalf("first run's rejects = %s (%v)", runs[len(runs)-1].Rejects, err)
	}
}

func TestContactsFollowTheirEmployer(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	path := filepath.Join(f.dir, "companies.jsonl")
	write(t, path, lines(company("alpha.com", "Alpha", "11-50"), company("beta.com", "Beta", "11-50")))
	f.configure(fmt.Sprintf(`{"sources": [{"name": "registry", "kind": "file", "path": %q, "mode": "incremental"}]}`, path))
	f.mustRun("registry")
	contacts := filepath.Join(f.dir, "contacts.jsonl")
	write(t, contacts, lines(`{"persona_id": 7, "domain": "alpha.com", "name": "Ada Lovelace", "title": "CTO", "seniority": "executive", "department": "Technology"}`))
	src, err := ingest.OpenContacts(contacts)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if _, err := (&ingest.ContactLoader{Contacts: f.eng, Companies: f.eng}).Load(ctx, src); err != nil {
		t.Fatal(err)
	}
	write(t, path, lines(company("alpha.com", "Alpha Industries", "201-500"), company("beta.com", "Beta", "11-50")))
	if c := f.mustRun("registry"); c.Changed != 1 || c.Unchanged != 1 {
		t.Fatalf("counts = %+v", c)
	}
	got, err := f.eng.GetContacts(ctx, []int64{7})
	if err != nil || len(got) != 1 {
		t.Fatalf("GetContacts = %v, %v", got, err)
	}
	if got[0].CompanyName != "Alpha Industries" || got[0].Employees != "201-500" {
		t.Fatalf("contact's employer copy = %q %q, want the refreshed company's", got[0].CompanyName, got[0].Employees)
	}
	n, _ := f.eng.CountContacts(ctx, index.Terms{Field: index.EmployeesField, Values: []string{"201-500"}})
	if n != 1 {
		t.Fatalf("contacts filtered by the employer's new size = %d, want 1", n)
	}
}

func TestDirectory(t *testing.T) {
	for _, mode := range []string{Incremental, Snapshot} {
		t.Run(mode, func(t *testing.T) {
			f := newFixture(t)
			drops := filepath.Join(f.dir, "drops")
			os.Mkdir(drops, 0o700)
			write(t, filepath.Join(drops, "2026-11-01.jsonl"), lines(company("alpha.com", "Alpha", "11-50"), company("beta.com", "Beta", "11-50")))
			write(t, filepath.Join(drops, "2026-11-02.csv"), []byte("domain,name,employees\ngamma.com,Gamma,51-200\n"))
			write(t, filepath.Join(drops, ".2026-11-03.jsonl"), lines(company("hidden.com", "Hidden", "1-10")))
			write(t, filepath.Join(drops, "2026-11-03.jsonl.part"), lines(company("partial.com", "Partial", "1-10")))
			f.configure(fmt.Sprintf(`{"sources": [{"name": "drops", "kind": "directory", "path": %q, "mode": %q}]}`, drops, mode))
			if c := f.mustRun("drops"); c.Changed != 3 || strings.Join(c.Files, ",") != "2026-11-01.jsonl,2026-11-02.csv" {
				t.Fatalf("first run = %+v", c)
			}
			if c := f.mustRun("drops"); !c.NotModified {
				t.Fatalf("no new drop: %+v", c)
			}
			write(t, filepath.Join(drops, "2026-11-04.jsonl"), lines(company("delta.com", "Delta", "1-10"), company("beta.com", "Beta", "11-50")))
			os.Remove(filepath.Join(drops, "2026-11-02.csv"))
			c := f.mustRun("drops")
			switch mode {
			case Incremental: // only the new drop; nothing closed
				if c.Read != 2 || c.Changed != 1 || c.Unchanged != 1 || c.Closed != 0 || strings.Join(c.Files, ",") != "2026-11-04.jsonl" {
					t.Fatalf("incremental run = %+v", c)
				}
				if f.closed("gamma.com") {
					t.Fatal("incremental source closed a company")
				}
			case Snapshot: // every drop; gamma gone with its file
				if c.Read != 4 || c.Changed != 1 || c.Closed != 1 || strings.Join(c.Files, ",") != "2026-11-01.jsonl,2026-11-04.jsonl" {
					t.Fatalf("snapshot run = %+v", c)
				}
				if !f.closed("gamma.com") {
					t.Fatal("company missing from the snapshot not closed")
				}
			}
		})
	}
}

func TestMaxCloseFraction(t *testing.T) {
	f := newFixture(t)
	path := filepath.Join(f.dir, "companies.jsonl")
	write(t, path, lines(company("alpha.com", "Alpha", "11-50"), company("beta.com", "Beta", "11-50"), company("gamma.com", "Gamma", "11-50")))
	f.configure(fmt.Sprintf(`{"sources": [{"name": "registry", "kind": "file", "path": %q, "mode": "snapshot"}]}`, path))
	f.mustRun("registry")
	write(t, path, lines(company("alpha.com", "Alpha", "11-50")))
	_, rec, err := f.run("registry")
	if err == nil || !strings.Contains(err.Error(), "max_close_fraction") || rec.Status != store.RefreshFailed || rec.Error == "" {
		t.Fatalf("truncated snapshot: err %v, run %+v", err, rec)
	}
	if f.closed("beta.com") {
		t.Fatal("a refused run closed a company")
	}
	// Not completed: the next run reads the file again.
	if _, _, err := f.run("registry"); err == nil {
		t.Fatal("second run of the truncated snapshot passed")
	}
}

// server serves body with an ETag and Last-Modified (http.ServeContent
// answers conditional and Range requests); cut makes the next full
// download drop the connection half-way.
type server struct {
	body     atomic.Pointer[[]byte]
	etag     atomic.Value
	mod      atomic.Int64
	cut      atomic.Bool
	requests atomic.Int32
	ranged   atomic.Int32
	status   atomic.Int32
}

func (s *server) set(body []byte, etag string) {
	s.body.Store(&body)
	s.etag.Store(etag)
	s.mod.Add(3600)
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.requests.Add(1)
	if r.Header.Get("Range") != "" {
		s.ranged.Add(1)
	}
	body := *s.body.Load()
	if s.cut.Load() && r.Header.Get("Range") == "" {
		s.cut.Store(false)
		w.Header().Set("ETag", s.etag.Load().(string))
		w.Header().Set("Content-Length", fmt.Sprint(len(body)))
		w.WriteHeader(http.StatusOK)
		w.Write(body[:len(body)/2])
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler) // the connection drops mid-body
	}
	w.Header().Set("ETag", s.etag.Load().(string))
	http.ServeContent(w, r, "companies.jsonl", time.Unix(1_700_000_000+s.mod.Load(), 0), bytes.NewReader(body))
}

func TestURL(t *testing.T) {
	f := newFixture(t)
	srv := &server{}
	var big []string
	for i := range 300 {
		big = append(big, company(fmt.Sprintf("firm%03d.com", i), fmt.Sprintf("Firm %d", i), "11-50"))
	}
	srv.set(lines(big...), `"v1"`)
	hs := httptest.NewServer(srv)
	defer hs.Close()
	f.configure(fmt.Sprintf(`{"sources": [{"name": "feed", "kind": "url", "url": %q, "mode": "snapshot"}]}`, hs.URL+"/export/companies.jsonl"))

	// The first download is cut half-way and resumed with Range.
	srv.cut.Store(true)
	if c := f.mustRun("feed"); c.Changed != 300 {
		t.Fatalf("first run = %+v", c)
	}
	if srv.ranged.Load() != 1 {
		t.Fatalf("%d Range requests, want 1 (the resumption)", srv.ranged.Load())
	}
	if _, err := os.Stat(filepath.Join(f.dir, "refresh", "feed.jsonl")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("download kept after the run: %v", err)
	}
	// Unchanged: a conditional GET answered 304.
	n := srv.requests.Load()
	if c := f.mustRun("feed"); !c.NotModified || c.Read != 0 {
		t.Fatalf("unchanged resource = %+v", c)
	}
	if srv.requests.Load() != n+1 {
		t.Fatal("the unchanged resource took more than one request")
	}
	// Changed: one company renamed, one gone.
	big[7] = company("firm007.com", "Firm Seven", "11-50")
	srv.set(lines(big[:299]...), `"v2"`)
	if c := f.mustRun("feed"); c.Changed != 1 || c.Unchanged != 298 || c.Closed != 1 {
		t.Fatalf("changed resource = %+v", c)
	}
	if f.company("firm007.com").Name != "Firm Seven" || !f.closed("firm299.com") {
		t.Fatal("changes not in the index")
	}
	// A new version with the same bytes (no validators to tell): the
	// SHA-256 says unchanged.
	srv.set(lines(big[:299]...), `"v3"`)
	if c := f.mustRun("feed"); !c.NotModified {
		t.Fatalf("same bytes under a new ETag = %+v", c)
	}
	// A server error fails the run; the cursor stays.
	hs.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.Error(w, "down", http.StatusNotFound) })
	if _, rec, err := f.run("feed"); err == nil || !strings.Contains(rec.Error, "HTTP 404") {
		t.Fatalf("404: %v, %+v", err, rec)
	}
}

func TestResumeAcrossRuns(t *testing.T) {
	// A partial download left by a killed process is resumed by the next
	// run when the resource did not change, and restarted when it did.
	f := newFixture(t)
	srv := &server{}
	var rows []string
	for i := range 50 {
		rows = append(rows, company(fmt.Sprintf("firm%03d.com", i), fmt.Sprintf("Firm %d", i), "11-50"))
	}
	body := lines(rows...)
	srv.set(body, `"v1"`)
	hs := httptest.NewServer(srv)
	defer hs.Close()
	f.configure(fmt.Sprintf(`{"sources": [{"name": "feed", "kind": "url", "url": %q, "format": "jsonl", "mode": "snapshot"}]}`, hs.URL+"/export"))
	os.MkdirAll(filepath.Join(f.dir, "refresh"), 0o700)
	write(t, filepath.Join(f.dir, "refresh", "feed.part"), body[:100])
	meta, _ := json.Marshal(partMeta{URL: hs.URL + "/export", ETag: `"v1"`})
	write(t, filepath.Join(f.dir, "refresh", "feed.part.json"), meta)
	if c := f.mustRun("feed"); c.Changed != 50 || srv.ranged.Load() != 1 {
		t.Fatalf("resumed run = %+v, %d ranged", c, srv.ranged.Load())
	}
	// A stale partial of an older version: If-Range fails, 200 from zero.
	write(t, filepath.Join(f.dir, "refresh", "feed.part"), []byte("garbage that is not the file"))
	meta, _ = json.Marshal(partMeta{URL: hs.URL + "/export", ETag: `"v0"`})
	write(t, filepath.Join(f.dir, "refresh", "feed.part.json"), meta)
	rows[0] = company("firm000.com", "Firm Zero", "11-50")
	srv.set(lines(rows...), `"v2"`)
	if c := f.mustRun("feed"); c.Changed != 1 || c.Rejected != 0 {
		t.Fatalf("restarted run = %+v", c)
	}
}

// blockingKind is a source whose fetch waits for release, counting the
// fetches under way at once.
type blockingKind struct {
	release       chan struct{}
	running, peak atomic.Int32
	fetched       atomic.Int32
}

func (k *blockingKind) Check(SourceConfig) error { return nil }

func (k *blockingKind) Fetch(ctx context.Context, sc SourceConfig, _ Env, _ []byte) (*Fetch, error) {
	n := k.running.Add(1)
	defer k.running.Add(-1)
	for {
		p := k.peak.Load()
		if n <= p || k.peak.CompareAndSwap(p, n) {
			break
		}
	}
	k.fetched.Add(1)
	select {
	case <-k.release:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return &Fetch{Unchanged: true, Cursor: []byte(`{}`)}, nil
}

// TestOneRunAtATime runs two refreshes of one source from two services
// (two processes) on one store: the second waits for the first's lease.
func TestOneRunAtATime(t *testing.T) {
	f := newFixture(t)
	testOneRunAtATime(t, f.eng, f.st, f.st)
}

func testOneRunAtATime(t *testing.T, eng Engine, a, b State) {
	ctx := context.Background()
	kind := &blockingKind{release: make(chan struct{})}
	kinds := Kinds{"blocking": kind}
	cfg, err := ParseConfig([]byte(`{"sources": [{"name": "slow", "kind": "blocking", "mode": "incremental"}, {"name": "other", "kind": "blocking", "mode": "incremental"}]}`), kinds)
	if err != nil {
		t.Fatal(err)
	}
	svcs := []*Service{
		{Config: cfg, Kinds: kinds, State: a, Engine: eng, Log: zerolog.Nop(), Wait: 20 * time.Millisecond, LeaseTTL: time.Second},
		{Config: cfg, Kinds: kinds, State: b, Engine: eng, Log: zerolog.Nop(), Wait: 20 * time.Millisecond, LeaseTTL: time.Second},
	}
	errs := make(chan error, 3)
	var recs []store.RefreshRun
	for i, src := range []string{"slow", "slow", "other"} {
		svc := svcs[i%2]
		rec, err := svc.Submit(ctx, src, TriggerManual)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rec)
		go func() {
			_, err := svc.Run(ctx, store.Task{ID: rec.TaskID, Attempts: 1}, Input{Source: src}, func(int) {})
			errs <- err
		}()
	}
	// "slow" twice and "other" once: two fetches at once at most, and the
	// second "slow" run waiting for the lease.
	deadline := time.Now().Add(5 * time.Second)
	for kind.fetched.Load() < 2 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(1500 * time.Millisecond) // past the lease TTL: renewals keep it
	if got := kind.fetched.Load(); got != 2 {
		t.Fatalf("%d fetches under way, want 2 (one per source)", got)
	}
	waiting := 0
	for _, r := range recs[:2] {
		got, _ := a.RefreshRunByTask(ctx, r.TaskID)
		if got.Status == store.RefreshWaiting {
			waiting++
		}
	}
	if waiting != 1 {
		t.Fatalf("%d runs of the source waiting, want 1", waiting)
	}
	close(kind.release)
	for range 3 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if kind.fetched.Load() != 3 || kind.peak.Load() != 2 {
		t.Fatalf("fetched %d, peak %d concurrent; want 3 and 2", kind.fetched.Load(), kind.peak.Load())
	}
}

func TestParseConfig(t *testing.T) {
	for _, tc := range []struct{ name, cfg, want string }{
		{"unknown field", `{"sources": [{"name": "a", "kind": "file", "path": "x", "mode": "snapshot", "shedule": "@daily"}]}`, "unknown field"},
		{"bad name", `{"sources": [{"name": "A b", "kind": "file", "path": "x", "mode": "snapshot"}]}`, "sources[0].name"},
		{"duplicate", `{"sources": [{"name": "a", "kind": "file", "path": "x", "mode": "snapshot"}, {"name": "a", "kind": "file", "path": "y", "mode": "snapshot"}]}`, "used twice"},
		{"kind", `{"sources": [{"name": "a", "kind": "ftp", "path": "x", "mode": "snapshot"}]}`, `kind "ftp": want one of directory, file, url`},
		{"mode", `{"sources": [{"name": "a", "kind": "file", "path": "x"}]}`, `mode ""`},
		{"schedule", `{"sources": [{"name": "a", "kind": "file", "path": "x", "mode": "snapshot", "schedule": "every day"}]}`, "not a cron expression"},
		{"fraction", `{"sources": [{"name": "a", "kind": "file", "path": "x", "mode": "snapshot", "max_close_fraction": 2}]}`, "max_close_fraction"},
		{"file without path", `{"sources": [{"name": "a", "kind": "file", "mode": "snapshot"}]}`, "path: required"},
		{"url scheme", `{"sources": [{"name": "a", "kind": "url", "url": "ftp://x/y.jsonl", "mode": "snapshot"}]}`, "http or https"},
		{"url format", `{"sources": [{"name": "a", "kind": "url", "url": "https://x/export", "mode": "snapshot"}]}`, "set format"},
		{"ok", `{"operator_orgs": ["ops"], "sources": [{"name": "a", "kind": "url", "url": "https://x/export", "format": "csv", "mode": "snapshot", "schedule": "0 3 * * *"}]}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := ParseConfig([]byte(tc.cfg), DefaultKinds())
			if tc.want == "" {
				if err != nil || c.Sources[0].MaxCloseFraction != DefaultMaxCloseFraction {
					t.Fatalf("ParseConfig = %+v, %v", c, err)
				}
				return
			}
			if err == nil || !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func (f *fixture) closed(domain string) bool {
	c := f.company(domain)
	return c.Closed()
}

func testTask(id string) store.Task { return store.Task{ID: id, Kind: KindRefresh, Attempts: 1} }

// TestScheduleOneSubmitter runs the schedules of two services (two
// servers) on one store: each firing is submitted once, and no further
// run is submitted while the first is still queued.
func TestScheduleOneSubmitter(t *testing.T) {
	f := newFixture(t)
	f.configure(`{"sources": [{"name": "often", "kind": "file", "path": "/nonexistent.jsonl", "mode": "incremental", "schedule": "@every 1s"},
		{"name": "manual", "kind": "file", "path": "/nonexistent.jsonl", "mode": "incremental"}]}`)
	other := *f.svc
	ctx, cancel := context.WithTimeout(context.Background(), 3500*time.Millisecond)
	defer cancel()
	waitA, waitB := f.svc.Schedule(ctx), other.Schedule(ctx)
	waitA()
	waitB()
	runs, err := f.st.RefreshRuns(context.Background(), "", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 || runs[0].Source != "often" || runs[0].Trigger != TriggerSchedule || runs[0].Status != store.RefreshQueued {
		t.Fatalf("runs after three firings = %+v, want one queued scheduled run", runs)
	}
}
