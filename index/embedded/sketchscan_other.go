//go:build !amd64

package embedded

func scanBlocksAVX2(tab *byte, blocks *byte, n int, out *uint16) { panic("unreachable") }
