package export

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"
	"github.com/xuri/excelize/v2"

	"github.com/openprospect/prospectd/internal/privatefs"
	"github.com/openprospect/prospectd/record"
)

// ErrGone: the export's file is not (or no longer) on disk.
var ErrGone = errors.New("export file not found: it expired or was never written")

// Files keeps export files in one directory of the data dir.
type Files struct {
	Dir string
	// Retention is how long a file is kept after its last write
	// (DefaultRetention when 0).
	Retention time.Duration
	Now       func() time.Time
	Log       zerolog.Logger

	running sync.Map // task id -> *sync.Mutex: one run of a task at a time
}

func (f *Files) now() time.Time {
	if f.Now != nil {
		return f.Now()
	}
	return time.Now()
}

func (f *Files) retention() time.Duration {
	if f.Retention > 0 {
		return f.Retention
	}
	return DefaultRetention
}

func (f *Files) path(id, ext string) string { return filepath.Join(f.Dir, id+"."+ext) }

// Open opens a finished export's file for reading.
func (f *Files) Open(id, format string) (*os.File, int64, error) {
	if !safeID(id) {
		return nil, 0, ErrGone
	}
	file, err := os.Open(f.path(id, format))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, ErrGone
	}
	if err != nil {
		return nil, 0, fmt.Errorf("open export %s: %w", id, err)
	}
	st, err := file.Stat()
	if err != nil {
		file.Close()
		return nil, 0, fmt.Errorf("open export %s: %w", id, err)
	}
	return file, st.Size(), nil
}

// safeID keeps task ids from naming paths outside the directory.
func safeID(id string) bool {
	return id != "" && !strings.ContainsAny(id, `/\.`) && len(id) <= 100
}

// Clean removes the files not written for the retention period and
// reports how many it removed.
func (f *Files) Clean() (int, error) {
	entries, err := os.ReadDir(f.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("clean exports: %w", err)
	}
	cutoff := f.now().Add(-f.retention())
	n := 0
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || e.IsDir() || !info.ModTime().Before(cutoff) {
			continue
		}
		if err := os.Remove(filepath.Join(f.Dir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return n, fmt.Errorf("clean exports: %w", err)
		}
		n++
	}
	return n, nil
}

// CleanLoop runs Clean every interval until ctx is done.
func (f *Files) CleanLoop(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if n, err := f.Clean(); err != nil {
			f.Log.Error().Err(err).Msg("clean exports")
		} else if n > 0 {
			f.Log.Info().Int("files", n).Msg("expired exports removed")
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Checkpoint is what an export run has durably done: the file holds
// Bytes bytes for Records rows, the next page starts at Offset.
type Checkpoint struct {
	Offset     int   `json:"offset"`
	Records    int   `json:"records"`
	Bytes      int64 `json:"bytes"`
	Billed     int   `json:"billed"`
	Withheld   int   `json:"withheld"`
	Exhausted  bool  `json:"exhausted"`
	MaxReached bool  `json:"max_reached"`
	// EngineLimit: the engine refused the next page (too deep).
	EngineLimit bool `json:"engine_limit,omitempty"`
	// Scanned: every page is written; only the final file remains.
	Scanned bool `json:"scanned"`
}

// writer appends an export's rows to its spool file: the CSV itself for
// csv, JSON lines for jsonl and for xlsx (a workbook cannot be appended
// to, so it is written from the spool at the end).
type writer struct {
	f              *Files
	id, format     string
	columns        []string
	cp             Checkpoint
	spool          *os.File
	buf            *bufio.Writer
	csv            *csv.Writer
	headerPending  bool
	finalExists    bool
	cells          []string
	decoded        map[string]json.RawMessage
	checkpointPath string
	enc            bytes.Buffer
}

// lock waits until no other run of task id in this process holds its
// files: a run whose lease was taken over stops when the runner cancels
// it, and its successor must not write under it meanwhile.
func (f *Files) lock(ctx context.Context, id string) (unlock func(), err error) {
	v, _ := f.running.LoadOrStore(id, &sync.Mutex{})
	mu := v.(*sync.Mutex)
	for !mu.TryLock() {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	return mu.Unlock, nil
}

// open prepares the files of task id, continuing from its checkpoint.
func (f *Files) open(id, format, source string) (*writer, error) {
	if !safeID(id) {
		return nil, fmt.Errorf("export: task id %q cannot name a file", id)
	}
	if err := privatefs.MkdirAll(f.Dir); err != nil {
		return nil, err
	}
	if err := privatefs.Restrict(f.Dir); err != nil {
		return nil, err
	}
	w := &writer{f: f, id: id, format: format, checkpointPath: f.path(id, "checkpoint")}
	if source == SourceDiscover {
		w.columns = columnsOf(reflect.TypeFor[CompanyRow]())
	} else {
		w.columns = columnsOf(reflect.TypeFor[record.ContactOut]())
	}
	b, err := os.ReadFile(w.checkpointPath)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, fmt.Errorf("export checkpoint: %w", err)
	default:
		if err := json.Unmarshal(b, &w.cp); err != nil {
			return nil, fmt.Errorf("export checkpoint: %w", err)
		}
	}
	if _, err := os.Stat(f.path(id, format)); err == nil && w.cp.Scanned {
		w.finalExists = true
		return w, nil
	}
	w.spool, err = os.OpenFile(f.path(id, "part"), os.O_RDWR|os.O_CREATE, privatefs.FileMode)
	if err != nil {
		return nil, fmt.Errorf("export spool: %w", err)
	}
	// Rows written after the last checkpoint are dropped: their page is
	// read (and billed, for free) again.
	if err := w.spool.Truncate(w.cp.Bytes); err != nil {
		w.spool.Close()
		return nil, fmt.Errorf("export spool: %w", err)
	}
	if _, err := w.spool.Seek(w.cp.Bytes, io.SeekStart); err != nil {
		w.spool.Close()
		return nil, fmt.Errorf("export spool: %w", err)
	}
	w.buf = bufio.NewWriterSize(w.spool, 256<<10)
	if format == FormatCSV {
		w.csv = csv.NewWriter(w.buf)
		w.headerPending = w.cp.Bytes == 0
	}
	return w, nil
}

func (w *writer) close() {
	if w.spool != nil {
		w.spool.Close()
	}
}

// row appends one record. JSON is written without HTML escaping ("&",
// "<" stay as they are), as a file for people and spreadsheets wants it.
func (w *writer) row(v any) error {
	w.enc.Reset()
	e := json.NewEncoder(&w.enc)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		return fmt.Errorf("export row: %w", err)
	}
	b := w.enc.Bytes() // one line, newline included
	if w.csv == nil {
		_, err := w.buf.Write(b)
		return err
	}
	if w.headerPending {
		if err := w.csv.Write(w.columns); err != nil {
			return fmt.Errorf("export row: %w", err)
		}
		w.headerPending = false
	}
	cells, err := w.cellsOf(b)
	if err != nil {
		return err
	}
	return w.csv.Write(cells)
}

// cellsOf turns a row's JSON object into text cells in column order.
func (w *writer) cellsOf(b []byte) ([]string, error) {
	clear(w.decoded)
	if err := json.Unmarshal(b, &w.decoded); err != nil {
		return nil, fmt.Errorf("export row: %w", err)
	}
	w.cells = w.cells[:0]
	for _, c := range w.columns {
		w.cells = append(w.cells, CellText(w.decoded[c]))
	}
	return w.cells, nil
}

// CellText is how a JSON value is written in a CSV cell: strings as they
// are, null or absent as empty, numbers and booleans as their JSON text,
// lists and objects as compact JSON.
func CellText(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
	}
	return string(raw)
}

// sync makes the rows written so far durable and records the spool's
// length in cp (the caller writes the checkpoint next).
func (w *writer) sync(cp *Checkpoint) error {
	if w.csv != nil {
		if w.headerPending {
			if err := w.csv.Write(w.columns); err != nil {
				return fmt.Errorf("export: %w", err)
			}
			w.headerPending = false
		}
		w.csv.Flush()
		if err := w.csv.Error(); err != nil {
			return fmt.Errorf("export: %w", err)
		}
	}
	if err := w.buf.Flush(); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if err := w.spool.Sync(); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	n, err := w.spool.Seek(0, io.SeekCurrent)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	cp.Bytes = n
	return nil
}

// checkpoint replaces the checkpoint file atomically.
func (w *writer) checkpoint(cp Checkpoint) error {
	b, err := json.Marshal(cp)
	if err != nil {
		return fmt.Errorf("export checkpoint: %w", err)
	}
	tmp := w.checkpointPath + ".tmp"
	if err := writeSynced(tmp, func(f *os.File) error { _, err := f.Write(b); return err }); err != nil {
		return fmt.Errorf("export checkpoint: %w", err)
	}
	if err := os.Rename(tmp, w.checkpointPath); err != nil {
		return fmt.Errorf("export checkpoint: %w", err)
	}
	w.cp = cp
	return nil
}

// writeSynced creates path (0600), lets write fill it and syncs it.
func writeSynced(path string, write func(*os.File) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, privatefs.FileMode)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// finish turns the spool into the final file and returns its size.
func (w *writer) finish(ctx context.Context) (int64, error) {
	final := w.f.path(w.id, w.format)
	if !w.finalExists {
		part := w.f.path(w.id, "part")
		if w.format == FormatXLSX {
			tmp := w.f.path(w.id, "xlsx.tmp")
			if err := writeSynced(tmp, func(out *os.File) error { return w.workbook(ctx, out) }); err != nil {
				return 0, fmt.Errorf("export workbook: %w", err)
			}
			if err := os.Rename(tmp, final); err != nil {
				return 0, fmt.Errorf("export: %w", err)
			}
			os.Remove(part)
		} else if err := os.Rename(part, final); err != nil {
			return 0, fmt.Errorf("export: %w", err)
		}
	}
	st, err := os.Stat(final)
	if err != nil {
		return 0, fmt.Errorf("export: %w", err)
	}
	return st.Size(), nil
}

// maxCellChars is the most characters an XLSX cell holds.
const maxCellChars = 32767

// workbook writes the spooled JSON lines as one sheet with excelize's
// StreamWriter, which keeps only a buffer of rows in memory.
func (w *writer) workbook(ctx context.Context, out io.Writer) error {
	if _, err := w.spool.Seek(0, io.SeekStart); err != nil {
		return err
	}
	book := excelize.NewFile()
	defer book.Close()
	sheet := book.GetSheetName(0)
	sw, err := book.NewStreamWriter(sheet)
	if err != nil {
		return err
	}
	header := make([]any, len(w.columns))
	for i, c := range w.columns {
		header[i] = c
	}
	if err := sw.SetRow("A1", header); err != nil {
		return err
	}
	r := bufio.NewReaderSize(w.spool, 256<<10)
	cells := make([]any, len(w.columns))
	for n := 2; ; n++ {
		line, err := r.ReadBytes('\n')
		if len(line) == 0 && errors.Is(err, io.EOF) {
			break
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		if n%10_000 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		clear(w.decoded)
		if err := json.Unmarshal(line, &w.decoded); err != nil {
			return fmt.Errorf("spool line %d: %w", n-1, err)
		}
		for i, c := range w.columns {
			cells[i] = xlsxCell(w.decoded[c])
		}
		cell, err := excelize.CoordinatesToCellName(1, n)
		if err != nil {
			return err
		}
		if err := sw.SetRow(cell, cells); err != nil {
			return err
		}
	}
	if err := sw.Flush(); err != nil {
		return err
	}
	_, err = book.WriteTo(out)
	return err
}

// xlsxCell is a JSON value as a typed cell: numbers and booleans keep
// their type, the rest is CellText cut to what a cell holds.
func xlsxCell(raw json.RawMessage) any {
	if len(raw) > 0 && (raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9') {
		var f float64
		if json.Unmarshal(raw, &f) == nil {
			return f
		}
	}
	switch string(raw) {
	case "true":
		return true
	case "false":
		return false
	}
	s := CellText(raw)
	if len(s) > maxCellChars {
		if r := []rune(s); len(r) > maxCellChars {
			s = string(r[:maxCellChars])
		}
	}
	return s
}

// columnsOf lists the JSON names of a struct's fields, embedded structs'
// fields in place.
func columnsOf(t reflect.Type) []string {
	var out []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			out = append(out, columnsOf(f.Type)...)
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, name)
	}
	return out
}

// Columns lists a source's columns, in the order CSV and XLSX files have
// them.
func Columns(source string) []string {
	if source == SourceDiscover {
		return columnsOf(reflect.TypeFor[CompanyRow]())
	}
	return columnsOf(reflect.TypeFor[record.ContactOut]())
}
