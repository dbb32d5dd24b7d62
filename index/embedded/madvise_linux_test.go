package embedded

import (
	"syscall"
	"testing"
	"unsafe"
)

// TestReleaseZeros checks that the released pages leave the resident set
// and read as zeros, and that the partial pages at either end are kept.
func TestReleaseZeros(t *testing.T) {
	page := syscall.Getpagesize()
	b, err := syscall.Mmap(-1, 0, 64*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skip("mmap:", err)
	}
	defer syscall.Munmap(b)
	for i := range b {
		b[i] = 0
	}
	b[page/2] = 7 // in the first, partial page of the released range
	releaseZeros(b[page/2+1 : 60*page+10])
	vec := make([]byte, 64)
	if _, _, errno := syscall.Syscall(syscall.SYS_MINCORE, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)), uintptr(unsafe.Pointer(&vec[0]))); errno != 0 {
		t.Skip("mincore:", errno)
	}
	for p, v := range vec {
		released := p >= 1 && p < 60
		if resident := v&1 == 1; resident == released {
			t.Errorf("page %d: resident %v, want %v", p, resident, !released)
		}
	}
	if b[page/2] != 7 {
		t.Fatal("a byte outside the whole pages changed")
	}
	for i := page; i < 60*page; i++ {
		if b[i] != 0 {
			t.Fatalf("byte %d reads %d after release", i, b[i])
		}
	}
}
