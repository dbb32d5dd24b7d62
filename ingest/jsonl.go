package ingest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/openprospect/prospectd/record"
)

// MaxRecordBytes caps one record. A longer line is refused as a row error
// and skipped without being held in memory.
const MaxRecordBytes = 8 << 20

type jsonlSource struct {
	r    *bufio.Reader
	line int
}

// NewJSONL reads one JSON object per line. Blank lines are skipped; fields
// the profile does not have are ignored.
func NewJSONL(r io.Reader) Source {
	return &jsonlSource{r: bufio.NewReaderSize(r, MaxRecordBytes)}
}

func (s *jsonlSource) Close() error { return nil }

// jsonRow accepts the profile's own JSON plus the looser shapes files use:
// status as a bare string, employees and revenue as numbers, a top-level
// country, website or url for the domain.
type jsonRow struct {
	record.Company
	Status       json.RawMessage `json:"status"`
	Employees    json.RawMessage `json:"employees"`
	Score        json.RawMessage `json:"score"`
	RevenueRange json.RawMessage `json:"revenue_range"`
	Country      string          `json:"country"`
	Website      string          `json:"website"`
	URL          string          `json:"url"`
}

func (s *jsonlSource) Next() (record.Company, int, error) {
	for {
		line, err := s.r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			s.line++
			row := s.line
			if err := s.skipLine(); err != nil && !errors.Is(err, io.EOF) {
				return record.Company{}, row, err
			}
			return record.Company{}, row, &RowError{Row: row, Reason: fmt.Sprintf("line exceeds %d MiB", MaxRecordBytes>>20)}
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return record.Company{}, s.line, fmt.Errorf("read line %d: %w", s.line+1, err)
		}
		if len(line) == 0 && errors.Is(err, io.EOF) {
			return record.Company{}, s.line, io.EOF
		}
		s.line++
		line = bytes.TrimSpace(bytes.TrimPrefix(line, []byte("\xef\xbb\xbf")))
		if len(line) == 0 {
			if errors.Is(err, io.EOF) {
				return record.Company{}, s.line, io.EOF
			}
			continue
		}
		c, perr := parseJSONRow(line)
		if perr != nil {
			return record.Company{}, s.line, &RowError{Row: s.line, Domain: c.Domain, Reason: perr.Error()}
		}
		return c, s.line, nil
	}
}

func (s *jsonlSource) skipLine() error {
	for {
		_, err := s.r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return err
	}
}

func parseJSONRow(line []byte) (record.Company, error) {
	var r jsonRow
	if err := json.Unmarshal(line, &r); err != nil {
		return record.Company{}, fmt.Errorf("malformed JSON: %v", err)
	}
	c := r.Company
	if c.Domain == "" {
		c.Domain = firstNonEmpty(r.Website, r.URL)
	}
	if c.Address.Country == "" {
		c.Address.Country = r.Country
	}
	if len(r.Status) > 0 && string(r.Status) != "null" {
		if r.Status[0] == '"' {
			_ = json.Unmarshal(r.Status, &c.Status.Status)
		} else if err := json.Unmarshal(r.Status, &c.Status); err != nil {
			return c, fmt.Errorf("status: want \"active\", \"closed\" or {status, confidence}")
		}
	}
	var err error
	if c.Employees, err = stringish(r.Employees, "employees"); err != nil {
		return c, err
	}
	if c.RevenueRange, err = stringish(r.RevenueRange, "revenue_range"); err != nil {
		return c, err
	}
	score, err := stringish(r.Score, "score")
	if err != nil {
		return c, err
	}
	if score != "" {
		f, err := strconv.ParseFloat(score, 64)
		if err != nil {
			return c, fmt.Errorf("score: %q is not a number", score)
		}
		c.Score = int(f)
		if float64(c.Score) != f {
			return c, fmt.Errorf("score: %v is not an integer", f)
		}
	}
	return c, nil
}

// stringish accepts a JSON string or number.
func stringish(raw json.RawMessage, field string) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", fmt.Errorf("%s: %v", field, err)
		}
		return s, nil
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err != nil {
		return "", fmt.Errorf("%s: want a string or a number", field)
	}
	return n.String(), nil
}

func firstNonEmpty(v ...string) string {
	for _, s := range v {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}
