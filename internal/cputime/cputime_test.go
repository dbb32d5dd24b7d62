//go:build unix

package cputime

import "testing"

// TestProcessGrows: spinning for a while must show up as CPU time.
func TestProcessGrows(t *testing.T) {
	start := Process()
	if start <= 0 {
		t.Fatalf("Process() = %v at start, want > 0", start)
	}
	x := 0
	for i := 0; Process()-start < 20_000_000 && i < 2_000_000_000; i++ {
		x += i
	}
	if got := Process() - start; got < 20_000_000 {
		t.Fatalf("CPU time grew by %v after spinning (x=%d)", got, x)
	}
}
