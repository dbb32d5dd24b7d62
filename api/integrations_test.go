package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/providers/llm/llmfake"
	"github.com/openprospect/prospectd/providers/search/searchfake"
	"github.com/openprospect/prospectd/research"
	"github.com/openprospect/prospectd/secrets"
	"github.com/openprospect/prospectd/store"
)

const (
	testLLMKey    = "sk-proj-LLMSECRET-0123456789abcdef"
	testSearchKey = "srch-SEARCHSECRET-0123456789abcdef"
)

// syncBuffer collects log output written from several goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// researchFixture is an API with integrations enabled, its logs captured,
// every response body kept for the key scan.
type researchFixture struct {
	fixture
	logs   *syncBuffer
	mu     sync.Mutex
	bodies []string
	member string // a key of a member (non-admin) of the same org
}

func newResearchFixture(t *testing.T, allowPrivate bool, configure func(*research.Config)) *researchFixture {
	t.Helper()
	box, err := secrets.New(bytes.Repeat([]byte{7}, 32))
	if err != nil {
		t.Fatal(err)
	}
	logs := &syncBuffer{}
	f := newFixtureWith(t, func(d *Deps) {
		d.Log = zerolog.New(logs).Level(zerolog.DebugLevel)
		cfg := research.Config{Secrets: box, AllowPrivate: allowPrivate, MaxRetries: 1}
		if configure != nil {
			configure(&cfg)
		}
		d.Integrations, d.Research = research.New(cfg, d.Store.(research.State), d.Engine.(index.Engine), d.Log)
	})
	rf := &researchFixture{fixture: f, logs: logs}
	ctx := context.Background()
	org, _ := f.st.OrgByName(ctx, "acme")
	u, err := f.st.CreateUser(ctx, org.ID, "member@acme.test", store.RoleMember)
	if err != nil {
		t.Fatal(err)
	}
	rf.member, _, err = f.st.CreateAPIKey(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	return rf
}

// send makes a JSON request with key and returns the status and body.
func (f *researchFixture) send(t *testing.T, method, target, key string, body any) (int, map[string]any) {
	t.Helper()
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req := httptest.NewRequest(method, target, r)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-API-Key", key)
	res, err := f.srv.App().Test(req, -1)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(res.Body)
	f.mu.Lock()
	f.bodies = append(f.bodies, string(raw))
	f.mu.Unlock()
	var out map[string]any
	if len(raw) > 0 && raw[0] == '{' {
		if err := json.Unmarshal(raw, &out); err != nil {
			t.Fatalf("%s %s: not JSON: %s", method, target, raw)
		}
	}
	return res.StatusCode, out
}

// assertNoKeys scans every response body and log line for the keys.
func (f *researchFixture) assertNoKeys(t *testing.T, keys ...string) {
	t.Helper()
	f.mu.Lock()
	all := strings.Join(f.bodies, "\n")
	f.mu.Unlock()
	all += f.logs.String()
	for _, k := range keys {
		for _, part := range []string{k, k[:12], k[len(k)-10:]} {
			if strings.Contains(all, part) {
				t.Fatalf("key material %q found in a response or log", part)
			}
		}
	}
}

func llmCreateBody(fake *llmfake.Server, provider, key string) map[string]any {
	base := fake.URL + "/v1/"
	if provider == "anthropic" {
		base = fake.URL
	}
	return map[string]any{"integration_name": "main " + provider, "provider": provider, "api_key": key, "model_name": "gpt-4o-mini", "base_url": base}
}

func TestLLMIntegrations(t *testing.T) {
	fake := llmfake.Start(testLLMKey)
	defer fake.Close()
	f := newResearchFixture(t, true, nil)
	admin := f.key

	// Test before saving: good and bad keys.
	code, body := f.send(t, "POST", "/v1/llm-providers/test-connection", admin, llmCreateBody(fake, "openai", testLLMKey))
	if code != 200 || body["status"] != "success" {
		t.Fatalf("test-connection: %d %v", code, body)
	}
	code, body = f.send(t, "POST", "/v1/llm-providers/test-connection", admin, llmCreateBody(fake, "openai", "sk-wrong-WRONGSECRET-987654321"))
	if code != 200 || body["status"] != "error" || !strings.Contains(body["message"].(string), "authentication") {
		t.Fatalf("test-connection wrong key: %d %v", code, body)
	}

	for _, tc := range []struct {
		name string
		body map[string]any
		want int
		has  string
	}{
		{"custom without base_url", map[string]any{"integration_name": "x", "provider": "custom", "api_key": "k", "model_name": "llama3"}, 422, "base_url"},
		{"unknown provider", map[string]any{"integration_name": "x", "provider": "mistral", "api_key": "k", "model_name": "m"}, 422, "provider"},
		{"blank name", map[string]any{"integration_name": " ", "provider": "openai", "api_key": "k", "model_name": "m"}, 422, "integration_name"},
		{"quote in base_url", map[string]any{"integration_name": "x", "provider": "custom", "api_key": "k", "model_name": "m", "base_url": "http://a\".example.com"}, 422, "base_url"},
		{"wrong key", llmCreateBody(fake, "openai", "sk-wrong-WRONGSECRET-987654321"), 400, "authentication"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, body := f.send(t, "POST", "/v1/llm-providers/config", admin, tc.body)
			if code != tc.want || !strings.Contains(body["detail"].(string), tc.has) {
				t.Fatalf("%d %v", code, body)
			}
		})
	}

	code, body = f.send(t, "POST", "/v1/llm-providers/config", admin, llmCreateBody(fake, "openai", testLLMKey))
	if code != 200 || body["integration_id"] == nil {
		t.Fatalf("create: %d %v", code, body)
	}
	first := body["integration_id"].(string)
	code, body = f.send(t, "POST", "/v1/llm-providers/config", f.member, llmCreateBody(fake, "anthropic", testLLMKey))
	if code != 200 {
		t.Fatalf("create anthropic: %d %v", code, body)
	}
	second := body["integration_id"].(string)

	code, body = f.send(t, "GET", "/v1/llm-providers/config", admin, nil)
	provs, _ := body["providers"].([]any)
	if code != 200 || len(provs) != 2 || body["mtime"] == nil {
		t.Fatalf("list: %d %v", code, body)
	}
	p0 := provs[0].(map[string]any)
	if p0["api_key"] != "*****" || p0["is_default"] != true || p0["model_deprecated"] != false || p0["supports_web_search"] != true {
		t.Fatalf("first integration: %v", p0)
	}
	if provs[1].(map[string]any)["is_default"] != false {
		t.Fatal("second integration is default")
	}

	// Update: keep the key when only the model changes; a retired model is
	// flagged; a changed base_url needs the key again.
	upd := llmCreateBody(fake, "openai", "")
	delete(upd, "api_key")
	upd["model_name"] = "gpt-3"
	code, body = f.send(t, "PUT", "/v1/llm-providers/config/"+first, admin, upd)
	if code != 200 || body["model_deprecated"] != true || body["api_key"] != "*****" {
		t.Fatalf("update model: %d %v", code, body)
	}
	upd["base_url"] = fake.URL + "/other/v1/"
	code, body = f.send(t, "PUT", "/v1/llm-providers/config/"+first, admin, upd)
	if code != 422 || !strings.Contains(body["detail"].(string), "api_key") {
		t.Fatalf("base_url change without key: %d %v", code, body)
	}

	// Admin-only operations.
	for _, op := range []struct{ method, path string }{
		{"POST", "/v1/llm-providers/config/" + second + "/set-default"},
		{"DELETE", "/v1/llm-providers/config/" + second},
	} {
		if code, body := f.send(t, op.method, op.path, f.member, nil); code != 403 {
			t.Fatalf("member %s %s: %d %v", op.method, op.path, code, body)
		}
		if code, body := f.send(t, op.method, op.path, admin, nil); code != 200 {
			t.Fatalf("admin %s %s: %d %v", op.method, op.path, code, body)
		}
	}
	if code, _ := f.send(t, "GET", "/v1/llm-providers/config/"+second, admin, nil); code != 404 {
		t.Fatalf("deleted integration: %d", code)
	}
	other := f.keyFor(t, "other", store.PlanStarter)
	if code, _ := f.send(t, "GET", "/v1/llm-providers/config/"+first, other, nil); code != 404 {
		t.Fatalf("another org's integration: %d", code)
	}
	if code, _ := f.send(t, "GET", "/v1/llm-providers/config/not-a-uuid", admin, nil); code != 422 {
		t.Fatalf("bad id: %d", code)
	}
	f.assertNoKeys(t, testLLMKey, "sk-wrong-WRONGSECRET-987654321")
}

func TestLLMIntegrationSSRF(t *testing.T) {
	fake := llmfake.Start(testLLMKey)
	defer fake.Close()
	f := newResearchFixture(t, false, nil)
	for _, base := range []string{fake.URL + "/v1/", "http://[::ffff:127.0.0.1]:8080/v1", "http://10.0.0.5/v1", "http://169.254.169.254/", "http://localhost:11434/v1"} {
		body := map[string]any{"integration_name": "x", "provider": "custom", "api_key": testLLMKey, "model_name": "m", "base_url": base}
		code, resp := f.send(t, "POST", "/v1/llm-providers/config", f.key, body)
		if code != 422 || !strings.Contains(resp["detail"].(string), "base_url") {
			t.Fatalf("base_url %s: %d %v", base, code, resp)
		}
	}
	if fake.Calls() != 0 {
		t.Fatalf("the guard let %d calls through", fake.Calls())
	}
}

func TestSearchIntegrations(t *testing.T) {
	fake := searchfake.Start(testSearchKey)
	defer fake.Close()
	f := newResearchFixture(t, true, nil)
	admin := f.key
	code, body := f.send(t, "GET", "/v1/search-providers/models", admin, nil)
	models, _ := body["models"].(map[string]any)
	if code != 200 || len(models) != 3 {
		t.Fatalf("models: %d %v", code, body)
	}
	ids := map[string]string{}
	for _, p := range []string{"brave", "tavily", "serper"} {
		code, body := f.send(t, "POST", "/v1/search-providers", admin, map[string]any{
			"integration_name": p, "provider": p, "search_model": p + "/search", "api_key": testSearchKey, "base_url": fake.URL})
		if code != 201 || body["api_key"] != "*****" || body["search_model"] != p+"/search" || body["cost_per_query"].(float64) <= 0 {
			t.Fatalf("create %s: %d %v", p, code, body)
		}
		ids[p] = body["integration_id"].(string)
	}
	if fake.Calls() != 3 {
		t.Fatalf("%d test searches, want 3", fake.Calls())
	}
	for _, tc := range []struct {
		name string
		body map[string]any
		want int
		has  string
	}{
		{"model mismatch", map[string]any{"integration_name": "x", "provider": "brave", "search_model": "tavily/search", "api_key": "k", "base_url": fake.URL}, 422, "search_model"},
		{"no key", map[string]any{"integration_name": "x", "provider": "brave", "search_model": "brave/search", "base_url": fake.URL}, 422, "api_key"},
		{"unknown provider", map[string]any{"integration_name": "x", "provider": "bing", "search_model": "bing/search", "api_key": "k"}, 422, "provider"},
		{"blank name", map[string]any{"integration_name": "", "provider": "brave", "search_model": "brave/search", "api_key": "k"}, 422, "integration_name"},
		{"refused key", map[string]any{"integration_name": "x", "provider": "brave", "search_model": "brave/search", "api_key": "bad-BADSEARCHKEY-123456", "base_url": fake.URL}, 400, "authentication"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, body := f.send(t, "POST", "/v1/search-providers", admin, tc.body)
			if code != tc.want || !strings.Contains(body["detail"].(string), tc.has) {
				t.Fatalf("%d %v", code, body)
			}
		})
	}
	// Rename without a key: no re-validation. Provider change without a
	// key: refused. With a key: re-validated.
	calls := fake.Calls()
	code, body = f.send(t, "PUT", "/v1/search-providers/"+ids["brave"], admin, map[string]any{
		"integration_name": "renamed", "provider": "brave", "search_model": "brave/search", "base_url": fake.URL})
	if code != 200 || body["integration_name"] != "renamed" || fake.Calls() != calls {
		t.Fatalf("rename: %d %v (calls %d -> %d)", code, body, calls, fake.Calls())
	}
	change := map[string]any{"integration_name": "renamed", "provider": "tavily", "search_model": "tavily/search", "base_url": fake.URL}
	if code, body := f.send(t, "PUT", "/v1/search-providers/"+ids["brave"], admin, change); code != 422 || !strings.Contains(body["detail"].(string), "api_key") {
		t.Fatalf("provider change without key: %d %v", code, body)
	}
	change["api_key"] = testSearchKey
	if code, body := f.send(t, "PUT", "/v1/search-providers/"+ids["brave"], admin, change); code != 200 || body["provider"] != "tavily" || fake.Calls() != calls+1 {
		t.Fatalf("provider change: %d %v", code, body)
	}

	// Defaults: the first is default; admin only; clear only the default.
	code, body = f.send(t, "GET", "/v1/search-providers", admin, nil)
	list := body["providers"].([]any)
	if code != 200 || len(list) != 3 || list[0].(map[string]any)["is_default"] != true {
		t.Fatalf("list: %d %v", code, body)
	}
	if code, _ := f.send(t, "PUT", "/v1/search-providers/"+ids["serper"]+"/default", f.member, nil); code != 403 {
		t.Fatalf("member set default: %d", code)
	}
	if code, _ := f.send(t, "PUT", "/v1/search-providers/"+ids["serper"]+"/default", admin, nil); code != 200 {
		t.Fatalf("set default: %d", code)
	}
	if code, _ := f.send(t, "DELETE", "/v1/search-providers/"+ids["brave"]+"/default", admin, nil); code != 409 {
		t.Fatalf("clear non-default: %d", code)
	}
	if code, _ := f.send(t, "DELETE", "/v1/search-providers/"+ids["serper"]+"/default", f.member, nil); code != 403 {
		t.Fatalf("member clear default: %d", code)
	}
	if code, _ := f.send(t, "DELETE", "/v1/search-providers/"+ids["serper"]+"/default", admin, nil); code != 200 {
		t.Fatalf("clear default: %d", code)
	}
	_, body = f.send(t, "GET", "/v1/search-providers", admin, nil)
	for _, p := range body["providers"].([]any) {
		if p.(map[string]any)["is_default"] == true {
			t.Fatalf("a default remains: %v", p)
		}
	}
	if code, _ := f.send(t, "DELETE", "/v1/search-providers/"+ids["tavily"], f.member, nil); code != 403 {
		t.Fatalf("member delete: %d", code)
	}
	if code, _ := f.send(t, "DELETE", "/v1/search-providers/"+ids["tavily"], admin, nil); code != 200 {
		t.Fatalf("delete: %d", code)
	}
	f.assertNoKeys(t, testSearchKey, "bad-BADSEARCHKEY-123456")
}

// A public-looking base_url passes validation, but when its name resolves
// to loopback at connect time (DNS rebinding) the call is refused and
// nothing reaches the server behind it.
func TestLLMIntegrationRebinding(t *testing.T) {
	fake := llmfake.Start(testLLMKey)
	defer fake.Close()
	port := fake.URL[strings.LastIndex(fake.URL, ":")+1:]
	f := newResearchFixture(t, false, func(c *research.Config) {
		c.Lookup = func(ctx context.Context, host string) ([]netip.Addr, error) {
			return []netip.Addr{netip.MustParseAddr("::ffff:127.0.0.1")}, nil
		}
	})
	body := map[string]any{"integration_name": "x", "provider": "custom", "api_key": testLLMKey, "model_name": "m", "base_url": "http://llm.example.com:" + port + "/v1/"}
	code, resp := f.send(t, "POST", "/v1/llm-providers/test-connection", f.key, body)
	if code != 200 || resp["status"] != "error" || !strings.Contains(resp["message"].(string), "not a public address") {
		t.Fatalf("rebinding: %d %v", code, resp)
	}
	if code, resp := f.send(t, "POST", "/v1/llm-providers/config", f.key, body); code != 400 {
		t.Fatalf("create: %d %v", code, resp)
	}
	if fake.Calls() != 0 {
		t.Fatalf("%d calls reached the loopback server", fake.Calls())
	}
	f.assertNoKeys(t, testLLMKey)
}

func TestResearchRoutesInOpenAPI(t *testing.T) {
	f := newResearchFixture(t, false, nil)
	code, body := f.send(t, "GET", "/v1/openapi.json", "", nil)
	if code != 200 {
		t.Fatalf("openapi: %d", code)
	}
	paths := body["paths"].(map[string]any)
	for _, p := range []string{"/v1/llm-providers/config", "/v1/llm-providers/config/{integration_id}", "/v1/llm-providers/test-connection",
		"/v1/llm-providers/config/{integration_id}/set-default", "/v1/search-providers", "/v1/search-providers/{integration_id}",
		"/v1/search-providers/{integration_id}/default", "/v1/search-providers/models", "/v1/gen/process", "/v1/gen/process-personas",
		"/v1/gen/models", "/v1/gen/status/{task_id}", "/v1/gen/cancel/{task_id}", "/v1/validate/icp", "/v1/contacts/discover/generate"} {
		if _, ok := paths[p]; !ok {
			t.Errorf("openapi lacks %s", p)
		}
	}
	schemas := body["components"].(map[string]any)["schemas"].(map[string]any)
	key := schemas["LLMIntegration"].(map[string]any)["properties"].(map[string]any)["api_key"].(map[string]any)
	if key["examples"] == nil && key["example"] == nil {
		t.Fatalf("api_key schema %v", key)
	}
	if ex := fmt.Sprint(key["examples"], key["example"]); !strings.Contains(ex, "*****") {
		t.Fatalf("api_key example %s", ex)
	}
}
