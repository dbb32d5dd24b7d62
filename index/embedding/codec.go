package embedding

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"math"
	"slices"
)

// Serialized model, little endian:
//
//	magic    "PRSPEMB" + version byte
//	header   dim, rank, terms (uint32 each); 5 field weights (float32)
//	hashes   terms × uint64, strictly ascending
//	scales   terms × float32, finite, >= 0
//	codes    terms × rank × int8: a row is its codes times its scale
//	fallback dim × float32, a unit vector
//	crc      CRC-32C of everything before it
//
// The version changes whenever the bytes or the tokenizer change meaning,
// so an unknown model is refused instead of silently embedding
// differently. Version 2 models tokenize with StemPlural, version 3 ones
// with StemEnglish; the bytes are otherwise the same, and this build reads
// and writes both.
const (
	modelMagic   = "PRSPEMB"
	modelVersion = 3 // the newest
	headerSize   = len(modelMagic) + 1 + 3*4 + 5*4
)

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// params is a model's serialized content.
type params struct {
	dim, rank int
	weights   Weights
	stemming  Stemming // StemPlural: version 2; StemEnglish: version 3
	hashes    []uint64
	scales    []float32
	quant     []int8
	fallback  []float32
	// lex is not serialized: a fitted model's lexical weights (lexical.go).
	lex []float32
}

func (p *params) encode() []byte {
	terms := len(p.hashes)
	b := make([]byte, 0, headerSize+terms*(12+p.rank)+p.dim*4+4)
	b = append(b, modelMagic...)
	b = append(b, versionOf(p.stemming))
	b = binary.LittleEndian.AppendUint32(b, uint32(p.dim))
	b = binary.LittleEndian.AppendUint32(b, uint32(p.rank))
	b = binary.LittleEndian.AppendUint32(b, uint32(terms))
	for _, w := range p.weights.list() {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(w))
	}
	for _, h := range p.hashes {
		b = binary.LittleEndian.AppendUint64(b, h)
	}
	for _, s := range p.scales {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(s))
	}
	for _, q := range p.quant {
		b = append(b, byte(q))
	}
	for _, f := range p.fallback {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(f))
	}
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, crcTable))
}

func (w Weights) list() [5]float32 {
	return [5]float32{w.Name, w.Description, w.SiteText, w.Keywords, w.Industries}
}

// model builds the in-memory model; Fit and Load both end here, so a loaded
// model is the fitted one bit for bit.
func (p *params) model() (*Model, error) {
	enc := p.encode()
	quant := p.quant
	if cap(quant)-len(quant) < projectPad {
		quant = append(make([]int8, 0, len(quant)+projectPad), quant...)
	}
	m := &Model{
		dim: p.dim, rank: p.rank, weights: p.weights, stemming: p.stemming,
		hashes:   p.hashes,
		rows:     newTermIndex(p.hashes),
		quant:    quant,
		scales:   p.scales,
		fallback: p.fallback,
		lex:      p.lex,
		encoded:  enc,
	}
	sum := sha256.Sum256(enc)
	m.id = fmt.Sprintf("tfidf-svd-v1-%d-%s", p.dim, hex.EncodeToString(sum[:4]))
	return m, nil
}

// MarshalBinary serializes the model (about VocabSize() × (rank + 12) bytes:
// some 8 MB for 30,000 terms at 256 dimensions). It never fails.
func (m *Model) MarshalBinary() ([]byte, error) {
	return slices.Clone(m.encoded), nil
}

// Load restores a model serialized by MarshalBinary; the result embeds
// exactly as the original did. Damaged, truncated or foreign bytes give an
// error wrapping ErrCorruptModel.
func Load(b []byte) (*Model, error) {
	p, err := decode(b)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCorruptModel, err)
	}
	return p.model()
}

func decode(b []byte) (*params, error) {
	if len(b) < headerSize+4 || string(b[:len(modelMagic)]) != modelMagic {
		return nil, fmt.Errorf("not an embedder model")
	}
	stemming, ok := stemmingOf(b[len(modelMagic)])
	if !ok {
		return nil, fmt.Errorf("model format version %d, this build reads 2-%d", b[len(modelMagic)], modelVersion)
	}
	body, sum := b[:len(b)-4], binary.LittleEndian.Uint32(b[len(b)-4:])
	if crc32.Checksum(body, crcTable) != sum {
		return nil, fmt.Errorf("checksum mismatch")
	}
	r := reader{b: body[len(modelMagic)+1:]}
	p := &params{dim: int(r.u32()), rank: int(r.u32()), stemming: stemming}
	terms := int(r.u32())
	switch {
	case p.dim < 1 || p.dim > MaxDim:
		return nil, fmt.Errorf("dimension %d outside 1-%d", p.dim, MaxDim)
	case p.rank < 1 || p.rank > p.dim:
		return nil, fmt.Errorf("rank %d outside 1-%d", p.rank, p.dim)
	case terms < 1 || terms > maxVocabLimit:
		return nil, fmt.Errorf("%d terms outside 1-%d", terms, maxVocabLimit)
	}
	want := headerSize + terms*(12+p.rank) + p.dim*4
	if len(body) != want {
		return nil, fmt.Errorf("%d bytes, want %d for %d terms of rank %d", len(body), want, terms, p.rank)
	}
	var w [5]float32
	for i := range w {
		if w[i] = r.f32(); !(w[i] >= 0 && w[i] <= 1000) {
			return nil, fmt.Errorf("field weight %v outside 0-1000", w[i])
		}
	}
	p.weights = Weights{w[0], w[1], w[2], w[3], w[4]}
	p.hashes = make([]uint64, terms)
	for i := range p.hashes {
		p.hashes[i] = r.u64()
		if i > 0 && p.hashes[i] <= p.hashes[i-1] {
			return nil, fmt.Errorf("term hashes not strictly ascending at %d", i)
		}
	}
	p.scales = make([]float32, terms)
	for i := range p.scales {
		// Bounded so no sum of rows can overflow float32.
		if p.scales[i] = r.f32(); !(p.scales[i] >= 0 && p.scales[i] < 1e6) {
			return nil, fmt.Errorf("row scale %v outside [0, 1e6)", p.scales[i])
		}
	}
	p.quant = make([]int8, terms*p.rank)
	for i := range p.quant {
		p.quant[i] = int8(r.b[i])
	}
	r.b = r.b[len(p.quant):]
	p.fallback = make([]float32, p.dim)
	var sq float64
	for i := range p.fallback {
		f := r.f32()
		if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
			return nil, fmt.Errorf("fallback vector is not finite")
		}
		p.fallback[i] = f
		sq += float64(f) * float64(f)
	}
	if math.Abs(sq-1) > 1e-5 {
		return nil, fmt.Errorf("fallback vector has norm² %v, not 1", sq)
	}
	return p, nil
}

// reader reads little-endian values from a buffer whose length was
// checked beforehand.
type reader struct{ b []byte }

func (r *reader) u32() uint32 {
	v := binary.LittleEndian.Uint32(r.b)
	r.b = r.b[4:]
	return v
}

func (r *reader) u64() uint64 {
	v := binary.LittleEndian.Uint64(r.b)
	r.b = r.b[8:]
	return v
}

func (r *reader) f32() float32 { return math.Float32frombits(r.u32()) }

// versionOf is the format version of a model tokenizing with s.
func versionOf(s Stemming) byte {
	if s == StemEnglish {
		return modelVersion
	}
	return 2
}

// stemmingOf is the stemmer of a model of format version v.
func stemmingOf(v byte) (Stemming, bool) {
	switch v {
	case 2:
		return StemPlural, true
	case modelVersion:
		return StemEnglish, true
	}
	return 0, false
}
