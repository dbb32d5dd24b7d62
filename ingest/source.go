// Package ingest loads company files into an index. It owns the file
// readers (JSON lines, CSV/TSV, Excel), the normalization of a record into
// the canonical profile (root domain, ISO country and subdivision codes,
// E.164 phones, vocabularies, buckets), and the Loader that embeds records
// and bulk-writes them into an index.Engine, keeping a reject list with the
// row and reason of every record it refused.
package ingest

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"

	"github.com/openprospect/prospectd/record"
)

// Source yields records one at a time.
//
// Next returns the record and its row: the 1-based line number for JSON
// lines, the 1-based data row for CSV and Excel (the header row is not
// counted, so data row 1 is the second line of the file; blank rows are
// counted but not returned). err is a *RowError for a row that cannot be
// read (the caller records it and goes on), io.EOF at the end, and any
// other error when reading cannot continue.
type Source interface {
	Next() (c record.Company, row int, err error)
	Close() error
}

// RowError is a row that was refused, with the reason.
type RowError struct {
	Row    int
	Domain string // as found in the row, when it could be read
	Reason string
}

func (e *RowError) Error() string {
	if e.Domain != "" {
		return fmt.Sprintf("row %d (%s): %s", e.Row, e.Domain, e.Reason)
	}
	return fmt.Sprintf("row %d: %s", e.Row, e.Reason)
}

// ErrFormat is wrapped by errors about a whole file (wrong type, empty, no
// domain column, unknown columns): nothing of it is loaded.
var ErrFormat = errors.New("file refused")

// Open opens a company file, choosing the reader by extension:
//
//	.jsonl .ndjson .json   one JSON object per line (a JSON array is refused with a hint)
//	.csv .txt              delimited text with a header row; delimiter sniffed among , ; tab |
//	.tsv                   tab-separated text with a header row
//	.xlsx                  Excel workbook: the first sheet with a domain column
//
// A further .gz (companies.jsonl.gz) is decompressed while reading. Open
// checks the content before returning, so a file that is empty, of another
// type than its name says, or without a domain column fails here with an
// error naming the file and wrapping ErrFormat.
func Open(path string) (Source, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	src, err := open(f, path)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return src, nil
}

func open(f *os.File, path string) (Source, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return nil, fmt.Errorf("%w: a directory, not a file", ErrFormat)
	}
	if st.Size() == 0 {
		return nil, fmt.Errorf("%w: the file is empty", ErrFormat)
	}
	ext := strings.ToLower(filepath.Ext(path))
	var r io.Reader = f
	closers := []io.Closer{f}
	if ext == ".gz" {
		zr, err := gzip.NewReader(f)
		if err != nil {
			return nil, fmt.Errorf("%w: not a gzip file: %v", ErrFormat, err)
		}
		r = zr
		closers = append(closers, zr)
		ext = strings.ToLower(filepath.Ext(strings.TrimSuffix(path, filepath.Ext(path))))
	}
	var src Source
	switch ext {
	case ".jsonl", ".ndjson", ".json":
		br := bufio.NewReaderSize(r, MaxRecordBytes)
		if err := sniffJSONL(br); err != nil {
			return nil, err
		}
		src = NewJSONL(br)
	case ".csv", ".tsv", ".txt":
		tr, err := textReader(r)
		if err != nil {
			return nil, err
		}
		comma := byte(0)
		if ext == ".tsv" {
			comma = '\t'
		}
		if src, err = newCSV(tr, comma); err != nil {
			return nil, err
		}
	case ".xlsx", ".xlsm":
		if len(closers) > 1 {
			return nil, fmt.Errorf("%w: an Excel workbook is already compressed; load the .xlsx itself", ErrFormat)
		}
		head := make([]byte, 8)
		n, _ := io.ReadFull(f, head)
		switch kind := magic(head[:n]); kind {
		case "zip":
		case "":
			return nil, fmt.Errorf("%w: not an Excel workbook (an .xlsx file is a zip archive; this one is not: is it CSV or JSON renamed?)", ErrFormat)
		default:
			return nil, fmt.Errorf("%w: not an Excel .xlsx workbook but %s", ErrFormat, kind)
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
		// The workbook is read into memory (zip needs random access);
		// the file is not needed after that.
		s, err := NewXLSX(f)
		f.Close()
		return s, err
	case ".xls":
		return nil, fmt.Errorf("%w: legacy .xls workbooks are not supported; save it as .xlsx or CSV", ErrFormat)
	default:
		return nil, fmt.Errorf("%w: unknown extension %q (want .jsonl, .ndjson, .json, .csv, .tsv, .txt or .xlsx, optionally with .gz)", ErrFormat, ext)
	}
	return &closing{Source: src, closers: closers}, nil
}

// magic names a binary file type by its first bytes, "" for none known.
func magic(head []byte) string {
	switch {
	case bytes.HasPrefix(head, []byte("PK\x03\x04")):
		return "zip"
	case bytes.HasPrefix(head, []byte("\xd0\xcf\x11\xe0")):
		return "a legacy .xls workbook (save it as .xlsx or CSV)"
	case bytes.HasPrefix(head, []byte("\x1f\x8b")):
		return "gzip-compressed (name it .gz)"
	case bytes.HasPrefix(head, []byte("%PDF")):
		return "a PDF document"
	case bytes.HasPrefix(head, []byte("PAR1")):
		return "a Parquet file"
	}
	return ""
}

// sniffJSONL checks that the text starts like JSON lines.
func sniffJSONL(br *bufio.Reader) error {
	head, _ := br.Peek(64 << 10)
	if kind := magic(head); kind != "" {
		if kind == "zip" {
			kind = "a zip archive (an Excel workbook? name it .xlsx)"
		}
		return fmt.Errorf("%w: not JSON lines but %s", ErrFormat, kind)
	}
	trimmed := bytes.TrimLeft(bytes.TrimPrefix(head, utf8BOM), " \t\r\n")
	switch {
	case len(trimmed) == 0 && len(head) < 64<<10:
		return fmt.Errorf("%w: the file has only blank lines", ErrFormat)
	case len(trimmed) == 0, trimmed[0] == '{':
		return nil
	case trimmed[0] == '[':
		return fmt.Errorf("%w: a JSON array, not JSON lines; write one object per line (for example: jq -c '.[]' FILE > FILE.jsonl)", ErrFormat)
	}
	first, _, _ := bytes.Cut(trimmed, []byte("\n"))
	if len(first) > 40 {
		first = first[:40]
	}
	return fmt.Errorf("%w: not JSON lines: the first line starts with %q, not with '{'", ErrFormat, first)
}

// textReader refuses binary files given a text extension and decodes
// UTF-16 text (Excel's "Unicode text" export) to UTF-8.
func textReader(r io.Reader) (io.Reader, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(4 << 10)
	if bytes.HasPrefix(head, []byte("\xff\xfe")) || bytes.HasPrefix(head, []byte("\xfe\xff")) {
		dec := unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM).NewDecoder()
		return transform.NewReader(br, dec), nil
	}
	if kind := magic(head); kind != "" {
		if kind == "zip" {
			kind = "a zip archive (an Excel workbook? name it .xlsx)"
		}
		return nil, fmt.Errorf("%w: not delimited text but %s", ErrFormat, kind)
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return nil, fmt.Errorf("%w: not delimited text: it contains NUL bytes (binary, or UTF-16 without a byte-order mark; save it as UTF-8 CSV)", ErrFormat)
	}
	return br, nil
}

type closing struct {
	Source
	closers []io.Closer
}

func (c *closing) Close() error {
	errs := []error{c.Source.Close()}
	for i := len(c.closers) - 1; i >= 0; i-- {
		errs = append(errs, c.closers[i].Close())
	}
	return errors.Join(errs...)
}

// unwrap returns the reader inside, so the loader can see whether it
// decodes lines apart from reading them.
func (c *closing) unwrap() Source { return c.Source }
