// Package ingest loads company files into an index: it reads JSONL, CSV and
// Excel files, normalizes each record (root domain, country and subdivision
// codes, E.164 phones, vocabularies), embeds it and bulk-writes it, keeping
// a reject list with the row and reason of every record it refused.
package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/openprospect/prospectd/record"
)

// Source yields records one at a time. Next returns io.EOF at the end, a
// *RowError for a bad row (the caller records it and goes on), and any
// other error when reading cannot continue. Rows are numbered from 1: the
// line for JSONL, the data row (header excluded) for CSV and Excel.
type Source interface {
	Next() (c record.Company, row int, err error)
	Close() error
}

// RowError is a row that was refused, with the reason.
type RowError struct {
	Row    int
	Domain string
	Reason string
}

func (e *RowError) Error() string {
	if e.Domain != "" {
		return fmt.Sprintf("row %d (%s): %s", e.Row, e.Domain, e.Reason)
	}
	return fmt.Sprintf("row %d: %s", e.Row, e.Reason)
}

// ErrFormat is wrapped by errors about a whole file: wrong type, no header,
// unknown columns, empty.
var ErrFormat = errors.New("unreadable file")

// Open opens a company file, choosing the reader by extension: .jsonl,
// .ndjson, .json (one object per line); .csv, .tsv, .txt; .xlsx.
func Open(path string) (Source, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if st.Size() == 0 {
		f.Close()
		return nil, fmt.Errorf("%s: %w: the file is empty", path, ErrFormat)
	}
	var src Source
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".jsonl", ".ndjson", ".json":
		src = &closing{Source: NewJSONL(f), c: f}
	case ".csv", ".tsv", ".txt":
		s, err := NewCSV(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		src = &closing{Source: s, c: f}
	case ".xlsx":
		head := make([]byte, 4)
		if _, err := io.ReadFull(f, head); err != nil || !bytes.Equal(head, []byte("PK\x03\x04")) {
			f.Close()
			return nil, fmt.Errorf("%s: %w: not an Excel workbook (.xlsx files are zip archives; this one is not)", path, ErrFormat)
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			f.Close()
			return nil, err
		}
		s, err := NewXLSX(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		src = s
	default:
		f.Close()
		return nil, fmt.Errorf("%s: %w: unknown extension %q (want .jsonl, .ndjson, .json, .csv, .tsv, .txt or .xlsx)", path, ErrFormat, ext)
	}
	return src, nil
}

type closing struct {
	Source
	c io.Closer
}

func (c *closing) Close() error { return errors.Join(c.Source.Close(), c.c.Close()) }
