package embedded

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/enginetest"
)

// TestScanManyBatches: a scan over several pipeline batches returns every
// company once, in domain order; a cancelled scan says so.
func TestScanManyBatches(t *testing.T) {
	ctx := context.Background()
	e, err := Open(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if err := e.SetMeta(ctx, index.Meta{EmbedderID: "test", Dimension: enginetest.Dim}); err != nil {
		t.Fatal(err)
	}
	base := enginetest.Fixtures()[0]
	const n = 2*scanBatch + 77
	docs := make([]index.CompanyDoc, n)
	for i := range docs {
		docs[i] = base
		docs[i].Company.Domain = fmt.Sprintf("company%05d.com", i)
		docs[i].Company.Name = fmt.Sprintf("Company %d", i)
	}
	if _, err := e.UpsertCompanies(ctx, docs); err != nil {
		t.Fatal(err)
	}
	var got []index.CompanyKey
	if err := e.ScanCompanies(ctx, func(k index.CompanyKey) error { got = append(got, k); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != n {
		t.Fatalf("%d companies scanned, want %d", len(got), n)
	}
	for i, k := range got {
		if k.Domain != docs[i].Company.Domain || k.Name != docs[i].Company.Name || k.City != "Austin" || k.Country != "US" {
			t.Fatalf("key %d: %+v", i, k)
		}
	}
	cctx, cancel := context.WithCancel(ctx)
	seen := 0
	err = e.ScanCompanies(cctx, func(index.CompanyKey) error {
		if seen++; seen == 10 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled scan: %v after %d", err, seen)
	}
}
