package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/embedded"
)

// writeVersion writes version v of a snapshot built from the demo corpus
// lines: every company whose number i has i%7 == v%7 is left out (it must
// end closed) and every one with i%5 == v%5 is renamed (it must change).
// It returns the companies listed, by domain.
func writeVersion(t *testing.T, path string, base [][]byte, v int) map[string]listed {
	t.Helper()
	var buf bytes.Buffer
	want := map[string]listed{}
	for i, line := range base {
		if i%7 == v%7 {
			continue
		}
		var c map[string]any
		if err := json.Unmarshal(line, &c); err != nil {
			t.Fatal(err)
		}
		if i%5 == v%5 {
			c["name"] = fmt.Sprintf("%v v%d", c["name"], v)
		}
		b, _ := json.Marshal(c)
		buf.Write(b)
		buf.WriteByte('\n')
		st, _ := c["status"].(map[string]any)
		want[c["domain"].(string)] = listed{name: c["name"].(string), closed: st["status"] == "closed"}
	}
	if err := os.WriteFile(path+".tmp", buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".tmp", path); err != nil {
		t.Fatal(err)
	}
	return want
}

// listed is what the source says of a company.
type listed struct {
	name   string
	closed bool
}

func postJSON(t *testing.T, addr, key, path string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, "http://"+addr+path, nil)
	req.Header.Set("X-API-Key", key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var body map[string]any
	json.NewDecoder(res.Body).Decode(&body)
	return res.StatusCode, body
}

// waitRun polls a refresh run until it completes.
func waitRun(t *testing.T, addr, key, taskID string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for {
		status, body := get(t, addr, key, "/v1/admin/refresh-runs/"+taskID)
		if status != http.StatusOK {
			t.Fatalf("run %s: %d %v", taskID, status, body)
		}
		switch body["status"] {
		case "completed":
			return body
		case "failed":
			t.Fatalf("run %s failed: %v", taskID, body)
		}
		if time.Now().After(deadline) {
			t.Fatalf("run %s did not complete: %v", taskID, body)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// TestKilledRefresh kills serve with SIGKILL at random points of five
// refreshes of a snapshot file (each a new version of it). After each
// kill the server is restarted and the interrupted run must complete;
// at the end the index must hold every company once, the ones the last
// version lists open with its names and the others closed, none deleted.
func TestKilledRefresh(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test builds and runs the binary")
	}
	const n = 4000
	bin := buildBinary(t)
	dir := t.TempDir()
	corpus := filepath.Join(dir, "corpus.jsonl")
	run(t, bin, "demo", "--companies", fmt.Sprint(n), "--out", corpus)
	raw, err := os.ReadFile(corpus)
	if err != nil {
		t.Fatal(err)
	}
	var base [][]byte
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		base = append(base, append([]byte(nil), sc.Bytes()...))
	}
	if len(base) != n {
		t.Fatalf("demo wrote %d companies, want %d", len(base), n)
	}
	source := filepath.Join(dir, "registry.jsonl")
	cfg := filepath.Join(dir, "refresh.json")
	os.WriteFile(cfg, fmt.Appendf(nil, `{"operator_orgs": ["demo"], "sources": [{"name": "registry", "kind": "file", "path": %q, "mode": "snapshot"}]}`, source), 0o600)
	data := filepath.Join(dir, "data")
	addr := freeAddr(t)
	flags := []string{"--task-lease", "2s", "--refresh-config", cfg}
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))

	var want map[string]listed
	// Each restarted server must finish the interrupted run, then is the
	// server of the next version: six starts for five kills.
	key, _, stop, proc := startServeCmd(t, bin, data, addr, flags...)
	for v := 1; v <= 5; v++ {
		want = writeVersion(t, source, base, v)
		status, body := postJSON(t, addr, key, "/v1/admin/refreshes/registry/run")
		if status != http.StatusAccepted {
			t.Fatalf("run: %d %v", status, body)
		}
		taskID := body["task_id"].(string)
		delay := time.Duration(200+rng.IntN(2000)) * time.Millisecond
		time.Sleep(delay)
		_, progress := get(t, addr, key, "/v1/admin/refresh-runs/"+taskID)
		t.Logf("version %d: SIGKILL after %v (run %v, %v%%)", v, delay, progress["status"], progress["progress"])
		proc.Kill()
		proc.Wait()
		stop()

		key, _, stop, proc = startServeCmd(t, bin, data, addr, flags...)
		done := waitRun(t, addr, key, taskID)
		counts := done["counts"].(map[string]any)
		if counts["read"] != float64(len(want)) || counts["rejected"] != 0.0 {
			t.Fatalf("version %d: completed run read %v rows, rejected %v; the file has %d", v, counts["read"], counts["rejected"], len(want))
		}
	}
	stop()

	eng, err := embedded.Open(filepath.Join(data, "index"), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	ctx := context.Background()
	total, open := 0, 0
	err = eng.ScanCompanies(ctx, func(k index.CompanyKey) error {
		total++
		src, ok := want[k.Domain]
		switch {
		case ok && k.Closed != src.closed:
			return fmt.Errorf("%s: closed %v, the source says %v", k.Domain, k.Closed, src.closed)
		case ok && k.Name != src.name:
			return fmt.Errorf("%s is named %q, the source says %q", k.Domain, k.Name, src.name)
		case !ok && !k.Closed:
			return fmt.Errorf("%s is not in the source but open", k.Domain)
		}
		if ok {
			open++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if total != n || open != len(want) {
		t.Fatalf("index holds %d companies (%d of the source's), want %d (%d: the source's count)", total, open, n, len(want))
	}
	if c, _ := eng.CountCompanies(ctx, nil); c != n {
		t.Fatalf("CountCompanies = %d, want %d", c, n)
	}
	if !strings.HasSuffix(want[domainOf(t, base[10])].name, " v5") {
		t.Fatal("the last version's renames are not what the test expects")
	}
}

func domainOf(t *testing.T, line []byte) string {
	var c struct{ Domain string }
	if err := json.Unmarshal(line, &c); err != nil {
		t.Fatal(err)
	}
	return c.Domain
}
