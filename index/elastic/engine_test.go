package elastic

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/enginetest"
	"github.com/openprospect/prospectd/mappings"
	"github.com/openprospect/prospectd/record"
)

func openFake(t *testing.T, f *fakeES) *Engine {
	t.Helper()
	e, err := New(context.Background(), Config{URL: f.srv.URL, IndexPrefix: "t", Dimension: enginetest.Dim})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

func TestNewInstallsLayout(t *testing.T) {
	f := newFakeES(t)
	e := openFake(t, f)
	want, err := mappings.Companies(mappings.CompaniesParams{IndexPattern: "t-companies-v*", Dims: enginetest.Dim})
	if err != nil {
		t.Fatal(err)
	}
	if got := f.templates["t-companies"]; !bytes.Equal(got, want) {
		t.Errorf("installed template differs from the rendered mapping:\n%s", got)
	}
	if f.aliases["t-companies"] != "t-companies-v1" {
		t.Errorf("alias t-companies -> %q, want t-companies-v1", f.aliases["t-companies"])
	}
	if _, ok := f.docs["t-meta"]; !ok {
		t.Error("meta index not created")
	}
	if e.Alias() != "t-companies" || e.Name() != "elasticsearch" {
		t.Errorf("Alias %q Name %q", e.Alias(), e.Name())
	}

	// A second process reuses the layout and only refreshes the template.
	creates := len(f.requests("PUT /t-companies-v"))
	openFake(t, f)
	if n := len(f.requests("PUT /t-companies-v")); n != creates {
		t.Errorf("second New created indices: %d creates, want %d", n, creates)
	}
	if n := len(f.requests("PUT /_index_template/t-companies")); n != 2 {
		t.Errorf("template put %d times, want 2", n)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

func TestNewAttachesAliasToOrphanIndex(t *testing.T) {
	f := newFakeES(t)
	f.docs["t-companies-v1"] = map[string]json.RawMessage{"a.com": json.RawMessage(`{}`)}
	openFake(t, f)
	if f.aliases["t-companies"] != "t-companies-v1" {
		t.Fatalf("alias = %q", f.aliases["t-companies"])
	}
	if len(f.docs["t-companies-v1"]) != 1 {
		t.Fatal("existing index was replaced")
	}
}

func TestNewRefuses(t *testing.T) {
	cases := []struct {
		name    string
		version string
		dims    int
		cfg     Config
		want    error
	}{
		{"old cluster", "7.17.9", 8, Config{Dimension: 8}, index.ErrUnsupported},
		{"8.7 lacks the similarity threshold", "8.7.1", 8, Config{Dimension: 8}, index.ErrUnsupported},
		{"index of another dimension", "8.19.3", 16, Config{Dimension: 8}, index.ErrVectorMismatch},
		{"no dimension", "8.19.3", 8, Config{}, index.ErrInvalid},
		{"upper-case prefix", "8.19.3", 8, Config{Dimension: 8, IndexPrefix: "Prospect"}, index.ErrInvalid},
		{"prefix with a slash", "8.19.3", 8, Config{Dimension: 8, IndexPrefix: "a/b"}, index.ErrInvalid},
		{"nine is not yet supported", "9.2.0", 8, Config{Dimension: 8}, index.ErrUnsupported},
		{"8.8 is the oldest", "8.8.0", 8, Config{Dimension: 8}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeES(t)
			f.version, f.dims = tc.version, tc.dims
			cfg := tc.cfg
			cfg.URL = f.srv.URL
			e, err := New(context.Background(), cfg)
			if !errors.Is(err, tc.want) {
				t.Fatalf("New: err = %v, want %v", err, tc.want)
			}
			if e != nil {
				e.Close()
			}
		})
	}
	if _, err := New(context.Background(), Config{Dimension: 8}); !errors.Is(err, index.ErrInvalid) {
		t.Fatalf("New without URL: %v", err)
	}
}

func TestNewFailsOnUnreachableCluster(t *testing.T) {
	f := newFakeES(t)
	url := f.srv.URL
	f.srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := New(ctx, Config{URL: url, Dimension: 8}); err == nil {
		t.Fatal("New against a closed port succeeded")
	}
}

func TestUpsertGetDelete(t *testing.T) {
	f := newFakeES(t)
	e := openFake(t, f)
	ctx := context.Background()
	docs := enginetest.Fixtures()
	failed, err := e.UpsertCompanies(ctx, docs)
	if err != nil || len(failed) > 0 {
		t.Fatalf("UpsertCompanies: %v %v", failed, err)
	}
	if bulks := f.requests("POST /t-companies/_bulk"); len(bulks) != 1 {
		t.Errorf("%d bulk requests for %d small documents, want 1", len(bulks), len(docs))
	}
	got, err := e.GetCompanies(ctx, []string{"cloudguard.io", "missing.example", "", "acme.com", "cloudguard.io"})
	if err != nil {
		t.Fatal(err)
	}
	if d := domainsOf(got); !reflect.DeepEqual(d, []string{"cloudguard.io", "acme.com", "cloudguard.io"}) {
		t.Fatalf("GetCompanies order = %v", d)
	}
	wantJSON, _ := json.Marshal(docs[0].Company)
	gotJSON, _ := json.Marshal(got[1])
	if !bytes.Equal(wantJSON, gotJSON) {
		t.Errorf("profile round trip:\n got %s\nwant %s", gotJSON, wantJSON)
	}
	for _, r := range f.requests("POST /t-companies/_mget") {
		if !strings.Contains(r, "_source_excludes=vector") {
			t.Errorf("GetCompanies fetched the vectors: %s", r)
		}
	}
	mgets := len(f.requests("POST /t-companies/_mget"))
	vecs, err := e.CompanyVectors(ctx, []string{"acme.com", "none.example", "wachdienst.de"})
	if err != nil || len(vecs) != 2 {
		t.Fatalf("CompanyVectors: %d, %v", len(vecs), err)
	}
	if r := f.requests("POST /t-companies/_mget"); len(r) != mgets+1 || !strings.Contains(r[mgets], "_source_includes=vector") {
		t.Errorf("CompanyVectors request %v does not limit the source to the vector", r[mgets:])
	}
	if !reflect.DeepEqual(vecs["wachdienst.de"], docs[1].Vector) {
		t.Errorf("vector = %v, want %v", vecs["wachdienst.de"], docs[1].Vector)
	}

	// The last of several documents with one domain wins.
	a, b := docs[0], docs[0]
	a.Company.Name, b.Company.Name = "First", "Last"
	if failed, err := e.UpsertCompanies(ctx, []index.CompanyDoc{a, b}); err != nil || len(failed) > 0 {
		t.Fatal(failed, err)
	}
	if got, _ := e.GetCompanies(ctx, []string{"acme.com"}); len(got) != 1 || got[0].Name != "Last" {
		t.Fatalf("duplicate domains: got %+v", got)
	}

	n, err := e.DeleteCompanies(ctx, []string{"acme.com", "nope.example", "acme.com", ""})
	if err != nil || n != 1 {
		t.Fatalf("DeleteCompanies = %d, %v; want 1", n, err)
	}
	if got, _ := e.GetCompanies(ctx, []string{"acme.com"}); len(got) != 0 {
		t.Fatal("deleted company still returned")
	}
	if n, err := e.DeleteCompanies(ctx, nil); n != 0 || err != nil {
		t.Fatalf("empty delete: %d %v", n, err)
	}
}

func TestUpsertFailures(t *testing.T) {
	f := newFakeES(t)
	e := openFake(t, f)
	ctx := context.Background()
	docs := enginetest.Fixtures()
	wrongDim := docs[0]
	wrongDim.Vector = make([]float32, enginetest.Dim+1)
	nan := docs[2]
	nan.Vector = append([]float32(nil), nan.Vector...)
	nan.Vector[0] = float32(math.NaN())
	noDomain := docs[3]
	noDomain.Company.Domain = ""
	f.onBulkItem = func(action, id string) (int, string) {
		if id == "wachdienst.de" {
			return 400, "document_parsing_exception"
		}
		return 0, ""
	}
	failed, err := e.UpsertCompanies(ctx, []index.CompanyDoc{wrongDim, docs[1], nan, noDomain, docs[4]})
	if err != nil {
		t.Fatalf("per-document failures must not fail the batch: %v", err)
	}
	reasons := map[string]string{}
	for _, d := range failed {
		reasons[d.Domain] = d.Reason
	}
	checks := map[string]string{
		"acme.com":         "vector dimension mismatch",
		"wachdienst.de":    "document_parsing_exception: refused by the test (caused by cause_type: the cause)",
		"brightbank.co.uk": "encode document",
		"":                 "empty domain",
	}
	for domain, want := range checks {
		if !strings.Contains(reasons[domain], want) {
			t.Errorf("reason for %q = %q, want it to contain %q", domain, reasons[domain], want)
		}
	}
	if len(failed) != len(checks) {
		t.Errorf("failed = %+v", failed)
	}
	if _, ok := f.docs["t-companies-v1"]["tinyleads.net"]; !ok {
		t.Error("the valid document was not written")
	}

	// A request that fails as a whole fails the call.
	f.onBulkItem = nil
	f.onBulk = func() int { return 500 }
	if _, err := e.UpsertCompanies(ctx, docs[:2]); err == nil || !strings.Contains(err.Error(), "bulk") {
		t.Fatalf("failed bulk request: err = %v", err)
	}
	f.onBulk = nil

	// Cancelled before it starts.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := e.UpsertCompanies(cctx, docs); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled context: %v", err)
	}
}

func TestUpsertRetriesRejectedItems(t *testing.T) {
	old := bulkBackoff
	bulkBackoff = func(int) time.Duration { return 0 }
	t.Cleanup(func() { bulkBackoff = old })
	f := newFakeES(t)
	e := openFake(t, f)
	var calls atomic.Int32
	f.onBulkItem = func(action, id string) (int, string) {
		if id == "acme.com" && calls.Add(1) <= 2 {
			return 429, "es_rejected_execution_exception"
		}
		if id == "tinyleads.net" {
			return 429, "es_rejected_execution_exception"
		}
		return 0, ""
	}
	failed, err := e.UpsertCompanies(context.Background(), enginetest.Fixtures())
	if err != nil {
		t.Fatal(err)
	}
	if len(failed) != 1 || failed[0].Domain != "tinyleads.net" || !strings.Contains(failed[0].Reason, "es_rejected_execution_exception") {
		t.Fatalf("failed = %+v; want only the always-rejected document", failed)
	}
	if _, ok := f.docs["t-companies-v1"]["acme.com"]; !ok {
		t.Error("a document rejected twice then accepted is missing")
	}
	if n := len(f.requests("POST /t-companies/_bulk")); n != bulkAttempts {
		t.Errorf("%d bulk requests, want %d", n, bulkAttempts)
	}
}

func TestDeleteReportsFailures(t *testing.T) {
	f := newFakeES(t)
	e := openFake(t, f)
	ctx := context.Background()
	if _, err := e.UpsertCompanies(ctx, enginetest.Fixtures()); err != nil {
		t.Fatal(err)
	}
	f.onBulkItem = func(action, id string) (int, string) {
		if action == "delete" && id == "acme.com" {
			return 503, "unavailable_shards_exception"
		}
		return 0, ""
	}
	n, err := e.DeleteCompanies(ctx, []string{"acme.com", "cloudguard.io"})
	if n != 1 || !errors.Is(err, ErrPartialDelete) {
		t.Fatalf("DeleteCompanies = %d, %v; want 1 and ErrPartialDelete", n, err)
	}
}

func TestMetaChunked(t *testing.T) {
	old := metaChunkBytes
	metaChunkBytes = 1000
	t.Cleanup(func() { metaChunkBytes = old })
	f := newFakeES(t)
	e := openFake(t, f)
	ctx := context.Background()
	if _, err := e.Meta(ctx); !errors.Is(err, index.ErrNotFound) {
		t.Fatalf("Meta on a new index: %v", err)
	}
	model := make([]byte, 3500)
	for i := range model {
		model[i] = byte(i * 13)
	}
	if err := e.SetMeta(ctx, index.Meta{EmbedderID: "tfidf", Dimension: enginetest.Dim, Model: model}); err != nil {
		t.Fatal(err)
	}
	if n := len(f.docs["t-meta"]); n != 5 {
		t.Errorf("meta index holds %d documents, want head + 4 chunks", n)
	}
	got, err := e.Meta(ctx)
	if err != nil || got.EmbedderID != "tfidf" || got.Dimension != enginetest.Dim || !bytes.Equal(got.Model, model) {
		t.Fatalf("Meta = %s/%d %d bytes, %v", got.EmbedderID, got.Dimension, len(got.Model), err)
	}

	// Replacing the model removes the previous generation's chunks.
	if err := e.SetMeta(ctx, index.Meta{EmbedderID: "tfidf-2", Dimension: enginetest.Dim, Model: model[:1200]}); err != nil {
		t.Fatal(err)
	}
	if n := len(f.docs["t-meta"]); n != 3 {
		t.Errorf("after replacing: %d documents, want head + 2 chunks", n)
	}
	if got, err := e.Meta(ctx); err != nil || got.EmbedderID != "tfidf-2" || !bytes.Equal(got.Model, model[:1200]) {
		t.Fatalf("Meta after replace: %v", err)
	}
	if err := e.SetMeta(ctx, index.Meta{EmbedderID: "none", Dimension: enginetest.Dim}); err != nil {
		t.Fatal(err)
	}
	if got, err := e.Meta(ctx); err != nil || got.Model != nil || got.EmbedderID != "none" {
		t.Fatalf("Meta without a model: %+v %v", got, err)
	}

	if err := e.SetMeta(ctx, index.Meta{EmbedderID: "x", Dimension: enginetest.Dim * 2}); !errors.Is(err, index.ErrVectorMismatch) {
		t.Fatalf("SetMeta of another dimension: %v", err)
	}
	if err := e.SetMeta(ctx, index.Meta{EmbedderID: "x"}); !errors.Is(err, index.ErrInvalid) {
		t.Fatalf("SetMeta without dimension: %v", err)
	}

	// A damaged chunk is detected by the checksum.
	if err := e.SetMeta(ctx, index.Meta{EmbedderID: "tfidf", Dimension: enginetest.Dim, Model: model}); err != nil {
		t.Fatal(err)
	}
	for id, src := range f.docs["t-meta"] {
		if strings.HasSuffix(id, "-1") {
			var c metaChunk
			_ = json.Unmarshal(src, &c)
			c.Data[0]++
			f.docs["t-meta"][id], _ = json.Marshal(c)
		}
	}
	if _, err := e.Meta(ctx); err == nil || !strings.Contains(err.Error(), "corrupt") {
		t.Fatalf("Meta with a damaged chunk: %v", err)
	}
}

// knnAnswer is a kNN _search answer with the given scores.
func knnAnswer(total int, scores ...float64) map[string]any {
	hits := []any{}
	for i, s := range scores {
		d := enginetest.Fixtures()[i]
		src, _ := json.Marshal(newCompanyDoc(d))
		hits = append(hits, map[string]any{"_index": "t-companies-v1", "_id": d.Company.Domain, "_score": s, "_source": json.RawMessage(src)})
	}
	return map[string]any{
		"took": 1, "timed_out": false,
		"_shards": map[string]int{"total": 1, "successful": 1, "failed": 0},
		"hits":    map[string]any{"total": map[string]any{"value": total, "relation": "eq"}, "hits": hits},
	}
}

func TestSearchByVector(t *testing.T) {
	f := newFakeES(t)
	e := openFake(t, f)
	ctx := context.Background()
	var bodies []searchBody
	f.onSearch = func(endpoint string, raw []byte) (int, any) {
		var b searchBody
		var probe struct {
			Knn *struct {
				K int `json:"k"`
			} `json:"knn"`
		}
		_ = json.Unmarshal(raw, &probe)
		if probe.Knn == nil {
			t.Errorf("vector search sent a request without knn: %s", raw)
			return 400, esErr("x", "x", 400)
		}
		b.Knn = &knnSection{K: probe.Knn.K}
		bodies = append(bodies, b)
		if probe.Knn.K == maxWindow {
			return 200, knnAnswer(137)
		}
		// Page request: k = offset+limit; the answer fills k when k <= 3.
		return 200, knnAnswer(min(probe.Knn.K, 3), 0.975, 0.75, 0.5)
	}
	q := enginetest.Fixtures()[0].Vector

	// Fewer than k matched: the kNN total is the total, one request.
	res, err := e.SearchCompanies(ctx, index.Search{Vector: q, Limit: 10, WithVectors: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(bodies) != 1 || res.Total != 3 {
		t.Fatalf("requests %d, Total %d; want 1 request, Total 3", len(bodies), res.Total)
	}
	for i, want := range []float64{0.95, 0.5, 0} {
		if math.Abs(res.Hits[i].Similarity-want) > 1e-9 {
			t.Errorf("hit %d similarity %v, want %v (cosine from (1+cos)/2)", i, res.Hits[i].Similarity, want)
		}
		if !reflect.DeepEqual(res.Hits[i].Vector, enginetest.Fixtures()[i].Vector) {
			t.Errorf("hit %d vector %v", i, res.Hits[i].Vector)
		}
	}

	// k filled: a second, wide request counts the matches.
	bodies = nil
	res, err = e.SearchCompanies(ctx, index.Search{Vector: q, Offset: 1, Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(bodies) != 2 || bodies[1].Knn.K != maxWindow || res.Total != 137 {
		t.Fatalf("requests %d, Total %d; want a counting request and Total 137", len(bodies), res.Total)
	}
	if res.Hits[0].Vector != nil {
		t.Error("vector returned without WithVectors")
	}

	// Limit 0: only the total.
	bodies = nil
	res, err = e.SearchCompanies(ctx, index.Search{Vector: q})
	if err != nil || len(bodies) != 1 || bodies[0].Knn.K != maxWindow || res.Total != 137 || len(res.Hits) != 0 {
		t.Fatalf("limit 0: %d requests, %+v, %v", len(bodies), res, err)
	}

	if _, err := e.SearchCompanies(ctx, index.Search{Vector: q[:2], Limit: 1}); !errors.Is(err, index.ErrVectorMismatch) {
		t.Fatalf("short vector: %v", err)
	}
}

func TestSearchByScoreAndCount(t *testing.T) {
	f := newFakeES(t)
	e := openFake(t, f)
	ctx := context.Background()
	var got []byte
	f.onSearch = func(endpoint string, raw []byte) (int, any) {
		got = raw
		if endpoint == "_count" {
			return 200, map[string]any{"count": 4, "_shards": map[string]int{"total": 1, "successful": 1}}
		}
		ans := knnAnswer(42, 0, 0)
		for _, h := range ans["hits"].(map[string]any)["hits"].([]any) {
			h.(map[string]any)["_score"] = nil
		}
		return 200, ans
	}
	filter := index.Terms{Field: index.CountryField, Values: []string{"US"}}
	res, err := e.SearchCompanies(ctx, index.Search{Filter: filter, Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(mustSearch(t, index.Search{Filter: filter, Limit: 2}))
	if !bytes.Equal(got, want) {
		t.Errorf("sent %s\nwant %s", got, want)
	}
	if res.Total != 42 || len(res.Hits) != 2 || res.Hits[0].Similarity != 0 || res.Hits[0].Company.Domain != "acme.com" {
		t.Fatalf("result %+v", res)
	}
	n, err := e.CountCompanies(ctx, filter)
	if err != nil || n != 4 {
		t.Fatalf("CountCompanies = %d, %v", n, err)
	}
	if want, _ := json.Marshal(mustCount(t, filter)); !bytes.Equal(got, want) {
		t.Errorf("count sent %s, want %s", got, want)
	}

	// Partial answers are errors, not short results.
	f.onSearch = func(endpoint string, raw []byte) (int, any) {
		ans := knnAnswer(1)
		ans["_shards"] = map[string]int{"total": 2, "successful": 1, "failed": 1}
		return 200, ans
	}
	if _, err := e.SearchCompanies(ctx, index.Search{Limit: 1}); err == nil || !strings.Contains(err.Error(), "shards failed") {
		t.Fatalf("shard failure: %v", err)
	}
	f.onSearch = func(string, []byte) (int, any) {
		return 400, esErr("search_phase_execution_exception", "all shards failed", 400)
	}
	_, err = e.CountCompanies(ctx, nil)
	var ee *esError
	if !errors.As(err, &ee) || ee.Type != "search_phase_execution_exception" || ee.Status != 400 {
		t.Fatalf("error answer: %v", err)
	}
	if _, err := e.CountCompanies(ctx, index.Range{Field: index.CityField}); !errors.Is(err, index.ErrInvalid) {
		t.Fatalf("invalid filter: %v", err)
	}
}

func TestHealthAndRefresh(t *testing.T) {
	f := newFakeES(t)
	e := openFake(t, f)
	ctx := context.Background()
	if err := e.Health(ctx); err != nil {
		t.Fatal(err)
	}
	f.health = "red"
	if err := e.Health(ctx); err == nil {
		t.Fatal("red index reported healthy")
	}
	if err := e.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if len(f.requests("POST /t-companies,t-contacts/_refresh")) != 1 {
		t.Fatalf("refresh did not address both aliases: %v", f.requests("POST"))
	}
}

func TestReindex(t *testing.T) {
	old := reindexPoll
	reindexPoll = time.Millisecond
	t.Cleanup(func() { reindexPoll = old })
	f := newFakeES(t)
	e := openFake(t, f)
	ctx := context.Background()
	if _, err := e.UpsertCompanies(ctx, enginetest.Fixtures()); err != nil {
		t.Fatal(err)
	}
	res, err := e.Reindex(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.From != "t-companies-v1" || res.To != "t-companies-v2" || res.Documents != len(enginetest.Fixtures()) {
		t.Fatalf("Reindex = %+v", res)
	}
	if f.aliases["t-companies"] != "t-companies-v2" {
		t.Fatalf("alias -> %s after Reindex", f.aliases["t-companies"])
	}
	if got, _ := e.GetCompanies(ctx, []string{"acme.com"}); len(got) != 1 {
		t.Fatal("documents not reachable through the moved alias")
	}

	// A write during the copy leaves the counts different: no swap.
	f.onReindex = func() {
		f.mu.Lock()
		f.docs["t-companies-v3"]["late.example"] = json.RawMessage(`{}`)
		f.mu.Unlock()
	}
	if _, err := e.Reindex(ctx); !errors.Is(err, ErrReindexDiverged) {
		t.Fatalf("diverged copy: %v", err)
	}
	if f.aliases["t-companies"] != "t-companies-v2" {
		t.Fatal("alias moved despite diverged counts")
	}
	// The failed generation is left in place and blocks a silent retry.
	f.onReindex = nil
	if _, err := e.Reindex(ctx); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("retry over a leftover index: %v", err)
	}
}

func domainsOf(cs []record.Company) []string {
	out := make([]string, 0, len(cs))
	for _, c := range cs {
		out = append(out, c.Domain)
	}
	return out
}
