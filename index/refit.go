package index

import (
	"context"
	"errors"

	"github.com/openprospect/prospectd/record"
)

// Sentinel errors of a refit.
var (
	// ErrRefitRunning: another refit of the index is under way.
	ErrRefitRunning = errors.New("a refit of this index is already running")
	// ErrRefitAborted: the refit stopped before its swap (cancelled, or a
	// write arriving during it could not be embedded with the new model);
	// the index still serves the previous embedder, and a retry starts
	// again.
	ErrRefitAborted = errors.New("refit aborted; the previous embedder still serves")
	// ErrEmbedderChanged: a write's vectors were made by another embedder
	// than the index's (a refit switched it while the writer ran); embed
	// again with the index's embedder (embedding.Open) and retry.
	ErrEmbedderChanged = errors.New("the index's embedder changed; embed again")
)

// Refit asks an engine to re-embed every record with another embedder
// and switch to it in one step.
type Refit struct {
	// Meta is the new embedder: id, dimension (may differ from the
	// current one) and serialized model.
	Meta Meta
	// Companies and Contacts embed records with the new embedder, a
	// batch at a time (a remote provider embeds a batch in one call). They
	// must return one unit vector of Meta.Dimension per record, in order.
	// They are also called for the writes that arrive while the refit
	// runs, so those land in the new generation too.
	Companies func(ctx context.Context, cs []record.Company) ([][]float32, error)
	Contacts  func(ctx context.Context, cs []record.Contact) ([][]float32, error)
	// Progress, when set, is called after each batch with the records
	// re-embedded so far and the total at the start.
	Progress func(done, total int)
	// BatchSize is the records per embedding call; 0 means 256.
	BatchSize int
}

// RefitResult describes a completed refit.
type RefitResult struct {
	From, To  string // embedder ids before and after the swap
	Companies int    // companies in the new generation
	Contacts  int    // contacts in the new generation
	// Concurrent counts the writes that arrived during the refit and were
	// embedded with the new embedder as they came.
	Concurrent int
}

// Refitter is the engine capability of re-embedding every record with a
// new embedder beside the vectors being served, and switching searches,
// reads and the stored metadata to the new vectors in one step: searches
// answer throughout with the previous embedder's vectors, and never see a
// mix. A refit interrupted by a crash leaves the previous generation
// serving; running it again starts over.
type Refitter interface {
	Refit(ctx context.Context, r Refit) (RefitResult, error)
}
