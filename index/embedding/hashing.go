package embedding

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"math"
	"slices"
	"sync"
)

// Hashing is the built-in embedder that needs no fitting: the same terms
// as Model (same tokenizer, same field weights, sublinear counts), each
// hashed with a sign into one of Dim coordinates (feature hashing). It
// serves an index too small to fit a Model on, so that a first load of
// one, three or ten companies is searchable at once. Its vectors carry no
// learned similarity between different words (precision@10 0.129 on the
// Wikipedia set against 0.250 for a fitted Model), which is why the loader
// fits a Model whenever the first load is large enough.
//
// Hashing is immutable and safe for concurrent use.
type Hashing struct {
	dim      int
	weights  Weights
	encoded  []byte
	id       string
	fallback []float32
}

var _ Embedder = (*Hashing)(nil)

// Serialized hashing embedder, little endian:
//
//	magic   "PRSPHSH" + version byte
//	dim     uint32
//	weights 5 × float32
//	crc     CRC-32C of everything before it
const (
	hashingMagic   = "PRSPHSH"
	hashingVersion = 1
	hashingSize    = len(hashingMagic) + 1 + 4 + 5*4 + 4
)

// NewHashing returns the hashing embedder with dim coordinates (0 selects
// DefaultDim) and DefaultWeights.
func NewHashing(dim int) (*Hashing, error) {
	if dim == 0 {
		dim = DefaultDim
	}
	if dim < 1 || dim > MaxDim {
		return nil, fmt.Errorf("%w: Dim %d is outside 1-%d", ErrInvalidOptions, dim, MaxDim)
	}
	return newHashing(dim, DefaultWeights), nil
}

func newHashing(dim int, w Weights) *Hashing {
	h := &Hashing{dim: dim, weights: w}
	b := make([]byte, 0, hashingSize)
	b = append(b, hashingMagic...)
	b = append(b, hashingVersion)
	b = binary.LittleEndian.AppendUint32(b, uint32(dim))
	for _, x := range w.list() {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, crcTable))
	h.encoded = b
	sum := sha256.Sum256(b)
	h.id = fmt.Sprintf("hashing-v%d-%d-%s", hashingVersion, dim, hex.EncodeToString(sum[:4]))
	// Input without a term gets the all-equal direction: unit length, the
	// same for every such input, and no closer to one hashed term than to
	// another.
	h.fallback = make([]float32, dim)
	v := float32(1 / math.Sqrt(float64(dim)))
	for i := range h.fallback {
		h.fallback[i] = v
	}
	return h
}

// loadHashing decodes MarshalBinary's bytes.
func loadHashing(b []byte) (*Hashing, error) {
	if len(b) != hashingSize || !bytes.HasPrefix(b, []byte(hashingMagic)) {
		return nil, fmt.Errorf("%w: not a hashing embedder of this build", ErrCorruptModel)
	}
	if v := b[len(hashingMagic)]; v != hashingVersion {
		return nil, fmt.Errorf("%w: hashing embedder version %d, this build reads %d", ErrCorruptModel, v, hashingVersion)
	}
	body := b[:len(b)-4]
	if crc32.Checksum(body, crcTable) != binary.LittleEndian.Uint32(b[len(b)-4:]) {
		return nil, fmt.Errorf("%w: checksum mismatch", ErrCorruptModel)
	}
	r := body[len(hashingMagic)+1:]
	dim := int(binary.LittleEndian.Uint32(r))
	if dim < 1 || dim > MaxDim {
		return nil, fmt.Errorf("%w: dimension %d is outside 1-%d", ErrCorruptModel, dim, MaxDim)
	}
	var ws [5]float32
	for i := range ws {
		ws[i] = math.Float32frombits(binary.LittleEndian.Uint32(r[4+4*i:]))
		if math.IsNaN(float64(ws[i])) || math.IsInf(float64(ws[i]), 0) || ws[i] < 0 {
			return nil, fmt.Errorf("%w: field weight %v", ErrCorruptModel, ws[i])
		}
	}
	w := Weights{Name: ws[0], Description: ws[1], SiteText: ws[2], Keywords: ws[3], Industries: ws[4]}
	return newHashing(dim, w), nil
}

// ID implements Embedder: "hashing-v1-<dim>-<first 8 hex digits of the
// SHA-256 of the serialized form>".
func (h *Hashing) ID() string { return h.id }

// Dim implements Embedder.
func (h *Hashing) Dim() int { return h.dim }

// MarshalBinary returns the bytes stored with the index.
func (h *Hashing) MarshalBinary() ([]byte, error) { return slices.Clone(h.encoded), nil }

type hashScratch struct {
	tk  tokenizer
	sum []float64
}

var hashScratchPool = sync.Pool{New: func() any { return new(hashScratch) }}

// Embed implements Embedder.
func (h *Hashing) Embed(d Doc) []float32 {
	s := h.scratch()
	defer hashScratchPool.Put(s)
	h.field(s, d.Name, h.weights.Name)
	h.field(s, d.Description, h.weights.Description)
	h.field(s, d.SiteText, h.weights.SiteText)
	h.list(s, d.Keywords, h.weights.Keywords)
	h.list(s, d.Industries, h.weights.Industries)
	return h.finish(s)
}

// EmbedText implements Embedder; query text is read as a description.
func (h *Hashing) EmbedText(text string) []float32 {
	s := h.scratch()
	defer hashScratchPool.Put(s)
	h.field(s, text, 1)
	return h.finish(s)
}

func (h *Hashing) scratch() *hashScratch {
	s := hashScratchPool.Get().(*hashScratch)
	if cap(s.sum) < h.dim {
		s.sum = make([]float64, h.dim)
	}
	s.sum = s.sum[:h.dim]
	clear(s.sum)
	return s
}

func (h *Hashing) field(s *hashScratch, text string, w float32) {
	if w == 0 || text == "" {
		return
	}
	if len(text) > maxFieldBytes {
		text = text[:maxFieldBytes]
	}
	s.tk.hashes = s.tk.hashes[:0]
	s.tk.terms(text, nil)
	h.add(s, w)
}

func (h *Hashing) list(s *hashScratch, entries []string, w float32) {
	if w == 0 || len(entries) == 0 {
		return
	}
	budget := maxFieldBytes
	s.tk.hashes = s.tk.hashes[:0]
	for _, e := range entries {
		if budget <= 0 {
			break
		}
		if len(e) > budget {
			e = e[:budget]
		}
		budget -= len(e)
		s.tk.terms(e, nil)
	}
	h.add(s, w)
}

// add adds the field's terms, each weighted w × (1 + ln count) as in
// Model, to their signed coordinates. Sorting the hashes groups a term's
// occurrences, so counting needs no map.
func (h *Hashing) add(s *hashScratch, w float32) {
	hs := s.tk.hashes
	slices.Sort(hs)
	for i := 0; i < len(hs); {
		j := i + 1
		for j < len(hs) && hs[j] == hs[i] {
			j++
		}
		m := mix64(hs[i])
		x := float64(w * sublinear(j-i))
		if m>>63 != 0 {
			x = -x
		}
		s.sum[int((m&(1<<62-1))%uint64(h.dim))] += x
		i = j
	}
}

func (h *Hashing) finish(s *hashScratch) []float32 {
	out := make([]float32, h.dim)
	var sq float64
	for _, x := range s.sum {
		sq += x * x
	}
	if sq == 0 {
		copy(out, h.fallback)
		return out
	}
	inv := 1 / math.Sqrt(sq)
	for i, x := range s.sum {
		out[i] = float32(x * inv)
	}
	return out
}

// mix64 is the splitmix64 finalizer: term hashes are FNV-1a, whose low
// bits alone spread poorly over a small modulus.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// LoadEmbedder decodes any serialized embedder: a fitted Model, the
// Hashing embedder or a Remote provider (whose key it reads from
// RemoteKeyEnv).
func LoadEmbedder(b []byte) (Embedder, error) {
	if bytes.HasPrefix(b, []byte(hashingMagic)) {
		return loadHashing(b)
	}
	if bytes.HasPrefix(b, []byte(remoteMagic)) {
		return loadRemote(b)
	}
	return Load(b)
}
