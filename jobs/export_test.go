package jobs

import (
	"bufio"
	"context"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/export"
	"github.com/openprospect/prospectd/index/embedded"
	"github.com/openprospect/prospectd/ingest"
	"github.com/openprospect/prospectd/internal/demo"
	"github.com/openprospect/prospectd/query"
	"github.com/openprospect/prospectd/store"
)

// TestExportResumesAfterRestart stops the runner (and closes the state
// store) in the middle of an export, starts a new runner on the same
// database and data directory, and expects the export to complete from
// its checkpoint: every company once, in rank order, each billed once.
func TestExportResumesAfterRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("loads an 8,000-company corpus")
	}
	ctx := context.Background()
	dir := t.TempDir()
	eng, err := embedded.Open(filepath.Join(dir, "index"), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	g := demo.New(demo.Options{Companies: 8000, Seed: 2})
	if _, err := (&ingest.Loader{Engine: eng}).Load(ctx, g.Source()); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "state.db")
	st1 := openStore(t, path)
	org, _ := st1.CreateOrg(ctx, "Acme", store.PlanTeam)
	files := &export.Files{Dir: filepath.Join(dir, "exports")}
	const lease = 500 * time.Millisecond
	newExportRunner := func(st State) *Runner {
		r := New(Config{State: st, Engine: eng, Exports: files, ExportPageSize: 50, ExportCheckpointEvery: -1, Workers: 1, Lease: lease, Log: zerolog.Nop()})
		r.PollInterval, r.ProgressEvery, r.StopTimeout = 20*time.Millisecond, 20*time.Millisecond, 3*time.Second
		return r
	}
	params := url.Values{"min_digital_footprint": {"0"}, "exclude_leadgen": {"false"}, "redirect": {"true"}, "format": {"jsonl"}}
	req, err := export.Parse(export.SourceDiscover, params)
	if err != nil {
		t.Fatal(err)
	}
	r1 := newExportRunner(st1)
	if err := r1.Start(ctx); err != nil {
		t.Fatal(err)
	}
	task, err := r1.Submit(ctx, org.ID, export.Kind, req.Input)
	if err != nil {
		t.Fatal(err)
	}
	var cp export.Checkpoint
	for deadline := time.Now().Add(60 * time.Second); cp.Records < 500; time.Sleep(2 * time.Millisecond) {
		if b, err := os.ReadFile(filepath.Join(files.Dir, task.ID+".checkpoint")); err == nil {
			json.Unmarshal(b, &cp)
		}
		if time.Now().After(deadline) {
			t.Fatal("the export never got going")
		}
	}
	if !r1.Stop() {
		t.Fatal("the first runner did not stop")
	}
	st1.Close()
	if cp.Scanned {
		t.Fatal("the export finished before the stop")
	}

	st2 := openStore(t, path)
	r2 := newExportRunner(st2)
	start(t, r2)
	deadline := time.Now().Add(120 * time.Second)
	var got store.Task
	for {
		got, err = st2.GetTask(ctx, org.ID, task.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Finished() || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if got.Status != store.TaskCompleted || got.Attempts != 2 {
		t.Fatalf("after the restart: %+v", got)
	}
	var res export.Result
	if err := json.Unmarshal(got.Result, &res); err != nil {
		t.Fatal(err)
	}

	d, _ := query.ParseDiscover(url.Values{"min_digital_footprint": {"0"}, "exclude_leadgen": {"false"}, "redirect": {"true"}, "max_records": {"8000"}})
	want, err := (&query.Companies{Engine: eng}).Discover(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(files.Dir, task.ID+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	i := 0
	for ; sc.Scan(); i++ {
		var row struct{ Domain string }
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			t.Fatal(err)
		}
		if i >= len(want.Matches) || row.Domain != want.Matches[i].Company.Domain {
			t.Fatalf("row %d is %s", i, row.Domain)
		}
	}
	if i != len(want.Matches) || res.Records != i || res.CreditsBilled != i {
		t.Fatalf("%d rows, result %+v, want %d", i, res, len(want.Matches))
	}
	u, err := (&account.Biller{Store: st2, Plans: account.DefaultPlans()}).Usage(ctx, org)
	if err != nil || u.CreditsUsed != i {
		t.Fatalf("credits used %d over both runs, want %d: %v", u.CreditsUsed, i, err)
	}
}
