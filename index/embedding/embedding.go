// Package embedding is the built-in text embedder used at ingest and at
// query time: TF-IDF over word unigrams and bigrams, projected to a dense
// vector by a truncated SVD fitted on a sample of the indexed corpus (latent
// semantic analysis). It needs no network and no downloaded model; the
// fitted model is serialized into the index metadata so every process
// embeds the same way.
package embedding

import (
	"errors"
	"math"
	"strings"
	"sync"

	"github.com/openprospect/prospectd/record"
)

// Embedder turns documents and query text into unit vectors of Dim()
// dimensions. Implementations are safe for concurrent use.
type Embedder interface {
	// ID names the embedder and its fitted state; vectors of different ids
	// are not comparable.
	ID() string
	Dim() int
	Embed(d Doc) []float32
	EmbedText(s string) []float32
}

// Doc is the text of a company the embedder reads.
type Doc struct {
	Name, Description, SiteText string
	Keywords, Industries        []string
}

// DocOf extracts the embedder's view of a company.
func DocOf(c record.Company) Doc {
	kw := make([]string, 0, len(c.Keywords))
	for k := range c.Keywords {
		kw = append(kw, k)
	}
	return Doc{Name: c.Name, Description: c.Description, SiteText: c.SiteText, Keywords: kw, Industries: c.Industries()}
}

// Field weights: keywords and industry labels are curated signals and count
// more than free text; site text is long and noisy and counts less; the
// name is mostly a proper noun.
const (
	weightName        = 0.5
	weightDescription = 1.0
	weightSiteText    = 0.6
	weightKeyword     = 2.0
	weightIndustry    = 3.0
	// maxFieldTokens bounds the work per field: site text beyond it adds
	// little signal and costs time at 20,000 documents a second.
	maxFieldTokens = 400
)

// bag is a term-frequency vector keyed by term hash.
type bag map[uint64]float32

var bagPool = sync.Pool{New: func() any { return bag(make(map[uint64]float32, 512)) }}
var tokPool = sync.Pool{New: func() any { s := make([]string, 0, 512); return &s }}

// addText adds the unigrams and bigrams of s with weight w.
func (b bag) addText(s string, w float32) {
	if s == "" {
		return
	}
	tp := tokPool.Get().(*[]string)
	toks := tokens((*tp)[:0], s)
	if len(toks) > maxFieldTokens {
		toks = toks[:maxFieldTokens]
	}
	var prev uint64
	for i, t := range toks {
		h := termHash(t)
		b[h] += w
		if i > 0 {
			b[pairHash(prev, h)] += w
		}
		prev = h
	}
	*tp = toks[:0]
	tokPool.Put(tp)
}

func docBag(d Doc) bag {
	b := bagPool.Get().(bag)
	b.addText(d.Name, weightName)
	b.addText(d.Description, weightDescription)
	b.addText(d.SiteText, weightSiteText)
	for _, k := range d.Keywords {
		b.addText(k, weightKeyword)
	}
	for _, ind := range d.Industries {
		b.addText(strings.ReplaceAll(ind, "_", " "), weightIndustry)
	}
	return b
}

func releaseBag(b bag) {
	clear(b)
	bagPool.Put(b)
}

// sublinear dampens repeated terms: 1 + ln(tf) for tf >= 1.
func sublinear(tf float32) float32 {
	if tf <= 1 {
		return tf
	}
	return 1 + float32(math.Log(float64(tf)))
}

// ErrTooFewDocs is returned by Fit when the sample has no usable text.
var ErrTooFewDocs = errors.New("too few documents with text to fit the embedder")

func normalize(v []float32) []float32 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 {
		return v
	}
	inv := float32(1 / math.Sqrt(s))
	for i := range v {
		v[i] *= inv
	}
	return v
}
