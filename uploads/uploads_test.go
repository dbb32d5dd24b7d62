package uploads

import (
	"bytes"
	"errors"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/openprospect/prospectd/uploads/uploadtest"
)

var lim = Limits{MaxBytes: 1 << 20, MaxRows: 10_000}

func xlsx(t testing.TB, rows [][]any) []byte { return uploadtest.XLSX(t, rows) }

func TestRead(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		body       []byte
		header     []string
		rows       int
		domainCol  int
	}{
		{"comma", "a.csv", []byte("Company,Website\nAcme,acme.com\n\nBeta,https://www.beta.io/x\n"), []string{"Company", "Website"}, 2, 1},
		{"bom semicolon quoted", "a.csv", []byte("\ufeffname;domain\n\"Acme; Inc\";acme.com\n"), []string{"name", "domain"}, 1, 1},
		{"tab", "a.tsv", []byte("name\tsite\nA\ta.com\n"), []string{"name", "site"}, 1, 1},
		{"values only", "a.csv", []byte("col1,col2\nAcme,acme.com\nBeta,beta.co.uk\nGamma,\n"), []string{"col1", "col2"}, 3, 1},
		{"short rows padded", "a.csv", []byte("a,b,domain\n1\n2,3,x.com\n"), []string{"a", "b", "domain"}, 2, 2},
		{"windows-1252", "a.csv", []byte("name,domain\nM\xfcller,mueller.de\n"), []string{"name", "domain"}, 1, 1},
		{"xlsx", "list.xlsx", xlsx(t, [][]any{{"Name", "Domain"}, {"Acme", "acme.com"}, {"Beta", "beta.io"}}), []string{"Name", "Domain"}, 2, 1},
		{"repeated and empty headers", "a.csv", []byte("name,Name,,domain,name\nA,B,C,a.com,D\n"), []string{"name", "Name_2", "column_3", "domain", "name_3"}, 1, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab, err := Read(tc.file, bytes.NewReader(tc.body), lim)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(tab.Header, "|") != strings.Join(tc.header, "|") || len(tab.Rows) != tc.rows {
				t.Fatalf("header %q, %d rows", tab.Header, len(tab.Rows))
			}
			for _, r := range tab.Rows {
				if len(r) != len(tab.Header) {
					t.Fatalf("row %q not padded", r)
				}
			}
			if c, err := DomainColumn(tab, ""); err != nil || c != tc.domainCol {
				t.Fatalf("domain column %d %v", c, err)
			}
		})
	}
}

func TestReadRejects(t *testing.T) {
	big := []byte("domain\n" + strings.Repeat("a.com\n", 200_000))
	for _, tc := range []struct {
		name, file string
		body       []byte
		lim        Limits
		want       error
		detail     string
	}{
		{"empty", "a.csv", []byte("  \n"), lim, ErrFormat, "empty"},
		{"header only", "a.csv", []byte("domain\n"), lim, ErrFormat, "no rows"},
		{"over bytes", "a.csv", big, lim, ErrTooLarge, "over 1 MB"},
		{"over rows", "a.csv", []byte("domain\na.com\nb.com\nc.com\n"), Limits{MaxBytes: 1 << 20, MaxRows: 2}, ErrTooLarge, "more than 2 rows, the limit is 2"},
		{"fake xlsx", "a.xlsx", []byte("domain\na.com\n"), lim, ErrFormat, "not an Excel workbook"},
		{"legacy xls", "a.xls", []byte("\xd0\xcf\x11\xe0rest"), lim, ErrFormat, "legacy .xls"},
		{"binary", "a.csv", []byte("domain\x00\x01\n"), lim, ErrFormat, "NUL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(tc.file, bytes.NewReader(tc.body), tc.lim)
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.detail) {
				t.Fatalf("%v, want %v with %q", err, tc.want, tc.detail)
			}
		})
	}
	tab, _ := Read("a.csv", strings.NewReader("name,city\nAcme,Paris\n"), lim)
	if _, err := DomainColumn(tab, ""); err == nil || !strings.Contains(err.Error(), "no column looks like domains") {
		t.Errorf("no domain column: %v", err)
	}
	if _, err := DomainColumn(tab, "web"); err == nil || !strings.Contains(err.Error(), `no column "web"`) {
		t.Errorf("named column missing: %v", err)
	}
	if c, err := DomainColumn(tab, "CITY"); err != nil || c != 1 {
		t.Errorf("named column: %d %v", c, err)
	}
}

func FuzzRead(f *testing.F) {
	f.Add("a.csv", []byte("domain;name\n\"a.com\";x\n"))
	f.Add("a.xlsx", xlsx(f, [][]any{{"domain"}, {"a.com"}}))
	f.Fuzz(func(t *testing.T, name string, b []byte) {
		tab, err := Read(name, bytes.NewReader(b), Limits{MaxBytes: 1 << 16, MaxRows: 1000})
		if err != nil {
			if !errors.Is(err, ErrFormat) && !errors.Is(err, ErrTooLarge) {
				t.Fatalf("unexpected error class: %v", err)
			}
			return
		}
		if len(tab.Rows) == 0 || len(tab.Rows) > 1000 || len(tab.Rows) != len(tab.Line) {
			t.Fatalf("%d rows", len(tab.Rows))
		}
		for _, r := range tab.Rows {
			if len(r) != len(tab.Header) {
				t.Fatal("ragged row")
			}
		}
		DomainColumn(tab, "")
	})
}

// TestReadRefusesBombsFast: workbooks and CSV files that unpack or split
// into far more than the caps are refused at the caps, in bounded time
// and memory.
func TestReadRefusesBombsFast(t *testing.T) {
	// A 1 MiB run of rows, each with a cell: inflates ~1000:1.
	rows := strings.Repeat(`<row><c t="inlineStr"><is><t>a.com</t></is></c></row>`, 1<<20/52)
	wide := strings.Repeat(`<c t="inlineStr"><is><t>x</t></is></c>`, 20)
	// The append endpoint's caps: 5 MB takes a gigabyte bomb.
	appendLim := Limits{MaxBytes: 5 << 20, MaxRows: 10_000}
	for _, tc := range []struct {
		name   string
		file   string
		lim    Limits
		body   func(testing.TB) []byte
		want   error
		detail string
	}{
		{"1 GiB sheet", "bomb.xlsx", appendLim, func(t testing.TB) []byte { return uploadtest.BombXLSX(t, rows, 1024, 0) }, ErrTooLarge, "unpacks to more than 50 MB"},
		{"256 MiB sheet", "bomb.xlsx", lim, func(t testing.TB) []byte { return uploadtest.BombXLSX(t, rows, 256, 0) }, ErrTooLarge, "unpacks to more than 16 MB"},
		{"sheet stating 2^64-1 bytes", "bomb.xlsx", appendLim, func(t testing.TB) []byte { return uploadtest.BombXLSX(t, rows, 1024, ^uint64(0)) }, ErrTooLarge, "unpacks to more than"},
		{"sheet stating too few bytes", "bomb.xlsx", appendLim, func(t testing.TB) []byte { return uploadtest.BombXLSX(t, rows, 1024, 32<<10) }, ErrFormat, "not an Excel workbook"},
		{"rows past the cap under the unpack cap", "rows.xlsx", lim, func(t testing.TB) []byte { return uploadtest.BombXLSX(t, rows, 12, 0) }, ErrTooLarge, "more than 10000 rows"},
		{"wide rows past the cap", "wide.xlsx", lim, func(t testing.TB) []byte {
			return uploadtest.BombXLSX(t, strings.Repeat("<row>"+wide+"</row>", 1000), 11, 0)
		}, ErrTooLarge, "more than 10000 rows"},
		{"csv rows past the cap", "a.csv", lim, func(testing.TB) []byte { return []byte("domain\n" + strings.Repeat("a.com\n", 150_000)) }, ErrTooLarge, "more than 10000 rows"},
		{"csv too many columns", "a.csv", lim, func(testing.TB) []byte { return []byte("domain" + strings.Repeat(",", 200_000) + "\na.com\n") }, ErrFormat, "the header has 200001 columns, the limit is 16384"},
		{"csv huge field", "a.csv", lim, func(testing.TB) []byte { return []byte("domain,notes\na.com," + strings.Repeat("x", 40_000) + "\n") }, ErrFormat, "line 2, column 2 has 40000 characters, the limit per cell is 32767"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := tc.body(t)
			if int64(len(body)) > tc.lim.MaxBytes {
				t.Fatalf("the test file is %d bytes, over the byte cap: it tests nothing", len(body))
			}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			start := time.Now()
			_, err := Read(tc.file, bytes.NewReader(body), tc.lim)
			took := time.Since(start)
			runtime.ReadMemStats(&after)
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.detail) {
				t.Fatalf("%v, want %v with %q", err, tc.want, tc.detail)
			}
			alloc := after.TotalAlloc - before.TotalAlloc
			t.Logf("%d bytes refused in %v, %d MB allocated: %v", len(body), took, alloc>>20, err)
			// Before the caps, these cost 20-90 s and 2-3 GB.
			if took > 2*time.Second || alloc > 1<<30 {
				t.Errorf("took %v and allocated %d MB; want under 2 s and 1 GB", took, alloc>>20)
			}
		})
	}
}

// TestCSVSharedReader: uploads read CSV with ingest's reader — line
// numbers count the lines a quoted cell spans, a quote followed by text
// stays closed instead of swallowing the next rows, and a quote never
// closed is a format error naming its line.
func TestCSVSharedReader(t *testing.T) {
	lim := Limits{MaxBytes: 1 << 20, MaxRows: 100}
	for _, tc := range []struct {
		name, in  string
		rows      [][]string
		lines     []int
		errSubstr string
	}{
		{"multi-line cell", "domain,note\na.com,\"x\ny\"\nb.com,z\n", [][]string{{"a.com", "x\ny"}, {"b.com", "z"}}, []int{2, 4}, ""},
		{"stray quote", "name,domain\n\"Acme\" Corp,a.com\nBeta,b.com\n", [][]string{{"Acme Corp", "a.com"}, {"Beta", "b.com"}}, []int{2, 3}, ""},
		{"semicolons and CRLF", "domain;n\r\na.com;1\r\n\r\nb.com;2", [][]string{{"a.com", "1"}, {"b.com", "2"}}, []int{2, 4}, ""},
		{"unterminated", "domain,note\na.com,\"open\nb.com,z\n", nil, nil, "line 2: unterminated"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab, err := Read("a.csv", strings.NewReader(tc.in), lim)
			if tc.errSubstr != "" {
				if err == nil || !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), tc.errSubstr) {
					t.Fatalf("err = %v, want ErrFormat with %q", err, tc.errSubstr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(tab.Rows, tc.rows) || !reflect.DeepEqual(tab.Line, tc.lines) {
				t.Fatalf("rows %q lines %v, want %q %v", tab.Rows, tab.Line, tc.rows, tc.lines)
			}
		})
	}
}
