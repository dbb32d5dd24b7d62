package mcp_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/api"
	"github.com/openprospect/prospectd/index/embedded"
	"github.com/openprospect/prospectd/ingest"
	"github.com/openprospect/prospectd/internal/demo"
	"github.com/openprospect/prospectd/prospecting"
	"github.com/openprospect/prospectd/query"
	"github.com/openprospect/prospectd/research"
	"github.com/openprospect/prospectd/secrets"
)

// runFixture is the tool server with managed prospecting runs over a
// small demo corpus (the built-in engines: no provider keys needed).
func runFixture(t *testing.T) fixture {
	t.Helper()
	box, err := secrets.New(bytes.Repeat([]byte{7}, 32))
	if err != nil {
		t.Fatal(err)
	}
	return newFixtureWith(t, func(d *api.Deps) {
		ctx := context.Background()
		eng, err := embedded.Open(filepath.Join(t.TempDir(), "demo"), embedded.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { eng.Close() })
		g := demo.New(demo.Options{Companies: 300, Seed: 5})
		if _, err := (&ingest.Loader{Engine: eng}).Load(ctx, g.Source()); err != nil {
			t.Fatal(err)
		}
		d.Integrations, d.Research = research.New(research.Config{Secrets: box, AllowPrivate: true, MaxRetries: 1}, d.Store.(research.State), eng, d.Log)
		companies := &query.Companies{Engine: eng}
		plans := account.DefaultPlans()
		d.Prospecting = &prospecting.Service{State: d.Store.(prospecting.State), Biller: &account.Biller{Store: d.Store, Plans: plans}, Plans: plans,
			Engine: eng, Companies: companies, Contacts: &query.ContactService{Engine: eng, Companies: companies},
			Integrations: d.Integrations, Research: d.Research, Log: d.Log, Poll: 20 * time.Millisecond}
	}, nil)
}

func waitRunStatus(t *testing.T, cs *sdk.ClientSession, id string, want ...string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		out, isErr := callTool(t, cs, "get_prospecting_run", map[string]any{"run_id": id})
		if isErr {
			t.Fatalf("get_prospecting_run: %v", out)
		}
		for _, w := range want {
			if out["status"] == w {
				return out
			}
		}
		if out["status"] == "failed" || time.Now().After(deadline) {
			t.Fatalf("run %s: want %v, got %v", id, want, out)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestProspectingRunTools(t *testing.T) {
	f := runFixture(t)
	cs := connect(t, f.url, f.keyA, nil)
	brief := map[string]any{"brief": "Find 2 SaaS companies offering subscription billing", "deliverable": "accounts"}

	dry, isErr := callTool(t, cs, "start_prospecting_run", map[string]any{"brief": brief["brief"], "deliverable": "accounts", "dry_run": true})
	if isErr || dry["status"] != "dry_run" || dry["plan"] == nil {
		t.Fatalf("dry run: %v", dry)
	}
	for _, tc := range []struct {
		name   string
		args   map[string]any
		detail string
	}{
		{"short brief", map[string]any{"brief": "x"}, "brief"},
		{"unknown field", map[string]any{"brief": brief["brief"], "colour": "red"}, "colour"},
	} {
		out, isErr := callTool(t, cs, "start_prospecting_run", tc.args)
		if !isErr || out["status"] != 422.0 || !strings.Contains(fmt.Sprint(out["detail"]), tc.detail) {
			t.Errorf("%s: %v", tc.name, out)
		}
	}

	started, isErr := callTool(t, cs, "start_prospecting_run", brief)
	if isErr || started["status"] != "drafting" {
		t.Fatalf("start: %v", started)
	}
	id := started["run_id"].(string)
	// The same call (same derived idempotency key) returns the same run.
	if again, _ := callTool(t, cs, "start_prospecting_run", brief); again["run_id"] != id {
		t.Fatalf("repeated start: %v, want run %s", again, id)
	}
	// Another organization cannot see it.
	other := connect(t, f.url, f.keyB, nil)
	if out, isErr := callTool(t, other, "get_prospecting_run", map[string]any{"run_id": id}); !isErr || out["status"] != 404.0 {
		t.Fatalf("other org: %v", out)
	}

	run := waitRunStatus(t, cs, id, "proposed")
	version := run["plan_version"]
	plan := run["plan"].(map[string]any)
	est := plan["estimate"].(map[string]any)

	if out, isErr := callTool(t, cs, "approve_prospecting_run", map[string]any{"run_id": id, "plan_version": 9}); !isErr || out["status"] != 409.0 {
		t.Fatalf("stale approval: %v", out)
	}
	args := map[string]any{"run_id": id, "plan_version": version}
	quote, isErr := callTool(t, cs, "approve_prospecting_run", args)
	if isErr || quote["status"] != "confirmation_required" {
		t.Fatalf("approve without a token: %v", quote)
	}
	if q := quote["estimate"].(map[string]any); q["records"] != est["records"] || q["credits"] != est["records"] {
		t.Fatalf("quoted %v, plan estimate %v", q, est)
	}
	if still := waitRunStatus(t, cs, id, "proposed"); still["status"] != "proposed" {
		t.Fatalf("the quote approved the run: %v", still)
	}
	args["confirmation_token"] = quote["confirmation_token"]
	approved, isErr := callTool(t, cs, "approve_prospecting_run", args)
	if isErr || (approved["status"] != "queued" && approved["status"] != "running" && approved["status"] != "completed") {
		t.Fatalf("approve: %v", approved)
	}

	done := waitRunStatus(t, cs, id, "completed")
	if done["stop_reason"] == nil || done["results_query_id"] == nil {
		t.Fatalf("ended run %v", done)
	}
	msgs, isErr := callTool(t, cs, "get_prospecting_messages", map[string]any{"run_id": id})
	ms, _ := msgs["messages"].([]any)
	if isErr || len(ms) == 0 {
		t.Fatalf("messages: %v", msgs)
	}
	last := ms[len(ms)-1].(map[string]any)["seq"]
	if after, _ := callTool(t, cs, "get_prospecting_messages", map[string]any{"run_id": id, "messages_after": last}); len(after["messages"].([]any)) != 0 {
		t.Fatalf("messages after the last: %v", after)
	}
	if out, isErr := callTool(t, cs, "reply_prospecting_checkpoint", map[string]any{"run_id": id, "checkpoint": "top_up", "action": "continue"}); !isErr || out["status"] != 409.0 {
		t.Fatalf("reply to a run not paused: %v", out)
	}
	if out, isErr := callTool(t, cs, "reply_prospecting_checkpoint", map[string]any{"run_id": id, "checkpoint": "top_up", "action": "maybe"}); !isErr || out["status"] != 422.0 {
		t.Fatalf("reply with a bad action: %v", out)
	}
}
