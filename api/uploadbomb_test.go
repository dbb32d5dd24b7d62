package api

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/openprospect/prospectd/uploads/uploadtest"
)

// TestUploadBombsRefusedFast: workbooks of 0.8-3.2 MB that unpack to
// 256 MiB-1 GiB (which cost 20-90 s of CPU and 2-3 GB before the caps)
// are refused with 413 in well under 2 s by every upload endpoint.
func TestUploadBombsRefusedFast(t *testing.T) {
	f := unlimitedFixture(t)
	rows := strings.Repeat(`<row><c t="inlineStr"><is><t>a.com</t></is></c></row>`, 1<<20/52)
	small := uploadtest.BombXLSX(t, rows, 256, 0)  // 256 MiB, under 1 MB
	large := uploadtest.BombXLSX(t, rows, 1024, 0) // 1 GiB, under 5 MB
	for _, tc := range []struct {
		path   string
		fields map[string]string
		file   []byte
		detail string
	}{
		{"/v1/segment", nil, small, "file: upload too large: the workbook unpacks to more than 16 MB"},
		{"/v1/bulkmatch", map[string]string{"name_column": "domain"}, small, "unpacks to more than 16 MB"},
		{"/v1/append?dataset=bizdata", nil, large, "unpacks to more than 50 MB"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			start := time.Now()
			res, b := f.upload(t, tc.path, tc.fields, "list.xlsx", tc.file)
			took := time.Since(start)
			if res.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(string(b), tc.detail) {
				t.Fatalf("%d %s, want 413 with %q", res.StatusCode, b, tc.detail)
			}
			t.Logf("%d-byte workbook refused in %v", len(tc.file), took)
			if took > 2*time.Second {
				t.Fatalf("refused in %v, want under 2 s", took)
			}
		})
	}
}
