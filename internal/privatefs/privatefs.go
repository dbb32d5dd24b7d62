// Package privatefs creates and opens the service's data files so that
// only the user running it can read them: directories 0700, files 0600.
// The process umask still applies on top, so a stricter umask is kept;
// an existing file or directory the service owns loses its group and
// other bits (never gains any).
package privatefs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// Modes of what the service creates, before the umask.
const (
	DirMode  fs.FileMode = 0o700
	FileMode fs.FileMode = 0o600
)

// MkdirAll creates dir and its missing parents with DirMode. An existing
// directory is left as it is: it may be shared (a home directory, /tmp);
// use Restrict for a directory the service owns.
func MkdirAll(dir string) error {
	if err := os.MkdirAll(dir, DirMode); err != nil {
		return fmt.Errorf("create directory %s: %w", dir, err)
	}
	return nil
}

// Touch creates the file at path with FileMode when it does not exist,
// so a library that would create it with wider bits (SQLite: 0644)
// opens it as it is; an existing file is Restricted.
func Touch(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, FileMode)
	switch {
	case err == nil:
		return f.Close()
	case errors.Is(err, fs.ErrExist):
		return Restrict(path)
	default:
		return fmt.Errorf("create %s: %w", path, err)
	}
}

// Restrict removes the group and other permission bits of each path that
// exists; a missing path is skipped.
func Restrict(paths ...string) error {
	for _, p := range paths {
		st, err := os.Stat(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("stat %s: %w", p, err)
		}
		if mode := st.Mode().Perm(); mode&0o077 != 0 {
			if err := os.Chmod(p, mode&^0o077); err != nil {
				return fmt.Errorf("restrict %s: %w", p, err)
			}
		}
	}
	return nil
}
