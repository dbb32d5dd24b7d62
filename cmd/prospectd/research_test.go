package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/openprospect/prospectd/providers/llm/llmfake"
)

// TestKilledServerResumesResearch submits a research task against a fake
// LLM, kills the server with SIGKILL mid-task, restarts it, and expects
// the task to complete without sending any record that had finished
// before the kill to the model again (the customer pays for every call).
func TestKilledServerResumesResearch(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test builds and runs the binary")
	}
	fake := llmfake.Start("sk-e2e-0123456789abcdef")
	defer fake.Close()
	fake.Delay = 40 * time.Millisecond
	bin := buildBinary(t)
	dir := t.TempDir()
	addr := freeAddr(t)
	flags := []string{"--task-lease", "2s", "--allow-private-provider-urls"}
	key, _, _, proc := startServeCmd(t, bin, dir, addr, flags...)

	status, body := researchSend(t, addr, key, "POST", "/v1/llm-providers/config", map[string]any{
		"integration_name": "fake", "provider": "openai", "api_key": "sk-e2e-0123456789abcdef", "model_name": "gpt-4o-mini", "base_url": fake.URL + "/v1/"})
	if status != 200 {
		t.Fatalf("integration: %d %v", status, body)
	}
	var domains []string
	for i := 0; i < 400; i++ {
		domains = append(domains, fmt.Sprintf("company%03d.com", i))
	}
	status, body = researchSend(t, addr, key, "POST", "/v1/gen/process", map[string]any{"query": "q", "domains": domains, "context_mode": "domain"})
	if status != 200 {
		t.Fatalf("submit: %d %v", status, body)
	}
	id := body["task_id"].(string)
	var finished map[string]any
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, st := get(t, addr, key, "/v1/gen/status/"+id)
		finished, _ = st["interim_results"].(map[string]any)
		if len(finished) >= 50 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("task never got going: %v", st)
		}
		time.Sleep(50 * time.Millisecond)
	}
	proc.Kill()
	proc.Wait()
	if len(finished) >= 400 {
		t.Fatal("task finished before the kill")
	}

	_, _, stop := startServe(t, bin, dir, addr, flags...)
	defer stop()
	deadline = time.Now().Add(90 * time.Second)
	for {
		_, st := get(t, addr, key, "/v1/gen/status/"+id)
		if st["status"] == "completed" {
			if n := len(st["results"].(map[string]any)); n != 400 {
				t.Fatalf("%d results, want 400", n)
			}
			break
		}
		if st["status"] == "failed" || time.Now().After(deadline) {
			t.Fatalf("after the restart: %v", st["status"])
		}
		time.Sleep(200 * time.Millisecond)
	}
	re := regexp.MustCompile(`Company domain: (\S+)`)
	sent := map[string]int{}
	for _, p := range fake.Prompts() {
		if m := re.FindStringSubmatch(p); m != nil {
			sent[m[1]]++
		}
	}
	for d := range finished {
		if sent[d] != 1 {
			t.Fatalf("%s finished before the kill but was sent %d times", d, sent[d])
		}
	}
	t.Logf("%d records finished before the kill; %d model calls in all for 400 records", len(finished), fake.Calls()-1)
}

func researchSend(t *testing.T, addr, key, method, path string, body any) (int, map[string]any) {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(method, "http://"+addr+path, strings.NewReader(string(b)))
	req.Header.Set("X-API-Key", key)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	json.NewDecoder(res.Body).Decode(&out)
	return res.StatusCode, out
}
