package ingest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/openprospect/prospectd/ingest/delimited"
	"github.com/openprospect/prospectd/record"
)

// headerFields maps a header row to the field of each column. It refuses
// unknown and repeated columns, so a typo ("nmae") does not silently drop
// a column, and a header without a domain column. Columns with an empty
// header are ignored (spreadsheets often carry unnamed trailing columns).
func headerFields(cells []string) ([]field, error) {
	fields := make([]field, len(cells))
	seen := map[field]string{}
	var unknown []string
	for i, cell := range cells {
		if strings.TrimSpace(strings.TrimPrefix(cell, "\ufeff")) == "" {
			continue
		}
		f, canon := lookupField(cell)
		if f == fieldUnknown || f == fieldAddress {
			unknown = append(unknown, strconv.Quote(cell))
			continue
		}
		if prev, dup := seen[f]; dup {
			return nil, fmt.Errorf("%w: columns %q and %q both give %s", ErrFormat, prev, cell, canon)
		}
		seen[f] = cell
		fields[i] = f
	}
	if len(unknown) > 0 {
		return nil, fmt.Errorf("%w: unknown columns %s; accepted columns: %s", ErrFormat, strings.Join(unknown, ", "), acceptedNames())
	}
	if _, ok := seen[fieldDomain]; !ok {
		return nil, fmt.Errorf("%w: no domain column (name one of the columns domain, website or url)", ErrFormat)
	}
	return fields, nil
}

// fillRow builds a company from one row's cells. value returns the text
// of cell i; cells beyond the header and empty cells are ignored.
// With dropped non-nil, a cell its field refuses is left out and its
// reason appended to dropped (the domain's still refuses the row).
func fillRow(fields []field, n int, value func(i int) string, row int, dates func(string) string, dropped *[]string) (record.Company, error) {
	var c record.Company
	size := 0
	for i := 0; i < n && i < len(fields); i++ {
		f := fields[i]
		if f == fieldUnknown {
			continue
		}
		v := strings.TrimSpace(value(i))
		if v == "" {
			continue
		}
		if size += len(v); size > MaxRecordBytes {
			return record.Company{}, &RowError{Row: row, Domain: c.Domain, Reason: errRecordTooLong}
		}
		if dates != nil && (f == fieldStartDate || f == fieldEndDate || f == fieldUpdateDate || f == fieldRecordDate) {
			v = dates(v)
		}
		if err := setCell(&c, f, v); err != nil {
			if dropped != nil && f != fieldDomain {
				clearField(&c, f)
				*dropped = append(*dropped, err.Error())
				continue
			}
			return c, &RowError{Row: row, Domain: c.Domain, Reason: err.Error()}
		}
	}
	return c, nil
}

// cellDrops makes a table source lenient (see fieldDropper).
type cellDrops struct {
	lenient bool
	last    []string // the reasons of the last row read
}

func (d *cellDrops) dropFields() { d.lenient = true }

func (d *cellDrops) dropped() []string { return d.last }

// target resets the reasons for a new row: nil when strict.
func (d *cellDrops) target() *[]string {
	if !d.lenient {
		return nil
	}
	d.last = d.last[:0]
	return &d.last
}

// csvSource reads delimited text with a header row.
type csvSource struct {
	cellDrops
	r      *delimited.Reader
	fields []field
	row    int
}

// NewCSV reads delimited text with a header row: the delimiter is sniffed
// among comma, semicolon, tab and pipe (the most frequent outside quotes
// in the header line), a UTF-8 byte-order mark is dropped, fields may be
// quoted ("" is a quote inside a quoted field; quoted fields may span
// lines). Rows are data rows: the header is not counted, a record with a
// quoted line break counts once. A record over MaxRecordBytes is a row
// error, read past without being held (an unclosed quote therefore costs
// the rest of the file one row error, not memory).
func NewCSV(r io.Reader) (Source, error) { return newCSV(r, 0) }

func newCSV(r io.Reader, comma byte) (Source, error) {
	br, ok := r.(*bufio.Reader)
	if !ok || br.Size() < 64<<10 {
		br = bufio.NewReaderSize(r, 64<<10)
	}
	if bom, _ := br.Peek(3); bytes.Equal(bom, utf8BOM) {
		br.Discard(3)
	}
	head, _ := br.Peek(64 << 10)
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		head = head[:i]
	}
	if len(bytes.TrimSpace(head)) == 0 {
		return nil, fmt.Errorf("%w: no header row (the first line is blank)", ErrFormat)
	}
	if comma == 0 {
		comma = delimited.Sniff(head)
	}
	cr := delimited.NewReader(br, comma, MaxRecordBytes)
	if err := cr.Read(); err != nil {
		return nil, fmt.Errorf("%w: header: %s", ErrFormat, csvReason(err))
	}
	cells := make([]string, cr.Fields())
	for i := range cells {
		cells[i] = string(cr.Field(i))
	}
	fields, err := headerFields(cells)
	if err != nil {
		return nil, err
	}
	return &csvSource{r: cr, fields: fields}, nil
}

func (s *csvSource) Close() error { return nil }

func (s *csvSource) Next() (record.Company, int, error) {
	for {
		err := s.r.Read()
		if errors.Is(err, io.EOF) {
			return record.Company{}, s.row, io.EOF
		}
		s.row++
		if errors.Is(err, delimited.ErrTooLong) || errors.Is(err, delimited.ErrUnterminated) {
			return record.Company{}, s.row, &RowError{Row: s.row, Reason: csvReason(err)}
		}
		if err != nil {
			return record.Company{}, s.row, fmt.Errorf("read data row %d: %w", s.row, err)
		}
		if s.r.Blank() {
			continue
		}
		c, err := fillRow(s.fields, s.r.Fields(), func(i int) string { return string(s.r.Field(i)) }, s.row, nil, s.target())
		return c, s.row, err
	}
}

// csvReason is the row error text of a delimited.Reader error.
func csvReason(err error) string {
	if errors.Is(err, delimited.ErrTooLong) {
		return errRecordTooLong
	}
	return err.Error()
}

// xlsxSource reads the rows of one worksheet.
type xlsxSource struct {
	cellDrops
	f        *excelize.File
	rows     *excelize.Rows
	fields   []field
	row      int
	date1904 bool
}

// NewXLSX reads an Excel workbook: the first sheet whose first row has a
// domain column (the first sheet's problem is reported when none has).
// Rows are streamed with excelize's row iterator; rows are data rows (the
// header is not counted, so data row N is sheet row N+1). Cells are read
// raw, without number formats, so head counts and phone numbers keep all
// their digits; date columns also accept Excel date serial numbers.
func NewXLSX(r io.Reader) (Source, error) {
	f, err := excelize.OpenReader(r)
	if err != nil {
		return nil, fmt.Errorf("%w: not a readable Excel workbook: %v", ErrFormat, err)
	}
	var date1904 bool
	if p, err := f.GetWorkbookProps(); err == nil && p.Date1904 != nil {
		date1904 = *p.Date1904
	}
	var firstErr error
	for _, sheet := range f.GetSheetList() {
		rows, err := f.Rows(sheet)
		if err != nil {
			if firstErr == nil {
				firstErr = fmt.Errorf("%w: sheet %q: %v", ErrFormat, sheet, err)
			}
			continue
		}
		if !rows.Next() {
			rows.Close()
			if firstErr == nil {
				firstErr = fmt.Errorf("%w: sheet %q is empty", ErrFormat, sheet)
			}
			continue
		}
		cells, err := rows.Columns(excelize.Options{RawCellValue: true})
		var fields []field
		if err == nil {
			fields, err = headerFields(cells)
		} else {
			err = fmt.Errorf("%w: %v", ErrFormat, err)
		}
		if err == nil {
			return &xlsxSource{f: f, rows: rows, fields: fields, date1904: date1904}, nil
		}
		rows.Close()
		if firstErr == nil {
			firstErr = fmt.Errorf("sheet %q: %w", sheet, err)
		}
	}
	f.Close()
	if firstErr == nil {
		firstErr = fmt.Errorf("%w: the workbook has no sheets", ErrFormat)
	}
	return nil, firstErr
}

func (s *xlsxSource) Close() error { return errors.Join(s.rows.Close(), s.f.Close()) }

func (s *xlsxSource) Next() (record.Company, int, error) {
	for s.rows.Next() {
		s.row++
		cells, err := s.rows.Columns(excelize.Options{RawCellValue: true})
		if err != nil {
			return record.Company{}, s.row, &RowError{Row: s.row, Reason: "unreadable row: " + err.Error()}
		}
		if blankCells(cells) {
			continue
		}
		c, err := fillRow(s.fields, len(cells), func(i int) string { return cells[i] }, s.row, s.excelDate, s.target())
		return c, s.row, err
	}
	if err := s.rows.Error(); err != nil {
		return record.Company{}, s.row, fmt.Errorf("read workbook: %w", err)
	}
	return record.Company{}, s.row, io.EOF
}

// excelDate turns a date serial number (a date cell read raw) into
// YYYY-MM-DD; other text is returned as it is.
func (s *xlsxSource) excelDate(v string) string {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f < 1 || f > 2958465 { // 2958465 is 9999-12-31
		return v
	}
	t, err := excelize.ExcelDateToTime(f, s.date1904)
	if err != nil {
		return v
	}
	return t.Format(time.DateOnly)
}

func blankCells(cells []string) bool {
	for _, c := range cells {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}
