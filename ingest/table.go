package ingest

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"

	"github.com/openprospect/prospectd/record"
)

// columns maps accepted header names (after canonicalHeader) to the setter
// of the company field. Header names are the spec's profile field names,
// plus a few common aliases.
var columns = map[string]func(c *record.Company, v string) error{
	"domain":            func(c *record.Company, v string) error { c.Domain = v; return nil },
	"name":              func(c *record.Company, v string) error { c.Name = v; return nil },
	"status":            func(c *record.Company, v string) error { c.Status.Status = v; return nil },
	"status_confidence": func(c *record.Company, v string) error { return setFloat(&c.Status.Confidence, v, "status_confidence") },
	"score":             func(c *record.Company, v string) error { return setInt(&c.Score, v, "score") },
	"start_date":        func(c *record.Company, v string) error { c.StartDate = v; return nil },
	"end_date":          func(c *record.Company, v string) error { c.EndDate = optional(v); return nil },
	"update_date":       func(c *record.Company, v string) error { c.UpdateDate = v; return nil },
	"street":            func(c *record.Company, v string) error { c.Address.Street = v; return nil },
	"city":              func(c *record.Company, v string) error { c.Address.City = v; return nil },
	"state":             func(c *record.Company, v string) error { c.Address.State = v; return nil },
	"zip":               func(c *record.Company, v string) error { c.Address.Zip = v; return nil },
	"country":           func(c *record.Company, v string) error { c.Address.Country = v; return nil },
	"phones":            func(c *record.Company, v string) error { return setList(&c.Phones, v) },
	"public_emails":     func(c *record.Company, v string) error { return setList(&c.PublicEmails, v) },
	"social_urls":       func(c *record.Company, v string) error { return setList(&c.SocialURLs, v) },
	"vendors":           func(c *record.Company, v string) error { return setList(&c.Vendors, v) },
	"subdomains":        func(c *record.Company, v string) error { return setList(&c.Subdomains, v) },
	"business_models":   func(c *record.Company, v string) error { return setList(&c.BusinessModels, v) },
	"languages":         func(c *record.Company, v string) error { return setList(&c.Languages, v) },
	"keywords":          func(c *record.Company, v string) error { return setScores(&c.Keywords, v, "keywords") },
	"industry_groups":   func(c *record.Company, v string) error { return setScores(&c.IndustryGroups, v, "industry_groups") },
	"description":       func(c *record.Company, v string) error { c.Description = v; return nil },
	"site_text":         func(c *record.Company, v string) error { c.SiteText = v; return nil },
	"employees":         func(c *record.Company, v string) error { c.Employees = v; return nil },
	"revenue_range":     func(c *record.Company, v string) error { c.RevenueRange = v; return nil },
	"redirect_domain":   func(c *record.Company, v string) error { c.RedirectDomain = optional(v); return nil },
	"mx_provider":       func(c *record.Company, v string) error { c.MXProvider = v; return nil },
}

var aliases = map[string]string{
	"website": "domain", "url": "domain", "company_domain": "domain", "company_name": "name",
	"industry": "industry_groups", "industries": "industry_groups", "phone": "phones", "emails": "public_emails",
	"email": "public_emails", "socials": "social_urls", "postal_code": "zip", "zip_code": "zip", "address_country": "country",
	"address_state": "state", "address_city": "city", "address_street": "street", "address_zip": "zip",
}

// canonicalHeader folds a header cell: case, surrounding space, spaces and
// dashes to underscores, an "address." prefix dropped, aliases resolved.
func canonicalHeader(h string) string {
	h = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))
	h = strings.NewReplacer(" ", "_", "-", "_").Replace(h)
	h = strings.TrimPrefix(h, "address.")
	if a, ok := aliases[h]; ok {
		return a
	}
	return h
}

// header resolves a header row to column setters, refusing unknown or
// duplicated columns and a missing domain column.
func header(cells []string) ([]func(*record.Company, string) error, error) {
	setters := make([]func(*record.Company, string) error, len(cells))
	seen := map[string]bool{}
	var unknown []string
	for i, cell := range cells {
		name := canonicalHeader(cell)
		if name == "" {
			continue // unnamed trailing columns of spreadsheets
		}
		set, ok := columns[name]
		if !ok {
			unknown = append(unknown, strconv.Quote(cell))
			continue
		}
		if seen[name] {
			return nil, fmt.Errorf("%w: column %q appears twice", ErrFormat, name)
		}
		seen[name] = true
		setters[i] = set
	}
	if len(unknown) > 0 {
		return nil, fmt.Errorf("%w: unknown columns %s; accepted columns: %s", ErrFormat, strings.Join(unknown, ", "), acceptedColumns())
	}
	if !seen["domain"] {
		return nil, fmt.Errorf("%w: no domain column (name one of the columns domain, website or url)", ErrFormat)
	}
	return setters, nil
}

func acceptedColumns() string {
	names := make([]string, 0, len(columns))
	for k := range columns {
		names = append(names, k)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

func fill(setters []func(*record.Company, string) error, cells []string, row int) (record.Company, error) {
	var c record.Company
	for i, v := range cells {
		v = strings.TrimSpace(v)
		if i >= len(setters) || setters[i] == nil || v == "" {
			continue
		}
		if err := setters[i](&c, v); err != nil {
			return c, &RowError{Row: row, Domain: c.Domain, Reason: err.Error()}
		}
	}
	return c, nil
}

func optional(v string) *string { return &v }

func setInt(dst *int, v, field string) error {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f != float64(int(f)) {
		return fmt.Errorf("%s: %q is not an integer", field, v)
	}
	*dst = int(f)
	return nil
}

func setFloat(dst *float64, v, field string) error {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return fmt.Errorf("%s: %q is not a number", field, v)
	}
	*dst = f
	return nil
}

// setList reads a JSON array or a list separated by ";" or "|".
func setList(dst *[]string, v string) error {
	if strings.HasPrefix(v, "[") {
		if err := json.Unmarshal([]byte(v), dst); err != nil {
			return fmt.Errorf("malformed JSON list %q", v)
		}
		return nil
	}
	for _, p := range strings.FieldsFunc(v, func(r rune) bool { return r == ';' || r == '|' }) {
		if p = strings.TrimSpace(p); p != "" {
			*dst = append(*dst, p)
		}
	}
	return nil
}

// setScores reads a JSON object of label -> score, or a list whose order
// gives descending scores (1, 0.9, 0.8, ...).
func setScores(dst *map[string]float64, v, field string) error {
	if strings.HasPrefix(v, "{") {
		if err := json.Unmarshal([]byte(v), dst); err != nil {
			return fmt.Errorf("%s: malformed JSON object", field)
		}
		return nil
	}
	var list []string
	if err := setList(&list, v); err != nil {
		return fmt.Errorf("%s: %v", field, err)
	}
	*dst = map[string]float64{}
	for i, k := range list {
		(*dst)[k] = max(1-0.1*float64(i), 0.1)
	}
	return nil
}

type csvSource struct {
	r       *csv.Reader
	setters []func(*record.Company, string) error
	row     int
}

// NewCSV reads a delimited file with a header row. The delimiter is sniffed
// among comma, semicolon, tab and pipe; a UTF-8 byte-order mark is dropped;
// fields may be quoted.
func NewCSV(r io.Reader) (Source, error) {
	br := bufio.NewReaderSize(r, 1<<20)
	if bom, _ := br.Peek(3); bytes.Equal(bom, []byte("\xef\xbb\xbf")) {
		br.Discard(3)
	}
	head, _ := br.Peek(64 << 10)
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		head = head[:i]
	}
	if len(bytes.TrimSpace(head)) == 0 {
		return nil, fmt.Errorf("%w: no header row", ErrFormat)
	}
	cr := csv.NewReader(br)
	cr.Comma = sniffDelimiter(head)
	cr.FieldsPerRecord = -1
	cr.LazyQuotes = true
	cells, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("%w: header: %v", ErrFormat, err)
	}
	setters, err := header(cells)
	if err != nil {
		return nil, err
	}
	return &csvSource{r: cr, setters: setters}, nil
}

func sniffDelimiter(line []byte) rune {
	best, n := ',', -1
	for _, d := range []rune{',', ';', '\t', '|'} {
		if c := bytes.Count(line, []byte(string(d))); c > n {
			best, n = d, c
		}
	}
	return best
}

func (s *csvSource) Close() error { return nil }

func (s *csvSource) Next() (record.Company, int, error) {
	for {
		cells, err := s.r.Read()
		if errors.Is(err, io.EOF) {
			return record.Company{}, s.row, io.EOF
		}
		s.row++
		var perr *csv.ParseError
		if errors.As(err, &perr) {
			return record.Company{}, s.row, &RowError{Row: s.row, Reason: "malformed CSV: " + perr.Err.Error()}
		}
		if err != nil {
			return record.Company{}, s.row, fmt.Errorf("read row %d: %w", s.row, err)
		}
		if blank(cells) {
			continue
		}
		size := 0
		for _, c := range cells {
			size += len(c)
		}
		if size > MaxRecordBytes {
			return record.Company{}, s.row, &RowError{Row: s.row, Reason: fmt.Sprintf("row exceeds %d MiB", MaxRecordBytes>>20)}
		}
		c, err := fill(s.setters, cells, s.row)
		return c, s.row, err
	}
}

func blank(cells []string) bool {
	for _, c := range cells {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}

type xlsxSource struct {
	f       *excelize.File
	rows    *excelize.Rows
	setters []func(*record.Company, string) error
	row     int
}

// NewXLSX reads the first sheet of an Excel workbook that has a domain
// column in its first row (or the first sheet, to report what it lacks).
func NewXLSX(r io.Reader) (Source, error) {
	f, err := excelize.OpenReader(r)
	if err != nil {
		return nil, fmt.Errorf("%w: not a readable Excel workbook: %v", ErrFormat, err)
	}
	var firstErr error
	for _, sheet := range f.GetSheetList() {
		rows, err := f.Rows(sheet)
		if err != nil {
			continue
		}
		if !rows.Next() {
			rows.Close()
			if firstErr == nil {
				firstErr = fmt.Errorf("%w: sheet %q is empty", ErrFormat, sheet)
			}
			continue
		}
		cells, err := rows.Columns()
		if err == nil {
			var setters []func(*record.Company, string) error
			if setters, err = header(cells); err == nil {
				return &xlsxSource{f: f, rows: rows, setters: setters}, nil
			}
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
		cells, err := s.rows.Columns()
		if err != nil {
			return record.Company{}, s.row, &RowError{Row: s.row, Reason: "unreadable row: " + err.Error()}
		}
		if blank(cells) {
			continue
		}
		c, err := fill(s.setters, cells, s.row)
		return c, s.row, err
	}
	if err := s.rows.Error(); err != nil {
		return record.Company{}, s.row, fmt.Errorf("read workbook: %w", err)
	}
	return record.Company{}, s.row, io.EOF
}
