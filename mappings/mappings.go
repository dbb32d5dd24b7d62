// Package mappings owns the Elasticsearch index definitions: versioned JSON
// files embedded in the binary (companies-vN.json and contacts-vN.json are
// composable index template bodies, meta-vN.json a create-index body), rendered with
// text/template for the values only known at run time (index pattern, vector
// dimension, shard count).
//
// A mapping change is a new file with the next version number, never an edit
// of a released one: indices created from the old file keep its mapping, and
// index/elastic's Reindex copies them into an index built from the new one
// and swaps the alias.
package mappings

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"text/template"
)

//go:embed *.json
var files embed.FS

// Current versions of the embedded definitions.
const (
	CompaniesVersion = 2
	ContactsVersion  = 2
	MetaVersion      = 1
)

// MaxDims is the largest dense_vector dimension Elasticsearch 8 indexes.
const MaxDims = 4096

// Vector index types (dense_vector index_options.type) the templates
// accept from version 2 on. Int8HNSW, the default, keeps a 7-bit scalar
// quantized copy of each vector for the HNSW graph (dims+4 bytes a vector
// in memory instead of 4·dims; Elasticsearch 8.12 or later); HNSW is the
// full-precision type, for clusters older than 8.12. docs/decisions.md
// "Elasticsearch quantized vectors (issue 24)" has the measured recall.
const (
	HNSW     = "hnsw"
	Int8HNSW = "int8_hnsw"
)

// ErrParams reports template parameters that cannot produce a valid mapping.
var ErrParams = errors.New("invalid mapping parameters")

// CompaniesParams fill the companies index template.
type CompaniesParams struct {
	// IndexPattern is the concrete index names the template applies to,
	// for example "prospect-companies-v*".
	IndexPattern string
	// Dims is the dimension of the dense_vector field.
	Dims int
	// Shards is the primary shard count of new indices; 0 means 1.
	Shards int
	// VectorIndex is the dense_vector index type, HNSW or Int8HNSW; ""
	// means Int8HNSW. Version 1 ignores it (always full-precision hnsw).
	VectorIndex string
}

// Companies returns the companies index template body of the current
// version, rendered with p.
func Companies(p CompaniesParams) ([]byte, error) {
	return CompaniesVersioned(CompaniesVersion, p)
}

// CompaniesVersioned renders the companies template of a given version.
func CompaniesVersioned(version int, p CompaniesParams) ([]byte, error) {
	p, err := p.check()
	if err != nil {
		return nil, err
	}
	return render(fmt.Sprintf("companies-v%d.json", version), p)
}

// check validates the parameters and fills the defaults.
func (p CompaniesParams) check() (CompaniesParams, error) {
	if p.IndexPattern == "" {
		return p, fmt.Errorf("%w: empty index pattern", ErrParams)
	}
	if p.Dims < 1 || p.Dims > MaxDims {
		return p, fmt.Errorf("%w: vector dimension %d outside 1..%d", ErrParams, p.Dims, MaxDims)
	}
	if p.Shards == 0 {
		p.Shards = 1
	}
	if p.Shards < 0 {
		return p, fmt.Errorf("%w: %d shards", ErrParams, p.Shards)
	}
	switch p.VectorIndex {
	case "":
		p.VectorIndex = Int8HNSW
	case HNSW, Int8HNSW:
	default:
		return p, fmt.Errorf("%w: vector index type %q is not %s or %s", ErrParams, p.VectorIndex, HNSW, Int8HNSW)
	}
	return p, nil
}

// ContactsParams fill the contacts index template: the concrete index
// names it applies to (for example "prospect-contacts-v*"), the
// dense_vector dimension (the companies one: contacts and companies are
// embedded by the same embedder), the primary shard count (0 means 1) and
// the vector index type (as CompaniesParams.VectorIndex).
type ContactsParams struct {
	IndexPattern string
	Dims         int
	Shards       int
	VectorIndex  string
}

// Contacts returns the contacts index template body of the current
// version, rendered with p.
func Contacts(p ContactsParams) ([]byte, error) {
	return ContactsVersioned(ContactsVersion, p)
}

// ContactsVersioned renders the contacts template of a given version.
func ContactsVersioned(version int, p ContactsParams) ([]byte, error) {
	c, err := CompaniesParams(p).check()
	if err != nil {
		return nil, err
	}
	return render(fmt.Sprintf("contacts-v%d.json", version), ContactsParams(c))
}

// Meta returns the create-index body of the metadata index.
func Meta() ([]byte, error) {
	return render(fmt.Sprintf("meta-v%d.json", MetaVersion), nil)
}

// render executes one embedded file as a text/template and checks that the
// result is JSON. Strings are inserted through the json function so a value
// can never break out of its JSON string.
func render(name string, data any) ([]byte, error) {
	src, err := files.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("mapping %s: %w", name, err)
	}
	t, err := template.New(name).Option("missingkey=error").Funcs(template.FuncMap{
		"json": func(v any) (string, error) {
			b, err := json.Marshal(v)
			return string(b), err
		},
	}).Parse(string(src))
	if err != nil {
		return nil, fmt.Errorf("parse mapping %s: %w", name, err)
	}
	var out bytes.Buffer
	if err := t.Execute(&out, data); err != nil {
		return nil, fmt.Errorf("render mapping %s: %w", name, err)
	}
	if !json.Valid(out.Bytes()) {
		return nil, fmt.Errorf("render mapping %s: result is not valid JSON", name)
	}
	return out.Bytes(), nil
}
