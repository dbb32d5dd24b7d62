package embedded

import (
	"runtime"
	"testing"
)

// TestOpenFiles: the table cache takes half the file limit, within
// Pebble's default and 65,536, and an engine opens with an explicit one.
func TestOpenFiles(t *testing.T) {
	n := openFiles()
	if n < 1000 || n > 1<<16 {
		t.Fatalf("openFiles() = %d, want 1000-65536", n)
	}
	if lim := fileLimit(); runtime.GOOS == "linux" && (lim <= 0 || n != min(max(lim/2, 1000), 1<<16)) {
		t.Fatalf("file limit %d, openFiles() %d", lim, n)
	}
	e, err := Open(t.TempDir(), Options{OpenFiles: 16})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
}
