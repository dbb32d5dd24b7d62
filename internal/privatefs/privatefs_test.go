//go:build unix

package privatefs

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func mode(t *testing.T, p string) os.FileMode {
	t.Helper()
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return st.Mode().Perm()
}

func TestModes(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := t.TempDir()

	d := filepath.Join(dir, "a", "b")
	if err := MkdirAll(d); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(dir, "a"), d} {
		if m := mode(t, p); m != 0o700 {
			t.Errorf("%s: %o, want 700", p, m)
		}
	}
	f := filepath.Join(d, "state.db")
	if err := Touch(f); err != nil {
		t.Fatal(err)
	}
	if m := mode(t, f); m != 0o600 {
		t.Errorf("new file: %o, want 600", m)
	}

	// An existing world-readable file loses group and other bits only.
	old644 := filepath.Join(dir, "old")
	os.WriteFile(old644, nil, 0o644)
	os.Chmod(old644, 0o754)
	if err := Touch(old644); err != nil {
		t.Fatal(err)
	}
	if m := mode(t, old644); m != 0o700 {
		t.Errorf("existing 754 file: %o, want 700", m)
	}
	if err := Restrict(filepath.Join(dir, "missing")); err != nil {
		t.Errorf("missing path: %v", err)
	}

	// A stricter umask is kept.
	syscall.Umask(0o277)
	f2 := filepath.Join(d, "strict")
	if err := Touch(f2); err != nil {
		t.Fatal(err)
	}
	if m := mode(t, f2); m != 0o400 {
		t.Errorf("under umask 277: %o, want 400", m)
	}
}
