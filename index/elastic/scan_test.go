package elastic

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/enginetest"
)

func TestScanPageBodies(t *testing.T) {
	golden(t, "scan_first_page", buildScanPage(5000, nil))
	golden(t, "scan_next_page", buildScanPage(5000, []json.RawMessage{json.RawMessage(`"acme.com"`)}))
}

// TestScanCompaniesPages scans the fixtures through the fake in pages of
// two: the fake sorts by domain and applies search_after, so every company
// comes once and the requests carry the previous page's last sort value.
func TestScanCompaniesPages(t *testing.T) {
	defer func(n int) { scanPage = n }(scanPage)
	scanPage = 2
	f := newFakeES(t)
	e := openFake(t, f)
	ctx := context.Background()
	docs := enginetest.Fixtures()
	if failed, err := e.UpsertCompanies(ctx, docs); err != nil || len(failed) > 0 {
		t.Fatalf("upsert: %v %v", failed, err)
	}
	var afters []string
	f.onSearch = func(endpoint string, body []byte) (int, any) {
		var req scanBody
		if err := json.Unmarshal(body, &req); err != nil || endpoint != "_search" {
			t.Fatalf("scan sent %s %s", endpoint, body)
		}
		var after string
		if len(req.SearchAfter) == 1 {
			json.Unmarshal(req.SearchAfter[0], &after)
		}
		afters = append(afters, after)
		f.mu.Lock()
		defer f.mu.Unlock()
		src := f.docs["t-companies-v1"]
		ids := make([]string, 0, len(src))
		for id := range src {
			if id > after {
				ids = append(ids, id)
			}
		}
		slices.Sort(ids)
		hits := []map[string]any{}
		for _, id := range ids[:min(req.Size, len(ids))] {
			var full map[string]any
			json.Unmarshal(src[id], &full)
			hits = append(hits, map[string]any{"_id": id, "sort": []string{id}, "_source": map[string]any{
				"domain": full["domain"], "name": full["name"], "status": full["status"], "score": full["score"],
				"address": full["address"], "phones": full["phones"]}})
		}
		return 200, map[string]any{"timed_out": false, "_shards": map[string]int{"total": 1, "successful": 1}, "hits": map[string]any{"hits": hits}}
	}
	got := map[string]index.CompanyKey{}
	if err := e.ScanCompanies(ctx, func(k index.CompanyKey) error { got[k.Domain] = k; return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(docs) {
		t.Fatalf("scanned %d, want %d", len(got), len(docs))
	}
	if k := got["acme.com"]; k.Name != "Acme Security" || k.City != "Austin" || k.Zip != "78701" || k.Score != 420 || len(k.Phones) != 1 {
		t.Errorf("acme.com = %+v", k)
	}
	if !got["closedco.com"].Closed || got["acme.com"].Closed {
		t.Error("closed flag")
	}
	want := []string{"", "brightbank.co.uk", "cloudguard.io", "wachdienst.de"}
	if !slices.Equal(afters, want) {
		t.Errorf("search_after sequence %q, want %q", afters, want)
	}
}
