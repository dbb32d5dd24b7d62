//go:build !amd64

package embedded

const useAVX2 = false

func jsonPlainAVX2(p *byte, n int) int { panic("unreachable") }
