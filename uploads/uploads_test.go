package uploads

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

var lim = Limits{MaxBytes: 1 << 20, MaxRows: 10_000}

func xlsx(t testing.TB, rows [][]any) []byte {
	f := excelize.NewFile()
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		f.SetSheetRow("Sheet1", cell, &r)
	}
	var b bytes.Buffer
	if err := f.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

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
		{"over rows", "a.csv", []byte("domain\na.com\nb.com\nc.com\n"), Limits{MaxBytes: 1 << 20, MaxRows: 2}, ErrTooLarge, "3 rows, the limit is 2"},
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
