package embedded

import "syscall"

// adviseHuge asks for transparent huge pages on b; failure only costs speed.
func adviseHuge(b []byte) { _ = syscall.Madvise(b, syscall.MADV_HUGEPAGE) }

// madvPopulateWrite is MADV_POPULATE_WRITE (Linux 5.14), not in package
// syscall.
const madvPopulateWrite = 23

// prefault faults b's pages in (huge pages where the kernel gives them),
// so the goroutine that fills b does not take a page fault, and possibly a
// compaction, on every first touch. Run it beside the writer: on older
// kernels it fails and nothing changes.
func prefault(b []byte) { _ = syscall.Madvise(b, madvPopulateWrite) }

// releaseZeros hands the whole pages within b, which must hold zeros only,
// back to the kernel: they read as zeros, and fault in again when written.
func releaseZeros(b []byte) {
	if in := interior(b, uintptr(syscall.Getpagesize())); len(in) > 0 {
		_ = syscall.Madvise(in, syscall.MADV_DONTNEED)
	}
}
