// Package uploadtest builds upload files for tests: workbooks, and zip
// bombs that are small on disk and cheap to build.
package uploadtest

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"hash/crc32"
	"testing"

	"github.com/xuri/excelize/v2"
)

// XLSX returns a workbook whose first sheet holds rows.
func XLSX(t testing.TB, rows [][]any) []byte {
	t.Helper()
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

// deflateChunk compresses b as non-final deflate blocks that refer to
// nothing before them, so copies of it concatenate into one stream that
// inflates to the copies of b: a gigabyte of XML costs a megabyte and no
// gigabyte of compression work.
func deflateChunk(t testing.TB, b []byte) []byte {
	var out bytes.Buffer
	w, err := flate.NewWriter(&out, flate.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(b)
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// BombXLSX returns a workbook whose first sheet is head, repeats copies
// of row, then tail, written as a raw zip part stating size (the true
// size when size is 0). The other parts come from a real workbook.
func BombXLSX(t testing.TB, row string, repeats int, size uint64) []byte {
	head := `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>` +
		`<row r="1"><c r="A1" t="inlineStr"><is><t>domain</t></is></c></row>`
	tail := `</sheetData></worksheet>`
	small := XLSX(t, [][]any{{"domain"}, {"a.com"}})
	base, err := zip.NewReader(bytes.NewReader(small), int64(len(small)))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, f := range base.File {
		if f.Name != "xl/worksheets/sheet1.xml" {
			if err := zw.Copy(f); err != nil {
				t.Fatal(err)
			}
			continue
		}
		var comp bytes.Buffer
		crc := crc32.NewIEEE()
		comp.Write(deflateChunk(t, []byte(head)))
		crc.Write([]byte(head))
		chunk := deflateChunk(t, []byte(row))
		for range repeats {
			comp.Write(chunk)
			crc.Write([]byte(row))
		}
		comp.Write(deflateChunk(t, []byte(tail)))
		crc.Write([]byte(tail))
		comp.Write([]byte{0x03, 0x00}) // final empty block
		n := uint64(len(head) + repeats*len(row) + len(tail))
		if size == 0 {
			size = n
		}
		w, err := zw.CreateRaw(&zip.FileHeader{Name: f.Name, Method: zip.Deflate, CRC32: crc.Sum32(),
			CompressedSize64: uint64(comp.Len()), UncompressedSize64: size})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(comp.Bytes())
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}
