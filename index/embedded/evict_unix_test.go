//go:build unix

package embedded

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// evictDir drops dir's files from the page cache (POSIX_FADV_DONTNEED),
// so a benchmark's next reads go to the disk as a store larger than the
// page cache would, without touching other processes' cached pages.
func evictDir(tb testing.TB, dir string) {
	tb.Helper()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return nil // removed meanwhile (a compaction)
		}
		defer f.Close()
		return unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED)
	})
	if err != nil {
		tb.Fatal(err)
	}
}
