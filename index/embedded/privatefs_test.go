//go:build unix

package embedded

import (
	"context"
	"io/fs"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/enginetest"
)

// TestFilesArePrivate: every directory and file of an index written by a
// bulk load (spilled runs, direct and buffered sstables) and by upserts
// afterwards is the owner's only under the usual umask 022.
func TestFilesArePrivate(t *testing.T) {
	spillRuns(t)
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "data", "index")
	e, err := Open(dir, Options{BulkLoad: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.SetMeta(ctx, index.Meta{EmbedderID: "x", Dimension: enginetest.Dim}); err != nil {
		t.Fatal(err)
	}
	docs := bulkDocs(300, 1)
	for from := 0; from < len(docs); from += 50 {
		if _, err := e.UpsertCompanies(ctx, docs[from:from+50]); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.FinishLoad(ctx); err != nil {
		t.Fatal(err)
	}
	e.Close()
	e, err = Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.UpsertCompanies(ctx, bulkDocs(10, 2)); err != nil {
		t.Fatal(err)
	}
	defer e.Close()

	files := 0
	filepath.WalkDir(filepath.Dir(dir), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		st, _ := d.Info()
		want := fs.FileMode(0o600)
		if d.IsDir() {
			want = 0o700
		} else {
			files++
		}
		if st.Mode().Perm() != want {
			t.Errorf("%s: mode %o, want %o", p, st.Mode().Perm(), want)
		}
		return nil
	})
	if files < 5 {
		t.Fatalf("only %d files written: the test checks nothing", files)
	}
}
