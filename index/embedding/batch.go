package embedding

import (
	"context"
	"runtime"
	"sync"
)

// BatchEmbedder is an Embedder whose work is a call that can fail and
// embeds many texts at once: a remote embedding provider. Its Embed and
// EmbedText are for callers that cannot handle an error; EmbedDocs and
// EmbedQuery below use the batch calls when an embedder has them.
type BatchEmbedder interface {
	Embedder
	// EmbedDocs embeds documents, one vector each, in order.
	EmbedDocs(ctx context.Context, docs []Doc) ([][]float32, error)
	// EmbedTexts embeds free texts (queries), one vector each, in order.
	EmbedTexts(ctx context.Context, texts []string) ([][]float32, error)
}

// EmbedDocs embeds docs with emb: in one batch call for a BatchEmbedder,
// otherwise on every CPU.
func EmbedDocs(ctx context.Context, emb Embedder, docs []Doc) ([][]float32, error) {
	if b, ok := emb.(BatchEmbedder); ok {
		return b.EmbedDocs(ctx, docs)
	}
	out := make([][]float32, len(docs))
	workers := min(runtime.GOMAXPROCS(0), max(1, len(docs)/16))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(docs); i += workers {
				out[i] = emb.Embed(docs[i])
			}
		}()
	}
	wg.Wait()
	return out, ctx.Err()
}

// EmbedQuery embeds query text (an ICP description) with emb, through
// its batch call for a BatchEmbedder, so a provider's failure is an error
// rather than a fallback vector.
func EmbedQuery(ctx context.Context, emb Embedder, text string) ([]float32, error) {
	if b, ok := emb.(BatchEmbedder); ok {
		vs, err := b.EmbedTexts(ctx, []string{text})
		if err != nil {
			return nil, err
		}
		return vs[0], nil
	}
	return emb.EmbedText(text), nil
}
