// Package index owns the search-engine contract: the Engine interface every
// backend implements, the engine-neutral filter tree and search request, and
// the sentinel errors callers branch on. Backends live in sub-packages
// (index/embedded, index/elastic) and prove they fit with
// `var _ index.Engine = (*Engine)(nil)`; index/enginetest holds the one
// behavioural suite they all run.
package index

import (
	"context"
	"errors"

	"github.com/openprospect/prospectd/record"
)

// Sentinel errors.
var (
	// ErrNotFound: the requested record or metadata does not exist.
	ErrNotFound = errors.New("not found")
	// ErrLocked: another process holds the index for writing.
	ErrLocked = errors.New("index is held by another process")
	// ErrUnsupported: the backend cannot evaluate a filter or option; it is
	// refused rather than approximated.
	ErrUnsupported = errors.New("unsupported by this engine")
	// ErrInvalid: the request is malformed (a caller bug, not user input:
	// user input is validated in query/ before it reaches an engine).
	ErrInvalid = errors.New("invalid request")
	// ErrVectorMismatch: a vector's dimension differs from the index's.
	ErrVectorMismatch = errors.New("vector dimension mismatch")
)

// CompanyDoc is one company as written to an engine: the profile and its
// embedding. Vector must be unit length and of the index's dimension.
type CompanyDoc struct {
	Company record.Company
	Vector  []float32
	// EmbedderID, when set, names the embedder that made Vector; an
	// engine whose vectors are another embedder's (a refit switched it)
	// refuses the call with ErrEmbedderChanged rather than mix them.
	EmbedderID string
}

// An engine's roles: each consumer takes the ones it uses (query/ the
// readers and searchers, ingest/ the writers, namematch/ the scanner);
// Engine is their composition, which every backend implements.
//
// Writes are idempotent upserts keyed by the normalized root domain (the
// persona id for contacts). A write is durable when the call returns; it
// is visible to searches and reads after Refresh (the embedded engine
// makes it visible at once, Elasticsearch within its refresh interval).
// Returned records are owned by the caller.

// CompanyReader reads companies by domain.
type CompanyReader interface {
	// GetCompanies returns the companies found among domains, in input order,
	// skipping the missing ones.
	GetCompanies(ctx context.Context, domains []string) ([]record.Company, error)
	// CompanyVectors returns the stored vectors of the domains found.
	CompanyVectors(ctx context.Context, domains []string) (map[string][]float32, error)
}

// CompanySearcher ranks and counts companies.
type CompanySearcher interface {
	// SearchCompanies ranks the companies matching s.Filter.
	SearchCompanies(ctx context.Context, s Search) (Result, error)
	// CountCompanies counts the companies matching f (nil matches all).
	CountCompanies(ctx context.Context, f Filter) (int, error)
}

// CompanyWriter writes companies.
type CompanyWriter interface {
	// UpsertCompanies inserts or replaces companies by domain. It returns
	// per-document failures (a backend rejecting one document does not fail
	// the batch); err is set only when the batch as a whole failed.
	UpsertCompanies(ctx context.Context, docs []CompanyDoc) (failed []DocError, err error)
	// DeleteCompanies removes companies by domain; missing domains are ignored.
	// It returns how many existed.
	DeleteCompanies(ctx context.Context, domains []string) (int, error)
}

// MetaReader reads the index metadata.
type MetaReader interface {
	// Meta returns the index metadata, ErrNotFound on a new index.
	Meta(ctx context.Context) (Meta, error)
}

// MetaWriter stores the index metadata.
type MetaWriter interface {
	// SetMeta stores the index metadata (embedder id, dimension, model).
	SetMeta(ctx context.Context, m Meta) error
}

// Refresher makes writes visible.
type Refresher interface {
	// Refresh makes completed writes visible to searches.
	Refresh(ctx context.Context) error
}

// Checker reports an engine's health.
type Checker interface {
	// Health reports whether the engine can serve.
	Health(ctx context.Context) error
	// Name is the backend name, "embedded" or "elasticsearch".
	Name() string
}

// Reader is every read an engine serves: what the API, query/ and the
// task bodies use.
type Reader interface {
	CompanyReader
	CompanySearcher
	CompanyScanner
	MetaReader
	ContactReader
	ContactSearcher
}

// Writer is every write: what ingestion uses.
type Writer interface {
	CompanyWriter
	ContactWriter
	MetaWriter
	Refresher
}

// Engine is a company and contact index: every role. Backends prove they
// fit with `var _ index.Engine = (*Engine)(nil)`.
type Engine interface {
	Reader
	Writer
	Checker
	Close() error
}

// DocError is a document a backend refused, with the reason.
type DocError struct {
	Domain string
	Reason string
}

// Meta describes how the vectors of an index were made; vectors of another
// embedder or dimension are refused.
type Meta struct {
	EmbedderID string `json:"embedder_id"`
	Dimension  int    `json:"dimension"`
	// Model is the embedder's serialized state (for a fitted embedder, the
	// vocabulary and projection), so every process embeds queries the same way.
	Model []byte `json:"model,omitempty"`
	// FitRecords is the number of records in the index when the embedder
	// was chosen (0 when unknown): the refit rule compares the index's
	// growth with it.
	FitRecords int `json:"fit_records,omitempty"`
}

// Search is an engine-neutral ranked search.
type Search struct {
	// Filter restricts the candidates; nil matches every company.
	Filter Filter
	// Vector ranks by cosine similarity when set; otherwise results are
	// ordered by digital-footprint score descending, then domain.
	Vector []float32
	// MinSimilarity drops hits below this cosine similarity (-1..1).
	MinSimilarity float64
	// Offset and Limit page through the ranking.
	Offset, Limit int
	// WithVectors asks for each hit's vector (for consensus refinement).
	WithVectors bool
}

// Hit is one ranked company. Similarity is the cosine similarity to the
// query vector (0 without a vector).
type Hit struct {
	Company    record.Company
	Similarity float64
	Vector     []float32
}

// Result holds one page of hits and the total number of matches (for a
// vector search with MinSimilarity, the number above the threshold).
type Result struct {
	Hits  []Hit
	Total int
}

// CompanyKey is the small part of a company that name matching reads: the
// name, the address evidence, the phones and the score. CompanyScanner
// streams it for every indexed company.
type CompanyKey struct {
	Domain  string
	Name    string
	Country string // ISO-3166-1 alpha-2
	State   string // ISO 3166-2
	City    string
	Zip     string
	Phones  []string
	Score   int
	Closed  bool
}

// CompanyScanner enumerates every indexed company (in no promised order)
// without its profile text. fn's error ends the scan and is returned; the
// CompanyKey passed to fn is the caller's. Writes made during a scan may or
// may not be seen.
type CompanyScanner interface {
	ScanCompanies(ctx context.Context, fn func(CompanyKey) error) error
}

// Generational is an optional Engine capability of engines whose writes all
// pass through this process: Generation changes after every completed
// company write, so a cache derived from the companies knows it is current.
type Generational interface {
	Generation() uint64
}
