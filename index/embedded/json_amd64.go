package embedded

import "golang.org/x/sys/cpu"

var useAVX2 = cpu.X86.HasAVX2

// jsonPlainAVX2 returns the index of the first byte of p[0:n] that
// jsonSafe does not mark (a byte to escape, or not ASCII), or n when
// there is none; n > 0 is a multiple of 32.
//
//go:noescape
func jsonPlainAVX2(p *byte, n int) int
