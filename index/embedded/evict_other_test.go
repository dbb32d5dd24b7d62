//go:build !unix

package embedded

import "testing"

// evictDir cannot drop pages here: the benchmark's first pass is warm.
func evictDir(tb testing.TB, dir string) {
	tb.Logf("cannot evict %s from the page cache on this system", dir)
}
