package elastic

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/enginetest"
)

// TestQuantizedVectorsByVersion checks what each supported Elasticsearch
// version gets: int8_hnsw in new generations from 8.12 (hnsw before), and
// kNN rankings on a quantized live index rescored with the float vectors:
// by the knn's rescore_vector from 8.18, by a top-level script_score
// rescore over a widened k on 8.12-8.17 — never on a full-precision live
// index (one created from mapping version 1 and not yet re-indexed) or for
// the 10,000-wide count.
func TestQuantizedVectorsByVersion(t *testing.T) {
	cases := []struct {
		version, live string
		wantType      string
		wantRescore   bool // rescore_vector
		wantScript    bool // top-level script_score rescore
	}{
		{"8.8.0", "hnsw", "hnsw", false, false},
		{"8.11.4", "hnsw", "hnsw", false, false},
		{"8.12.0", "int8_hnsw", "int8_hnsw", false, true},
		{"8.17.2", "int8_hnsw", "int8_hnsw", false, true},
		{"8.17.2", "hnsw", "int8_hnsw", false, false},
		{"8.18.0", "int8_hnsw", "int8_hnsw", true, false},
		{"8.19.3", "int8_hnsw", "int8_hnsw", true, false},
		{"8.19.3", "hnsw", "int8_hnsw", false, false},
		{"8.19.3", "", "int8_hnsw", false, false},
	}
	for _, tc := range cases {
		t.Run(tc.version+" live "+tc.live, func(t *testing.T) {
			f := newFakeES(t)
			f.version, f.vecType = tc.version, tc.live
			e := openFake(t, f)
			for _, name := range []string{"t-companies", "t-contacts"} {
				var tmpl struct {
					Template struct {
						Mappings struct {
							Properties struct {
								Vector struct {
									IndexOptions struct {
										Type string `json:"type"`
									} `json:"index_options"`
								} `json:"vector"`
							} `json:"properties"`
						} `json:"mappings"`
					} `json:"template"`
				}
				if err := json.Unmarshal(f.templates[name], &tmpl); err != nil {
					t.Fatal(err)
				}
				if got := tmpl.Template.Mappings.Properties.Vector.IndexOptions.Type; got != tc.wantType {
					t.Errorf("%s template index type %q, want %q", name, got, tc.wantType)
				}
			}

			var bodies []map[string]json.RawMessage
			f.onSearch = func(endpoint string, raw []byte) (int, any) {
				var all map[string]json.RawMessage
				_ = json.Unmarshal(raw, &all)
				bodies = append(bodies, all)
				return 200, map[string]any{"took": 1, "hits": map[string]any{"total": map[string]any{"value": 20000, "relation": "gte"}, "hits": []any{}}}
			}
			q := enginetest.ContactFixtures()[0].Vector
			if _, err := e.SearchCompanies(context.Background(), index.Search{Vector: q, Limit: 10}); err != nil {
				t.Fatal(err)
			}
			if len(bodies) != 2 {
				t.Fatalf("%d requests, want the ranking and the total", len(bodies))
			}
			rescore := func(b map[string]json.RawMessage) string {
				var knn struct {
					RescoreVector json.RawMessage `json:"rescore_vector"`
				}
				_ = json.Unmarshal(b["knn"], &knn)
				return string(knn.RescoreVector)
			}
			want := ""
			if tc.wantRescore {
				want = `{"oversample":3}`
			}
			if got := rescore(bodies[0]); got != want {
				t.Errorf("company ranking rescore_vector %q, want %q", got, want)
			}
			if got := rescore(bodies[1]); got != "" {
				t.Errorf("the total's 10,000-wide kNN asked for a rescore: %s", got)
			}
			checkScript(t, "company ranking", bodies[0], 10, tc.wantScript)
			if _, ok := bodies[1]["rescore"]; ok {
				t.Errorf("the total's 10,000-wide kNN has a rescore section")
			}

			bodies = nil
			f.onSearch = fakeContactRanking(t, f, &bodies)
			if _, err := e.SearchContacts(context.Background(), index.ContactSearch{Vector: q, Limit: 5, PerCompany: 1}); err != nil {
				t.Fatal(err)
			}
			if len(bodies) == 0 {
				t.Fatal("no contact search sent")
			}
			if got := rescore(bodies[0]); got != want {
				t.Errorf("contact ranking rescore_vector %q, want %q", got, want)
			}
			checkScript(t, "contact ranking", bodies[0], contactWindow(index.ContactSearch{Vector: q, Limit: 5, PerCompany: 1}), tc.wantScript)
			var knn struct {
				K             int `json:"k"`
				NumCandidates int `json:"num_candidates"`
			}
			_ = json.Unmarshal(bodies[0]["knn"], &knn)
			if tc.wantRescore && knn.NumCandidates < knn.K*knnOversample {
				t.Errorf("contact kNN k %d with %d candidates, fewer than the oversampled window", knn.K, knn.NumCandidates)
			}
		})
	}
}

// checkScript checks a kNN ranking body for the 8.12-8.17 rescore: k and
// num_candidates widened to k·knnOversample, and a script_score rescore
// over that window replacing the scores with the float cosine's.
func checkScript(t *testing.T, what string, body map[string]json.RawMessage, k int, want bool) {
	t.Helper()
	var knn struct {
		K             int `json:"k"`
		NumCandidates int `json:"num_candidates"`
	}
	_ = json.Unmarshal(body["knn"], &knn)
	raw, has := body["rescore"]
	if !want {
		if has {
			t.Errorf("%s: unexpected rescore section %s", what, raw)
		}
		if knn.K != k {
			t.Errorf("%s: k %d, want %d", what, knn.K, k)
		}
		return
	}
	if !has {
		t.Fatalf("%s: no rescore section", what)
	}
	var r rescoreSection
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatal(err)
	}
	w := k * knnOversample
	if knn.K != w || knn.NumCandidates < w || r.WindowSize != w {
		t.Errorf("%s: k %d, num_candidates %d, window %d; want k = window = %d", what, knn.K, knn.NumCandidates, r.WindowSize, w)
	}
	ss := r.Query.RescoreQuery.ScriptScore
	if r.Query.QueryWeight != 0 || r.Query.RescoreQueryWeight != 1 || ss.Query.MatchAll == nil ||
		ss.Script.Source != cosineScript(vectorField) || len(ss.Script.Params["query_vector"].([]any)) != 8 {
		t.Errorf("%s: rescore %s", what, raw)
	}
}

// TestReindexNotesQuantizedGeneration: after a re-index moves the alias
// to a generation built from the int8 template, rankings rescore.
func TestReindexNotesQuantizedGeneration(t *testing.T) {
	f := newFakeES(t)
	f.vecType = "hnsw"
	e := openFake(t, f)
	if e.rescoreFor(e.alias, 10) != nil {
		t.Fatal("rescore on a full-precision live index")
	}
	f.mu.Lock()
	f.vecType = "int8_hnsw"
	f.mu.Unlock()
	if _, err := e.Reindex(context.Background()); err != nil {
		t.Fatal(err)
	}
	if r := e.rescoreFor(e.alias, 10); r == nil || r.Oversample != knnOversample {
		t.Errorf("after the re-index: rescore %+v", r)
	}
	if e.rescoreFor(e.alias, maxWindow) != nil {
		t.Error("rescore asked past the 10,000 window")
	}
	if e.rescoreFor(e.contactsAlias, 10) != nil {
		t.Error("the contacts' live index is still full precision")
	}
}

// TestRescoreGoldenBodies pins the kNN rankings sent to a quantized live
// index on Elasticsearch 8.18 or later.
func TestRescoreGoldenBodies(t *testing.T) {
	e := &Engine{alias: "t-companies", contactsAlias: "t-contacts", knnRescore: true}
	e.companiesQuantized.Store(true)
	e.contactsQuantized.Store(true)
	q := enginetest.ContactFixtures()[0].Vector
	page := mustSearch(t, index.Search{Vector: q, Limit: 10, MinSimilarity: 0.5, Filter: index.Terms{Field: index.CountryField, Values: []string{"US"}}})
	e.rescore(page.Knn, e.alias)
	golden(t, "search_knn_rescore", page)
	contacts := buildContactKnn(index.ContactSearch{Vector: q, PerCompany: 5, MaxCompanies: 100, Limit: 500}, matchAll(), 2000, 2000)
	e.rescore(contacts.Knn, e.contactsAlias)
	golden(t, "contact_search_knn_rescore", contacts)
	wide := mustSearch(t, index.Search{Vector: q, Limit: 5000})
	e.rescore(wide.Knn, e.alias)
	if wide.Knn.RescoreVector != nil {
		t.Errorf("k 5000 rescored: the oversampled window passes 10,000")
	}

	// 8.12-8.17: the script_score rescore.
	e.knnRescore = false
	page = mustSearch(t, index.Search{Vector: q, Limit: 10, MinSimilarity: 0.5, Filter: index.Terms{Field: index.CountryField, Values: []string{"US"}}})
	page.Rescore = e.rescore(page.Knn, e.alias)
	golden(t, "search_knn_script_rescore", page)
	contacts = buildContactKnn(index.ContactSearch{Vector: q, PerCompany: 5, MaxCompanies: 100, Limit: 500}, matchAll(), 2000, 2000)
	contacts.Rescore = e.rescore(contacts.Knn, e.contactsAlias)
	golden(t, "contact_search_knn_script_rescore", contacts)
	wide = mustSearch(t, index.Search{Vector: q, Limit: 5000})
	if r := e.rescore(wide.Knn, e.alias); r != nil || wide.Knn.K != 5000 {
		t.Errorf("k 5000 script-rescored (k now %d): the window passes 10,000", wide.Knn.K)
	}
}
