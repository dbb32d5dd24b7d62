package mappings

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestCompaniesRenders(t *testing.T) {
	cases := []struct {
		name    string
		p       CompaniesParams
		shards  int
		pattern string
		vecType string
	}{
		{"defaults", CompaniesParams{IndexPattern: "prospect-companies-v*", Dims: 256}, 1, "prospect-companies-v*", Int8HNSW},
		{"shards and small dims", CompaniesParams{IndexPattern: "x-companies-v*", Dims: 1, Shards: 6}, 6, "x-companies-v*", Int8HNSW},
		{"largest dims", CompaniesParams{IndexPattern: "p", Dims: MaxDims}, 1, "p", Int8HNSW},
		{"pattern is escaped", CompaniesParams{IndexPattern: `a"b\c`, Dims: 8}, 1, `a"b\c`, Int8HNSW},
		{"full precision for old clusters", CompaniesParams{IndexPattern: "p", Dims: 8, VectorIndex: HNSW}, 1, "p", HNSW},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, err := Companies(tc.p)
			if err != nil {
				t.Fatal(err)
			}
			var tmpl struct {
				IndexPatterns []string `json:"index_patterns"`
				Priority      int      `json:"priority"`
				Meta          struct {
					MappingVersion int `json:"mapping_version"`
				} `json:"_meta"`
				Template struct {
					Settings struct {
						Index struct {
							Shards int `json:"number_of_shards"`
						} `json:"index"`
						Analysis struct {
							Analyzer map[string]struct {
								Filter []string `json:"filter"`
							} `json:"analyzer"`
						} `json:"analysis"`
					} `json:"settings"`
					Mappings struct {
						Dynamic    bool `json:"dynamic"`
						Properties struct {
							Vector struct {
								Type         string `json:"type"`
								Dims         int    `json:"dims"`
								IndexOptions struct {
									Type string `json:"type"`
								} `json:"index_options"`
							} `json:"vector"`
						} `json:"properties"`
					} `json:"mappings"`
				} `json:"template"`
			}
			if err := json.Unmarshal(b, &tmpl); err != nil {
				t.Fatalf("rendered template does not decode: %v", err)
			}
			if len(tmpl.IndexPatterns) != 1 || tmpl.IndexPatterns[0] != tc.pattern {
				t.Errorf("index_patterns = %q, want [%q]", tmpl.IndexPatterns, tc.pattern)
			}
			if got := tmpl.Template.Mappings.Properties.Vector; got.Type != "dense_vector" || got.Dims != tc.p.Dims {
				t.Errorf("vector = %+v, want dense_vector of %d dims", got, tc.p.Dims)
			}
			if got := tmpl.Template.Mappings.Properties.Vector.IndexOptions.Type; got != tc.vecType {
				t.Errorf("index_options.type = %q, want %q", got, tc.vecType)
			}
			if tmpl.Template.Settings.Index.Shards != tc.shards {
				t.Errorf("shards = %d, want %d", tmpl.Template.Settings.Index.Shards, tc.shards)
			}
			if tmpl.Meta.MappingVersion != CompaniesVersion {
				t.Errorf("_meta.mapping_version = %d, want %d", tmpl.Meta.MappingVersion, CompaniesVersion)
			}
			// Built-in templates (logs-*-*, metrics-*-*) have priority 100:
			// ours must win for any prefix.
			if tmpl.Priority <= 100 {
				t.Errorf("priority %d does not beat the built-in templates", tmpl.Priority)
			}
			if f := tmpl.Template.Settings.Analysis.Analyzer["prospect_folding"].Filter; strings.Join(f, ",") != "lowercase,asciifolding" {
				t.Errorf("prospect_folding filters = %v", f)
			}
		})
	}
}

func TestCompaniesRejects(t *testing.T) {
	for _, p := range []CompaniesParams{
		{IndexPattern: "", Dims: 8},
		{IndexPattern: "p", Dims: 0},
		{IndexPattern: "p", Dims: -3},
		{IndexPattern: "p", Dims: MaxDims + 1},
		{IndexPattern: "p", Dims: 8, Shards: -1},
		{IndexPattern: "p", Dims: 8, VectorIndex: "bbq_hnsw"},
		{IndexPattern: "p", Dims: 8, VectorIndex: "HNSW"},
	} {
		if _, err := Companies(p); !errors.Is(err, ErrParams) {
			t.Errorf("Companies(%+v): err = %v, want ErrParams", p, err)
		}
	}
	if _, err := CompaniesVersioned(CompaniesVersion+1, CompaniesParams{IndexPattern: "p", Dims: 8}); err == nil {
		t.Error("an unknown version rendered")
	}
}

// TestEveryVersionRenders keeps released versions loadable: a re-index
// from an old generation may still need them.
func TestEveryVersionRenders(t *testing.T) {
	for v := 1; v <= CompaniesVersion; v++ {
		if _, err := CompaniesVersioned(v, CompaniesParams{IndexPattern: "p-v*", Dims: 3}); err != nil {
			t.Errorf("companies-v%d: %v", v, err)
		}
	}
	entries, err := files.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		var kind string
		var v int
		if _, err := fmt.Sscanf(strings.ReplaceAll(e.Name(), "-v", " "), "%s %d.json", &kind, &v); err != nil {
			t.Errorf("embedded file %s is not named <kind>-v<N>.json", e.Name())
		}
	}
}

func TestMeta(t *testing.T) {
	b, err := Meta()
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Mappings struct {
			Dynamic    string `json:"dynamic"`
			Properties map[string]struct {
				Type      string `json:"type"`
				DocValues *bool  `json:"doc_values"`
			} `json:"properties"`
		} `json:"mappings"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if m.Mappings.Dynamic != "strict" {
		t.Errorf("meta mapping dynamic = %q, want strict", m.Mappings.Dynamic)
	}
	data := m.Mappings.Properties["data"]
	if data.Type != "binary" || data.DocValues == nil || *data.DocValues {
		t.Errorf("model chunks must be a binary field without doc values: %+v", data)
	}
}

func TestContactsRenders(t *testing.T) {
	b, err := Contacts(ContactsParams{IndexPattern: "prospect-contacts-v*", Dims: 256, Shards: 3})
	if err != nil {
		t.Fatal(err)
	}
	type field struct {
		Type         string `json:"type"`
		Analyzer     string `json:"analyzer"`
		Dims         int    `json:"dims"`
		Index        *bool  `json:"index"`
		Similarity   string `json:"similarity"`
		IndexOptions struct {
			Type string `json:"type"`
		} `json:"index_options"`
	}
	var tmpl struct {
		IndexPatterns []string `json:"index_patterns"`
		Priority      int      `json:"priority"`
		Meta          struct {
			MappingVersion int `json:"mapping_version"`
		} `json:"_meta"`
		Template struct {
			Settings struct {
				Index struct {
					Shards int `json:"number_of_shards"`
				} `json:"index"`
			} `json:"settings"`
			Mappings struct {
				Dynamic    bool             `json:"dynamic"`
				Properties map[string]field `json:"properties"`
			} `json:"mappings"`
		} `json:"template"`
	}
	if err := json.Unmarshal(b, &tmpl); err != nil {
		t.Fatalf("rendered template does not decode: %v", err)
	}
	if len(tmpl.IndexPatterns) != 1 || tmpl.IndexPatterns[0] != "prospect-contacts-v*" || tmpl.Priority <= 100 {
		t.Errorf("index_patterns %q priority %d", tmpl.IndexPatterns, tmpl.Priority)
	}
	if tmpl.Meta.MappingVersion != ContactsVersion || tmpl.Template.Settings.Index.Shards != 3 || tmpl.Template.Mappings.Dynamic {
		t.Errorf("version %d shards %d dynamic %v", tmpl.Meta.MappingVersion, tmpl.Template.Settings.Index.Shards, tmpl.Template.Mappings.Dynamic)
	}
	props := tmpl.Template.Mappings.Properties
	if v := props["vector"]; v.Type != "dense_vector" || v.Dims != 256 || v.Index == nil || !*v.Index || v.Similarity != "cosine" || v.IndexOptions.Type != Int8HNSW {
		t.Errorf("vector = %+v", v)
	}
	for name, typ := range map[string]string{"persona_id": "long", "domain": "keyword", "seniority_rank": "byte",
		"connections": "integer", "jobstart_date": "date", "title": "text", "name_folded": "wildcard", "has_mobile": "boolean"} {
		if props[name].Type != typ {
			t.Errorf("%s mapped as %q, want %q", name, props[name].Type, typ)
		}
	}
	if props["title"].Analyzer != "prospect_folding" {
		t.Errorf("title analyzer %q", props["title"].Analyzer)
	}
	if _, err := Contacts(ContactsParams{IndexPattern: "p", Dims: 0}); !errors.Is(err, ErrParams) {
		t.Errorf("zero dims: %v", err)
	}
	if _, err := Contacts(ContactsParams{IndexPattern: "p", Dims: 8, VectorIndex: "int4_hnsw"}); !errors.Is(err, ErrParams) {
		t.Errorf("unknown vector index type: %v", err)
	}
	if _, err := ContactsVersioned(ContactsVersion+1, ContactsParams{IndexPattern: "p", Dims: 8}); err == nil {
		t.Error("an unknown version rendered")
	}
	for v := 1; v <= ContactsVersion; v++ {
		if _, err := ContactsVersioned(v, ContactsParams{IndexPattern: "p-v*", Dims: 3}); err != nil {
			t.Errorf("contacts-v%d: %v", v, err)
		}
	}
}

// TestVersionOneStaysFullPrecision pins the released version 1: indices
// created from it are re-indexed from its body, whatever VectorIndex says.
func TestVersionOneStaysFullPrecision(t *testing.T) {
	for name, render := range map[string]func() ([]byte, error){
		"companies": func() ([]byte, error) {
			return CompaniesVersioned(1, CompaniesParams{IndexPattern: "p", Dims: 8, VectorIndex: Int8HNSW})
		},
		"contacts": func() ([]byte, error) {
			return ContactsVersioned(1, ContactsParams{IndexPattern: "p", Dims: 8, VectorIndex: Int8HNSW})
		},
	} {
		b, err := render()
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), `"index_options": { "type": "hnsw"`) {
			t.Errorf("%s-v1 no longer maps full-precision hnsw", name)
		}
	}
}
