//go:build !unix

package embedded

// fileLimit is unknown here: Pebble keeps its default.
func fileLimit() int { return 0 }
