//go:build !linux

package embedded

import (
	"github.com/cockroachdb/pebble/objstorage"
	"github.com/cockroachdb/pebble/objstorage/objstorageprovider"
	"github.com/cockroachdb/pebble/vfs"
)

// createSSTable creates the file at path for an sstable writer (see
// direct_linux.go).
func createSSTable(path string) (objstorage.Writable, error) {
	f, err := vfs.Default.Create(path)
	if err != nil {
		return nil, err
	}
	return objstorageprovider.NewFileWritable(f), nil
}
