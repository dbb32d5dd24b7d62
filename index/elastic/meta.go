package elastic

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/elastic/go-elasticsearch/v8/esapi"

	"github.com/openprospect/prospectd/index"
)

// Metadata layout in the <prefix>-meta index. The head document "companies"
// holds the embedder id and dimension and names a generation; the model
// (10-30 MB for a fitted embedder) is split into chunk documents of that
// generation, each a binary field (not indexed, no doc values).
//
// Chunks keep every request and document a few MB: one 40 MB base64
// document would need several times its size in heap on a small node and
// approach http.max_content_length. SetMeta writes the new generation's
// chunks first and the head last, so readers switch from the old model to
// the new one in one document write; Meta verifies the SHA-256 recorded in
// the head. The previous generation's chunks are deleted afterwards.
const metaHeadID = "companies"

// metaChunkBytes is the raw size of one model chunk; a variable so tests
// can exercise multi-chunk models cheaply.
var metaChunkBytes = 4 << 20

type metaHead struct {
	Kind        string `json:"kind"`
	EmbedderID  string `json:"embedder_id"`
	Dimension   int    `json:"dimension"`
	Generation  string `json:"generation"`
	ModelBytes  int64  `json:"model_bytes"`
	ModelSHA256 string `json:"model_sha256"`
	ModelChunks int    `json:"model_chunks"`
	FitRecords  int    `json:"fit_records,omitempty"`
}

type metaChunk struct {
	Kind       string `json:"kind"`
	Generation string `json:"generation"`
	Seq        int    `json:"seq"`
	Data       []byte `json:"data"` // base64 in JSON, a binary field in the mapping
}

func chunkID(generation string, seq int) string {
	return fmt.Sprintf("companies-model-%s-%d", generation, seq)
}

// Meta implements index.Engine.
func (e *Engine) Meta(ctx context.Context) (index.Meta, error) {
	head, err := e.metaHead(ctx)
	if err != nil {
		return index.Meta{}, err
	}
	m := index.Meta{EmbedderID: head.EmbedderID, Dimension: head.Dimension, FitRecords: head.FitRecords}
	if head.ModelChunks == 0 {
		return m, nil
	}
	ids := make([]string, head.ModelChunks)
	for i := range ids {
		ids[i] = chunkID(head.Generation, i)
	}
	model := make([]byte, 0, head.ModelBytes)
	seq := 0
	// A few chunks per request keeps each response near 20 MB of JSON.
	const perRequest = 4
	for start := 0; start < len(ids); start += perRequest {
		err := e.mget(ctx, e.metaIndex, ids[start:min(start+perRequest, len(ids))], nil, nil, func(id string, src json.RawMessage) error {
			var c metaChunk
			if err := json.Unmarshal(src, &c); err != nil {
				return fmt.Errorf("elasticsearch: decode model chunk %s: %w", id, err)
			}
			if c.Generation != head.Generation || c.Seq != seq {
				return fmt.Errorf("elasticsearch: model chunk %s is generation %s #%d, want %s #%d", id, c.Generation, c.Seq, head.Generation, seq)
			}
			seq++
			model = append(model, c.Data...)
			return nil
		})
		if err != nil {
			return index.Meta{}, err
		}
	}
	sum := sha256.Sum256(model)
	if seq != head.ModelChunks || int64(len(model)) != head.ModelBytes || hex.EncodeToString(sum[:]) != head.ModelSHA256 {
		return index.Meta{}, fmt.Errorf("elasticsearch: embedder model of generation %s is incomplete or corrupt (%d of %d chunks, %d of %d bytes); store the metadata again",
			head.Generation, seq, head.ModelChunks, len(model), head.ModelBytes)
	}
	m.Model = model
	return m, nil
}

// metaHead reads the head document (a real-time get).
func (e *Engine) metaHead(ctx context.Context) (metaHead, error) {
	var doc struct {
		Found  bool     `json:"found"`
		Source metaHead `json:"_source"`
	}
	err := e.call(ctx, "get metadata", esapi.GetRequest{Index: e.metaIndex, DocumentID: metaHeadID}, &doc)
	// A missing document is a 404 without an error type; a missing index
	// has one and is a real failure.
	if isStatus(err, 404) && !isType(err, "index_not_found_exception") {
		return metaHead{}, index.ErrNotFound
	}
	if err != nil {
		return metaHead{}, err
	}
	if !doc.Found {
		return metaHead{}, index.ErrNotFound
	}
	return doc.Source, nil
}

// SetMeta implements index.Engine. The dimension must be the one the
// companies mapping was rendered with.
func (e *Engine) SetMeta(ctx context.Context, m index.Meta) error {
	if m.Dimension <= 0 {
		return fmt.Errorf("%w: dimension %d", index.ErrInvalid, m.Dimension)
	}
	if m.Dimension != e.dim {
		return fmt.Errorf("elasticsearch: %w: metadata says %d dimensions, the companies mapping has %d", index.ErrVectorMismatch, m.Dimension, e.dim)
	}
	old, err := e.metaHead(ctx)
	switch {
	case errors.Is(err, index.ErrNotFound):
		old = metaHead{}
	case err != nil:
		return err
	}
	head, err := e.putModelChunks(ctx, m)
	if err != nil {
		return err
	}
	if err := e.putMeta(ctx, metaHeadID, head); err != nil {
		return err
	}
	e.forgetEmbedderID()
	if err := e.deleteChunks(ctx, old); err != nil {
		return fmt.Errorf("metadata stored; removing the previous model's chunks: %w", err)
	}
	return nil
}

// putModelChunks writes m's model as the chunks of a new generation and
// returns the head that names them (not yet written).
func (e *Engine) putModelChunks(ctx context.Context, m index.Meta) (metaHead, error) {
	var g [8]byte
	if _, err := rand.Read(g[:]); err != nil {
		return metaHead{}, fmt.Errorf("metadata generation: %w", err)
	}
	sum := sha256.Sum256(m.Model)
	head := metaHead{
		Kind:        "head",
		EmbedderID:  m.EmbedderID,
		Dimension:   m.Dimension,
		FitRecords:  m.FitRecords,
		Generation:  hex.EncodeToString(g[:]),
		ModelBytes:  int64(len(m.Model)),
		ModelSHA256: hex.EncodeToString(sum[:]),
	}
	for off := 0; off < len(m.Model); off += metaChunkBytes {
		c := metaChunk{Kind: "chunk", Generation: head.Generation, Seq: head.ModelChunks, Data: m.Model[off:min(off+metaChunkBytes, len(m.Model))]}
		if err := e.putMeta(ctx, chunkID(c.Generation, c.Seq), c); err != nil {
			return head, err
		}
		head.ModelChunks++
	}
	return head, nil
}

// deleteChunks removes the model chunks a head names.
func (e *Engine) deleteChunks(ctx context.Context, h metaHead) error {
	for i := 0; i < h.ModelChunks; i++ {
		err := e.call(ctx, "delete model chunk", esapi.DeleteRequest{Index: e.metaIndex, DocumentID: chunkID(h.Generation, i)}, nil)
		if err != nil && !isStatus(err, 404) {
			return err
		}
	}
	return nil
}

func (e *Engine) putMeta(ctx context.Context, id string, doc any) error {
	b, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	return e.call(ctx, "store metadata "+id, esapi.IndexRequest{Index: e.metaIndex, DocumentID: id, Body: bytes.NewReader(b)}, nil)
}
