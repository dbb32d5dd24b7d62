package api

import (
	"context"
	"errors"
	"fmt"
	"mime/multipart"
	"net/http"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/openprospect/prospectd/record/domain"
	"github.com/openprospect/prospectd/store"
	"github.com/openprospect/prospectd/uploads"
)

// formValue returns a multipart form field, trimmed; "" when absent.
func formValue(form *multipart.Form, name string) string {
	if form == nil {
		return ""
	}
	if v := form.Value[name]; len(v) > 0 {
		return strings.TrimSpace(v[0])
	}
	return ""
}

// readUpload reads the CSV or Excel file of form field "file" within lim:
// 413 over the caps, 422 for a missing or unreadable file.
func readUpload(form *multipart.Form, lim uploads.Limits) (*uploads.Table, error) {
	var files []*multipart.FileHeader
	if form != nil {
		files = form.File["file"]
	}
	if len(files) != 1 {
		return nil, huma.Error422UnprocessableEntity("file: upload exactly one CSV or Excel file in the form field \"file\"")
	}
	fh := files[0]
	if fh.Size > lim.MaxBytes {
		return nil, huma.NewError(http.StatusRequestEntityTooLarge, fmt.Sprintf("file: %d bytes, the limit is %s", fh.Size, uploads.Human(lim.MaxBytes)))
	}
	f, err := fh.Open()
	if err != nil {
		return nil, huma.Error422UnprocessableEntity("file: cannot be read")
	}
	defer f.Close()
	t, err := uploads.Read(fh.Filename, f, lim)
	switch {
	case errors.Is(err, uploads.ErrTooLarge):
		return nil, huma.NewError(http.StatusRequestEntityTooLarge, "file: "+err.Error())
	case err != nil:
		return nil, huma.Error422UnprocessableEntity("file: " + err.Error())
	}
	return t, nil
}

// savedQueryRef resolves query_id values (repeated or comma-separated)
// into the union of the saved queries' domains, each contributing up to
// its cap; 404 naming the ids unknown to the caller.
func (s *Server) savedQueryRef(ctx context.Context, p store.Principal, ids []string) ([]string, error) {
	return s.savedDomains(ctx, p, ids)
}

// hasFile reports whether the form carries a "file" upload.
func hasFile(form *multipart.Form) bool {
	return form != nil && len(form.File["file"]) > 0
}

// withSavedDomains adds to t, as rows holding only the domain column col,
// the saved domains the file does not already hold (compared as
// normalized root domains).
func withSavedDomains(t *uploads.Table, col int, doms []string) {
	have := make(map[string]bool, len(t.Rows))
	for _, row := range t.Rows {
		if col < len(row) {
			if d, err := domain.Normalize(row[col]); err == nil {
				have[d] = true
			}
		}
	}
	for _, d := range doms {
		if have[d] {
			continue
		}
		have[d] = true
		row := make([]string, len(t.Header))
		row[col] = d
		t.Rows = append(t.Rows, row)
		t.Line = append(t.Line, len(t.Rows)+1)
	}
}
