package embedded

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

func TestCreateSSTableWritesExactly(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	dir := t.TempDir()
	for _, size := range []int{0, 1, 4095, 4096, 4097, directChunk - 1, directChunk, directChunk + 1, 3*directChunk + 12345} {
		path := filepath.Join(dir, "t.sst")
		w, err := createDirect(path, true)
		if err != nil {
			t.Fatal(err)
		}
		want := make([]byte, size)
		for i := range want {
			want[i] = byte(r.Uint32())
		}
		for p := want; len(p) > 0; {
			n := min(len(p), 1+r.IntN(70000))
			if err := w.Write(p[:n]); err != nil {
				t.Fatal(err)
			}
			p = p[n:]
		}
		if err := w.Finish(); err != nil {
			t.Fatalf("size %d: %v", size, err)
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("size %d: read back %d bytes, not what was written", size, len(got))
		}
	}
	// An aborted file is closed; what it holds does not matter.
	w, err := createDirect(filepath.Join(dir, "aborted.sst"), false)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(make([]byte, directChunk+5)); err != nil {
		t.Fatal(err)
	}
	w.Abort()
}

// A writer whose Finish failed releases its buffers once: an Abort after
// it must not unmap memory mapped since (at the same address, as the
// kernel reuses it at once).
func TestDirectWritableFailedFinishThenAbort(t *testing.T) {
	w, err := createDirect(filepath.Join(t.TempDir(), "f.sst"), true)
	if err != nil {
		t.Fatal(err)
	}
	dw, ok := w.(*directWritable)
	if !ok {
		t.Skip("the file system refuses O_DIRECT; the buffered writer is Pebble's")
	}
	if err := w.Write(make([]byte, 10_000)); err != nil {
		t.Fatal(err)
	}
	dw.f.Close() // the tail write fails
	if err := w.Finish(); err == nil {
		t.Fatal("Finish on a closed file succeeded")
	}
	a, freeA := allocArena(directChunk)
	b, freeB := allocArena(directChunk)
	defer freeA()
	defer freeB()
	w.Abort()
	a[0], b[0] = 1, 1 // faults if Abort unmapped them
	if err := w.Finish(); err == nil {
		t.Fatal("a second Finish succeeded")
	}
}
