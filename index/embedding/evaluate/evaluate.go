// Package evaluate measures how well embeddings find lookalike companies:
// precision@k of nearest neighbours sharing a label, and the baselines the
// built-in embedder must beat (sparse TF-IDF cosine over word 1-2 grams,
// plain feature hashing). It reads the labelled JSON lines format of the
// shared development data (name, description, industry_label).
package evaluate

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/openprospect/prospectd/index/embedding"
)

// ErrNoQueries: no item has another item with its label, so precision is
// undefined.
var ErrNoQueries = errors.New("no item shares its label with another")

// Company is a labelled company of an evaluation set.
type Company struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Label       string `json:"industry_label"`
}

// Doc is the company as the embedder may see it: name and description
// only. The label is what neighbours are judged by, so it must never reach
// the embedder.
func (c Company) Doc() embedding.Doc {
	return embedding.Doc{Name: c.Name, Description: c.Description}
}

// ReadJSONL reads one company per line, skipping blank lines and companies
// without a label.
func ReadJSONL(r io.Reader) ([]Company, error) {
	var out []Company
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for line := 1; sc.Scan(); line++ {
		if len(strings.TrimSpace(sc.Text())) == 0 {
			continue
		}
		var c Company
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		if c.Label = strings.TrimSpace(c.Label); c.Label != "" {
			out = append(out, c)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading companies: %w", err)
	}
	return out, nil
}

// Precision is the mean precision@k over the items that have at least one
// other item of their label: for each, the fraction of its k most similar
// other items (ties broken by index) that share its label.
func Precision(labels []string, k int, sim func(i, j int) float64) (float64, int, error) {
	count := map[string]int{}
	for _, l := range labels {
		count[l]++
	}
	var queries []int
	for i, l := range labels {
		if count[l] > 1 {
			queries = append(queries, i)
		}
	}
	if len(queries) == 0 || k < 1 {
		return 0, 0, ErrNoQueries
	}
	scores := make([]float64, len(queries))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			nbs := make([]neighbour, 0, len(labels))
			for q := range next {
				i := queries[q]
				nbs = rank(nbs, i, len(labels), sim)
				top := nbs[:min(k, len(nbs))]
				hits := 0
				for _, nb := range top {
					if labels[nb.j] == labels[i] {
						hits++
					}
				}
				scores[q] = float64(hits) / float64(k)
			}
		}()
	}
	for q := range queries {
		next <- q
	}
	close(next)
	wg.Wait()
	var sum float64
	for _, s := range scores {
		sum += s
	}
	return sum / float64(len(queries)), len(queries), nil
}

// Cosine is the dot product of two unit vectors.
func Cosine(a, b []float32) float64 {
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return float64(s)
}

// Sparse is an L2-normalized sparse vector, terms ascending.
type Sparse struct {
	Terms []int32
	Vals  []float64
}

// Dot is the dot product of two sparse vectors.
func (a Sparse) Dot(b Sparse) float64 {
	var s float64
	for i, j := 0, 0; i < len(a.Terms) && j < len(b.Terms); {
		switch {
		case a.Terms[i] < b.Terms[j]:
			i++
		case a.Terms[i] > b.Terms[j]:
			j++
		default:
			s += a.Vals[i] * b.Vals[j]
			i++
			j++
		}
	}
	return s
}

// Tokenizer splits a text into terms.
type Tokenizer func(text string) []string

// EmbedderTerms reads a text as the embedder does: folded, stemmed words
// without stop words, with word bigrams.
func EmbedderTerms(text string) []string { return embedding.TermsWith(text, embedding.StemPlural) }

var plainWord = regexp.MustCompile(`\w\w+`)

// PlainTerms is the common TF-IDF baseline tokenization: lower-cased runs
// of two or more word characters, with their bigrams; no stop words, no
// stemming.
func PlainTerms(text string) []string {
	words := plainWord.FindAllString(strings.ToLower(text), -1)
	out := slices.Clone(words)
	for i := 1; i < len(words); i++ {
		out = append(out, words[i-1]+" "+words[i])
	}
	return out
}

// Fields returns the terms of a company's name and description, read
// separately so no bigram spans the two.
func Fields(tok Tokenizer, c Company) []string {
	return append(tok(c.Name), tok(c.Description)...)
}

// TFIDF returns the TF-IDF vectors of the documents (each a list of
// terms): term frequency (1 + ln tf when sublinear), smoothed IDF
// ln((1+n)/(1+df)) + 1 over every term, L2 normalization.
func TFIDF(docs [][]string, sublinear bool) []Sparse {
	ids := map[string]int32{}
	df := []int{}
	counts := make([]map[int32]int, len(docs))
	for i, d := range docs {
		c := map[int32]int{}
		for _, t := range d {
			id, ok := ids[t]
			if !ok {
				id = int32(len(df))
				ids[t] = id
				df = append(df, 0)
			}
			if c[id] == 0 {
				df[id]++
			}
			c[id]++
		}
		counts[i] = c
	}
	out := make([]Sparse, len(docs))
	n := float64(len(docs))
	for i, c := range counts {
		v := Sparse{}
		for id := range c {
			v.Terms = append(v.Terms, id)
		}
		slices.Sort(v.Terms)
		var sq float64
		for _, id := range v.Terms {
			tf := float64(c[id])
			if sublinear {
				tf = 1 + math.Log(tf)
			}
			w := tf * (math.Log((1+n)/(1+float64(df[id]))) + 1)
			v.Vals = append(v.Vals, w)
			sq += w * w
		}
		if sq > 0 {
			inv := 1 / math.Sqrt(sq)
			for k := range v.Vals {
				v.Vals[k] *= inv
			}
		}
		out[i] = v
	}
	return out
}

// Hashing returns plain feature-hashing vectors: each term's count added,
// with a sign from its hash, to one of dim buckets; L2 normalized.
func Hashing(docs [][]string, dim int) [][]float32 {
	out := make([][]float32, len(docs))
	for i, d := range docs {
		v := make([]float32, dim)
		for _, t := range d {
			h := fnv64(t)
			sign := float32(1)
			if h>>63 == 1 {
				sign = -1
			}
			v[h%uint64(dim)] += sign
		}
		var sq float64
		for _, x := range v {
			sq += float64(x) * float64(x)
		}
		if sq > 0 {
			inv := float32(1 / math.Sqrt(sq))
			for k := range v {
				v[k] *= inv
			}
		}
		out[i] = v
	}
	return out
}

func fnv64(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}
