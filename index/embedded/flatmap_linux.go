package embedded

import (
	"os"
	"syscall"
)

// mapFlat maps n bytes of the vector file read-only and shared (writes
// through the descriptor show in it), for random access: a page a search
// misses is read alone, without read-ahead. Nothing is touched here, so
// the process's resident memory grows only by the pages searches read.
func mapFlat(f *os.File, n int) ([]byte, error) {
	b, err := syscall.Mmap(int(f.Fd()), 0, n, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, err
	}
	_ = syscall.Madvise(b, syscall.MADV_RANDOM)
	return b, nil
}

func unmapFlat(b []byte) {
	if b != nil {
		_ = syscall.Munmap(b)
	}
}
