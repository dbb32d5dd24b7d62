package api

import (
	"bytes"
	"encoding/json"
	stdflag "flag"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/oapi-codegen/oapi-codegen/v2/pkg/codegen"
	"github.com/oapi-codegen/oapi-codegen/v2/pkg/util"
	"github.com/pb33f/libopenapi"
	"github.com/pb33f/libopenapi-validator/schema_validation"
	"go.yaml.in/yaml/v3"

	"github.com/openprospect/prospectd/export"
	"github.com/openprospect/prospectd/query"
)

// servedDocument fetches a document the server serves at path.
func servedDocument(t *testing.T, f fixture, path string) []byte {
	t.Helper()
	res, err := f.srv.App().Test(httptest.NewRequest(http.MethodGet, path, nil), -1)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, res.StatusCode, b)
	}
	return b
}

// openAPIDoc is the part of the document the coverage tests read.
type openAPIDoc struct {
	OpenAPI string                                `json:"openapi"`
	Paths   map[string]map[string]json.RawMessage `json:"paths"`
}

type docOperation struct {
	OperationID string `json:"operationId"`
	Parameters  []struct {
		Name string `json:"name"`
		In   string `json:"in"`
	} `json:"parameters"`
	RequestBody struct {
		Content map[string]struct {
			Schema json.RawMessage `json:"schema"`
		} `json:"content"`
	} `json:"requestBody"`
}

func (d openAPIDoc) operation(t *testing.T, method, path string) docOperation {
	t.Helper()
	raw, ok := d.Paths[path][strings.ToLower(method)]
	if !ok {
		t.Fatalf("%s %s is not in the document", method, path)
	}
	var op docOperation
	if err := json.Unmarshal(raw, &op); err != nil {
		t.Fatal(err)
	}
	return op
}

// TestOpenAPIDocumentValid validates the served 3.1 document (and the 3.0
// downgrade the client generator reads) with libopenapi's validator
// against the OpenAPI JSON Schemas, and builds its model (which resolves
// every $ref).
func TestOpenAPIDocumentValid(t *testing.T) {
	f := contactFixture(t)
	for name, b := range map[string][]byte{
		"3.1 /v1/openapi.json":       servedDocument(t, f, "/v1/openapi.json"),
		"3.0 apiclient/openapi.json": clientDocument(t, f),
	} {
		t.Run(name, func(t *testing.T) {
			doc, err := libopenapi.NewDocument(b)
			if err != nil {
				t.Fatal(err)
			}
			if ok, errs := schema_validation.ValidateOpenAPIDocument(doc); !ok {
				for _, e := range errs {
					t.Errorf("%s", e.Error())
					for _, se := range e.SchemaValidationErrors {
						t.Errorf("  %s: %s", se.FieldPath, se.Reason)
					}
				}
			}
			if _, err := doc.BuildV3Model(); err != nil {
				t.Errorf("build model: %v", err)
			}
		})
	}
}

var updateClient = stdflag.Bool("update-client", false, "rewrite apiclient/openapi.json from the served document (go generate ./api/apiclient)")

// clientDocument is the generator's input: the served document downgraded
// to OpenAPI 3.0 by Huma (/v1/openapi-3.0.json), without the
// contentMediaType Huma writes beside `format: binary` on file parts and
// keeps in the downgrade although 3.0 has no such keyword, and with
// nullable additional properties untyped (a generator bug, below).
func clientDocument(t *testing.T, f fixture) []byte {
	t.Helper()
	var v any
	if err := json.Unmarshal(servedDocument(t, f, "/v1/openapi-3.0.json"), &v); err != nil {
		t.Fatal(err)
	}
	var strip func(any)
	strip = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if x["format"] == "binary" {
				delete(x, "contentMediaType")
				delete(x, "contentEncoding")
			}
			// oapi-codegen types nullable additional properties as
			// map[string]*T but its accessors as T, which does not compile
			// (v2.8.2); the generator gets them untyped.
			if ap, ok := x["additionalProperties"].(map[string]any); ok && ap["nullable"] == true {
				x["additionalProperties"] = map[string]any{"description": ap["description"]}
			}
			for _, e := range x {
				strip(e)
			}
		case []any:
			for _, e := range x {
				strip(e)
			}
		}
	}
	strip(v)
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// TestGeneratedClientUpToDate: apiclient/openapi.json is the document the
// server serves now, and apiclient/client.gen.go is what oapi-codegen
// generates from it with apiclient/oapi-codegen.yaml. With -update-client
// it rewrites openapi.json instead (go generate ./api/apiclient then
// regenerates the client).
func TestGeneratedClientUpToDate(t *testing.T) {
	f := contactFixture(t)
	doc := clientDocument(t, f)
	docPath := filepath.Join("apiclient", "openapi.json")
	if *updateClient {
		if err := os.WriteFile(docPath, doc, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	committed, err := os.ReadFile(docPath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(committed, doc) {
		t.Fatalf("%s differs from the served document: run go generate ./api/apiclient", docPath)
	}
	cfgFile, err := os.ReadFile(filepath.Join("apiclient", "oapi-codegen.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		codegen.Configuration `yaml:",inline"`
		Output                string `yaml:"output"`
	}
	if err := yaml.Unmarshal(cfgFile, &cfg); err != nil {
		t.Fatal(err)
	}
	spec, err := util.LoadSwagger(docPath)
	if err != nil {
		t.Fatal(err)
	}
	code, err := codegen.Generate(spec, cfg.Configuration)
	if err != nil {
		t.Fatal(err)
	}
	gen, err := os.ReadFile(filepath.Join("apiclient", cfg.Output))
	if err != nil {
		t.Fatal(err)
	}
	// The header names the generator's version, which only the command
	// knows (as a library it reports the main module's).
	header := regexp.MustCompile(`(?m)^// Code generated by .* DO NOT EDIT\.$`)
	if header.ReplaceAllString(string(gen), "") != header.ReplaceAllString(code, "") {
		t.Fatalf("apiclient/%s is not what oapi-codegen generates from openapi.json: run go generate ./api/apiclient", cfg.Output)
	}
}

// fiberParam turns Fiber's :name path parameters into OpenAPI's {name}.
var fiberParam = regexp.MustCompile(`:([A-Za-z_][A-Za-z0-9_]*)`)

// selfDocRoutes serve the document itself and are not operations of it.
var selfDocRoutes = regexp.MustCompile(`^/v1/(openapi(-3\.0)?\.(json|yaml)|docs|schemas/.*)$`)

// TestOpenAPIDeclaresEveryRoute: every method and path the Fiber app
// routes is an operation of the document, so a route added without Huma
// (or removed from it) fails here.
func TestOpenAPIDeclaresEveryRoute(t *testing.T) {
	f := contactFixture(t)
	var doc openAPIDoc
	if err := json.Unmarshal(servedDocument(t, f, "/v1/openapi.json"), &doc); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(doc.OpenAPI, "3.1") {
		t.Errorf("openapi %q, want 3.1.x", doc.OpenAPI)
	}
	served := 0
	for _, r := range f.srv.App().GetRoutes(true) {
		if r.Method == http.MethodHead || r.Method == http.MethodOptions || selfDocRoutes.MatchString(r.Path) {
			continue
		}
		served++
		path := fiberParam.ReplaceAllString(r.Path, "{$1}")
		if _, ok := doc.Paths[path][strings.ToLower(r.Method)]; !ok {
			t.Errorf("%s %s is served but not in /v1/openapi.json", r.Method, path)
		}
	}
	declared := 0
	for _, ops := range doc.Paths {
		declared += len(ops)
	}
	if served != declared || served < 15 {
		t.Errorf("%d routes served, %d operations declared", served, declared)
	}

	// Task status operations declare their results' type (taskResults).
	for path, ops := range doc.Paths {
		if !strings.Contains(path, "/status/{task_id}") {
			continue
		}
		var op struct {
			OperationID string `json:"operationId"`
			Responses   map[string]struct {
				Content map[string]struct {
					Schema struct {
						Ref string `json:"$ref"`
					} `json:"schema"`
				} `json:"content"`
			} `json:"responses"`
		}
		if err := json.Unmarshal(ops["get"], &op); err != nil {
			t.Fatal(err)
		}
		if ref := op.Responses["200"].Content["application/json"].Schema.Ref; ref == "" || strings.HasSuffix(ref, "/TaskStatusBody") {
			t.Errorf("%s (%s): results untyped (%q); add the operation to taskResults", path, op.OperationID, ref)
		}
	}
}

// TestOpenAPIDeclaresEveryParameter: the operations parsed from a
// query.ParamTable declare exactly the table's parameters (query string,
// or body properties for POST /v1/contacts/discover), and the upload forms
// name `file` as binary with the fields the handlers read.
func TestOpenAPIDeclaresEveryParameter(t *testing.T) {
	f := contactFixture(t)
	var doc openAPIDoc
	if err := json.Unmarshal(servedDocument(t, f, "/v1/openapi.json"), &doc); err != nil {
		t.Fatal(err)
	}
	queryNames := func(op docOperation) []string {
		var out []string
		for _, p := range op.Parameters {
			if p.In == "query" {
				out = append(out, p.Name)
			}
		}
		slices.Sort(out)
		return out
	}
	sorted := func(t query.ParamTable) []string {
		n := t.Names()
		slices.Sort(n)
		return n
	}
	for _, tc := range []struct {
		method, path string
		table        query.ParamTable
	}{
		{"GET", "/v1/discover", query.DiscoverTable},
		{"GET", "/v1/count", query.DiscoverTable},
		{"GET", "/v1/contacts", query.ContactTable},
		{"GET", "/v1/contacts/count", query.ContactTable},
		{"POST", "/v1/exports/discover", export.DiscoverTable},
		{"POST", "/v1/exports/contacts", export.ContactTable},
	} {
		got := queryNames(doc.operation(t, tc.method, tc.path))
		if want := sorted(tc.table); !slices.Equal(got, want) {
			t.Errorf("%s %s declares %v, the parser reads %v", tc.method, tc.path, got, want)
		}
	}
	if n := len(query.DiscoverTable); n != 43 {
		t.Errorf("%d discovery parameters, the spec has 43", n)
	}

	var components struct {
		Components struct {
			Schemas map[string]struct {
				Properties           map[string]json.RawMessage `json:"properties"`
				AdditionalProperties json.RawMessage            `json:"additionalProperties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	b := servedDocument(t, f, "/v1/openapi.json")
	if err := json.Unmarshal(b, &components); err != nil {
		t.Fatal(err)
	}
	op := doc.operation(t, "POST", "/v1/contacts/discover")
	if ct := op.RequestBody.Content; len(ct) != 1 || !strings.Contains(string(ct["application/json"].Schema), "ContactDiscoverRequest") {
		t.Errorf("contacts discover body: %v", ct)
	}
	body := components.Components.Schemas["ContactDiscoverRequest"]
	var props []string
	for k := range body.Properties {
		props = append(props, k)
	}
	slices.Sort(props)
	if want := sorted(query.ContactTable); !slices.Equal(props, want) {
		t.Errorf("ContactDiscoverRequest declares %v, the parser reads %v", props, want)
	}
	if string(body.AdditionalProperties) != "false" {
		t.Error("ContactDiscoverRequest must refuse unknown properties")
	}

	// segment and append take saved query_id values instead of a file, so
	// there the file is optional (the handler asks for one or the other).
	for _, tc := range []struct {
		path     string
		fields   []string
		required bool
	}{
		{"/v1/segment", []string{"domain_column", "file", "max_segments", "query_id"}, false},
		{"/v1/append", []string{"csv", "dataset", "domain_column", "file", "query_id"}, false},
		{"/v1/bulkmatch", []string{"city_column", "country_column", "file", "min_match_confidence", "name_column", "phone_column", "state_column", "zip_code_column"}, true},
	} {
		op := doc.operation(t, "POST", tc.path)
		var form struct {
			Properties map[string]struct {
				Type   any    `json:"type"`
				Format string `json:"format"`
			} `json:"properties"`
			Required []string `json:"required"`
		}
		if err := json.Unmarshal(op.RequestBody.Content["multipart/form-data"].Schema, &form); err != nil {
			t.Fatalf("%s: %v", tc.path, err)
		}
		var got []string
		for k := range form.Properties {
			got = append(got, k)
		}
		slices.Sort(got)
		if !slices.Equal(got, tc.fields) {
			t.Errorf("%s form fields %v, want %v", tc.path, got, tc.fields)
		}
		if p := form.Properties["file"]; p.Type != "string" || p.Format != "binary" || slices.Contains(form.Required, "file") != tc.required {
			t.Errorf("%s: file is %+v, required %v", tc.path, p, form.Required)
		}
	}
}
