package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// buildBinary compiles prospectd once per test binary run.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "prospectd")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

func run(t *testing.T, bin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "PROSPECT_LOG_FORMAT=json")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("prospectd %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestEndToEnd runs the README's path on a real process: serve --demo on an
// empty data dir prints a key that works against /v1/bizdata; a restart
// reuses the corpus and the key; ingest refuses while the server holds the
// index and loads a JSONL file once it is stopped; keys create prints a
// working key.
func TestEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test builds and runs the binary")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	addr := freeAddr(t)

	key, domain, stop := startServe(t, bin, dir, addr)
	status, body := get(t, addr, key, "/v1/bizdata?domain=www."+domain)
	if status != 200 || body["domain"] != domain {
		t.Fatalf("bizdata with the printed key: %d %v", status, body)
	}

	// A second writer on the same embedded index is refused clearly.
	src := filepath.Join(dir, "mine.jsonl")
	os.WriteFile(src, []byte(`{"domain":"https://www.my-own-co.com/x","name":"My Own Co","address":{"country":"Germany"},"employees":"51-200"}`+"\n"+
		`{"domain":"not a domain","name":"Bad"}`+"\n"), 0o644)
	cmd := exec.Command(bin, "ingest", "companies", src, "--data-dir", dir)
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "in use by another process") {
		t.Fatalf("ingest while serving: err=%v\n%s", err, out)
	}
	stop()

	out2 := run(t, bin, "ingest", "companies", src, "--data-dir", dir)
	if !strings.Contains(out2, "indexed 1, rejected 1") {
		t.Fatalf("ingest summary: %s", out2)
	}
	rej, _ := os.ReadFile(src + ".rejects.csv")
	if !strings.Contains(string(rej), "not a domain") {
		t.Fatalf("rejects file lacks the bad row: %q", rej)
	}

	newKey := strings.TrimSpace(run(t, bin, "keys", "create", "--org", "acme", "--plan", "team", "--data-dir", dir))
	key2, _, stop2 := startServe(t, bin, dir, addr)
	defer stop2()
	if key2 != key {
		t.Fatalf("demo key changed across restarts: %s then %s", key, key2)
	}
	status, body = get(t, addr, newKey, "/v1/bizdata?domain=my-own-co.com")
	if status != 200 || body["name"] != "My Own Co" {
		t.Fatalf("ingested company via a new key: %d %v", status, body)
	}
	if addrMap, _ := body["address"].(map[string]any); addrMap["country"] != "DE" {
		t.Fatalf("country name not normalized to alpha-2: %v", body["address"])
	}
}

var keyLine = regexp.MustCompile(`Demo API key: (\S+)`)
var tryLine = regexp.MustCompile(`bizdata\?domain=([^"\s]+)`)

func startServe(t *testing.T, bin, dir, addr string, extra ...string) (key, domain string, stop func()) {
	t.Helper()
	key, domain, stop, _ = startServeCmd(t, bin, dir, addr, extra...)
	return key, domain, stop
}

// startServeCmd starts serve and also returns its process, for tests that
// kill it.
func startServeCmd(t *testing.T, bin, dir, addr string, extra ...string) (key, domain string, stop func(), proc *os.Process) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	args := append([]string{"serve", "--demo", "300", "--addr", addr, "--data-dir", dir, "--log-format", "json"}, extra...)
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stopped := false
	stop = func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			t.Fatal("serve did not stop on SIGINT")
		}
	}
	t.Cleanup(stop)
	sc := bufio.NewScanner(stdout)
	deadline := time.Now().Add(90 * time.Second)
	for sc.Scan() && time.Now().Before(deadline) {
		line := sc.Text()
		if m := keyLine.FindStringSubmatch(line); m != nil {
			key = m[1]
		}
		if m := tryLine.FindStringSubmatch(line); m != nil {
			domain = m[1]
			break
		}
	}
	go io.Copy(io.Discard, stdout)
	if key == "" || domain == "" {
		t.Fatalf("serve did not print a key and an example domain")
	}
	for time.Now().Before(deadline) {
		if res, err := http.Get("http://" + addr + "/v1/health"); err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return key, domain, stop, cmd.Process
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatal("server never became healthy")
	return
}

// TestKilledServerFinishesTask submits a contact bulk match, kills the
// server with SIGKILL straight away, restarts it, and expects the task to
// complete with every query's result: none lost, completed once.
func TestKilledServerFinishesTask(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test builds and runs the binary")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	addr := freeAddr(t)
	key, _, _, proc := startServeCmd(t, bin, dir, addr, "--task-lease", "2s")
	var queries []string
	for i := 0; i < 500; i++ {
		queries = append(queries, fmt.Sprintf(`{"name": "Person %d Smith"}`, i))
	}
	req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/v1/contacts/bulk-match",
		strings.NewReader(`{"queries": [`+strings.Join(queries, ",")+`], "limit": 2}`))
	req.Header.Set("X-API-Key", key)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var acc struct {
		TaskID string `json:"task_id"`
	}
	json.NewDecoder(res.Body).Decode(&acc)
	res.Body.Close()
	if res.StatusCode != http.StatusAccepted || acc.TaskID == "" {
		t.Fatalf("submit: %d %+v", res.StatusCode, acc)
	}
	proc.Kill()
	proc.Wait()

	_, _, stop := startServe(t, bin, dir, addr, "--task-lease", "2s")
	defer stop()
	deadline := time.Now().Add(60 * time.Second)
	for {
		status, body := get(t, addr, key, "/v1/contactmatch/status/"+acc.TaskID)
		if status != 200 {
			t.Fatalf("status: %d %v", status, body)
		}
		if body["status"] == "completed" {
			results, _ := body["results"].([]any)
			if len(results) != 500 {
				t.Fatalf("%d results after the restart, want 500", len(results))
			}
			return
		}
		if body["status"] == "failed" || time.Now().After(deadline) {
			t.Fatalf("task after the restart: %v", body)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func get(t *testing.T, addr, key, path string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest("GET", fmt.Sprintf("http://%s%s", addr, path), nil)
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
