package ingest

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
	"golang.org/x/text/encoding/unicode"

	"github.com/openprospect/prospectd/record"
)

// rowResult is one row as a Source yields it.
type rowResult struct {
	row    int
	c      record.Company
	reason string // row error
}

// drain reads src to its end.
func drain(t *testing.T, src Source) (rows []rowResult, fatal error) {
	t.Helper()
	for range 1_000_000 {
		c, row, err := src.Next()
		var re *RowError
		switch {
		case errors.Is(err, io.EOF):
			return rows, nil
		case errors.As(err, &re):
			if re.Row != row {
				t.Fatalf("RowError.Row %d, Next's row %d", re.Row, row)
			}
			rows = append(rows, rowResult{row: row, reason: re.Reason, c: record.Company{Domain: re.Domain}})
		case err != nil:
			return rows, err
		default:
			rows = append(rows, rowResult{row: row, c: c})
		}
	}
	t.Fatal("the source did not end")
	return nil, nil
}

func TestJSONL(t *testing.T) {
	in := "\ufeff" + `{"domain":"acme.com","name":"Acme"}
{"domain": "broken
{"website":"https://www.beta.io/x","country":"Germany"}

   
{"domain":"gamma.co.uk","phones":{"x":1}}
{"domain":"last.com"}`
	rows, fatal := drain(t, NewJSONL(strings.NewReader(in)))
	if fatal != nil {
		t.Fatal(fatal)
	}
	want := []struct {
		row            int
		domain, reason string
	}{
		{1, "acme.com", ""},
		{2, "", "malformed JSON at byte 12: unterminated string"},
		{3, "https://www.beta.io/x", ""},
		{6, "gamma.co.uk", "phones: want an array of strings, got an object"},
		{7, "last.com", ""},
	}
	if len(rows) != len(want) {
		t.Fatalf("got %d rows: %+v", len(rows), rows)
	}
	for i, w := range want {
		if r := rows[i]; r.row != w.row || r.c.Domain != w.domain || r.reason != w.reason {
			t.Errorf("row %d: got (%d, %q, %q), want (%d, %q, %q)", i, r.row, r.c.Domain, r.reason, w.row, w.domain, w.reason)
		}
	}
}

// longLine streams a line of n bytes (newline included) without holding it.
type longLine struct{ n, off int }

func (h *longLine) Read(p []byte) (int, error) {
	if h.off >= h.n {
		return 0, io.EOF
	}
	k := min(len(p), h.n-h.off)
	for i := range k {
		p[i] = 'x'
	}
	if h.off+k == h.n {
		p[k-1] = '\n'
	}
	h.off += k
	return k, nil
}

// TestHundredMegabyteLine streams a 100 MB line between two records: it is
// one row error, the reader goes on with the next line, and memory stays
// far below the line's size.
func TestHundredMegabyteLine(t *testing.T) {
	for _, tc := range []struct {
		name string
		open func(io.Reader) (Source, error)
		head string
	}{
		{"jsonl", func(r io.Reader) (Source, error) { return NewJSONL(r), nil }, `{"domain":"first.com"}`},
		{"csv", NewCSV, "domain\nfirst.com"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := io.MultiReader(strings.NewReader(tc.head+"\n"), &longLine{n: 100 << 20}, strings.NewReader(`after.com`+"\n"))
			if tc.name == "jsonl" {
				r = io.MultiReader(strings.NewReader(tc.head+"\n"), &longLine{n: 100 << 20}, strings.NewReader(`{"domain":"after.com"}`+"\n"))
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			src, err := tc.open(r)
			if err != nil {
				t.Fatal(err)
			}
			rows, fatal := drain(t, src)
			runtime.ReadMemStats(&after)
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 40<<20 {
				t.Errorf("reading allocated %d MiB: the long line was buffered", alloc>>20)
			}
			if fatal != nil || len(rows) != 3 {
				t.Fatalf("rows %+v, fatal %v", rows, fatal)
			}
			if rows[1].row != 2 || rows[1].reason != "record exceeds 8 MiB" {
				t.Fatalf("long line gave %+v", rows[1])
			}
			if rows[2].c.Domain != "after.com" || rows[2].row != 3 {
				t.Fatalf("reading did not resume after the long line: %+v", rows[2])
			}
		})
	}
}

func TestCSV(t *testing.T) {
	for _, tc := range []struct{ name, in string }{
		{"comma", "Domain,Name,Country,Phones,Industry\nacme.com,\"Acme, Inc.\",US,\"+1 512 555 0100;+1 512 555 0199\",SAAS;SOFTWARE\n"},
		{"semicolon with BOM and CRLF", "\ufeffdomain;name;country;phones;industry_groups\r\nacme.com;\"Acme, Inc.\";US;+1 512 555 0100|+1 512 555 0199;SAAS|SOFTWARE\r\n"},
		{"tab, JSON cells, aliases", "website\tcompany name\taddress.country\tphone\tindustries\nacme.com\tAcme, Inc.\tUS\t[\"+1 512 555 0100\",\"+1 512 555 0199\"]\t{\"SAAS\":0.9,\"SOFTWARE\":0.5}\n"},
		{"pipe, no final newline", "domain|name|country|phones|industry\nacme.com|Acme, Inc.|US|+1 512 555 0100;+1 512 555 0199|SAAS;SOFTWARE"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, err := NewCSV(strings.NewReader(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			rows, fatal := drain(t, src)
			if fatal != nil || len(rows) != 1 || rows[0].reason != "" {
				t.Fatalf("rows %+v, fatal %v", rows, fatal)
			}
			c := rows[0].c
			if c.Domain != "acme.com" || c.Name != "Acme, Inc." || c.Address.Country != "US" || len(c.Phones) != 2 || len(c.IndustryGroups) != 2 {
				t.Fatalf("parsed %+v", c)
			}
			if c.IndustryGroups["SAAS"] <= c.IndustryGroups["SOFTWARE"] {
				t.Fatalf("list order must give descending scores: %v", c.IndustryGroups)
			}
		})
	}
}

func TestCSVQuotingAndRows(t *testing.T) {
	in := "domain,name,description\n" +
		"a.com,\"Say \"\"hi\"\"\",\"two\nlines\"\n" + // row 1: escaped quotes, a line break inside quotes
		",,\n" + // row 2: blank, counted and skipped
		"b.com,O\"Brien,x\n" + // row 3: a quote inside an unquoted field is a character
		"c.com,\"Acme\" Corp,y\n" + // row 4: text after a closing quote is kept (as spreadsheets do)
		"d.com,score,z\n" + // row 5
		"e.com,\"never closed\n" + // row 6: unterminated quote swallows the rest
		"f.com,x,y\n"
	src, err := NewCSV(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	rows, fatal := drain(t, src)
	if fatal != nil {
		t.Fatal(fatal)
	}
	want := []rowResult{
		{row: 1, c: record.Company{Domain: "a.com", Name: `Say "hi"`, Description: "two\nlines"}},
		{row: 3, c: record.Company{Domain: "b.com", Name: `O"Brien`, Description: "x"}},
		{row: 4, c: record.Company{Domain: "c.com", Name: `Acme Corp`, Description: "y"}},
		{row: 5, c: record.Company{Domain: "d.com", Name: "score", Description: "z"}},
		{row: 6, reason: "unterminated quoted field (a quote opened and never closed)"},
	}
	if len(rows) != len(want) {
		t.Fatalf("rows %+v", rows)
	}
	for i := range want {
		if rows[i].row != want[i].row || rows[i].reason != want[i].reason || !equalCompany(rows[i].c, want[i].c) {
			t.Errorf("row %d: got %+v, want %+v", i, rows[i], want[i])
		}
	}
}

func equalCompany(a, b record.Company) bool {
	return a.Domain == b.Domain && a.Name == b.Name && a.Description == b.Description
}

func TestCSVBadRows(t *testing.T) {
	in := "domain,score,phones,status\na.com,1.5,,\nb.com,,[\"x\",,\nc.com,,,\"{\"\"status\"\":\"\"closed\"\",\"\"confidence\"\":0.5}\"\n"
	src, err := NewCSV(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := drain(t, src)
	if len(rows) != 3 || rows[0].reason != "score: 1.5 is not an integer" || !strings.HasPrefix(rows[1].reason, "phones: malformed JSON") ||
		rows[2].reason != "" || rows[2].c.Status != (record.Status{Status: "closed", Confidence: 0.5}) {
		t.Fatalf("rows %+v", rows)
	}
	if rows[0].c.Domain != "a.com" {
		t.Errorf("row error lost the domain: %+v", rows[0])
	}
}

func TestCSVBadFiles(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "no header row"},
		{"\n\ndomain\n", "no header row"},
		{"name,country\nAcme,US\n", "no domain column"},
		{"domain,nmae,colour\nacme.com,Acme,red\n", `unknown columns "nmae", "colour"; accepted columns: business_models, city, country,`},
		{"domain,address\n", `unknown columns "address"`},
		{"domain,name,website\n", `columns "domain" and "website" both give domain`},
		{"domain,Address City,city\n", `columns "Address City" and "city" both give city`},
	} {
		_, err := NewCSV(strings.NewReader(tc.in))
		if err == nil || !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NewCSV(%q) = %v, want %q", tc.in, err, tc.want)
		}
	}
	// Empty header cells are unnamed spreadsheet columns, not errors.
	if _, err := NewCSV(strings.NewReader("domain,,\na.com,x,y\n")); err != nil {
		t.Errorf("unnamed columns refused: %v", err)
	}
}

func xlsxBytes(t testing.TB, sheets map[string][][]any) []byte {
	t.Helper()
	f := excelize.NewFile()
	first := true
	for _, name := range []string{"Sheet1", "Notes", "Companies"} {
		rows, ok := sheets[name]
		if !ok {
			continue
		}
		if first && name != "Sheet1" {
			f.SetSheetName("Sheet1", name)
		} else if name != "Sheet1" {
			f.NewSheet(name)
		}
		first = false
		for i, row := range rows {
			cell, _ := excelize.CoordinatesToCellName(1, i+1)
			if row != nil {
				if err := f.SetSheetRow(name, cell, &row); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestXLSX(t *testing.T) {
	b := xlsxBytes(t, map[string][][]any{
		"Notes": {{"Exported companies"}, {"see next sheet"}},
		"Companies": {
			{"Domain", "Name", "Employees", "Score", "Start Date", "Phones"},
			{"acme.com", "Acme", 1200, 300, 36892, 12015550123}, // 36892 is 2001-01-01 as an Excel date
			nil,
			{"beta.io", "Beta", "11-50", "x", "2010-05-06"},
		},
	})
	src, err := NewXLSX(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	rows, fatal := drain(t, src)
	if fatal != nil || len(rows) != 2 {
		t.Fatalf("rows %+v, fatal %v", rows, fatal)
	}
	c := rows[0].c
	if c.Domain != "acme.com" || c.Employees != "1200" || c.Score != 300 || c.StartDate != "2001-01-01" || len(c.Phones) != 1 || c.Phones[0] != "12015550123" {
		t.Errorf("row 1: %+v", c)
	}
	if rows[1].row != 3 || rows[1].reason != `score: "x" is not a number` || rows[1].c.Domain != "beta.io" {
		t.Errorf("row 3: %+v", rows[1])
	}
}

func TestXLSXBadFiles(t *testing.T) {
	for _, tc := range []struct {
		name string
		b    []byte
		want string
	}{
		{"not a zip", []byte("domain,name\nacme.com,Acme\n"), "not a readable Excel workbook"},
		{"truncated zip", []byte("PK\x03\x04garbage"), "not a readable Excel workbook"},
		{"no domain column", xlsxBytes(t, map[string][][]any{"Sheet1": {{"name"}, {"Acme"}}}), `sheet "Sheet1": file refused: no domain column`},
		{"empty sheet", xlsxBytes(t, map[string][][]any{"Sheet1": {}}), `sheet "Sheet1" is empty`},
		{"unknown column", xlsxBytes(t, map[string][][]any{"Sheet1": {{"domain", "nmae"}}}), `unknown columns "nmae"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewXLSX(bytes.NewReader(tc.b))
			if err == nil || !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("NewXLSX = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, body []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, body, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	gz := func(s string) []byte {
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		w.Write([]byte(s))
		w.Close()
		return b.Bytes()
	}
	utf16, _ := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder().Bytes([]byte("domain\tname\nacme.com\tAcmé\n"))
	xlsx := xlsxBytes(t, map[string][][]any{"Sheet1": {{"domain", "name"}, {"acme.com", "Acmé"}}})
	good := map[string][]byte{
		"a.jsonl": []byte(`{"domain":"acme.com","name":"Acmé"}` + "\n"), "a.ndjson": []byte(`{"domain":"acme.com","name":"Acmé"}`),
		"a.json": []byte("\n\n" + `{"domain":"acme.com","name":"Acmé"}`), "a.csv": []byte("domain,name\nacme.com,Acmé\n"),
		"a.TSV": []byte("domain\tname\nacme.com\tAcmé\n"), "a.txt": []byte("domain;name\nacme.com;Acmé\n"),
		"utf16.txt": utf16, "a.xlsx": xlsx, "a.jsonl.gz": gz(`{"domain":"acme.com","name":"Acmé"}` + "\n"),
		"a.csv.gz": gz("domain,name\nacme.com,Acmé\n"),
	}
	for name, body := range good {
		t.Run(name, func(t *testing.T) {
			src, err := Open(write(name, body))
			if err != nil {
				t.Fatal(err)
			}
			rows, fatal := drain(t, src)
			if err := src.Close(); err != nil {
				t.Error(err)
			}
			if fatal != nil || len(rows) != 1 || rows[0].c.Domain != "acme.com" || rows[0].c.Name != "Acmé" {
				t.Fatalf("rows %+v, fatal %v", rows, fatal)
			}
		})
	}
	for _, tc := range []struct {
		name string
		body []byte
		want string
	}{
		{"empty.jsonl", nil, "the file is empty"},
		{"empty.csv", nil, "the file is empty"},
		{"blank.jsonl", []byte("\n \n\t\n"), "the file has only blank lines"},
		{"fake.xlsx", []byte("domain,name\nacme.com,Acme\n"), "not an Excel workbook (an .xlsx file is a zip archive"},
		{"old.xlsx", []byte("\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1rest"), "a legacy .xls workbook"},
		{"old.xls", []byte("\xd0\xcf\x11\xe0"), "legacy .xls workbooks are not supported"},
		{"array.json", []byte(`[{"domain":"acme.com"}]`), "a JSON array, not JSON lines"},
		{"table.jsonl", []byte("domain,name\nacme.com,Acme\n"), `not JSON lines: the first line starts with "domain,name"`},
		{"workbook.csv", xlsx, "not delimited text but a zip archive (an Excel workbook? name it .xlsx)"},
		{"binary.csv", []byte("domain\x00\x01\x02"), "contains NUL bytes"},
		{"gzip.jsonl", gz("{}"), "not JSON lines but gzip-compressed"},
		{"broken.jsonl.gz", []byte("not gzip"), "not a gzip file"},
		{"nocol.csv", []byte("name\nAcme\n"), "no domain column"},
		{"data.parquet", []byte("PAR1"), `unknown extension ".parquet"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := write(tc.name, tc.body)
			_, err := Open(path)
			if err == nil || !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), path+": ") {
				t.Fatalf("Open = %v, want an ErrFormat naming the file and containing %q", err, tc.want)
			}
		})
	}
	if _, err := Open(filepath.Join(dir, "missing.csv")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// The readers take files from users: whatever the bytes, they end with
// rows, row errors or a fatal error, never a panic or an endless loop, and
// what they yield normalizes without panicking.

func fuzzDrain(t *testing.T, src Source) {
	defer src.Close()
	for range 100_000 {
		c, _, err := src.Next()
		var re *RowError
		switch {
		case errors.Is(err, io.EOF):
			return
		case errors.As(err, &re):
		case err != nil:
			return
		default:
			_ = Normalize(&c)
		}
	}
	t.Fatal("the source did not end")
}

func FuzzJSONL(f *testing.F) {
	f.Add([]byte(`{"domain":"a.com","status":"active","employees":5}` + "\n{bad\n"))
	f.Add([]byte(`{"status":{"status":1}}` + "\n\n" + `{"domain":"b.com","phones":"+15125550100;x"}`))
	f.Fuzz(func(t *testing.T, b []byte) { fuzzDrain(t, NewJSONL(bytes.NewReader(b))) })
}

func FuzzCSV(f *testing.F) {
	f.Add([]byte("domain,name,phones,industry_groups\nacme.com,Acme,+15125550100,SAAS\n"))
	f.Add([]byte("\ufeffdomain;keywords\n\"a.com\";{\"x\":1}\n"))
	f.Add([]byte("domain\tname\n\"a\"\"b.com\"\tx\ty\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		src, err := NewCSV(bytes.NewReader(b))
		if err != nil {
			return
		}
		fuzzDrain(t, src)
	})
}

func FuzzXLSX(f *testing.F) {
	f.Add(xlsxBytes(f, map[string][][]any{"Sheet1": {{"domain", "name"}, {"acme.com", "Acme"}}}))
	f.Add([]byte("PK\x03\x04garbage"))
	f.Fuzz(func(t *testing.T, b []byte) {
		src, err := NewXLSX(bytes.NewReader(b))
		if err != nil {
			return
		}
		fuzzDrain(t, src)
	})
}
