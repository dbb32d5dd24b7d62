package embedded

import (
	"errors"
	"fmt"
	"os"
	"syscall"

	"github.com/cockroachdb/pebble/objstorage"
)

// A bulk load writes its spool files and most sstables with O_DIRECT, in
// large aligned writes handed to a goroutine while the next buffer fills.
// Through the page cache each written byte first cost the kernel a fresh
// page, zeroed and then copied into: on this project's 2-core VMs that was
// a twelfth of a 1M load's CPU, and writeback then competed with the load.
// Those files are read back once (spool) or only in part (profiles); the
// entry sstables, which every open reads whole, go through the page cache
// (see mergePartition).

const (
	directAlign = 4096    // logical block size O_DIRECT needs, at most
	directChunk = 4 << 20 // bytes per write
)

// createDirect creates the file at path for an sstable or spool writer:
// direct I/O where the file system supports it, Pebble's buffered file
// otherwise (tmpfs, for one, refuses O_DIRECT). Finish syncs the file
// when sync is set; a spool file, dropped after a crash, needs no sync.
func createDirect(path string, sync bool) (objstorage.Writable, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY|syscall.O_DIRECT, 0o600)
	if err != nil {
		if !errors.Is(err, syscall.EINVAL) {
			return nil, err
		}
		return createBuffered(path)
	}
	w := &directWritable{f: f, done: make(chan error, 1), sync: sync}
	w.buf, w.freeBuf = allocArena(directChunk)
	w.spare, w.freeSpare = allocArena(directChunk)
	w.buf = w.buf[:0]
	return w, nil
}

// openDirect opens the file at path for reading with direct I/O where the
// file system supports it. Reads must then go to block-aligned buffers
// (allocArena's are page-aligned) in multiples of directAlign.
func openDirect(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_DIRECT, 0)
	if errors.Is(err, syscall.EINVAL) {
		return os.Open(path)
	}
	return f, err
}

// directWritable implements objstorage.Writable over an O_DIRECT file.
type directWritable struct {
	f                  *os.File
	buf, spare         []byte // filling; the one being written (or free)
	freeBuf, freeSpare func()
	writing            bool       // a write of spare is under way
	done               chan error // its result
	size               int64      // bytes accepted so far
	sync               bool       // Finish syncs the file
	finished           bool       // Finish or Abort ran; the buffers are released
	err                error
}

func (w *directWritable) Write(p []byte) error {
	for len(p) > 0 && w.err == nil {
		n := copy(w.buf[len(w.buf):cap(w.buf)], p)
		w.buf = w.buf[:len(w.buf)+n]
		p = p[n:]
		w.size += int64(n)
		if len(w.buf) == cap(w.buf) {
			w.flush()
		}
	}
	return w.err
}

// flush waits for the write under way and starts writing the full buffer.
func (w *directWritable) flush() {
	if w.wait(); w.err != nil {
		return
	}
	w.buf, w.spare = w.spare[:0], w.buf
	w.freeBuf, w.freeSpare = w.freeSpare, w.freeBuf
	w.writing = true
	go func(b []byte) {
		_, err := w.f.Write(b)
		w.done <- err
	}(w.spare)
}

func (w *directWritable) wait() {
	if w.writing {
		w.writing = false
		if err := <-w.done; err != nil && w.err == nil {
			w.err = fmt.Errorf("write %s: %w", w.f.Name(), err)
		}
	}
}

// Finish writes the tail (padded to the block size, then truncated to the
// true length), syncs and closes the file.
func (w *directWritable) Finish() error {
	if w.finished {
		return errors.New("direct writable: finished twice")
	}
	w.wait()
	if w.err == nil && len(w.buf) > 0 {
		n := len(w.buf)
		padded := (n + directAlign - 1) / directAlign * directAlign
		tail := w.buf[:padded]
		clear(tail[n:])
		if _, err := w.f.Write(tail); err != nil {
			w.err = fmt.Errorf("write %s: %w", w.f.Name(), err)
		}
	}
	if w.err == nil {
		if err := w.f.Truncate(w.size); err != nil {
			w.err = err
		}
	}
	if w.err == nil && w.sync {
		w.err = w.f.Sync()
	}
	if err := w.f.Close(); w.err == nil {
		w.err = err
	}
	w.release()
	return w.err
}

// Abort closes the file unless Finish did; either way only once, since a
// second unmap of the buffers could unmap another arena mapped since at
// the same address.
func (w *directWritable) Abort() {
	if w.finished {
		return
	}
	w.wait()
	w.f.Close()
	w.release()
}

func (w *directWritable) release() {
	w.finished = true
	w.freeBuf()
	w.freeSpare()
	w.buf, w.spare = nil, nil
}
