package api

import (
	"errors"
	"fmt"
	"mime/multipart"
	"net/http"
	"strings"

	"github.com/danielgtaylor/huma/v2"

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

// savedQueryRef refuses query_id values: saved queries do not exist yet,
// so every id is unknown (404), never silently ignored.
func savedQueryRef(ids []string) error {
	if v := strings.TrimSpace(strings.Join(ids, "")); v != "" {
		return huma.Error404NotFound(fmt.Sprintf("query_id: saved query %q not found for the caller", strings.Join(ids, ",")))
	}
	return nil
}
