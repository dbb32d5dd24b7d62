package ingest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"

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
func fillRow(fields []field, n int, value func(i int) string, row int, dates func(string) string) (record.Company, error) {
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
			return c, &RowError{Row: row, Domain: c.Domain, Reason: err.Error()}
		}
	}
	return c, nil
}

// csvSource reads delimited text with a header row.
type csvSource struct {
	r      *csvReader
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
		comma = sniffDelimiter(head)
	}
	cr := &csvReader{r: br, comma: comma}
	if err := cr.read(); err != nil {
		var re *RowError
		if errors.As(err, &re) {
			return nil, fmt.Errorf("%w: header: %s", ErrFormat, re.Reason)
		}
		return nil, fmt.Errorf("%w: header: %v", ErrFormat, err)
	}
	cells := make([]string, cr.fields())
	for i := range cells {
		cells[i] = string(cr.field(i))
	}
	fields, err := headerFields(cells)
	if err != nil {
		return nil, err
	}
	return &csvSource{r: cr, fields: fields}, nil
}

// sniffDelimiter picks the candidate occurring most often outside quotes;
// comma on a tie or when there is none (a one-column file).
func sniffDelimiter(line []byte) byte {
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

func (s *csvSource) Close() error { return nil }

func (s *csvSource) Next() (record.Company, int, error) {
	for {
		err := s.r.read()
		if errors.Is(err, io.EOF) {
			return record.Company{}, s.row, io.EOF
		}
		s.row++
		var re *RowError
		if errors.As(err, &re) {
			re.Row = s.row
			return record.Company{}, s.row, re
		}
		if err != nil {
			return record.Company{}, s.row, fmt.Errorf("read data row %d: %w", s.row, err)
		}
		if s.r.blank() {
			continue
		}
		c, err := fillRow(s.fields, s.r.fields(), func(i int) string { return string(s.r.field(i)) }, s.row, nil)
		return c, s.row, err
	}
}

// csvReader splits delimited text into records. It is lenient the way
// spreadsheet exports need (a quote inside an unquoted field is a
// character; text after a closing quote is kept), normalizes CRLF line
// ends, and bounds the bytes it keeps per record.
type csvReader struct {
	r     *bufio.Reader
	comma byte
	buf   []byte // the current record's field bytes
	ends  []int  // end offset in buf of each field
}

func (r *csvReader) fields() int { return len(r.ends) }

func (r *csvReader) field(i int) []byte {
	start := 0
	if i > 0 {
		start = r.ends[i-1]
	}
	return r.buf[start:r.ends[i]]
}

func (r *csvReader) blank() bool {
	return len(bytes.TrimSpace(r.buf)) == 0
}

// read reads the next record; io.EOF at the end, a *RowError (without its
// row) for a record too long or with an unterminated quote.
func (r *csvReader) read() error {
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
		if need > MaxRecordBytes {
			tooLong = true
			return
		}
		if need > cap(r.buf) {
			// Double: append grows large slices by a quarter at a time,
			// which for a record near the cap allocates five times its size.
			r.buf = slices.Grow(r.buf, min(max(2*cap(r.buf), need), MaxRecordBytes)-len(r.buf))
		}
		r.buf = append(r.buf, b...)
	}
	endField := func() { r.ends = append(r.ends, len(r.buf)) }
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
					return r.finish(tooLong)
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
					return r.finish(tooLong)
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
					return r.finish(tooLong)
				default:
					// Text after a closing quote belongs to the field, as
					// in spreadsheets and Python's csv module; the quote
					// stays closed, so a stray quote cannot swallow the
					// rest of the file.
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
				return &RowError{Reason: "unterminated quoted field (a quote opened and never closed)"}
			}
			endField()
			return r.finish(tooLong)
		}
	}
}

func (r *csvReader) finish(tooLong bool) error {
	if tooLong {
		return &RowError{Reason: errRecordTooLong}
	}
	return nil
}

// xlsxSource reads the rows of one worksheet.
type xlsxSource struct {
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
		c, err := fillRow(s.fields, len(cells), func(i int) string { return cells[i] }, s.row, s.excelDate)
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
