// Package export writes discovery and contact results past the 10,000
// records a page can reach to files, as a task: CSV, JSONL or XLSX,
// written page by page as the ranking is read (constant memory), billed
// page by page through account.BillRecords with the charges the pages of
// discovery and contact search would bill, and resumable: after every
// page the file is synced and a checkpoint (the next offset, the rows and
// bytes written, the credits billed) is written beside it, so a task run
// again after a restart or a kill truncates the file to the checkpoint and
// continues from there. A page billed before a kill is billed again on
// resume, which costs nothing: the ledger never bills a record twice
// within store.NoRebillWindow.
//
// Files live under the data dir (0600 files in a 0700 directory) and are
// removed after a retention period (Files.Clean).
package export

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/openprospect/prospectd/query"
)

// Kind is the task kind of an export.
const Kind = "export"

// Sources: which search an export runs.
const (
	SourceDiscover = "discover"
	SourceContacts = "contacts"
)

// Formats of an export file.
const (
	FormatCSV   = "csv"
	FormatJSONL = "jsonl"
	FormatXLSX  = "xlsx"
)

// Formats lists the accepted formats.
var Formats = []string{FormatCSV, FormatJSONL, FormatXLSX}

// Export limits.
const (
	// MaxRecords caps one export: an XLSX sheet holds 1,048,576 rows.
	MaxRecords        = 1_000_000
	DefaultMaxRecords = 100_000
	// DefaultPageSize is how many records are read, billed and written
	// between two checkpoints.
	DefaultPageSize = 1000
	// DefaultCheckpointEvery spaces the checkpoints of exports run by
	// the task runner: a sync to disk per 1,000 records would cost more
	// than reading them, and a restart re-reads at most a few seconds of
	// pages (billed again for free).
	DefaultCheckpointEvery = 2 * time.Second
	// DefaultRetention is how long a finished export's file is kept.
	DefaultRetention = 7 * 24 * time.Hour
)

// Input is an export task's input: the search's parameters as given
// (without paging), validated at submission and parsed again by the task.
type Input struct {
	Source     string     `json:"source"`
	Format     string     `json:"format"`
	MaxRecords int        `json:"max_records"`
	Params     url.Values `json:"params"`
}

// Result is a completed export.
type Result struct {
	Source  string `json:"source"`
	Format  string `json:"format"`
	Records int    `json:"records" doc:"Rows in the file"`
	Bytes   int64  `json:"bytes" doc:"Size of the file"`
	// File is the download path.
	File          string `json:"file" doc:"Download path: GET it with the same API key"`
	CreditsBilled int    `json:"credits_billed" doc:"Credits the export cost; records billed to the organization in the last 90 days are free"`
	// RecordsWithheld and CreditsExhausted: the credits ran out, the
	// export stopped after the page where they did.
	RecordsWithheld  int  `json:"records_withheld" doc:"Records of the last page the credits did not cover (not in the file)"`
	CreditsExhausted bool `json:"credits_exhausted" doc:"The credits ran out: the export stopped there and holds only what they paid for"`
	// MaxRecordsReached: more records matched than max_records.
	MaxRecordsReached bool      `json:"max_records_reached" doc:"More records matched than max_records"`
	ExpiresAt         time.Time `json:"expires_at" doc:"When the file is deleted"`
	Note              string    `json:"note,omitempty" doc:"Why the export holds fewer records than matched, when it does"`
}

// Export-only parameters, and the search parameters an export does not
// take: it pages by itself, past any page cap, without per-company caps.
var (
	formatParam  = query.Param{Name: "format", Type: query.String, Enum: Formats, Default: FormatCSV, Doc: "File format: csv (header row; lists and objects as JSON text), jsonl (one JSON object per line) or xlsx (one sheet)."}
	maxParam     = query.Param{Name: "max_records", Type: query.Integer, Min: 1, Max: MaxRecords, Default: DefaultMaxRecords, Doc: "Most records to export, 1-1,000,000."}
	discoverDrop = []string{"max_records", "offset"}
	contactDrop  = []string{"max_records", "max_companies", "offset", "results_by_company"}
)

// DiscoverTable declares the parameters of a discovery export: those of
// GET /v1/discover without its paging, plus format and max_records.
var DiscoverTable = exportTable(query.DiscoverTable, discoverDrop)

// ContactTable declares the parameters of a contact export: the contact
// search filters without paging and per-company caps, plus format and
// max_records.
var ContactTable = exportTable(query.ContactTable, contactDrop)

func exportTable(t query.ParamTable, drop []string) query.ParamTable {
	var out query.ParamTable
	for _, p := range t {
		if !slices.Contains(drop, p.Name) {
			out = append(out, p)
		}
	}
	return append(out, formatParam, maxParam)
}

// Request is a validated export request.
type Request struct {
	Input    Input
	Discover query.Discover        // when Source is discover
	Contacts query.ContactDiscover // when Source is contacts
}

// Parse validates an export request's query parameters for source. The
// error is a *query.Error naming every parameter at fault.
func Parse(source string, v url.Values) (Request, error) {
	var drop []string
	switch source {
	case SourceDiscover:
		drop = discoverDrop
	case SourceContacts:
		drop = contactDrop
	default:
		return Request{}, fmt.Errorf("export: unknown source %q", source)
	}
	var errs []query.ParamError
	fail := func(name, value, rule string) {
		errs = append(errs, query.ParamError{Param: name, Value: value, Rule: rule})
	}
	in := Input{Source: source, Format: FormatCSV, MaxRecords: DefaultMaxRecords}
	rest := url.Values{}
	for name, vals := range v {
		switch {
		case name == "format":
			if len(vals) != 1 {
				fail(name, strings.Join(vals, ","), "give one value")
				continue
			}
			f := strings.ToLower(strings.TrimSpace(vals[0]))
			if !slices.Contains(Formats, f) {
				fail(name, vals[0], "must be one of "+strings.Join(Formats, ", "))
				continue
			}
			in.Format = f
		case name == "max_records":
			n, err := strconv.Atoi(strings.TrimSpace(strings.Join(vals, ",")))
			if err != nil || n < 1 || n > MaxRecords {
				fail(name, strings.Join(vals, ","), fmt.Sprintf("must be an integer from 1 to %d", MaxRecords))
				continue
			}
			in.MaxRecords = n
		case slices.Contains(drop, name):
			fail(name, strings.Join(vals, ","), "not an export parameter: an export pages by itself; use max_records to cap it")
		default:
			rest[name] = vals
		}
	}
	r := Request{}
	var err error
	if source == SourceDiscover {
		r.Discover, err = query.ParseDiscover(rest)
	} else {
		r.Contacts, err = query.ParseContactQuery(rest)
	}
	if len(errs) > 0 {
		qe, _ := err.(*query.Error)
		if qe == nil {
			qe = &query.Error{Status: http.StatusUnprocessableEntity}
		}
		qe.Params = append(errs, qe.Params...)
		slices.SortStableFunc(qe.Params, func(a, b query.ParamError) int { return strings.Compare(a.Param, b.Param) })
		return Request{}, qe
	}
	if err != nil {
		return Request{}, err
	}
	in.Params = rest
	r.Input = in
	return r, nil
}

// ContentType is the media type of a format's file.
func ContentType(format string) string {
	switch format {
	case FormatJSONL:
		return "application/x-ndjson"
	case FormatXLSX:
		return "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
	}
	return "text/csv; charset=utf-8"
}
