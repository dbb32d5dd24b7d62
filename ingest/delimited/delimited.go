// Package delimited reads delimited text (CSV, semicolon-, tab- or
// pipe-separated) the way spreadsheet exports need: the delimiter sniffed
// from the header line, lenient quoting, CRLF line ends, and a cap on the
// bytes kept per record, so that a multi-gigabyte file is read in bounded
// memory.
//
// It is kept instead of encoding/csv for two behaviours that package lacks
// (docs/decisions.md, "Hand-written low-level code kept"): encoding/csv
// holds a whole record however long it grows — an unclosed quote near the
// start of a 2.5 GB export reads the rest of the file into one field —
// and with LazyQuotes a quote followed by text ("Acme" Corp) leaves the
// field open, so one such cell swallows the following rows; here the text
// is kept in the field and the quote stays closed, as spreadsheet programs
// and Python's csv module read it.
package delimited

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"slices"
)

// Row errors Read reports; the row is skipped and reading goes on.
var (
	// ErrTooLong is a record over the Reader's cap; it was read past
	// without being held.
	ErrTooLong = errors.New("record too long")
	// ErrUnterminated is a quote opened and never closed: the record ran
	// to the end of the input.
	ErrUnterminated = errors.New("unterminated quoted field (a quote opened and never closed)")
)

// Sniff picks the delimiter among comma, semicolon, tab and pipe that
// occurs most often outside quotes in a header line; comma on a tie or
// when there is none (a one-column file).
func Sniff(line []byte) byte {
	var counts [256]int
	quoted := false
	for _, c := range line {
		switch {
		case c == '"':
			quoted = !quoted
		case !quoted:
			counts[c]++
		}
	}
	best := byte(',')
	for _, d := range []byte{';', '\t', '|'} {
		if counts[d] > counts[best] {
			best = d
		}
	}
	return best
}

// Reader splits delimited text into records. A quote inside an unquoted
// field is a character; "" is a quote inside a quoted field; quoted fields
// may span lines.
type Reader struct {
	r     *bufio.Reader
	comma byte
	max   int
	buf   []byte // the current record's field bytes
	ends  []int  // end offset in buf of each field
}

// NewReader reads records separated by comma from r, keeping at most max
// bytes of a record's fields.
func NewReader(r *bufio.Reader, comma byte, max int) *Reader {
	return &Reader{r: r, comma: comma, max: max}
}

// Fields is the number of fields of the record Read read.
func (r *Reader) Fields() int { return len(r.ends) }

// Field returns field i of the record Read read; the bytes are valid until
// the next Read.
func (r *Reader) Field(i int) []byte {
	start := 0
	if i > 0 {
		start = r.ends[i-1]
	}
	return r.buf[start:r.ends[i]]
}

// Blank reports that the record holds nothing but delimiters and space.
func (r *Reader) Blank() bool {
	return len(bytes.TrimSpace(r.buf)) == 0
}

// Read reads the next record: io.EOF at the end, ErrTooLong or
// ErrUnterminated for a record to skip, or the reader's error.
func (r *Reader) Read() error {
	r.buf, r.ends = r.buf[:0], r.ends[:0]
	const (
		fieldStart = iota
		unquoted
		quoted
		quoteInQuoted // a quote seen inside a quoted field: end or escape
	)
	state := fieldStart
	tooLong := false
	add := func(b ...byte) {
		if tooLong {
			return
		}
		need := len(r.buf) + len(b)
		if need > r.max {
			tooLong = true
			return
		}
		if need > cap(r.buf) {
			// Double: append grows large slices by a quarter at a time,
			// which for a record near the cap allocates five times its size.
			r.buf = slices.Grow(r.buf, min(max(2*cap(r.buf), need), r.max)-len(r.buf))
		}
		r.buf = append(r.buf, b...)
	}
	endField := func() { r.ends = append(r.ends, len(r.buf)) }
	finish := func() error {
		if tooLong {
			return ErrTooLong
		}
		return nil
	}
	sawAny := false
	for {
		line, err := r.r.ReadSlice('\n')
		if len(line) > 0 {
			sawAny = true
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			err = nil // a long physical line: go on with the next piece
		} else if n := len(line); n >= 2 && line[n-1] == '\n' && line[n-2] == '\r' {
			line = append(line[:n-2], '\n')
		}
		for i := 0; i < len(line); i++ {
			c := line[i]
			switch state {
			case fieldStart:
				switch c {
				case '"':
					state = quoted
				case r.comma:
					endField()
				case '\n':
					endField()
					return finish()
				default:
					add(c)
					state = unquoted
				}
			case unquoted:
				// Copy the run up to the next delimiter or line end at once.
				j := i
				for j < len(line) && line[j] != r.comma && line[j] != '\n' {
					j++
				}
				add(line[i:j]...)
				i = j
				if i == len(line) {
					break
				}
				endField()
				state = fieldStart
				if line[i] == '\n' {
					return finish()
				}
			case quoted:
				j := i
				for j < len(line) && line[j] != '"' {
					j++
				}
				add(line[i:j]...)
				i = j
				if i < len(line) {
					state = quoteInQuoted
				}
			case quoteInQuoted:
				switch c {
				case '"':
					add('"')
					state = quoted
				case r.comma:
					endField()
					state = fieldStart
				case '\n':
					endField()
					return finish()
				default:
					// Text after a closing quote belongs to the field; the
					// quote stays closed, so a stray quote cannot swallow
					// the rest of the file.
					add(c)
					state = unquoted
				}
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				return err
			}
			if !sawAny {
				return io.EOF
			}
			if state == quoted {
				return ErrUnterminated
			}
			endField()
			return finish()
		}
	}
}
