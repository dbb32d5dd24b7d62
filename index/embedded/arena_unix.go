//go:build unix

package embedded

import "syscall"

// allocArena returns n bytes mapped outside the Go heap, and the function
// that unmaps them. Held runs of a bulk load reach gigabytes: on the heap
// they would raise the garbage collector's goal by as much again, and the
// process would peak at twice their size. Falls back to the heap when the
// mapping fails.
func allocArena(n int) ([]byte, func()) {
	b, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return make([]byte, n), func() {}
	}
	// Fresh pages fault in on first write: huge ones fault 512 times
	// less often (a 4 KiB fault per 4 KiB of profile cost a twentieth of
	// the load's CPU).
	adviseHuge(b)
	return b, func() { syscall.Munmap(b) }
}
