// Package elastic is the Elasticsearch 8 backend of index.Engine, for the
// scaled-out tier. It owns the index layout on the cluster (an index template
// rendered from package mappings, a versioned concrete index behind an alias,
// a metadata index), the translation of index filters into the query DSL
// (query.go) and the bulk write path.
//
// Layout, for the default prefix "prospect":
//
//	_index_template/prospect-companies   template for prospect-companies-v*
//	prospect-companies                   alias every read and write goes through
//	prospect-companies-v1                the concrete index (next: -v2 after Reindex)
//	_index_template/prospect-contacts    template for prospect-contacts-v*
//	prospect-contacts                    alias of the contact index (contacts.go)
//	prospect-contacts-v1                 its concrete index (next: -v2 after ReindexContacts)
//	prospect-meta                        embedder metadata and model chunks
//
// Writes are visible to searches after Refresh or the index refresh interval
// (1s); gets are real-time.
package elastic

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/elastic/go-elasticsearch/v8"
	"github.com/elastic/go-elasticsearch/v8/esapi"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/mappings"
)

var _ index.Engine = (*Engine)(nil)

// Config selects the cluster and the index names.
type Config struct {
	// URL is the address of one node; Addresses lists several. At least one
	// of them is required.
	URL       string
	Addresses []string
	// IndexPrefix starts every index, alias and template name; default
	// "prospect". Lower case letters, digits, '.', '_' and '-'.
	IndexPrefix string
	// Username and Password (basic auth) or APIKey (base64 "id:key"),
	// optional.
	Username, Password string
	APIKey             string
	// Dimension is the vector dimension of the companies index; it renders
	// the mapping and must match an existing index.
	Dimension int
	// Shards is the primary shard count of new company indices; 0 means 1.
	Shards int
}

// DefaultIndexPrefix is the prefix used when Config.IndexPrefix is empty.
const DefaultIndexPrefix = "prospect"

// maxWindow is the deepest result Elasticsearch pages to: from+size of a
// search (index.max_result_window) and k and num_candidates of a kNN search
// are all capped at 10,000.
const maxWindow = 10000

// Engine is an index.Engine on an Elasticsearch 8 cluster. It is safe for
// concurrent use; it holds no state besides the client and names, so any
// number of processes may share one cluster.
type Engine struct {
	es        *elasticsearch.Client
	prefix    string
	alias     string // <prefix>-companies, what reads and writes address
	template  string // index template name
	metaIndex string // <prefix>-meta
	// contactsAlias (<prefix>-contacts) and contactsTemplate are the
	// contact index's; same layout, same vector dimension.
	contactsAlias    string
	contactsTemplate string
	dim              int
	shards           int
	// vectorIndex is the dense_vector index type of the generations this
	// process creates (mappings.Int8HNSW from Elasticsearch 8.12,
	// mappings.HNSW before); knnRescore, whether the server takes a kNN
	// rescore_vector (8.18).
	vectorIndex string
	knnRescore  bool
	// quantized reports, per alias, whether the live index behind it has
	// quantized vectors, so its kNN rankings ask for a rescore with the
	// float vectors (read at start and after this process moves an alias).
	companiesQuantized, contactsQuantized atomic.Bool
	closeOnce                             sync.Once
	closeErr                              error

	// refit is this process's refit under way (refit.go).
	refitMu sync.Mutex
	refit   *refitState
	embID   embedderIDCache
}

var prefixRE = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*$`)

// New connects to the cluster, checks it runs Elasticsearch 8 (8.8 or later),
// installs (or updates) the companies and contacts index templates, makes
// sure each alias points at a concrete index whose vector dimension is
// cfg.Dimension, and creates the metadata index when missing. Several
// processes may run New at once.
func New(ctx context.Context, cfg Config) (*Engine, error) {
	addrs := append([]string(nil), cfg.Addresses...)
	if cfg.URL != "" {
		addrs = append([]string{cfg.URL}, addrs...)
	}
	if len(addrs) == 0 {
		return nil, fmt.Errorf("elasticsearch: %w: no URL", index.ErrInvalid)
	}
	prefix := cfg.IndexPrefix
	if prefix == "" {
		prefix = DefaultIndexPrefix
	}
	if !prefixRE.MatchString(prefix) {
		return nil, fmt.Errorf("elasticsearch: %w: index prefix %q (use lower case letters, digits, '.', '_', '-')", index.ErrInvalid, prefix)
	}
	if cfg.Dimension < 1 || cfg.Dimension > mappings.MaxDims {
		return nil, fmt.Errorf("elasticsearch: %w: vector dimension %d outside 1..%d", index.ErrInvalid, cfg.Dimension, mappings.MaxDims)
	}
	if cfg.Shards < 0 {
		return nil, fmt.Errorf("elasticsearch: %w: %d shards", index.ErrInvalid, cfg.Shards)
	}
	es, err := elasticsearch.NewClient(elasticsearch.Config{
		Addresses: addrs,
		Username:  cfg.Username,
		Password:  cfg.Password,
		APIKey:    cfg.APIKey,
		// 429 is the cluster shedding load: worth a retry, like the
		// gateway errors retried by default.
		RetryOnStatus: []int{429, 502, 503, 504},
		MaxRetries:    3,
		RetryBackoff:  func(attempt int) time.Duration { return time.Duration(attempt*attempt) * 100 * time.Millisecond },
	})
	if err != nil {
		return nil, fmt.Errorf("elasticsearch client: %w", err)
	}
	e := &Engine{
		es:        es,
		prefix:    prefix,
		alias:     prefix + "-companies",
		template:  prefix + "-companies",
		metaIndex: prefix + "-meta",
		dim:       cfg.Dimension,
		shards:    cfg.Shards,

		contactsAlias:    prefix + "-contacts",
		contactsTemplate: prefix + "-contacts",
	}
	if err := e.setup(ctx); err != nil {
		e.Close()
		return nil, err
	}
	return e, nil
}

func (e *Engine) setup(ctx context.Context) error {
	if err := e.checkVersion(ctx); err != nil {
		return err
	}
	for _, kind := range []indexKind{e.companies(), e.contacts()} {
		if err := e.installTemplateOf(ctx, kind); err != nil {
			return err
		}
		live, err := e.ensureAliasOf(ctx, kind.alias)
		if err != nil {
			return err
		}
		dims, typ, err := e.vectorField(ctx, live)
		if err != nil {
			return err
		}
		e.quantizedFlag(kind.alias).Store(quantizedType(typ))
		if dims != e.dim {
			return fmt.Errorf("elasticsearch: %w: index %s holds %d-dim vectors, configured dimension is %d "+
				"(vectors of another dimension need a re-ingest into a new prefix)", index.ErrVectorMismatch, live, dims, e.dim)
		}
	}
	return e.ensureMetaIndex(ctx)
}

// indexKind is one of the two versioned, aliased indices (companies,
// contacts): its alias, its template's name and body.
type indexKind struct {
	alias, template string
	body            func() ([]byte, error)
}

func (e *Engine) companies() indexKind {
	return indexKind{alias: e.alias, template: e.template, body: e.templateBody}
}

func (e *Engine) contacts() indexKind {
	return indexKind{alias: e.contactsAlias, template: e.contactsTemplate, body: e.contactsTemplateBody}
}

// Name implements index.Engine.
func (e *Engine) Name() string { return "elasticsearch" }

// Alias returns the alias every read and write goes through.
func (e *Engine) Alias() string { return e.alias }

// Close releases the client's connections; calling it again is a no-op.
func (e *Engine) Close() error {
	e.closeOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		e.closeErr = e.es.Close(ctx)
	})
	return e.closeErr
}

// Health implements index.Engine: the companies index must be at least
// yellow (all primaries allocated).
func (e *Engine) Health(ctx context.Context) error {
	var h struct {
		Status string `json:"status"`
	}
	if err := e.call(ctx, "cluster health", esapi.ClusterHealthRequest{Index: []string{e.alias}}, &h); err != nil {
		return err
	}
	if h.Status == "red" {
		return fmt.Errorf("elasticsearch: index %s is red (a primary shard is unassigned)", e.alias)
	}
	return nil
}

// Refresh implements index.Engine, for the companies and the contacts.
func (e *Engine) Refresh(ctx context.Context) error {
	return e.call(ctx, "refresh "+e.alias+", "+e.contactsAlias, esapi.IndicesRefreshRequest{Index: []string{e.alias, e.contactsAlias}}, nil)
}

func (e *Engine) checkVersion(ctx context.Context) error {
	var info struct {
		Version struct {
			Number string `json:"number"`
		} `json:"version"`
	}
	if err := e.call(ctx, "ping", esapi.InfoRequest{}, &info); err != nil {
		return err
	}
	parts := strings.SplitN(info.Version.Number, ".", 3)
	major, err1 := strconv.Atoi(parts[0])
	minor, err2 := 0, error(nil)
	if len(parts) > 1 {
		minor, err2 = strconv.Atoi(parts[1])
	}
	if err1 != nil || err2 != nil {
		return fmt.Errorf("elasticsearch: unreadable version %q", info.Version.Number)
	}
	// 8.8 brought the kNN similarity threshold (8.4 the top-level knn
	// section with filters). 9.2 stops returning vectors in _source by
	// default, which CompanyVectors and Reindex rely on; 9.x is refused
	// until this backend is tested against it.
	if major != 8 || minor < 8 {
		return fmt.Errorf("elasticsearch: %w: version %s; this backend needs Elasticsearch 8.8 to 8.x", index.ErrUnsupported, info.Version.Number)
	}
	// int8_hnsw came with 8.12, the kNN search's rescore_vector with 8.18.
	e.vectorIndex, e.knnRescore = mappings.HNSW, minor >= 18
	if minor >= 12 {
		e.vectorIndex = mappings.Int8HNSW
	}
	return nil
}

// knnOversample is the kNN rescore_vector oversample on quantized indices:
// the top 3k by the int8 estimate are rescored with the float vectors.
// Simulated on 100,000 demo companies it lifts int8's recall@10 from
// 0.82 to 0.965 (docs/decisions.md, "Elasticsearch quantized vectors
// (issue 24)").
const knnOversample = 3

// rescoreVector is a kNN search's rescore_vector section.
type rescoreVector struct {
	Oversample float64 `json:"oversample"`
}

// rescoreFor returns the rescore_vector of a kNN ranking of k hits on
// alias: nil when the server predates it, the live index is not quantized,
// or the oversampled window would pass Elasticsearch's 10,000.
func (e *Engine) rescoreFor(alias string, k int) *rescoreVector {
	if !e.knnRescore || !e.quantizedFlag(alias).Load() || k*knnOversample > maxWindow {
		return nil
	}
	return &rescoreVector{Oversample: knnOversample}
}

// rescore makes a kNN ranking on a quantized live index rescore its top
// k·knnOversample estimates with the float vectors. From 8.18 that is the
// knn section's rescore_vector (num_candidates widened to the window);
// on 8.12-8.17, which have int8_hnsw but not rescore_vector, the kNN
// gathers the window itself (k widened) and the returned top-level rescore
// section recomputes the cosine with a script over the float vectors the
// int8 field keeps, which is what rescore_vector does inside the server.
// It returns nil when no top-level rescore is needed.
func (e *Engine) rescore(k *knnSection, alias string) *rescoreSection {
	if k.RescoreVector = e.rescoreFor(alias, k.K); k.RescoreVector != nil {
		k.NumCandidates = max(k.NumCandidates, k.K*knnOversample)
		return nil
	}
	if e.knnRescore || !e.quantizedFlag(alias).Load() || k.K*knnOversample > maxWindow {
		return nil
	}
	k.K *= knnOversample
	k.NumCandidates = max(k.NumCandidates, k.K)
	return scriptRescore(k.Field, k.QueryVector, k.K)
}

// cosineScript is the kNN _score of a cosine field, (1 + cos) / 2, from the
// float vectors, so a rescored hit's score converts back the same way
// (cosineFromScore). The field is a literal, as Elasticsearch's examples
// write it, so the script compiles once per field.
func cosineScript(field string) string {
	return fmt.Sprintf("(cosineSimilarity(params.query_vector, '%s') + 1.0) / 2.0", field)
}

// scriptRescore is the top-level rescore that replaces the window's
// scores by cosineScript's (query_weight 0: the int8 estimate is dropped).
func scriptRescore(field string, q []float32, window int) *rescoreSection {
	return &rescoreSection{
		WindowSize: window,
		Query: rescoreQuery{
			RescoreQuery: scriptScoreQuery{ScriptScore: scriptScore{
				Query: matchAll(),
				Script: scriptSource{Lang: "painless", Source: cosineScript(field),
					Params: map[string]any{"query_vector": q}},
			}},
			QueryWeight:        0,
			RescoreQueryWeight: 1,
		},
	}
}

// rescoreSection is a search request's top-level query rescorer.
type rescoreSection struct {
	WindowSize int          `json:"window_size"`
	Query      rescoreQuery `json:"query"`
}

type rescoreQuery struct {
	RescoreQuery       scriptScoreQuery `json:"rescore_query"`
	QueryWeight        float64          `json:"query_weight"`
	RescoreQueryWeight float64          `json:"rescore_query_weight"`
}

type scriptScoreQuery struct {
	ScriptScore scriptScore `json:"script_score"`
}

type scriptScore struct {
	Query  esQuery      `json:"query"`
	Script scriptSource `json:"script"`
}

func (e *Engine) quantizedFlag(alias string) *atomic.Bool {
	if alias == e.contactsAlias {
		return &e.contactsQuantized
	}
	return &e.companiesQuantized
}

// quantizedType reports whether a dense_vector index type quantizes.
func quantizedType(typ string) bool {
	return strings.HasPrefix(typ, "int8_") || strings.HasPrefix(typ, "int4_") || strings.HasPrefix(typ, "bbq_")
}

// noteLiveIndex records whether the index an alias now points at is
// quantized. A failure keeps the previous answer: it only decides whether
// kNN rankings ask for a rescore.
func (e *Engine) noteLiveIndex(ctx context.Context, alias, name string) {
	if _, typ, err := e.vectorField(ctx, name); err == nil {
		e.quantizedFlag(alias).Store(quantizedType(typ))
	}
}

func (e *Engine) templateBody() ([]byte, error) {
	return mappings.Companies(mappings.CompaniesParams{IndexPattern: e.alias + "-v*", Dims: e.dim, Shards: e.shards, VectorIndex: e.vectorIndex})
}

func (e *Engine) contactsTemplateBody() ([]byte, error) {
	return mappings.Contacts(mappings.ContactsParams{IndexPattern: e.contactsAlias + "-v*", Dims: e.dim, Shards: e.shards, VectorIndex: e.vectorIndex})
}

// installTemplate puts the current companies template; it only shapes
// indices created afterwards (a new generation), never the live one.
func (e *Engine) installTemplate(ctx context.Context) error {
	return e.installTemplateOf(ctx, e.companies())
}

func (e *Engine) installTemplateOf(ctx context.Context, kind indexKind) error {
	body, err := kind.body()
	if err != nil {
		return fmt.Errorf("elasticsearch: %w", err)
	}
	return e.call(ctx, "put index template "+kind.template,
		esapi.IndicesPutIndexTemplateRequest{Name: kind.template, Body: bytes.NewReader(body)}, nil)
}

// generationIndex names generation n of the index behind alias.
func generationIndex(alias string, n int) string { return fmt.Sprintf("%s-v%d", alias, n) }

// generationOf parses the generation number of a concrete index name.
func generationOf(alias, name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, alias+"-v")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(rest)
	return n, err == nil && n > 0 && strconv.Itoa(n) == rest
}

// liveIndex returns the concrete index behind the companies alias, ""
// when the alias does not exist.
func (e *Engine) liveIndex(ctx context.Context) (string, error) { return e.liveIndexOf(ctx, e.alias) }

// liveIndexOf returns the concrete index behind alias, "" when the alias
// does not exist.
func (e *Engine) liveIndexOf(ctx context.Context, alias string) (string, error) {
	var byIndex map[string]json.RawMessage
	err := e.call(ctx, "get alias "+alias, esapi.IndicesGetAliasRequest{Name: []string{alias}}, &byIndex)
	if isStatus(err, 404) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	switch len(byIndex) {
	case 0:
		return "", nil
	case 1:
		for name := range byIndex {
			return name, nil
		}
	}
	names := make([]string, 0, len(byIndex))
	for name := range byIndex {
		names = append(names, name)
	}
	return "", fmt.Errorf("elasticsearch: alias %s points at %d indices %v; it must point at one (fix with the _aliases API)", alias, len(names), names)
}

// ensureAliasOf makes the alias point at a concrete index, creating
// generation 1 with the alias when neither exists. A concurrent New may win
// the creation; then the alias is found on the second look.
func (e *Engine) ensureAliasOf(ctx context.Context, alias string) (string, error) {
	live, err := e.liveIndexOf(ctx, alias)
	if err != nil || live != "" {
		return live, err
	}
	first := generationIndex(alias, 1)
	body, _ := json.Marshal(createWithAlias{Aliases: map[string]struct{}{alias: {}}})
	err = e.call(ctx, "create index "+first, esapi.IndicesCreateRequest{Index: first, Body: bytes.NewReader(body)}, nil)
	switch {
	case err == nil:
		return first, nil
	case !isType(err, "resource_already_exists_exception"):
		return "", err
	}
	if live, err = e.liveIndexOf(ctx, alias); err != nil || live != "" {
		return live, err
	}
	// The index exists without the alias (created by hand, or the alias was
	// removed): attach it.
	if err := e.updateAliases(ctx, aliasActions{Actions: []aliasAction{{Add: &aliasRef{Index: first, Alias: alias}}}}); err != nil {
		return "", err
	}
	return first, nil
}

// createWithAlias is a create-index body that only adds aliases; settings
// and mappings come from the index template.
type createWithAlias struct {
	Aliases map[string]struct{} `json:"aliases"`
}

// vectorField reads the dense_vector dimension and index type (hnsw,
// int8_hnsw...) of a concrete index.
func (e *Engine) vectorField(ctx context.Context, name string) (int, string, error) {
	var m map[string]struct {
		Mappings struct {
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
	}
	if err := e.call(ctx, "get mapping of "+name, esapi.IndicesGetMappingRequest{Index: []string{name}}, &m); err != nil {
		return 0, "", err
	}
	v, ok := m[name]
	if !ok || v.Mappings.Properties.Vector.Type != "dense_vector" {
		return 0, "", fmt.Errorf("elasticsearch: index %s has no dense_vector field \"vector\"; it was not created from the prospectd template", name)
	}
	return v.Mappings.Properties.Vector.Dims, v.Mappings.Properties.Vector.IndexOptions.Type, nil
}

func (e *Engine) ensureMetaIndex(ctx context.Context) error {
	body, err := mappings.Meta()
	if err != nil {
		return fmt.Errorf("elasticsearch: %w", err)
	}
	err = e.call(ctx, "create index "+e.metaIndex, esapi.IndicesCreateRequest{Index: e.metaIndex, Body: bytes.NewReader(body)}, nil)
	if isType(err, "resource_already_exists_exception") {
		return nil
	}
	return err
}

func (e *Engine) updateAliases(ctx context.Context, a aliasActions) error {
	body, err := json.Marshal(a)
	if err != nil {
		return err
	}
	return e.call(ctx, "update aliases", esapi.IndicesUpdateAliasesRequest{Body: bytes.NewReader(body)}, nil)
}

// call performs req, turns a non-2xx answer into an *esError, and decodes a
// 2xx JSON body into out when out is not nil. The body is always closed.
func (e *Engine) call(ctx context.Context, what string, req esapi.Request, out any) error {
	res, err := req.Do(ctx, e.es)
	if err != nil {
		return fmt.Errorf("elasticsearch %s: %w", what, err)
	}
	defer res.Body.Close()
	if res.IsError() {
		return fmt.Errorf("elasticsearch %s: %w", what, readError(res))
	}
	if out == nil {
		_, _ = io.Copy(io.Discard, res.Body)
		return nil
	}
	if err := json.NewDecoder(res.Body).Decode(out); err != nil {
		return fmt.Errorf("elasticsearch %s: decode response: %w", what, err)
	}
	return nil
}

// esError is an error answer of Elasticsearch.
type esError struct {
	Status int
	Type   string // for example "index_not_found_exception"; "" when the body has none
	Reason string
}

func (e *esError) Error() string {
	if e.Type == "" {
		return fmt.Sprintf("status %d: %s", e.Status, e.Reason)
	}
	return fmt.Sprintf("status %d: %s: %s", e.Status, e.Type, e.Reason)
}

// errorCause is the "error" object of an answer (and the "caused_by" chain).
type errorCause struct {
	Type     string      `json:"type"`
	Reason   string      `json:"reason"`
	CausedBy *errorCause `json:"caused_by"`
}

func (c *errorCause) String() string {
	s := c.Reason
	if c.Type != "" {
		s = c.Type + ": " + s
	}
	if c.CausedBy != nil && c.CausedBy.Reason != "" {
		s += " (caused by " + c.CausedBy.String() + ")"
	}
	return s
}

func readError(res *esapi.Response) error {
	raw, _ := io.ReadAll(io.LimitReader(res.Body, 64<<10))
	out := &esError{Status: res.StatusCode}
	var body struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(raw, &body) == nil && len(body.Error) > 0 {
		var cause errorCause
		// "error" is an object for most failures, a bare string for a few
		// (a missing alias).
		if json.Unmarshal(body.Error, &cause) == nil && cause.Type != "" {
			out.Type = cause.Type
			out.Reason = cause.Reason
			if cause.CausedBy != nil {
				out.Reason += " (caused by " + cause.CausedBy.String() + ")"
			}
			return out
		}
		var s string
		if json.Unmarshal(body.Error, &s) == nil {
			out.Reason = s
			return out
		}
	}
	out.Reason = strings.TrimSpace(string(raw))
	if out.Reason == "" {
		out.Reason = res.Status()
	}
	return out
}

func isStatus(err error, status int) bool {
	var ee *esError
	return errors.As(err, &ee) && ee.Status == status
}

func isType(err error, typ string) bool {
	var ee *esError
	return errors.As(err, &ee) && ee.Type == typ
}
