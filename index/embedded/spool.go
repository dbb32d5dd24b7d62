package embedded

import (
	"container/heap"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// A spool file holds one sorted run of a bulk load on disk until the load
// ends: records of uvarint lengths of domain, entry and profile, then the
// three. It is written and read back with direct I/O (see direct_linux.go):
// held in memory, a 1M-company load's runs were 3.3 GB of fresh pages,
// which cost this project's VMs about 2 CPU-s per GB to fault in, and
// went through the page cache they would cost as much again.

// spooledRun is a run written to a spool file.
type spooledRun struct {
	path  string
	f     *os.File          // for reads by get
	index map[string]runRec // domain -> offsets of its entry and profile in the file
	cuts  []int64           // file offset where each key partition starts, then the file size
}

// spool writes run r, whose records recs are sorted, to a spool file.
func (b *bulkLoader) spool(r *run, recs []keyedRec, seq int) (_ *spooledRun, err error) {
	path := filepath.Join(b.dir, fmt.Sprintf("spool-%06d", seq))
	w, err := createDirect(path, false)
	if err != nil {
		return nil, fmt.Errorf("spool run: %w", err)
	}
	defer func() {
		if err != nil {
			w.Abort() // nothing after Finish
			os.Remove(path)
		}
	}()
	sp := &spooledRun{path: path, index: make(map[string]runRec, len(recs))}
	next := 0 // the next partition boundary
	var off int64
	var hdr [3 * binary.MaxVarintLen64]byte
	sp.cuts = append(sp.cuts, 0)
	for _, rec := range recs {
		for next < len(b.bounds) && rec.domain >= b.bounds[next] {
			sp.cuts = append(sp.cuts, off)
			next++
		}
		x, p := r.arena[rec.x:rec.xEnd], r.arena[rec.p:rec.pEnd]
		h := binary.AppendUvarint(hdr[:0], uint64(len(rec.domain)))
		h = binary.AppendUvarint(h, uint64(len(x)))
		h = binary.AppendUvarint(h, uint64(len(p)))
		for _, part := range [][]byte{h, []byte(rec.domain), x, p} {
			if err := w.Write(part); err != nil {
				return nil, fmt.Errorf("spool run: %w", err)
			}
		}
		xAt := int(off) + len(h) + len(rec.domain)
		sp.index[rec.domain] = runRec{x: xAt, xEnd: xAt + len(x), p: xAt + len(x), pEnd: xAt + len(x) + len(p)}
		off += int64(len(h) + len(rec.domain) + len(x) + len(p))
	}
	for next <= len(b.bounds) {
		sp.cuts = append(sp.cuts, off)
		next++
	}
	if err := w.Finish(); err != nil {
		return nil, fmt.Errorf("spool run: %w", err)
	}
	if sp.f, err = os.Open(path); err != nil {
		return nil, fmt.Errorf("spool run: %w", err)
	}
	return sp, nil
}

// read returns a copy of the entry (profile false) or profile of a
// domain; ok is false when the run does not hold it.
func (sp *spooledRun) read(domain string, profile bool) (v []byte, ok bool, err error) {
	rec, found := sp.index[domain]
	if !found {
		return nil, false, nil
	}
	from, to := rec.x, rec.xEnd
	if profile {
		from, to = rec.p, rec.pEnd
	}
	v = make([]byte, to-from)
	if _, err := sp.f.ReadAt(v, int64(from)); err != nil {
		return nil, false, fmt.Errorf("read spooled %s: %w", domain, err)
	}
	return v, true, nil
}

func (sp *spooledRun) remove() error {
	return errors.Join(sp.f.Close(), os.Remove(sp.path))
}

// spoolReader reads the records of a spool file between two offsets.
type spoolReader struct {
	f          *os.File
	buf        []byte
	free       func()
	r, w       int   // unread bytes: buf[r:w]
	pos, end   int64 // file offset of buf[r]; where the records end
	size       int64 // file size
	read       int64 // file offset of buf[w]
	eof        bool
	domain     string // the current record
	x, profile []byte
}

// openSpool opens a reader of the records in [from, to) of sp, with a read
// buffer of about bufSize bytes.
func openSpool(sp *spooledRun, part, bufSize int) (*spoolReader, error) {
	from, to := sp.cuts[part], sp.cuts[part+1]
	f, err := openDirect(sp.path)
	if err != nil {
		return nil, fmt.Errorf("read spool: %w", err)
	}
	aligned := from &^ (directAlign - 1)
	if _, err := f.Seek(aligned, io.SeekStart); err != nil {
		f.Close()
		return nil, fmt.Errorf("read spool: %w", err)
	}
	s := &spoolReader{f: f, pos: aligned, end: to, read: aligned, size: sp.cuts[len(sp.cuts)-1]}
	s.buf, s.free = allocArena(alignUp(bufSize))
	if err := s.ensure(int(from - aligned)); err != nil {
		s.close()
		return nil, err
	}
	s.r += int(from - aligned)
	s.pos = from
	return s, nil
}

func alignUp(n int) int { return (n + directAlign - 1) &^ (directAlign - 1) }

// ensure makes n bytes from buf[r] readable, reading on as needed.
func (s *spoolReader) ensure(n int) error {
	for s.w-s.r < n {
		if s.eof {
			return fmt.Errorf("read spool %s: %w", s.f.Name(), io.ErrUnexpectedEOF)
		}
		// The unread bytes move so they end on a block boundary, where
		// the next direct read lands.
		k := s.w - s.r
		if alignUp(n)+directAlign > len(s.buf) {
			buf, free := allocArena(max(alignUp(2*n), alignUp(n)+2*directAlign))
			copy(buf[alignUp(k)-k:], s.buf[s.r:s.w])
			s.free()
			s.buf, s.free = buf, free
		} else {
			copy(s.buf[alignUp(k)-k:], s.buf[s.r:s.w])
		}
		s.r, s.w = alignUp(k)-k, alignUp(k)
		m, err := s.f.Read(s.buf[s.w:])
		if err != nil && err != io.EOF {
			return fmt.Errorf("read spool %s: %w", s.f.Name(), err)
		}
		s.w += m
		s.read += int64(m)
		if m < len(s.buf)-(s.w-m) {
			// A direct read is short only at the end of the file; a
			// later one would start off a block boundary.
			if s.read < s.size {
				return fmt.Errorf("read spool %s: short read at %d of %d bytes", s.f.Name(), s.read, s.size)
			}
			s.eof = true
		}
	}
	return nil
}

// next moves to the next record; false at the end of the range.
func (s *spoolReader) next() (bool, error) {
	if s.pos >= s.end {
		return false, nil
	}
	if err := s.ensure(int(min(3*binary.MaxVarintLen64, s.end-s.pos))); err != nil {
		return false, err
	}
	b := s.buf[s.r:s.w]
	var lens [3]uint64
	h := 0
	for i := range lens {
		v, n := binary.Uvarint(b[h:])
		if n <= 0 {
			return false, fmt.Errorf("read spool %s: corrupt record at %d", s.f.Name(), s.pos)
		}
		lens[i], h = v, h+n
	}
	total := uint64(h) + lens[0] + lens[1] + lens[2]
	if total > uint64(s.end-s.pos) {
		return false, fmt.Errorf("read spool %s: corrupt record at %d", s.f.Name(), s.pos)
	}
	if err := s.ensure(int(total)); err != nil {
		return false, err
	}
	b = s.buf[s.r : s.r+int(total)]
	d := b[h : h+int(lens[0])]
	s.x = b[h+len(d) : h+len(d)+int(lens[1])]
	s.profile = b[h+len(d)+len(s.x):]
	s.domain = string(d)
	s.r += int(total)
	s.pos += int64(total)
	return true, nil
}

func (s *spoolReader) close() {
	s.f.Close()
	s.free()
}

// spoolMerge yields the records of several spool readers in domain order;
// for a domain in several, only the newest run's record (the reader with
// the highest age).
type spoolMerge []spoolCursor

type spoolCursor struct {
	*spoolReader
	age int
}

func (m spoolMerge) Len() int { return len(m) }
func (m spoolMerge) Less(i, j int) bool {
	if c := strings.Compare(m[i].domain, m[j].domain); c != 0 {
		return c < 0
	}
	return m[i].age > m[j].age
}
func (m spoolMerge) Swap(i, j int) { m[i], m[j] = m[j], m[i] }
func (m *spoolMerge) Push(x any)   { *m = append(*m, x.(spoolCursor)) }
func (m *spoolMerge) Pop() any {
	old := *m
	c := old[len(old)-1]
	*m = old[:len(old)-1]
	return c
}

var _ heap.Interface = (*spoolMerge)(nil)
