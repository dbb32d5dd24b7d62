package api

import "github.com/danielgtaylor/huma/v2"

// The multipart forms of the upload routes. Huma reads each struct both
// to declare the form in the document (field `file` as binary plus the
// fields below) and to decode and validate the request before the
// handler runs; the handlers then read the upload itself from the raw
// form (size and row caps, CSV or Excel).

// A `file` part may be labelled text/csv, the .xlsx type or (for
// clients that do not label parts) application/octet-stream.

// SegmentForm is the form of POST /v1/segment.
type SegmentForm struct {
	File         huma.FormFile `form:"file" contentType:"text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,application/octet-stream" required:"false" doc:"CSV or .xlsx file, at most 1 MB and 10,000 rows; required unless query_id is given"`
	DomainColumn string        `form:"domain_column" required:"false" maxLength:"300" doc:"Header of the column with the domains; detected from header names and values when omitted"`
	MaxSegments  int           `form:"max_segments" required:"false" minimum:"2" maximum:"100" doc:"Number of segments, 2-100; chosen by silhouette when omitted"`
	QueryID      []string      `form:"query_id" required:"false" doc:"Saved query ids whose domains are unioned into the set (404 for an unknown id)"`
}

// AppendForm is the form of POST /v1/append; every field but `file` may
// also be a query parameter.
type AppendForm struct {
	File         huma.FormFile `form:"file" contentType:"text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,application/octet-stream" required:"false" doc:"CSV or .xlsx file, at most 5 MB and 10,000 rows; required unless query_id is given"`
	Dataset      []string      `form:"dataset" required:"false" doc:"Datasets to append (repeatable or comma-separated): bizdata, domain_status, redirects, growth, vendors, subdomains; required here or as a query parameter"`
	DomainColumn string        `form:"domain_column" required:"false" maxLength:"300" doc:"Header of the column with the domains; detected when omitted"`
	QueryID      []string      `form:"query_id" required:"false" doc:"Saved query ids whose domains are appended too (404 for an unknown id)"`
	CSV          bool          `form:"csv" required:"false" doc:"true returns CSV instead of JSON"`
}

// BulkMatchForm is the form of POST /v1/bulkmatch; every field but `file`
// may also be a query parameter (the form field wins).
type BulkMatchForm struct {
	File               huma.FormFile `form:"file" contentType:"text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,application/octet-stream" required:"true" doc:"CSV or .xlsx file, at most 1 MB and 10,000 rows"`
	NameColumn         string        `form:"name_column" required:"false" maxLength:"300" doc:"Header of the column with company names; required here or as a query parameter"`
	CountryColumn      string        `form:"country_column" required:"false" maxLength:"300" doc:"Header of a column with countries (ISO code or name)"`
	StateColumn        string        `form:"state_column" required:"false" maxLength:"300" doc:"Header of a column with states"`
	CityColumn         string        `form:"city_column" required:"false" maxLength:"300" doc:"Header of a column with cities"`
	ZipCodeColumn      string        `form:"zip_code_column" required:"false" maxLength:"300" doc:"Header of a column with postal codes"`
	PhoneColumn        string        `form:"phone_column" required:"false" maxLength:"300" doc:"Header of a column with phone numbers"`
	MinMatchConfidence int           `form:"min_match_confidence" required:"false" minimum:"50" maximum:"100" doc:"Lowest match confidence returned, 50-100 (default 50)"`
}
