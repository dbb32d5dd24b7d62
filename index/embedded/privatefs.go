package embedded

import (
	"io"
	"os"

	"github.com/cockroachdb/pebble/vfs"

	"github.com/openprospect/prospectd/internal/privatefs"
)

// privateFS is Pebble's file system with the index's files readable by
// the owner only: Pebble creates them 0666 and its directories 0755
// (less the umask); these lose their group and other bits as they are
// made.
type privateFS struct{ vfs.FS }

var indexFS vfs.FS = privateFS{vfs.Default}

func (p privateFS) Create(name string) (vfs.File, error) {
	f, err := p.FS.Create(name)
	if err != nil {
		return nil, err
	}
	if err := privatefs.Restrict(name); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

func (p privateFS) ReuseForWrite(oldname, newname string) (vfs.File, error) {
	f, err := p.FS.ReuseForWrite(oldname, newname)
	if err != nil {
		return nil, err
	}
	if err := privatefs.Restrict(newname); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

func (p privateFS) MkdirAll(dir string, perm os.FileMode) error {
	return p.FS.MkdirAll(dir, perm&privatefs.DirMode)
}

func (p privateFS) Lock(name string) (io.Closer, error) {
	c, err := p.FS.Lock(name)
	if err != nil {
		return nil, err
	}
	if err := privatefs.Restrict(name); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}
