package embedded

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/openprospect/prospectd/index"
)

// TestOpenScanLeavesBlockCache checks that Open's scan of the entries
// leaves at most loadCacheBytes of their blocks in the block cache, and
// that the cache is whole again afterwards (profile reads fill it).
func TestOpenScanLeavesBlockCache(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	e := openDim(t, dir, benchDim)
	r := rand.New(rand.NewPCG(3, 4))
	var domains []string
	for from := 0; from < 10_000; from += 2_000 {
		docs := synthDocs(r, from, 2_000)
		if _, err := e.UpsertCompanies(ctx, docs); err != nil {
			t.Fatal(err)
		}
		for _, d := range docs {
			domains = append(domains, d.Company.Domain)
		}
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	// Without the resident snapshot the close wrote, the open scans the
	// entries.
	os.Remove(filepath.Join(dir, snapFile))
	e = reopen(t, nil, dir) // the default block cache: 64 MiB
	if n := e.Len(); n != len(domains) {
		t.Fatalf("%d companies after open, want %d", n, len(domains))
	}
	if got := e.db.Metrics().BlockCache.Size; got > loadCacheBytes {
		t.Fatalf("block cache holds %d bytes after open, want at most %d", got, loadCacheBytes)
	}
	// The entries the scan read were more than the cache it could keep.
	if got := e.db.Metrics().BlockCache.Misses; got*4096 < 2*loadCacheBytes {
		t.Fatalf("the scan read %d blocks: too few to test the reservation", got)
	}
	if _, err := e.GetCompanies(ctx, domains); err != nil {
		t.Fatal(err)
	}
	if got := e.db.Metrics().BlockCache.Size; got <= 2*loadCacheBytes {
		t.Fatalf("block cache holds %d bytes after reading every profile: the reservation was kept", got)
	}
}

// openDim opens an engine in dir for vectors of dim dimensions.
func openDim(t *testing.T, dir string, dim int) *Engine {
	t.Helper()
	e := reopen(t, nil, dir)
	if err := e.SetMeta(context.Background(), index.Meta{EmbedderID: "x", Dimension: dim}); err != nil {
		t.Fatal(err)
	}
	return e
}
