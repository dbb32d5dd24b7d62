// Package refresh keeps the company index current from configured
// sources on cron schedules: a local file, a directory of JSON lines,
// CSV or Excel drops, or an http(s) URL fetched conditionally and resumed
// with Range requests. A run upserts the records that changed (unchanged
// ones are skipped), marks the companies that disappeared from a full
// snapshot as closed (never deletes them) and, through the engine's
// upsert, refreshes the contacts' copies of their employer's data.
//
// It lives under ingest/ because a refresh is a load: it reads with the
// ingest readers and writes through ingest.Loader. A run is a task (kind
// "refresh", body Service.Run, wired by jobs.New); one run of a source at
// a time across every process sharing the state store, by a lease row in
// the store (store.Refreshes). Source kinds are a Kind each (file,
// directory, url here; a website crawl can be added as one more Kind).
package refresh

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/robfig/cron/v3"
)

// Source modes.
const (
	// Snapshot: the source holds every company it knows; one missing from
	// a complete read is marked closed.
	Snapshot = "snapshot"
	// Incremental: the source holds changes only; nothing is closed.
	Incremental = "incremental"
)

// DefaultMaxCloseFraction is the largest share of a snapshot source's
// open companies one run may close before it refuses (a truncated export
// must not close the index).
const DefaultMaxCloseFraction = 0.5

// ErrConfig is wrapped by every configuration error.
var ErrConfig = errors.New("refresh configuration")

// Config is the refresh configuration file (JSON, like the --plans file).
type Config struct {
	// OperatorOrgs are the organizations whose admin keys may see and run
	// refreshes through the API; with none, the API refuses everyone.
	OperatorOrgs []string       `json:"operator_orgs"`
	Sources      []SourceConfig `json:"sources"`
}

// SourceConfig is one refresh source.
type SourceConfig struct {
	// Name identifies the source in the API and the CLI: 1-64 of
	// a-z, 0-9, '-', '_'.
	Name string `json:"name"`
	// Kind is "file", "directory" or "url" (and whatever further Kinds the
	// service was given).
	Kind string `json:"kind"`
	// Path is the file or directory (kinds file and directory).
	Path string `json:"path,omitempty"`
	// URL is the http(s) address (kind url).
	URL string `json:"url,omitempty"`
	// Format is the file type of a URL's body as an extension (jsonl,
	// csv, tsv, xlsx, jsonl.gz, ...); by default the URL path's.
	Format string `json:"format,omitempty"`
	// Schedule is a standard 5-field cron expression (or @hourly,
	// @daily...); empty runs the source only by hand.
	Schedule string `json:"schedule,omitempty"`
	// Mode is Snapshot or Incremental (required: it decides whether
	// missing companies are closed).
	Mode string `json:"mode"`
	// MaxCloseFraction overrides DefaultMaxCloseFraction (0 < f <= 1).
	MaxCloseFraction float64 `json:"max_close_fraction,omitempty"`
	// Options are a Kind's own settings, decoded by that Kind.
	Options json.RawMessage `json:"options,omitempty"`
}

var nameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,63}$`)

// LoadConfig reads and validates a configuration file; "" is no
// configuration (no sources).
func LoadConfig(path string, kinds Kinds) (Config, error) {
	if path == "" {
		return Config{}, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("%w: %v", ErrConfig, err)
	}
	return ParseConfig(b, kinds)
}

// ParseConfig decodes and validates a configuration (unknown fields are
// refused, so a misspelt setting is not silently ignored).
func ParseConfig(b []byte, kinds Kinds) (Config, error) {
	var c Config
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return c, fmt.Errorf("%w: %v", ErrConfig, err)
	}
	seen := map[string]bool{}
	for i := range c.Sources {
		s := &c.Sources[i]
		where := fmt.Sprintf("sources[%d]", i)
		if !nameRE.MatchString(s.Name) {
			return c, fmt.Errorf("%w: %s.name: %q must be 1-64 of a-z, 0-9, '-', '_' starting with a letter or digit", ErrConfig, where, s.Name)
		}
		where = fmt.Sprintf("source %q", s.Name)
		if seen[s.Name] {
			return c, fmt.Errorf("%w: %s: the name is used twice", ErrConfig, where)
		}
		seen[s.Name] = true
		if _, ok := kinds[s.Kind]; !ok {
			return c, fmt.Errorf("%w: %s: kind %q: want one of %s", ErrConfig, where, s.Kind, strings.Join(kinds.names(), ", "))
		}
		switch s.Mode {
		case Snapshot, Incremental:
		default:
			return c, fmt.Errorf("%w: %s: mode %q: want %q (the source lists every company; missing ones are closed) or %q (changes only)",
				ErrConfig, where, s.Mode, Snapshot, Incremental)
		}
		if s.Schedule != "" {
			if _, err := cron.ParseStandard(s.Schedule); err != nil {
				return c, fmt.Errorf("%w: %s: schedule %q is not a cron expression (5 fields, or @hourly, @daily): %v", ErrConfig, where, s.Schedule, err)
			}
		}
		if s.MaxCloseFraction < 0 || s.MaxCloseFraction > 1 {
			return c, fmt.Errorf("%w: %s: max_close_fraction %v: want more than 0 and at most 1", ErrConfig, where, s.MaxCloseFraction)
		}
		if s.MaxCloseFraction == 0 {
			s.MaxCloseFraction = DefaultMaxCloseFraction
		}
		if err := kinds[s.Kind].Check(*s); err != nil {
			return c, fmt.Errorf("%w: %s: %v", ErrConfig, where, err)
		}
	}
	return c, nil
}

// Source returns the source named name.
func (c Config) Source(name string) (SourceConfig, bool) {
	for _, s := range c.Sources {
		if s.Name == name {
			return s, true
		}
	}
	return SourceConfig{}, false
}
