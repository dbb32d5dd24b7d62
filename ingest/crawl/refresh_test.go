package crawl

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/ingest/refresh"
	"github.com/openprospect/prospectd/store"
	"github.com/openprospect/prospectd/store/sqlite"
)

// TestRefreshKind runs the crawl as a scheduled refresh source: the run
// reports the records it rewrote, keeps the crawl's statistics in its
// history, and a snapshot-mode crawl source is refused.
func TestRefreshKind(t *testing.T) {
	f := newFarm(t)
	f.site("one.com", page(200, "text/html", "<p>Industrial pumps and valves for water utilities across the region.</p>"))
	f.site("two.com", page(200, "text/html", "<p>Accounting software for small practices and their clients.</p>"))
	eng, _ := newIndex(t, company("one.com"), company("two.com"), company("three.com"))
	dir := t.TempDir()
	st, err := sqlite.Open(context.Background(), filepath.Join(dir, "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	kinds := refresh.DefaultKinds()
	kinds[KindName] = RefreshKind{Index: eng, Options: f.options()}

	if _, err := refresh.ParseConfig([]byte(`{"sources":[{"name":"sites","kind":"crawl","mode":"snapshot"}]}`), kinds); err == nil ||
		!strings.Contains(err.Error(), "incremental") {
		t.Fatalf("snapshot crawl source: err %v, want a refusal naming incremental", err)
	}
	list := filepath.Join(dir, "domains.txt")
	if err := os.WriteFile(list, []byte("# two sites\none.com\ntwo.com\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := refresh.ParseConfig([]byte(`{"sources":[{"name":"all","kind":"crawl","mode":"incremental"},
		{"name":"listed","kind":"crawl","mode":"incremental","path":`+quote(list)+`}]}`), kinds)
	if err != nil {
		t.Fatal(err)
	}
	svc := &refresh.Service{Config: cfg, Kinds: kinds, State: st, Engine: eng, Env: refresh.Env{DataDir: dir, Index: eng},
		Log: zerolog.Nop(), Wait: 20 * time.Millisecond}
	for _, tc := range []struct {
		source  string
		changed int
		hits    int // requests one.com has had after the run
	}{
		{"listed", 2, 1},
		{"all", 3, 2}, // three.com does not answer: its record is still rewritten with the failed crawl
	} {
		ctx := context.Background()
		rec, err := svc.Submit(ctx, tc.source, refresh.TriggerManual)
		if err != nil {
			t.Fatal(err)
		}
		counts, err := svc.Run(ctx, store.Task{ID: rec.TaskID, Kind: refresh.KindRefresh, Attempts: 1, CreatedAt: rec.CreatedAt},
			refresh.Input{Source: tc.source, Trigger: refresh.TriggerManual}, func(int) {})
		if err != nil {
			t.Fatalf("%s: %v", tc.source, err)
		}
		if counts.Changed != tc.changed || counts.NotModified || counts.Read != 0 {
			t.Errorf("%s: counts %+v, want %d changed", tc.source, counts, tc.changed)
		}
		if h := f.hitsOf("one.com"); h < tc.hits {
			t.Errorf("%s: one.com had %d requests, want at least %d", tc.source, h, tc.hits)
		}
		got, err := st.RefreshRunByTask(ctx, rec.TaskID)
		if err != nil || got.Status != store.RefreshCompleted {
			t.Fatalf("%s: run record %+v %v", tc.source, got, err)
		}
	}
	cs, err := eng.GetCompanies(context.Background(), []string{"two.com"})
	if err != nil || len(cs) != 1 || !strings.Contains(cs[0].SiteText, "Accounting software") || cs[0].Crawl == nil {
		t.Fatalf("two.com after the crawl source ran: %+v %v", cs, err)
	}
}

func quote(s string) string { return `"` + strings.ReplaceAll(s, `\`, `\\`) + `"` }
