package crawl

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/openprospect/prospectd/ingest/refresh"
)

// KindName is the refresh source kind that crawls websites.
const KindName = "crawl"

// RefreshKind is the "crawl" source kind of scheduled refresh: each run
// crawls the sites of every indexed company, or of the domains listed one
// a line in the source's path, and writes what it finds into the records
// in place. A crawl source is incremental: a site that does not answer
// never closes its company.
type RefreshKind struct {
	// Index is where the crawl reads and writes records; nil where the
	// kind only validates configurations (prospectd refresh status).
	Index   Index
	Options Options
}

// Check accepts incremental sources with an optional domains file.
func (k RefreshKind) Check(sc refresh.SourceConfig) error {
	if sc.Mode != refresh.Incremental {
		return fmt.Errorf("source %s: mode: a crawl source must be %q (a site that does not answer never closes its company)", sc.Name, refresh.Incremental)
	}
	if sc.URL != "" || sc.Format != "" {
		return fmt.Errorf("source %s: url and format are not used by kind crawl (path may name a file of domains)", sc.Name)
	}
	return nil
}

// Fetch runs the crawl; the records it updated are the run's changes and
// its statistics the cursor (kept for the run history).
func (k RefreshKind) Fetch(ctx context.Context, sc refresh.SourceConfig, _ refresh.Env, _ []byte) (*refresh.Fetch, error) {
	if k.Index == nil {
		return nil, errors.New("crawl: this process has no index to crawl into")
	}
	var targets []string
	var err error
	if sc.Path != "" {
		targets, err = ReadDomains(sc.Path)
	} else {
		targets, err = IndexedDomains(ctx, k.Index)
	}
	if err != nil {
		return nil, err
	}
	st, err := Run(ctx, k.Options, targets, k.Index)
	if err != nil {
		return nil, err
	}
	cursor, err := json.Marshal(st)
	if err != nil {
		return nil, fmt.Errorf("crawl: encode stats: %w", err)
	}
	return &refresh.Fetch{Written: st.Crawled, Cursor: cursor}, nil
}

// ReadDomains reads one domain or URL per line, skipping blank lines and
// # comments.
func ReadDomains(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open domains file: %w", err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read domains file: %w", err)
	}
	return out, nil
}
