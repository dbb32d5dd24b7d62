package embedded

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/enginetest"
	"github.com/openprospect/prospectd/record"
)

// smallRuns makes bulk loads write a run every few documents.
func smallRuns(t *testing.T) {
	old := runBytes
	runBytes = 8 << 10
	t.Cleanup(func() { runBytes = old })
}

// spillRuns makes bulk loads spool two small runs, then merge them into
// the store and write every later run to level 0.
func spillRuns(t *testing.T) {
	smallRuns(t)
	old := holdBytes
	holdBytes = 20 << 10
	t.Cleanup(func() { holdBytes = old })
}

// bothModes runs test with runs spooled and merged at the end, and with
// runs spilled to level 0.
func bothModes(t *testing.T, test func(t *testing.T)) {
	t.Run("held", func(t *testing.T) { smallRuns(t); test(t) })
	t.Run("spilled", func(t *testing.T) { spillRuns(t); test(t) })
}

// The conformance suite against an engine opened for a bulk load, whose
// upserts go through runs.
func TestConformanceBulkLoad(t *testing.T) { bothModes(t, testConformanceBulkLoad) }

func testConformanceBulkLoad(t *testing.T) {
	enginetest.RunAll(t, func(t *testing.T) index.Engine {
		e, err := Open(t.TempDir(), Options{BulkLoad: true})
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		if e.bulk == nil {
			t.Fatal("bulk load into an empty index does not use runs")
		}
		t.Cleanup(func() { e.Close() })
		return e
	})
}

// bulkDocs returns n companies; version tells successive writes of the same
// domain apart.
func bulkDocs(n, version int) []index.CompanyDoc {
	docs := make([]index.CompanyDoc, n)
	for i := range docs {
		vec := make([]float32, enginetest.Dim)
		vec[(i+version)%enginetest.Dim] = 1
		docs[i] = index.CompanyDoc{
			Company: record.Company{
				Domain:      fmt.Sprintf("company%04d.com", (i*7919)%n),
				Name:        fmt.Sprintf("Company %d v%d", i, version),
				Score:       100 + version,
				Description: fmt.Sprintf("version %d of a company that makes things", version),
				Address:     record.Address{Country: []string{"US", "DE", "FR"}[(i+version)%3]},
			},
			Vector: vec,
		}
	}
	return docs
}

func TestBulkLoadRunsReopen(t *testing.T) { bothModes(t, testBulkLoadRunsReopen) }

func testBulkLoadRunsReopen(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	e, err := Open(dir, Options{BulkLoad: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.SetMeta(ctx, index.Meta{EmbedderID: "x", Dimension: enginetest.Dim}); err != nil {
		t.Fatal(err)
	}
	const n = 300
	first, second := bulkDocs(n, 1), bulkDocs(n, 2)
	for from := 0; from < n; from += 50 {
		if _, err := e.UpsertCompanies(ctx, first[from:from+50]); err != nil {
			t.Fatal(err)
		}
	}
	// Rewrite half of the domains: some still buffered, some in runs.
	for from := 0; from < n/2; from += 25 {
		if _, err := e.UpsertCompanies(ctx, second[from:from+25]); err != nil {
			t.Fatal(err)
		}
	}
	// And a quarter a third time: the newest of three runs must win.
	third := bulkDocs(n, 3)
	for from := 0; from < n/4; from += 25 {
		if _, err := e.UpsertCompanies(ctx, third[from:from+25]); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]record.Company{}
	for _, d := range first {
		want[d.Company.Domain] = d.Company
	}
	for _, d := range second[:n/2] {
		want[d.Company.Domain] = d.Company
	}
	for _, d := range third[:n/4] {
		want[d.Company.Domain] = d.Company
	}
	check := func(e *Engine, when string) {
		t.Helper()
		if e.Len() != n {
			t.Fatalf("%s: %d companies, want %d", when, e.Len(), n)
		}
		for d, c := range want {
			got, err := e.GetCompanies(ctx, []string{d})
			if err != nil || len(got) != 1 || !reflect.DeepEqual(got[0], c) {
				t.Fatalf("%s: GetCompanies(%s) = %+v, %v; want %+v", when, d, got, err, c)
			}
		}
		// The postings of replaced documents are gone.
		count := 0
		for _, c := range want {
			if c.Address.Country == "US" {
				count++
			}
		}
		if got, _ := e.CountCompanies(ctx, index.Terms{Field: index.CountryField, Values: []string{"US"}}); got != count {
			t.Fatalf("%s: %d companies in US, want %d", when, got, count)
		}
	}
	check(e, "during the load")
	if _, err := e.DeleteCompanies(ctx, []string{first[0].Company.Domain}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.UpsertCompanies(ctx, first[:1]); err != nil {
		t.Fatal(err)
	}
	want[first[0].Company.Domain] = first[0].Company
	if err := e.FinishLoad(ctx); err != nil {
		t.Fatal(err)
	}
	check(e, "after FinishLoad")
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, bulkTmpDir)); !os.IsNotExist(err) {
		t.Fatalf("run directory left behind: %v", err)
	}
	e, err = Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	check(e, "after reopen")
	if m := e.db.Metrics(); m.Levels[0].NumFiles != 0 {
		t.Fatalf("%d files left in level 0 after FinishLoad", m.Levels[0].NumFiles)
	}
}

// A load closed without FinishLoad (stopped by an error) keeps what it
// wrote; the next open compacts it.
func TestBulkLoadCloseWithoutFinish(t *testing.T) { bothModes(t, testBulkLoadCloseWithoutFinish) }

func testBulkLoadCloseWithoutFinish(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	e, err := Open(dir, Options{BulkLoad: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.SetMeta(ctx, index.Meta{EmbedderID: "x", Dimension: enginetest.Dim}); err != nil {
		t.Fatal(err)
	}
	docs := bulkDocs(200, 1)
	for from := 0; from < len(docs); from += 40 {
		if _, err := e.UpsertCompanies(ctx, docs[from:from+40]); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	e, err = Open(dir, Options{BulkLoad: true})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if e.Len() != len(docs) {
		t.Fatalf("reopened with %d companies, want %d", e.Len(), len(docs))
	}
	got, err := e.GetCompanies(ctx, []string{docs[7].Company.Domain})
	if err != nil || len(got) != 1 || !reflect.DeepEqual(got[0], docs[7].Company) {
		t.Fatalf("GetCompanies = %+v, %v", got, err)
	}
}

func TestPhysicalMemory(t *testing.T) {
	if n := PhysicalMemory(); n < 0 || (runtime.GOOS == "linux" && n < 64<<20) {
		t.Fatalf("PhysicalMemory() = %d", n)
	}
	if holdBytes <= 0 || holdBytes > 4<<30 {
		t.Fatalf("holdBytes = %d", holdBytes)
	}
}

// A load-only engine writes what a normal one writes: reopened, the index
// holds the newest version of every company, postings included; during
// the load, profiles read back are current.
func TestLoadOnly(t *testing.T) { bothModes(t, testLoadOnly) }

func testLoadOnly(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	e, err := Open(dir, Options{BulkLoad: true, LoadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.SetMeta(ctx, index.Meta{EmbedderID: "x", Dimension: enginetest.Dim}); err != nil {
		t.Fatal(err)
	}
	const n = 200
	first, second := bulkDocs(n, 1), bulkDocs(n, 2)
	want := map[string]record.Company{}
	for _, batch := range [][]index.CompanyDoc{first[:100], first[100:], second[:50], second[50:100]} {
		if _, err := e.UpsertCompanies(ctx, batch); err != nil {
			t.Fatal(err)
		}
		for _, d := range batch {
			want[d.Company.Domain] = d.Company
		}
	}
	if e.Len() != 0 {
		t.Errorf("load-only engine indexed %d companies in memory", e.Len())
	}
	d := second[7].Company.Domain
	if got, err := e.GetCompanies(ctx, []string{d}); err != nil || len(got) != 1 || !reflect.DeepEqual(got[0], want[d]) {
		t.Fatalf("during the load GetCompanies(%s) = %+v, %v", d, got, err)
	}
	if err := e.FinishLoad(ctx); err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	e, err = Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if e.Len() != n {
		t.Fatalf("reopened with %d companies, want %d", e.Len(), n)
	}
	us := 0
	for d, c := range want {
		got, err := e.GetCompanies(ctx, []string{d})
		if err != nil || len(got) != 1 || !reflect.DeepEqual(got[0], c) {
			t.Fatalf("GetCompanies(%s) = %+v, %v; want %+v", d, got, err, c)
		}
		if c.Address.Country == "US" {
			us++
		}
	}
	if got, _ := e.CountCompanies(ctx, index.Terms{Field: index.CountryField, Values: []string{"US"}}); got != us {
		t.Fatalf("%d companies in US, want %d", got, us)
	}
}
