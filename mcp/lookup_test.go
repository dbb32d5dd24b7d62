package mcp_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestLookupTools(t *testing.T) {
	f := newFixture(t, nil)
	cs := connect(t, f.url, f.keyA, nil)

	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]*sdk.Tool{}
	for _, tl := range res.Tools {
		tools[tl.Name] = tl
	}
	// The schemas are the REST routes' parameters.
	for name, props := range map[string][]string{
		"match_company": {"name", "country", "min_match_confidence", "strict"},
		"match_contact": {"name", "email", "domain", "limit", "enrich"},
		"get_score":     {"domain"}, "get_domain_status": {"domain"}, "get_redirects": {"domain", "match"},
		"get_growth": {"domain"}, "get_vendors": {"domain", "match"}, "get_subdomains": {"domain"},
	} {
		tl := tools[name]
		if tl == nil {
			t.Errorf("tool %s not listed", name)
			continue
		}
		b := fmt.Sprint(tl.InputSchema)
		for _, p := range props {
			if !strings.Contains(b, p+":") {
				t.Errorf("%s: no property %s in %s", name, p, b)
			}
		}
	}

	mc := confirmed(t, cs, "match_company", map[string]any{"name": "Acme Security Inc.", "country": "US"})
	if co, _ := mc["company"].(map[string]any); co["domain"] != "acme.com" || mc["match_confidence"].(float64) < 50 || mc["credits_billed"] != float64(1) {
		t.Fatalf("match_company: %v", mc)
	}
	// Billed in the last 90 days: the second match is free.
	if again := confirmed(t, cs, "match_company", map[string]any{"name": "Acme Security"}); again["credits_billed"] != float64(0) {
		t.Errorf("match_company again: %v", again)
	}

	// Without enrich the lookup subset is free and runs at once.
	out, isErr := callTool(t, cs, "match_contact", map[string]any{"name": "Ana García", "domain": "acme.com"})
	if isErr || out["status"] == "confirmation_required" {
		t.Fatalf("match_contact: %v", out)
	}
	m := out["matches"].([]any)
	if len(m) == 0 || m[0].(map[string]any)["persona_id"] != float64(1) || out["credits_billed"] != float64(0) {
		t.Fatalf("match_contact matches: %v", out)
	}
	en := confirmed(t, cs, "match_contact", map[string]any{"email": "nobody@nowhere.example", "name": "Ana García", "domain": "acme.com", "limit": 1, "enrich": true})
	if en["credits_billed"] != float64(1) {
		t.Errorf("enriched match_contact: %v", en)
	}

	v := confirmed(t, cs, "get_vendors", map[string]any{"domain": []any{"acme.com", "unindexed-domain.com"}, "match": "salesforce.com"})
	rows := v["rows"].([]any)
	if len(rows) != 2 || rows[0].(map[string]any)["match"] != true || rows[1].(map[string]any)["match"] != nil {
		t.Fatalf("get_vendors: %v", v)
	}
	s := confirmed(t, cs, "get_score", map[string]any{"domain": "acme.com"})
	if r := s["rows"].([]any)[0].(map[string]any); r["score"] != float64(420) || len(r) != 3 {
		t.Errorf("get_score: %v", s)
	}

	bad := []struct {
		name, tool string
		args       map[string]any
		status     float64
		want       string
	}{
		{"no name", "match_company", map[string]any{"country": "US"}, 422, "name"},
		{"strict without country", "match_company", map[string]any{"name": "Acme", "strict": true}, 422, "country"},
		{"no match", "match_company", map[string]any{"name": "Zzyzx Qwerty Holdings", "min_match_confidence": 100}, 404, "no company"},
		{"neither name nor email", "match_contact", map[string]any{"domain": "acme.com"}, 422, "name"},
		{"too many domains", "get_subdomains", map[string]any{"domain": manyDomains(101)}, 422, "domain"},
		{"match on a dataset without it", "get_growth", map[string]any{"domain": "acme.com", "match": "x.com"}, 422, "match"},
	}
	for _, tc := range bad {
		out, isErr := callTool(t, cs, tc.tool, tc.args)
		if !isErr || out["status"] != tc.status || !strings.Contains(fmt.Sprint(out["detail"]), tc.want) {
			t.Errorf("%s: %v, want %v naming %s", tc.name, out, tc.status, tc.want)
		}
	}
}

func manyDomains(n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = fmt.Sprintf("d%d.com", i)
	}
	return out
}
