package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestRefreshUnderLoad is the scheduled refresh bar (issue 14), off by
// default: PROSPECT_REFRESH_BENCH=N builds a demo index of N companies,
// then refreshes it from a snapshot in which every tenth company is
// renamed while two clients keep asking for discovery. It reports the
// discovery latencies idle and during the refresh and fails on a failed
// request, a p99 during the refresh above 3x the idle one, or a changed
// profile not served when the run ends.
//
//	PROSPECT_REFRESH_BENCH=1000000 go test -run TestRefreshUnderLoad -v -timeout 3h ./cmd/prospectd/
func TestRefreshUnderLoad(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("PROSPECT_REFRESH_BENCH"))
	if n <= 0 {
		t.Skip("PROSPECT_REFRESH_BENCH=N (companies) runs the refresh-under-load benchmark")
	}
	idleFor := 30 * time.Second
	if v, err := time.ParseDuration(os.Getenv("PROSPECT_REFRESH_BENCH_IDLE")); err == nil {
		idleFor = v
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	t0 := time.Now()
	run(t, bin, "demo", "--companies", fmt.Sprint(n), "--seed", "1", "--data-dir", data)
	t.Logf("index of %d companies built in %v", n, time.Since(t0))
	corpus := filepath.Join(dir, "corpus.jsonl")
	run(t, bin, "demo", "--companies", fmt.Sprint(n), "--seed", "1", "--out", corpus)
	source := filepath.Join(dir, "snapshot.jsonl")
	changed := renameEveryTenth(t, corpus, source)
	os.Remove(corpus)
	key := strings.TrimSpace(run(t, bin, "keys", "create", "--org", "ops", "--admin", "--plan", "team", "--data-dir", data))
	plans := filepath.Join(dir, "plans.json")
	os.WriteFile(plans, []byte(`{"team": {"credits_per_period": 2000000000, "rate_multiplier": 1000}}`), 0o600)
	cfg := filepath.Join(dir, "refresh.json")
	os.WriteFile(cfg, fmt.Appendf(nil, `{"operator_orgs": ["ops"], "sources": [{"name": "registry", "kind": "file", "path": %q, "mode": "snapshot"}]}`, source), 0o600)

	addr := freeAddr(t)
	cmd := exec.Command(bin, "serve", "--addr", addr, "--data-dir", data, "--log-format", "json", "--refresh-config", cfg, "--plans", plans)
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() }()
	for deadline := time.Now().Add(5 * time.Minute); ; time.Sleep(200 * time.Millisecond) {
		if res, err := http.Get("http://" + addr + "/v1/health"); err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("server never became healthy")
		}
	}
	queries := discoverQueries(changed)
	load := func(stop <-chan struct{}) (lat []time.Duration, failed int64) {
		var mu sync.Mutex
		var fails atomic.Int64
		var wg sync.WaitGroup
		for c := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := c; ; i += 2 {
					select {
					case <-stop:
						return
					default:
					}
					req, _ := http.NewRequest(http.MethodGet, "http://"+addr+queries[i%len(queries)], nil)
					req.Header.Set("X-API-Key", key)
					s := time.Now()
					res, err := http.DefaultClient.Do(req)
					d := time.Since(s)
					if err != nil {
						fails.Add(1)
						continue
					}
					io.Copy(io.Discard, res.Body)
					res.Body.Close()
					if res.StatusCode != 200 {
						fails.Add(1)
						continue
					}
					mu.Lock()
					lat = append(lat, d)
					mu.Unlock()
				}
			}()
		}
		<-stop
		wg.Wait()
		return lat, fails.Load()
	}
	// Warm up, then measure idle.
	warm := make(chan struct{})
	time.AfterFunc(5*time.Second, func() { close(warm) })
	load(warm)
	stopIdle := make(chan struct{})
	time.AfterFunc(idleFor, func() { close(stopIdle) })
	idle, idleFails := load(stopIdle)

	stopBusy := make(chan struct{})
	type result struct {
		lat   []time.Duration
		fails int64
	}
	busyc := make(chan result, 1)
	go func() { l, f := load(stopBusy); busyc <- result{l, f} }()
	status, body := postJSON(t, addr, key, "/v1/admin/refreshes/registry/run")
	if status != http.StatusAccepted {
		t.Fatalf("run: %d %v", status, body)
	}
	start := time.Now()
	taskID := body["task_id"].(string)
	deadline := time.Now().Add(3 * time.Hour)
	var done map[string]any
	for {
		_, done = get(t, addr, key, "/v1/admin/refresh-runs/"+taskID)
		if done["status"] == "completed" || done["status"] == "failed" || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Second)
	}
	took := time.Since(start)
	close(stopBusy)
	busy := <-busyc
	if done["status"] != "completed" {
		t.Fatalf("refresh: %v", done)
	}
	// Changed profiles are served as soon as the run ends.
	missing := 0
	for _, d := range changed[:min(200, len(changed))] {
		_, p := get(t, addr, key, "/v1/bizdata?domain="+url.QueryEscape(d.domain))
		if name, _ := p["name"].(string); name != d.name {
			missing++
		}
	}
	p := func(l []time.Duration, q float64) time.Duration {
		if len(l) == 0 {
			return 0
		}
		slices.Sort(l)
		return l[min(len(l)-1, int(q*float64(len(l))))]
	}
	counts := done["counts"]
	t.Logf("companies %d, refresh %v, counts %v", n, took.Round(time.Second), counts)
	t.Logf("idle:    %d requests, %d failed, p50 %v, p99 %v", len(idle), idleFails, p(idle, 0.5), p(idle, 0.99))
	t.Logf("refresh: %d requests, %d failed, p50 %v, p99 %v (%.2fx idle p99)", len(busy.lat), busy.fails, p(busy.lat, 0.5), p(busy.lat, 0.99),
		float64(p(busy.lat, 0.99))/float64(max(p(idle, 0.99), 1)))
	if idleFails+busy.fails > 0 {
		t.Errorf("%d failed discovery requests", idleFails+busy.fails)
	}
	if p(busy.lat, 0.99) > 3*p(idle, 0.99) {
		t.Errorf("discovery p99 during the refresh %v > 3 x idle %v", p(busy.lat, 0.99), p(idle, 0.99))
	}
	if missing > 0 {
		t.Errorf("%d of 200 changed profiles not served after the run", missing)
	}
}

type renamed struct{ domain, name string }

// renameEveryTenth copies the corpus with every tenth company renamed and
// returns those companies.
func renameEveryTenth(t *testing.T, in, out string) []renamed {
	t.Helper()
	f, err := os.Open(in)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	o, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	w := bufio.NewWriterSize(o, 1<<20)
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	var changed []renamed
	for i := 0; sc.Scan(); i++ {
		line := sc.Bytes()
		if i%10 == 0 {
			var c map[string]any
			if err := json.Unmarshal(line, &c); err != nil {
				t.Fatal(err)
			}
			c["name"] = fmt.Sprintf("%v Refreshed", c["name"])
			changed = append(changed, renamed{c["domain"].(string), c["name"].(string)})
			line, _ = json.Marshal(c)
		}
		w.Write(line)
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return changed
}

// discoverQueries mixes lookalikes of corpus companies, keyword and
// filter discovery.
func discoverQueries(cs []renamed) []string {
	var q []string
	words := []string{"software", "dental", "logistics", "security", "bakery", "consulting", "solar", "insurance"}
	countries := []string{"US", "DE", "GB", "FR", "IN", "BR"}
	for i := range 300 {
		switch i % 3 {
		case 0:
			q = append(q, "/v1/discover?max_records=25&domain="+url.QueryEscape(cs[(i*7919)%len(cs)].domain))
		case 1:
			q = append(q, "/v1/discover?max_records=25&icp_text="+words[i%len(words)])
		default:
			q = append(q, "/v1/discover?max_records=25&country="+countries[i%len(countries)])
		}
	}
	return q
}
