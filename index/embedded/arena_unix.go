//go:build unix

package embedded

import (
	"syscall"
	"unsafe"
)

// allocArena returns n bytes mapped outside the Go heap, page-aligned (as
// direct I/O needs), and the function that unmaps them. Run buffers and
// the vector-sized scratch of a bulk load would otherwise raise the
// garbage collector's goal by their size. Falls back to the heap, aligned
// by hand, when the mapping fails.
func allocArena(n int) ([]byte, func()) {
	b, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		const align = 4096
		h := make([]byte, n+align)
		off := (align - int(uintptr(unsafe.Pointer(&h[0]))%align)) % align
		return h[off : off+n : off+n], func() {}
	}
	// Fresh pages fault in on first write: huge ones fault 512 times
	// less often (a 4 KiB fault per 4 KiB of profile cost a twentieth of
	// the load's CPU).
	adviseHuge(b)
	return b, func() { syscall.Munmap(b) }
}
