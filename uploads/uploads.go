// Package uploads reads the files users upload to the bulk endpoints
// (segment, append, bulk match): CSV (comma, semicolon or tab separated,
// quoted fields, UTF-8 with or without BOM) and Excel workbooks (.xlsx,
// first sheet), with the spec's size and row caps, and finds the domain
// column when it is not named.
//
// Every cap is enforced while reading, not after: a workbook whose parts
// unpack to more than its unpack cap is refused before anything is
// inflated, and both formats stop at the first row past the row cap, so a
// small file that expands to gigabytes (a zip bomb, a CSV of a million
// columns) costs no more than a file at the caps.
package uploads

import (
	"archive/zip"
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"
	"golang.org/x/text/encoding/charmap"

	"github.com/openprospect/prospectd/ingest/delimited"
	"github.com/openprospect/prospectd/record/domain"
)

// Errors callers map to status codes.
var (
	// ErrTooLarge: the file or its row count is over the endpoint's cap (413).
	ErrTooLarge = errors.New("upload too large")
	// ErrFormat: the file cannot be read as a table (422).
	ErrFormat = errors.New("unreadable upload")
)

// Limits cap an upload.
type Limits struct {
	MaxBytes int64
	MaxRows  int // data rows, header excluded
	// MaxUnzipBytes caps what the parts of an .xlsx workbook unpack to;
	// 0 means UnzipFactor times MaxBytes, at least MinUnzipBytes.
	MaxUnzipBytes int64
}

// Caps every upload has, whatever its endpoint.
const (
	// UnzipFactor and MinUnzipBytes size the default unpack cap of a
	// workbook: tabular XML compresses about 5-10 times, so a workbook at
	// the byte cap unpacks to well under ten times its size, while a zip
	// bomb unpacks to a thousand times.
	UnzipFactor   = 10
	MinUnzipBytes = 16 << 20
	// MaxCellChars is Excel's own limit on the characters of one cell,
	// applied to CSV fields too.
	MaxCellChars = 32_767
	// MaxColumns is Excel's own limit on the columns of a sheet, applied
	// to CSV rows too.
	MaxColumns = 16_384
	// maxXMLInMemory is the worksheet size excelize keeps in memory; a
	// larger sheet (still under the unpack cap) is streamed from a
	// temporary file.
	maxXMLInMemory = 16 << 20
)

func (l Limits) unzipBytes() int64 {
	if l.MaxUnzipBytes > 0 {
		return l.MaxUnzipBytes
	}
	return max(UnzipFactor*l.MaxBytes, MinUnzipBytes)
}

// Table is an uploaded table: the header and the data rows (blank rows
// dropped, short rows padded to the header's width).
type Table struct {
	Header []string
	Rows   [][]string
	// Line is each row's 1-based line (CSV) or row number (Excel), for
	// messages.
	Line []int
}

// Read reads an upload named name (the extension picks the format: .xlsx
// is Excel, anything else delimited text).
func Read(name string, r io.Reader, lim Limits) (*Table, error) {
	data, err := io.ReadAll(io.LimitReader(r, lim.MaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read upload: %w", err)
	}
	if int64(len(data)) > lim.MaxBytes {
		return nil, fmt.Errorf("%w: the file is over %s", ErrTooLarge, Human(lim.MaxBytes))
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fmt.Errorf("%w: the file is empty", ErrFormat)
	}
	var t *Table
	switch ext := strings.ToLower(filepath.Ext(name)); {
	case ext == ".xlsx" || bytes.HasPrefix(data, []byte("PK\x03\x04")):
		t, err = readXLSX(data, lim)
	case ext == ".xls" || bytes.HasPrefix(data, []byte("\xd0\xcf\x11\xe0")):
		return nil, fmt.Errorf("%w: legacy .xls workbooks are not supported; save as .xlsx or CSV", ErrFormat)
	default:
		t, err = readCSV(data, lim)
	}
	if err != nil {
		return nil, err
	}
	if len(t.Rows) == 0 {
		return nil, fmt.Errorf("%w: the file has a header but no rows", ErrFormat)
	}
	return t, nil
}

// Human writes a byte count for messages: "1 MB", or bytes when not whole megabytes.
func Human(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// errTooManyRows is the error of the first row past the cap: reading
// stops there, so the total is unknown.
func errTooManyRows(lim Limits) error {
	return fmt.Errorf("%w: more than %d rows, the limit is %d", ErrTooLarge, lim.MaxRows, lim.MaxRows)
}

// checkRow refuses a row (the header included) over the column or cell
// caps; where names it for the message ("line 3", "row 3").
func checkRow(rec []string, where string) error {
	if len(rec) > MaxColumns {
		return fmt.Errorf("%w: %s has %d columns, the limit is %d", ErrFormat, where, len(rec), MaxColumns)
	}
	for i, v := range rec {
		// Bytes bound characters from above: count runes only when needed.
		if len(v) > MaxCellChars {
			if n := utf8.RuneCountInString(v); n > MaxCellChars {
				return fmt.Errorf("%w: %s, column %d has %d characters, the limit per cell is %d", ErrFormat, where, i+1, n, MaxCellChars)
			}
		}
	}
	return nil
}

func readCSV(data []byte, lim Limits) (*Table, error) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	if bytes.IndexByte(data, 0) >= 0 {
		return nil, fmt.Errorf("%w: the file contains NUL bytes: not a text table", ErrFormat)
	}
	if !utf8.Valid(data) {
		// Spreadsheet programs on Windows save "CSV" in Windows-1252.
		dec, err := charmap.Windows1252.NewDecoder().Bytes(data)
		if err != nil {
			return nil, fmt.Errorf("%w: the file is neither UTF-8 nor Windows-1252 text", ErrFormat)
		}
		data = dec
	}
	first, _, _ := bytes.Cut(data, []byte("\n"))
	// The reader ingest uses (ingest/delimited), capped at the whole
	// upload so no record is cut short: the file is already within its
	// byte cap.
	r := delimited.NewReader(bufio.NewReader(bytes.NewReader(data)), delimited.Sniff(first), len(data)+1)
	line := 1 // the line the next record starts on
	read := func() ([]string, int, error) {
		start := line
		if err := r.Read(); err != nil {
			if errors.Is(err, delimited.ErrUnterminated) {
				return nil, start, fmt.Errorf("%w: line %d: %v", ErrFormat, start, err)
			}
			return nil, start, err
		}
		rec := make([]string, r.Fields())
		for i := range rec {
			f := r.Field(i)
			line += bytes.Count(f, []byte("\n"))
			rec[i] = string(f)
		}
		line++
		return rec, start, nil
	}
	header, _, err := read()
	if err != nil {
		return nil, fmt.Errorf("%w: no header row (%v)", ErrFormat, err)
	}
	if err := checkRow(header, "the header"); err != nil {
		return nil, err
	}
	t := &Table{Header: uniqueHeader(trimAll(header))}
	for {
		rec, at, err := read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if err := checkRow(rec, fmt.Sprintf("line %d", at)); err != nil {
			return nil, err
		}
		if t.add(rec, at) && len(t.Rows) > lim.MaxRows {
			return nil, errTooManyRows(lim)
		}
	}
	return t, nil
}

// checkZip refuses a workbook whose parts say they unpack to more than
// limit bytes, then inflates each part to check it is what it says:
// archive/zip stops a part at its stated size and checks its CRC, while
// excelize would silently read a truncated part. Summed here rather than
// by excelize, whose signed sum a part stating an absurd size (2^64-1)
// wraps.
func checkZip(data []byte, limit int64) error {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return fmt.Errorf("%w: not an Excel workbook (%v)", ErrFormat, err)
	}
	var total uint64
	for _, f := range zr.File {
		total += f.UncompressedSize64
		if f.UncompressedSize64 > uint64(limit) || total > uint64(limit) {
			return fmt.Errorf("%w: the workbook unpacks to more than %s (the limit for an upload of this size); save it as CSV or remove unused sheets and images", ErrTooLarge, Human(limit))
		}
	}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err == nil {
			_, err = io.Copy(io.Discard, rc)
			rc.Close()
		}
		if err != nil {
			return fmt.Errorf("%w: not an Excel workbook (part %s: %v)", ErrFormat, f.Name, err)
		}
	}
	return nil
}

func readXLSX(data []byte, lim Limits) (*Table, error) {
	unzip := lim.unzipBytes()
	if err := checkZip(data, unzip); err != nil {
		return nil, err
	}
	f, err := excelize.OpenReader(bytes.NewReader(data), excelize.Options{
		UnzipSizeLimit:    unzip,
		UnzipXMLSizeLimit: min(unzip, maxXMLInMemory),
	})
	if err != nil {
		return nil, fmt.Errorf("%w: not an Excel workbook (%v)", ErrFormat, err)
	}
	defer f.Close()
	sheets := f.GetSheetList()
	if len(sheets) == 0 {
		return nil, fmt.Errorf("%w: the workbook has no sheet", ErrFormat)
	}
	rows, err := f.Rows(sheets[0])
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	defer rows.Close()
	var t *Table
	line := 0
	for rows.Next() {
		line++
		cols, err := rows.Columns()
		if err != nil {
			return nil, fmt.Errorf("%w: row %d: %v", ErrFormat, line, err)
		}
		if err := checkRow(cols, fmt.Sprintf("row %d", line)); err != nil {
			return nil, err
		}
		if t == nil {
			if blank(cols) {
				continue
			}
			t = &Table{Header: uniqueHeader(trimAll(cols))}
			continue
		}
		if t.add(cols, line) && len(t.Rows) > lim.MaxRows {
			return nil, errTooManyRows(lim)
		}
	}
	if err := rows.Error(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	if t == nil {
		return nil, fmt.Errorf("%w: the first sheet is empty", ErrFormat)
	}
	return t, nil
}

// add appends a non-blank row and reports whether it did.
func (t *Table) add(rec []string, line int) bool {
	if blank(rec) {
		return false
	}
	row := make([]string, max(len(t.Header), len(rec)))
	copy(row, trimAll(rec))
	t.Rows = append(t.Rows, row[:len(t.Header):len(t.Header)])
	t.Line = append(t.Line, line)
	return true
}

func trimAll(in []string) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = strings.TrimSpace(s)
	}
	return out
}

func blank(rec []string) bool {
	for _, s := range rec {
		if strings.TrimSpace(s) != "" {
			return false
		}
	}
	return true
}

// domainHeaders are header names taken as the domain column, best first.
var domainHeaders = []string{"domain", "domains", "website", "company_domain", "company website", "company_website", "url", "site", "web", "homepage"}

// DomainColumn returns the index of the domain column: the named one (by
// header, case-insensitive), else a header that says so, else the column
// whose values most often are domains (at least 60% of its non-empty
// cells).
func DomainColumn(t *Table, named string) (int, error) {
	if named != "" {
		for i, h := range t.Header {
			if strings.EqualFold(h, named) {
				return i, nil
			}
		}
		return -1, fmt.Errorf("domain_column: no column %q (columns: %s)", named, strings.Join(t.Header, ", "))
	}
	for _, want := range domainHeaders {
		for i, h := range t.Header {
			if strings.EqualFold(strings.ReplaceAll(h, "-", "_"), want) {
				return i, nil
			}
		}
	}
	best, bestShare := -1, 0.0
	for c := range t.Header {
		ok, filled := 0, 0
		for r := 0; r < len(t.Rows) && r < 200; r++ {
			v := t.Rows[r][c]
			if v == "" {
				continue
			}
			filled++
			if strings.Contains(v, ".") && !strings.Contains(v, "@") && !strings.Contains(v, " ") {
				if _, err := domain.Normalize(v); err == nil {
					ok++
				}
			}
		}
		if filled > 0 {
			if share := float64(ok) / float64(filled); share >= 0.6 && share > bestShare {
				best, bestShare = c, share
			}
		}
	}
	if best < 0 {
		return -1, fmt.Errorf("domain_column: no column looks like domains (columns: %s); name it with domain_column", strings.Join(t.Header, ", "))
	}
	return best, nil
}

// uniqueHeader names every column distinctly, since results carry the
// input columns as "input:<header>" keys: an empty header becomes
// "column_<n>" (1-based) and a repeated one gets "_2", "_3"... appended.
func uniqueHeader(h []string) []string {
	seen := make(map[string]bool, len(h))
	for i, v := range h {
		if v == "" {
			v = fmt.Sprintf("column_%d", i+1)
		}
		base := v
		for k := 2; seen[strings.ToLower(v)]; k++ {
			v = fmt.Sprintf("%s_%d", base, k)
		}
		seen[strings.ToLower(v)] = true
		h[i] = v
	}
	return h
}
