//go:build unix

package sqlite

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/openprospect/prospectd/store"
)

// TestFilesArePrivate: the state file, its WAL and shared-memory files and
// the directory created for them are the owner's only, under the usual
// umask 022; an older world-readable state file is tightened on open.
func TestFilesArePrivate(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "data")
	path := filepath.Join(dir, "state.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateOrg(ctx, "Acme", store.PlanTeam); err != nil { // a write, so the WAL exists
		t.Fatal(err)
	}
	want := map[string]os.FileMode{dir: 0o700, path: 0o600, path + "-wal": 0o600, path + "-shm": 0o600}
	for p, m := range want {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != m {
			t.Errorf("%s: mode %o, want %o", filepath.Base(p), st.Mode().Perm(), m)
		}
	}
	s.Close()

	os.Chmod(path, 0o644)
	s, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("reopened 0644 state file: mode %o, want 600", st.Mode().Perm())
	}
}
