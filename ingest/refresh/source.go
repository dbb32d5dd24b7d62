package refresh

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/ingest"
)

// Kind is a kind of source: it checks a source's configuration and opens
// it for a run. A new kind (a website crawl, say) is a Kind added to the
// Kinds the service is built with.
type Kind interface {
	// Check validates the kind's fields of a source's configuration.
	Check(sc SourceConfig) error
	// Fetch returns what changed in the source since the cursor the last
	// completed run left (nil at first). A Fetch with Unchanged set has
	// nothing to load.
	Fetch(ctx context.Context, sc SourceConfig, env Env, cursor []byte) (*Fetch, error)
}

// Env is what a Kind may use besides its configuration.
type Env struct {
	// DataDir holds the kinds' working files (partial downloads).
	DataDir string
	// Index reads the current index (a crawl kind lists domains from it).
	Index index.Reader
}

// Fetch is the records of one run: parts loaded in order (the files of a
// directory; one for a file or a URL).
type Fetch struct {
	Parts []Part
	// Cursor is saved once the run completes; the next run gets it back.
	Cursor []byte
	// Unchanged reports that nothing changed since the cursor (an HTTP
	// 304, the same files): the run loads nothing and closes nothing.
	Unchanged bool
	// Written counts the records the kind updated in place itself (a
	// website crawl writes each record as its site answers): the run
	// reports them as changed, and loads only Parts.
	Written int
	// Done is called once the run completed (removing a download), may be nil.
	Done func()
}

// Part is one file (or stream) of records.
type Part struct {
	Name string
	Open func() (ingest.Source, error)
}

// Kinds maps a source kind's name to its implementation.
type Kinds map[string]Kind

// DefaultKinds returns the built-in kinds: file, directory and url.
func DefaultKinds() Kinds {
	return Kinds{"file": fileKind{}, "directory": dirKind{}, "url": urlKind{}}
}

func (k Kinds) names() []string {
	out := make([]string, 0, len(k))
	for n := range k {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// fingerprint identifies a file's content cheaply: a drop rewritten in
// place changes its size or modification time.
type fingerprint struct {
	Size    int64 `json:"size"`
	ModNano int64 `json:"mod_ns"`
}

func fingerprintOf(fi os.FileInfo) fingerprint {
	return fingerprint{Size: fi.Size(), ModNano: fi.ModTime().UnixNano()}
}

func openPart(path string) Part {
	return Part{Name: filepath.Base(path), Open: func() (ingest.Source, error) { return ingest.Open(path) }}
}

// fileKind is one local file, loaded again whenever its size or
// modification time changes.
type fileKind struct{}

func (fileKind) Check(sc SourceConfig) error {
	if sc.Path == "" {
		return errors.New("path: required for kind file")
	}
	if sc.URL != "" {
		return errors.New("url: not used by kind file (use kind url)")
	}
	return nil
}

func (fileKind) Fetch(_ context.Context, sc SourceConfig, _ Env, cursor []byte) (*Fetch, error) {
	fi, err := os.Stat(sc.Path)
	if err != nil {
		return nil, fmt.Errorf("source file: %w", err)
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("source file %s is a directory (use kind directory)", sc.Path)
	}
	fp := fingerprintOf(fi)
	cur, _ := json.Marshal(fp)
	var prev fingerprint
	if cursor != nil && json.Unmarshal(cursor, &prev) == nil && prev == fp {
		return &Fetch{Cursor: cur, Unchanged: true}, nil
	}
	return &Fetch{Parts: []Part{openPart(sc.Path)}, Cursor: cur}, nil
}

// dirKind is a directory of drops (.jsonl, .ndjson, .csv, .tsv, .xlsx,
// optionally .gz), read in name order. A snapshot directory is read whole
// when any file changed (together the files are the snapshot); an
// incremental one reads only the files new or changed since the last
// completed run. Files are never moved or deleted: they are the
// operator's.
type dirKind struct{}

func (dirKind) Check(sc SourceConfig) error {
	if sc.Path == "" {
		return errors.New("path: required for kind directory")
	}
	if sc.URL != "" {
		return errors.New("url: not used by kind directory (use kind url)")
	}
	return nil
}

var dropExts = []string{".jsonl", ".ndjson", ".json", ".csv", ".tsv", ".txt", ".xlsx"}

// isDrop reports whether a file name is one the loader reads; hidden and
// partial files (".x", "x.part", "x.tmp") are left alone, so a drop being
// copied in is not read half-written.
func isDrop(name string) bool {
	if strings.HasPrefix(name, ".") {
		return false
	}
	ext := strings.ToLower(filepath.Ext(name))
	if ext == ".gz" {
		ext = strings.ToLower(filepath.Ext(strings.TrimSuffix(name, filepath.Ext(name))))
		if ext == ".xlsx" {
			return false
		}
	}
	return slices.Contains(dropExts, ext)
}

func (dirKind) Fetch(_ context.Context, sc SourceConfig, _ Env, cursor []byte) (*Fetch, error) {
	ents, err := os.ReadDir(sc.Path)
	if err != nil {
		return nil, fmt.Errorf("source directory: %w", err)
	}
	files := map[string]fingerprint{}
	var names []string
	for _, e := range ents {
		if !e.Type().IsRegular() || !isDrop(e.Name()) {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			return nil, fmt.Errorf("source directory: %w", err)
		}
		files[e.Name()] = fingerprintOf(fi)
		names = append(names, e.Name())
	}
	sort.Strings(names)
	var prev map[string]fingerprint
	if cursor != nil {
		_ = json.Unmarshal(cursor, &prev) // an unreadable cursor reads everything
	}
	cur, err := json.Marshal(files)
	if err != nil {
		return nil, err
	}
	var changed []string
	for _, n := range names {
		if p, ok := prev[n]; !ok || p != files[n] {
			changed = append(changed, n)
		}
	}
	removed := false
	for n := range prev {
		if _, ok := files[n]; !ok {
			removed = true
		}
	}
	f := &Fetch{Cursor: cur}
	switch {
	case sc.Mode == Snapshot && (len(changed) > 0 || removed):
		if len(names) == 0 {
			return nil, fmt.Errorf("source directory %s holds no drop files: refusing to treat an empty snapshot as every company closed", sc.Path)
		}
		changed = names
	case len(changed) == 0:
		f.Unchanged = true
	}
	for _, n := range changed {
		f.Parts = append(f.Parts, openPart(filepath.Join(sc.Path, n)))
	}
	return f, nil
}
