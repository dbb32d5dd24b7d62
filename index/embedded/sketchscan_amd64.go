package embedded

// scanBlocksAVX2 writes the estimates of n > 0 blocks of sketches (32 a
// block, sketchscan.go) to out (32 each) from the nibble tables tab
// (sketchTables).
//
//go:noescape
func scanBlocksAVX2(tab *byte, blocks *byte, n int, out *uint16)
