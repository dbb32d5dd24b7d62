package datasets

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/openprospect/prospectd/record"
)

// WriteJSON writes the rows as a JSON array of objects whose keys follow
// the column order.
func (t *Table) WriteJSON(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	keys := make([][]byte, len(t.Columns))
	for j, c := range t.Columns {
		k, err := json.Marshal(c)
		if err != nil {
			return fmt.Errorf("encode column %q: %w", c, err)
		}
		keys[j] = append(k, ':')
	}
	buf := make([]byte, 0, 4096)
	bw.WriteByte('[')
	for i, row := range t.Rows {
		buf = buf[:0]
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, '{')
		for j, v := range row {
			if j > 0 {
				buf = append(buf, ',')
			}
			buf = append(buf, keys[j]...)
			var err error
			if buf, err = appendJSON(buf, v); err != nil {
				return fmt.Errorf("encode row %d column %s: %w", i, t.Columns[j], err)
			}
		}
		buf = append(buf, '}')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	bw.WriteByte(']')
	return bw.Flush()
}

func appendJSON(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case int:
		return strconv.AppendInt(b, int64(x), 10), nil
	}
	j, err := json.Marshal(v)
	return append(b, j...), err
}

// WriteCSV writes a header line and one line per row. Lists are joined with
// "; " (the separator ingestion reads back), the status and address
// objects are spread over "status.status", "address.city" and so on, other
// objects (keywords, industry_groups) are written as JSON.
func (t *Table) WriteCSV(w io.Writer) error {
	// Bizdata's status and address columns (never prefixed) are spread.
	kinds := make([]int, len(t.Columns)) // 0 plain, 1 status, 2 address
	for j, c := range t.Columns {
		kinds[j] = map[string]int{"status": 1, "address": 2}[c]
	}
	var header []string
	for j, c := range t.Columns {
		switch kinds[j] {
		case 1:
			header = append(header, c+".status", c+".confidence")
		case 2:
			header = append(header, c+".street", c+".city", c+".state", c+".zip", c+".country")
		default:
			header = append(header, c)
		}
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(header); err != nil {
		return err
	}
	line := make([]string, 0, len(header))
	for i, row := range t.Rows {
		line = line[:0]
		for j, v := range row {
			switch kinds[j] {
			case 1:
				s, _ := v.(record.Status)
				if v == nil {
					line = append(line, "", "")
				} else {
					line = append(line, s.Status, strconv.FormatFloat(s.Confidence, 'f', -1, 64))
				}
			case 2:
				a, _ := v.(record.Address)
				line = append(line, a.Street, a.City, a.State, a.Zip, a.Country)
			default:
				cell, err := csvCell(v)
				if err != nil {
					return fmt.Errorf("encode row %d column %s: %w", i, t.Columns[j], err)
				}
				line = append(line, cell)
			}
		}
		if err := cw.Write(line); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func csvCell(v any) (string, error) {
	switch x := v.(type) {
	case nil:
		return "", nil
	case string:
		return x, nil
	case *string:
		if x == nil {
			return "", nil
		}
		return *x, nil
	case int:
		return strconv.Itoa(x), nil
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), nil
	case []string:
		return strings.Join(x, "; "), nil
	}
	j, err := json.Marshal(v)
	return string(j), err
}
