package embedding

import (
	"context"
	"errors"
	"fmt"

	"github.com/openprospect/prospectd/index"
)

// ErrMismatch: the index holds vectors of another embedder than the one at
// hand; mixing them would make similarities meaningless.
var ErrMismatch = errors.New("embedder mismatch")

// MetaReader is the part of an engine Open needs: its stored metadata.
type MetaReader interface {
	Meta(ctx context.Context) (index.Meta, error)
}

// Open returns the embedder stored with the index. It returns an
// error wrapping index.ErrNotFound when the index has none yet, and one
// wrapping ErrMismatch when the stored model is not the one the
// metadata names or this build cannot read it: the index must then be
// rebuilt, since its vectors cannot be compared with new ones.
func Open(ctx context.Context, eng MetaReader) (Embedder, error) {
	meta, err := eng.Meta(ctx)
	if err != nil {
		if errors.Is(err, index.ErrNotFound) {
			return nil, fmt.Errorf("index has no embedder yet: %w", err)
		}
		return nil, fmt.Errorf("read index metadata: %w", err)
	}
	if len(meta.Model) == 0 {
		return nil, fmt.Errorf("%w: index was built with embedder %s, whose model is not stored with it; this binary has the built-in embedder: re-index",
			ErrMismatch, meta.EmbedderID)
	}
	m, err := LoadEmbedder(meta.Model)
	if err != nil {
		return nil, fmt.Errorf("%w: index was built with embedder %s, which this binary cannot load (%v): re-index", ErrMismatch, meta.EmbedderID, err)
	}
	if m.ID() != meta.EmbedderID || m.Dim() != meta.Dimension {
		return nil, fmt.Errorf("%w: index was built with embedder %s (%d dimensions), its stored model is %s (%d dimensions): re-index",
			ErrMismatch, meta.EmbedderID, meta.Dimension, m.ID(), m.Dim())
	}
	return m, nil
}
