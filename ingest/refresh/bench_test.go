package refresh

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/index/embedded"
	"github.com/openprospect/prospectd/ingest"
	"github.com/openprospect/prospectd/internal/cputime"
	"github.com/openprospect/prospectd/internal/demo"
	"github.com/openprospect/prospectd/store/sqlite"
)

// BenchmarkRefreshChanges refreshes an index of n demo companies from a
// snapshot where every tenth company is renamed (no server: the write
// path alone). Run with -benchtime 1x.
func BenchmarkRefreshChanges(b *testing.B) {
	const n = 20000
	ctx := context.Background()
	dir := b.TempDir()
	eng, err := embedded.Open(filepath.Join(dir, "index"), embedded.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer eng.Close()
	g := demo.New(demo.Options{Companies: n, Seed: 1})
	if _, err := (&ingest.Loader{Engine: eng}).Load(ctx, g.Source()); err != nil {
		b.Fatal(err)
	}
	st, err := sqlite.Open(ctx, filepath.Join(dir, "state.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	path := filepath.Join(dir, "snapshot.jsonl")
	f, _ := os.Create(path)
	w := bufio.NewWriter(f)
	for i := range n {
		c := g.Company(i)
		if i%10 == 0 {
			c.Name += " Renamed"
		}
		js, _ := json.Marshal(c)
		w.Write(js)
		w.WriteByte('\n')
	}
	w.Flush()
	f.Close()
	cfg, _ := ParseConfig(fmt.Appendf(nil, `{"sources": [{"name": "s", "kind": "file", "path": %q, "mode": "snapshot"}]}`, path), DefaultKinds())
	svc := &Service{Config: cfg, Kinds: DefaultKinds(), State: st, Engine: eng, Env: Env{DataDir: dir}, Log: zerolog.Nop(), Workers: 1}
	b.ResetTimer()
	for range b.N {
		r, _ := svc.Submit(ctx, "s", TriggerManual)
		t0, cpu0 := time.Now(), cputime.Process()
		c, err := svc.Run(ctx, testTask(r.TaskID), Input{Source: "s"}, func(int) {})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(c.Read)/time.Since(t0).Seconds(), "rows/s")
		// CPU seconds spent by the process during the run: unlike the
		// wall time, close to the same on a loaded machine.
		b.ReportMetric((cputime.Process() - cpu0).Seconds(), "cpu-s")
		b.Logf("%+v in %v", c, time.Since(t0))
	}
}
