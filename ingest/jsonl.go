package ingest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/openprospect/prospectd/record"
)

// MaxRecordBytes caps one record (a JSONL line, a CSV line). A longer one
// is refused as a row error and skipped without being held in memory.
const MaxRecordBytes = 8 << 20

var errRecordTooLong = fmt.Sprintf("record exceeds %d MiB", MaxRecordBytes>>20)

// lineSource is a Source whose records are read as lines and decoded
// separately, so the loader can decode them in its parallel workers.
type lineSource interface {
	Source
	// nextLine returns the next non-blank line, valid until the following
	// call, with its row; a *RowError for an overlong line.
	nextLine() (line []byte, row int, err error)
	// decodeLine decodes a line into c; the error is the reason for a
	// reject. With dropped non-nil, a field of the wrong type is left out
	// and its reason appended to dropped instead.
	decodeLine(line []byte, c *record.Company, dropped *[]string) error
}

type jsonlSource struct {
	r    *bufio.Reader
	line int
}

var _ lineSource = (*jsonlSource)(nil)

// NewJSONL reads one JSON object per line. Rows are line numbers; blank
// lines are skipped. Keys are matched like CSV headers (see Open); unknown
// keys are ignored, since exports carry fields the profile does not have.
func NewJSONL(r io.Reader) Source {
	br, ok := r.(*bufio.Reader)
	if !ok || br.Size() < MaxRecordBytes {
		br = bufio.NewReaderSize(r, MaxRecordBytes)
	}
	return &jsonlSource{r: br}
}

func (s *jsonlSource) Close() error { return nil }

func (s *jsonlSource) Next() (record.Company, int, error) {
	line, row, err := s.nextLine()
	if err != nil {
		return record.Company{}, row, err
	}
	var c record.Company
	if err := s.decodeLine(line, &c, nil); err != nil {
		return c, row, &RowError{Row: row, Domain: c.Domain, Reason: err.Error()}
	}
	return c, row, nil
}

func (s *jsonlSource) nextLine() ([]byte, int, error) {
	for {
		line, err := s.r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			s.line++
			if err := s.skipLine(); err != nil {
				return nil, s.line, err
			}
			return nil, s.line, &RowError{Row: s.line, Reason: errRecordTooLong}
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, s.line, fmt.Errorf("read line %d: %w", s.line+1, err)
		}
		if len(line) == 0 && err != nil {
			return nil, s.line, io.EOF
		}
		s.line++
		if s.line == 1 {
			line = bytes.TrimPrefix(line, utf8BOM)
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(bytes.TrimSpace(line)) > 0 {
			return line, s.line, nil
		}
		if err != nil {
			return nil, s.line, io.EOF
		}
	}
}

// skipLine passes over the rest of an overlong line.
func (s *jsonlSource) skipLine() error {
	for {
		_, err := s.r.ReadSlice('\n')
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == nil, errors.Is(err, io.EOF):
			return nil
		default:
			return fmt.Errorf("read line %d: %w", s.line, err)
		}
	}
}

func (s *jsonlSource) decodeLine(line []byte, c *record.Company, dropped *[]string) error {
	return decodeJSONCompanyLenient(line, c, dropped)
}

var utf8BOM = []byte("\xef\xbb\xbf")
