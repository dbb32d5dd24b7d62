package embedded

import "syscall"

// willNeed starts reading b's pages into the page cache without waiting
// (MADV_WILLNEED on a file mapping); failure only costs speed.
func willNeed(b []byte) { _ = syscall.Madvise(b, syscall.MADV_WILLNEED) }
