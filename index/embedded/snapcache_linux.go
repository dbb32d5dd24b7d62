package embedded

import (
	"os"

	"golang.org/x/sys/unix"
)

// dropFileCache tells the kernel the file's cached pages are not needed
// again: a snapshot read into memory would otherwise keep as much page
// cache as the index it restored (3.5 GB at 10M), evicting the store's
// blocks and the vector file that searches read. Failure only costs cache.
func dropFileCache(f *os.File) { _ = unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED) }
