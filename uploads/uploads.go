// Package uploads reads the files users upload to the bulk endpoints
// (segment, append, bulk match): CSV (comma, semicolon or tab separated,
// quoted fields, UTF-8 with or without BOM) and Excel workbooks (.xlsx,
// first sheet), with the spec's size and row caps, and finds the domain
// column when it is not named.
package uploads

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"
	"golang.org/x/text/encoding/charmap"

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
		t, err = readXLSX(data)
	case ext == ".xls" || bytes.HasPrefix(data, []byte("\xd0\xcf\x11\xe0")):
		return nil, fmt.Errorf("%w: legacy .xls workbooks are not supported; save as .xlsx or CSV", ErrFormat)
	default:
		t, err = readCSV(data)
	}
	if err != nil {
		return nil, err
	}
	if len(t.Rows) > lim.MaxRows {
		return nil, fmt.Errorf("%w: %d rows, the limit is %d", ErrTooLarge, len(t.Rows), lim.MaxRows)
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

func readCSV(data []byte) (*Table, error) {
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
	r := csv.NewReader(bufio.NewReader(bytes.NewReader(data)))
	r.Comma = sniff(first)
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	r.ReuseRecord = false
	header, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("%w: no header row (%v)", ErrFormat, err)
	}
	t := &Table{Header: uniqueHeader(trimAll(header))}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrFormat, err)
		}
		line, _ := r.FieldPos(0)
		t.add(rec, line)
	}
	return t, nil
}

// sniff picks the delimiter the header line uses most.
func sniff(line []byte) rune {
	best, n := ',', 0
	for _, d := range []rune{',', ';', '\t', '|'} {
		if c := bytes.Count(line, []byte(string(d))); c > n {
			best, n = d, c
		}
	}
	return best
}

func readXLSX(data []byte) (*Table, error) {
	f, err := excelize.OpenReader(bytes.NewReader(data))
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
		if t == nil {
			if blank(cols) {
				continue
			}
			t = &Table{Header: uniqueHeader(trimAll(cols))}
			continue
		}
		t.add(cols, line)
	}
	if t == nil {
		return nil, fmt.Errorf("%w: the first sheet is empty", ErrFormat)
	}
	return t, nil
}

func (t *Table) add(rec []string, line int) {
	if blank(rec) {
		return
	}
	row := make([]string, max(len(t.Header), len(rec)))
	copy(row, trimAll(rec))
	t.Rows = append(t.Rows, row[:len(t.Header):len(t.Header)])
	t.Line = append(t.Line, line)
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
