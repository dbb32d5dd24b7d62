//go:build !linux

package embedded

import (
	"os"

	"github.com/cockroachdb/pebble/objstorage"
)

// createDirect creates the file at path for an sstable or spool writer
// (see direct_linux.go).
func createDirect(path string, _ bool) (objstorage.Writable, error) { return createBuffered(path) }

// openDirect opens the file at path for reading.
func openDirect(path string) (*os.File, error) { return os.Open(path) }

const directAlign = 4096 // keeps spool reads aligned as on Linux
