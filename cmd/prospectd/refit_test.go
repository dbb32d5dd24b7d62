package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/openprospect/prospectd/index/embedding"
	"github.com/openprospect/prospectd/index/embedding/embedfake"
	"github.com/openprospect/prospectd/internal/demo"
)

func writeJSONL(t *testing.T, path string, g *demo.Generator, lo, hi int) {
	t.Helper()
	var b strings.Builder
	for i := lo; i < hi; i++ {
		js, err := json.Marshal(g.Company(i))
		if err != nil {
			t.Fatal(err)
		}
		b.Write(js)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

var refittedLine = regexp.MustCompile(`refitted (\S+) → (\S+): (\d+) companies`)

// TestRefitCommands: a first load of 3 companies gets the hashing
// embedder; a load that grows the index past 1,000 refits it at its end;
// `prospectd refit` switches it to an external provider (a loopback fake
// of the OpenAI embeddings API); serve then embeds ICP text through the
// provider with the key from the environment.
func TestRefitCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	g := demo.New(demo.Options{Companies: 1203, Seed: 3})
	first, more := filepath.Join(dir, "first.jsonl"), filepath.Join(dir, "more.jsonl")
	writeJSONL(t, first, g, 0, 3)
	writeJSONL(t, more, g, 3, 1203)

	out := run(t, bin, "ingest", "companies", first, "--data-dir", dir)
	if strings.Contains(out, "refit") {
		t.Fatalf("a load of 3 refitted: %s", out)
	}
	if out := run(t, bin, "refit", "--check", "--data-dir", dir); !strings.Contains(out, "embedder hashing-") || !strings.Contains(out, "due false") {
		t.Fatalf("refit --check after 3: %s", out)
	}
	out = run(t, bin, "ingest", "companies", more, "--data-dir", dir)
	m := refittedLine.FindStringSubmatch(out)
	if m == nil || !strings.HasPrefix(m[1], "hashing-") || !strings.HasPrefix(m[2], "tfidf-svd-") || m[3] != "1203" {
		t.Fatalf("ingest that grew the index: %s", out)
	}
	if out := run(t, bin, "refit", "--data-dir", dir); !strings.Contains(out, "no refit") {
		t.Fatalf("refit right after one: %s", out)
	}
	// --label-dims reaches the fit: a forced refit with label directions
	// (the demo corpus has industry labels) gives another model; out of
	// range is refused by name.
	fitted := m[2]
	out = run(t, bin, "refit", "--force", "--label-dims", "16", "--data-dir", dir)
	if m := refittedLine.FindStringSubmatch(out); m == nil || m[1] != fitted || !strings.HasPrefix(m[2], "tfidf-svd-") || m[2] == fitted {
		t.Fatalf("refit --force --label-dims 16 after %s: %s", fitted, out)
	}
	if b, err := exec.Command(bin, "refit", "--label-dims", "256", "--data-dir", dir).CombinedOutput(); err == nil || !strings.Contains(string(b), "--label-dims: must be 0-255") {
		t.Fatalf("--label-dims 256: %v %s", err, b)
	}

	f := embedfake.Start("sk-cli-secret", 48)
	defer f.Close()
	refitCmd := exec.Command(bin, "refit", "--data-dir", dir, "--log-format", "json",
		"--embeddings-url", f.URL+"/v1", "--embeddings-model", "bge-small", "--embeddings-allow-private")
	refitCmd.Env = append(os.Environ(), embedding.RemoteKeyEnv+"=sk-cli-secret")
	b, err := refitCmd.CombinedOutput()
	if err != nil {
		t.Fatalf("refit to the provider: %v\n%s", err, b)
	}
	m = refittedLine.FindStringSubmatch(string(b))
	if m == nil || !strings.HasPrefix(m[2], "openai-compatible-bge-small-48-") || f.Inputs() < 1203 {
		t.Fatalf("refit to the provider (%d inputs embedded): %s", f.Inputs(), b)
	}
	if strings.Contains(string(b), "sk-cli-secret") {
		t.Fatalf("the key was printed: %s", b)
	}
	// Without the loopback flag the provider is refused.
	bad := exec.Command(bin, "refit", "--data-dir", dir, "--embeddings-url", f.URL+"/v1", "--embeddings-model", "bge-small")
	if b, err := bad.CombinedOutput(); err == nil || !strings.Contains(string(b), "not allowed") {
		t.Fatalf("loopback provider without --embeddings-allow-private: %v %s", err, b)
	}

	// serve embeds ICP text through the provider stored with the index.
	t.Setenv(embedding.RemoteKeyEnv, "sk-cli-secret")
	addr := freeAddr(t)
	key, _, stop := startServe(t, bin, dir, addr)
	defer stop()
	before := f.Inputs()
	status, body := get(t, addr, key, "/v1/discover?icp_text=industrial+automation+software")
	if status != 200 || f.Inputs() != before+1 {
		t.Fatalf("discover by ICP text: %d %v (provider inputs %d → %d)", status, body, before, f.Inputs())
	}
}
