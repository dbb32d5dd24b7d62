package embedded

import "syscall"

// adviseHuge asks for transparent huge pages on b; failure only costs speed.
func adviseHuge(b []byte) { _ = syscall.Madvise(b, syscall.MADV_HUGEPAGE) }
