package mcp_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openprospect/prospectd/api"
	"github.com/openprospect/prospectd/email"
	"github.com/openprospect/prospectd/email/mailworld"
	"github.com/openprospect/prospectd/jobs"
)

// confirmed calls a spending tool twice: for the estimate, then with its
// confirmation token.
func confirmed(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any) map[string]any {
	t.Helper()
	est, isErr := callTool(t, cs, name, args)
	if isErr || est["status"] != "confirmation_required" {
		t.Fatalf("%s estimate: %v", name, est)
	}
	with := map[string]any{"confirmation_token": est["confirmation_token"]}
	for k, v := range args {
		with[k] = v
	}
	out, isErr := callTool(t, cs, name, with)
	if isErr {
		t.Fatalf("%s confirmed: %v", name, out)
	}
	return out
}

func TestSavedQueryTools(t *testing.T) {
	f := newFixture(t, nil)
	cs := connect(t, f.url, f.keyA, nil)
	csB := connect(t, f.url, f.keyB, nil)

	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ann := map[string]*sdk.ToolAnnotations{}
	for _, tl := range res.Tools {
		ann[tl.Name] = tl.Annotations
	}
	for name, ro := range map[string]bool{"list_saved_queries": true, "save_results": false, "create_exclusion_list": false, "update_saved_query": false, "delete_saved_query": false} {
		a := ann[name]
		if a == nil {
			t.Fatalf("tool %s not listed", name)
		}
		if a.ReadOnlyHint != ro {
			t.Errorf("%s readOnlyHint %v, want %v", name, a.ReadOnlyHint, ro)
		}
	}
	if d := ann["delete_saved_query"].DestructiveHint; d == nil || !*d {
		t.Errorf("delete_saved_query is not marked destructive")
	}

	var domains []any
	for i := range 20 {
		domains = append(domains, fmt.Sprintf("excluded-%02d.com", i))
	}
	ex, isErr := callTool(t, cs, "create_exclusion_list", map[string]any{"query_name": "Competitors", "domains": domains, "tags": []any{"Q4 list"}})
	if isErr || ex["domain_count"] != float64(20) {
		t.Fatalf("create_exclusion_list: %v", ex)
	}
	exID := ex["query_id"].(string)

	sr, isErr := callTool(t, cs, "save_results", map[string]any{"query_name": "Robots", "action": "discover",
		"data": []any{map[string]any{"domain": "acme.com", "note": "kept"}, map[string]any{"domain": "wachdienst.de"}}})
	if isErr || sr["row_count"] != float64(2) || sr["action"] != "thin_discover" {
		t.Fatalf("save_results: %v", sr)
	}

	tests := []struct {
		name    string
		args    map[string]any
		wantErr string
	}{
		{"too few domains", map[string]any{"query_name": "x", "domains": []any{"a.com"}}, "domains"},
		{"unknown field", map[string]any{"query_name": "x", "domain": "a.com"}, "unknown field"},
	}
	for _, tc := range tests {
		out, isErr := callTool(t, cs, "create_exclusion_list", tc.args)
		if !isErr || !strings.Contains(fmt.Sprint(out["detail"]), tc.wantErr) {
			t.Errorf("%s: %v, want an error naming %q", tc.name, out, tc.wantErr)
		}
	}

	list, isErr := callTool(t, cs, "list_saved_queries", map[string]any{"tags": []any{"q4-list"}})
	if isErr || list["count"] != float64(1) {
		t.Fatalf("list by tag: %v", list)
	}
	if out, isErr := callTool(t, cs, "list_saved_queries", map[string]any{"max_records": 0}); !isErr || out["status"] != float64(422) {
		t.Errorf("max_records 0: %v", out)
	}

	// Organization B sees none of A's queries and cannot change them.
	if list, _ := callTool(t, csB, "list_saved_queries", nil); list["count"] != float64(0) {
		t.Errorf("org B lists A's queries: %v", list)
	}
	if out, isErr := callTool(t, csB, "update_saved_query", map[string]any{"query_id": exID, "query_name": "mine"}); !isErr || out["status"] != float64(404) {
		t.Errorf("org B renames A's query: %v", out)
	}
	if out, isErr := callTool(t, csB, "delete_saved_query", map[string]any{"query_id": exID}); !isErr || out["status"] != float64(404) {
		t.Errorf("org B deletes A's query: %v", out)
	}

	up, isErr := callTool(t, cs, "update_saved_query", map[string]any{"query_id": exID, "query_name": "Rivals", "tags": []any{}})
	if isErr || up["query_name"] != "Rivals" || len(up["tags"].([]any)) != 0 {
		t.Fatalf("update_saved_query: %v", up)
	}
	if out, isErr := callTool(t, cs, "delete_saved_query", map[string]any{"query_id": exID}); isErr {
		t.Fatalf("delete_saved_query: %v", out)
	}
	if list, _ := callTool(t, cs, "list_saved_queries", nil); list["count"] != float64(1) {
		t.Errorf("after delete: %v", list)
	}
}

func emailFixture(t *testing.T) fixture {
	t.Helper()
	w, err := mailworld.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	if err := w.AddHost("mx.acme-mail.example.com", mailworld.Behaviour{OfferTLS: true}); err != nil {
		t.Fatal(err)
	}
	w.AddDomain(mailworld.Domain{Name: "acme-mail.example.com", MX: []string{"mx.acme-mail.example.com"}, Mailboxes: []string{"jane.doe", "bob"}})
	return newFixtureWith(t, func(d *api.Deps) {
		cfg := email.Config{DNSServer: w.DNSAddr(), SMTPPort: w.SMTPPort(), SenderDomain: "sender.example.com", AllowPrivate: true,
			RatePerMinute: -1, MaxActive: 5, CommandTimeout: 2 * time.Second}
		var err error
		d.EmailTasks, d.Email, err = jobs.NewEmail(jobs.Config{Engine: d.Engine, Log: d.Log}, d.Store.(jobs.EmailState), cfg)
		if err != nil {
			t.Fatal(err)
		}
	}, nil)
}

func waitEmail(t *testing.T, cs *sdk.ClientSession, tool, arg, id string, done func(map[string]any) bool) map[string]any {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; {
		out, isErr := callTool(t, cs, tool, map[string]any{arg: id})
		if isErr {
			t.Fatalf("%s: %v", tool, out)
		}
		if done(out) {
			return out
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s %s not done: %v", tool, id, out)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestEmailTools(t *testing.T) {
	f := emailFixture(t)
	cs := connect(t, f.url, f.keyA, nil)
	csB := connect(t, f.url, f.keyB, nil)

	job := confirmed(t, cs, "find_email", map[string]any{"first_name": "Jane", "last_name": "Doe", "domain": "acme-mail.example.com"})
	jobID := job["job_id"].(string)
	done := func(v map[string]any) bool { return v["status"] == "completed" || v["status"] == "failed" }
	v := waitEmail(t, cs, "get_email_job", "job_id", jobID, done)
	outer, _ := v["result"].(map[string]any)
	res, _ := outer["result"].(map[string]any)
	if v["status"] != "completed" || res["email"] != "jane.doe@acme-mail.example.com" {
		t.Fatalf("find_email result: %v", v)
	}

	// Another organization's job and batch ids are unknown to B.
	if out, isErr := callTool(t, csB, "get_email_job", map[string]any{"job_id": jobID}); !isErr || out["status"] != float64(404) {
		t.Errorf("org B reads A's email job: %v", out)
	}
	if out, isErr := callTool(t, csB, "get_email_batch", map[string]any{"batch_id": job["batch_id"]}); !isErr || out["status"] != float64(404) {
		t.Errorf("org B reads A's email batch: %v", out)
	}

	ver := confirmed(t, cs, "verify_email", map[string]any{"email": "bob@acme-mail.example.com"})
	if ver["kind"] != "verify" {
		t.Errorf("verify_email: %v", ver)
	}

	batch := confirmed(t, cs, "find_emails", map[string]any{"requests": []any{
		map[string]any{"first_name": "Jane", "last_name": "Doe", "domain": "acme-mail.example.com"},
		map[string]any{"kind": "verify", "email": "nobody@acme-mail.example.com"},
	}})
	if batch["total"] != float64(2) {
		t.Fatalf("find_emails: %v", batch)
	}
	bv := waitEmail(t, cs, "get_email_batch", "batch_id", batch["batch_id"].(string), func(v map[string]any) bool {
		c, _ := v["completed"].(float64)
		fl, _ := v["failed"].(float64)
		return c+fl == 2
	})
	if bv["total"] != float64(2) {
		t.Errorf("batch view: %v", bv)
	}

	bad := []struct {
		name, tool, want string
		args             map[string]any
	}{
		{"no domain", "find_email", "domain", map[string]any{"first_name": "Jane", "last_name": "Doe"}},
		{"verify without an address", "verify_email", "email", map[string]any{"email": "not an address"}},
		{"empty batch", "find_emails", "requests", map[string]any{"requests": []any{}}},
		{"refs without source", "find_emails", "source_query_id", map[string]any{"requests": []any{map[string]any{"kind": "verify", "email": "a@acme-mail.example.com"}}, "refs": []any{1}}},
	}
	for _, tc := range bad {
		out, isErr := callTool(t, cs, tc.tool, tc.args)
		if !isErr || out["status"] != float64(422) || !strings.Contains(fmt.Sprint(out["detail"]), tc.want) {
			t.Errorf("%s: %v, want 422 naming %s", tc.name, out, tc.want)
		}
	}
}
