package embedded

import (
	"github.com/cockroachdb/pebble/objstorage"
	"github.com/cockroachdb/pebble/objstorage/objstorageprovider"
)

// createBuffered creates the file at path for an sstable writer, through
// the page cache (Pebble's own buffered file).
func createBuffered(path string) (objstorage.Writable, error) {
	f, err := indexFS.Create(path)
	if err != nil {
		return nil, err
	}
	return objstorageprovider.NewFileWritable(f), nil
}
