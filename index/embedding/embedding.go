// Package embedding owns the built-in text embedder: the one code path that
// turns a company profile (at ingest) and free query text such as an ICP
// description (at search time) into unit-length vectors of the same space.
//
// The embedder is TF-IDF over word unigrams and bigrams (character bigrams
// for Chinese, Japanese and Thai), projected onto the top right singular
// vectors of a TF-IDF matrix fitted on a sample of the corpus (latent
// semantic analysis). It needs no network and no downloaded model: Fit
// learns the model from the operator's own companies, MarshalBinary and Load
// carry it in the index metadata, and the same bytes always give the same
// vectors.
package embedding

import (
	"errors"

	"github.com/openprospect/prospectd/record"
)

// Sentinel errors.
var (
	// ErrTooFewDocs: the fit sample has too few documents with words in
	// common to learn a projection from.
	ErrTooFewDocs = errors.New("too few documents to fit an embedder")
	// ErrInvalidOptions: an Options field is out of range.
	ErrInvalidOptions = errors.New("invalid embedder options")
	// ErrCorruptModel: serialized model bytes are malformed or damaged.
	ErrCorruptModel = errors.New("corrupt embedder model")
)

// Doc is the text of one company as the embedder reads it. Each field has
// its own weight (see Weights), so industry labels and keywords can count
// for more than the free text around them.
type Doc struct {
	Name, Description, SiteText string
	Keywords, Industries        []string
}

// DocOf returns the embedder's view of a company: its name, description,
// site text, keyword terms (strongest first) and industry labels.
func DocOf(c record.Company) Doc {
	return Doc{
		Name:        c.Name,
		Description: c.Description,
		SiteText:    c.SiteText,
		Keywords:    record.KeysByWeight(c.Keywords),
		Industries:  c.Industries(),
	}
}

// Embedder turns documents and query text into vectors of one space.
//
// Vectors are unit length (L2 norm 1 within float32 rounding), of length
// Dim(), never contain NaN or Inf, and are freshly allocated for the caller.
// Input without a single term the embedder knows still gets a unit vector
// (for a fitted Model, the direction of the average fit document), so an
// index never holds a zero vector; Model.KnownTerms tells such input apart.
// Implementations are safe for concurrent use.
type Embedder interface {
	// ID names the embedder and its fitted state: two embedders with the
	// same ID produce the same vectors, two fits never share one.
	ID() string
	// Dim is the vector length.
	Dim() int
	// Embed embeds a company.
	Embed(d Doc) []float32
	// EmbedText embeds free text, such as an ICP description.
	EmbedText(s string) []float32
}

var _ Embedder = (*Model)(nil)
