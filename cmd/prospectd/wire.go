package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/elastic"
	"github.com/openprospect/prospectd/index/embedded"
	"github.com/openprospect/prospectd/integrations"
	"github.com/openprospect/prospectd/namematch"
	"github.com/openprospect/prospectd/prospecting"
	"github.com/openprospect/prospectd/query"
	"github.com/openprospect/prospectd/research"
	"github.com/openprospect/prospectd/store"
	"github.com/openprospect/prospectd/store/postgres"
	"github.com/openprospect/prospectd/store/sqlite"
)

// vectorDim is the embedding dimension new indexes are created with.
const vectorDim = 256

// backendFlags are the flags every command that touches data shares.
type backendFlags struct {
	dataDir, engine, esURL, esPrefix, stateURL, logFormat *string
}

func addBackendFlags(fs *flagSet) backendFlags {
	return backendFlags{
		dataDir:   fs.String("data-dir", "PROSPECT_DATA_DIR", "./data", "directory for the embedded index and the SQLite state"),
		engine:    fs.String("engine", "PROSPECT_ENGINE", "embedded", "search engine: embedded or elasticsearch"),
		esURL:     fs.String("elasticsearch-url", "ELASTICSEARCH_URL", "http://127.0.0.1:9200", "Elasticsearch URL (engine elasticsearch)"),
		esPrefix:  fs.String("elasticsearch-prefix", "PROSPECT_ES_PREFIX", "prospect", "prefix of the Elasticsearch index names"),
		stateURL:  fs.String("state-url", "PROSPECT_STATE_URL", "", "state store: empty for SQLite in the data dir, sqlite:PATH, or a PostgreSQL URL (postgres://USER:PASS@HOST:5432/DB?sslmode=disable; postgresql:// too)"),
		logFormat: fs.String("log-format", "PROSPECT_LOG_FORMAT", "console", "log format: console or json"),
	}
}

// openEngine opens the configured engine. opts tell the embedded engine
// what a command does with it: a loading command (ingest, demo) trades
// per-batch fsync for throughput (BulkLoad) and, when it only writes
// companies and reads profiles back, skips the in-memory index (LoadOnly).
func (b backendFlags) openEngine(ctx context.Context, opts embedded.Options) (index.Engine, error) {
	switch *b.engine {
	case "embedded":
		dir := filepath.Join(*b.dataDir, "index")
		e, err := embedded.Open(dir, opts)
		if errors.Is(err, index.ErrLocked) {
			return nil, fmt.Errorf("the embedded index in %s is in use by another process (a running `prospectd serve`?); "+
				"stop it first: the embedded index has one writer at a time", dir)
		}
		return e, err
	case "elasticsearch":
		return elastic.New(ctx, elastic.Config{URL: *b.esURL, IndexPrefix: *b.esPrefix, Dimension: vectorDim})
	default:
		return nil, fmt.Errorf("--engine: %q is not one of embedded, elasticsearch", *b.engine)
	}
}

func (b backendFlags) openStore(ctx context.Context) (store.Store, error) {
	u := *b.stateURL
	switch {
	case u == "":
		return sqlite.Open(ctx, filepath.Join(*b.dataDir, "state.db"))
	case strings.HasPrefix(u, "sqlite:"):
		return sqlite.Open(ctx, strings.TrimPrefix(strings.TrimPrefix(u, "sqlite:"), "//"))
	case strings.HasPrefix(u, "postgres://"), strings.HasPrefix(u, "postgresql://"):
		return postgres.Open(ctx, u)
	default:
		return nil, fmt.Errorf("--state-url: %q is not empty, sqlite:PATH or a postgres:// URL", u)
	}
}

// prospectingService builds the managed prospecting runs on the other
// services; nil when the store keeps no runs. Its Tasks is set by jobs.New
// and its Email once the email runner exists.
func prospectingService(st store.Store, eng index.Engine, plans account.Plans, names *namematch.Service, integ *integrations.Service,
	pipeline *research.Pipeline, log zerolog.Logger) *prospecting.Service {
	pst, ok := st.(prospecting.State)
	if !ok {
		return nil
	}
	companies := &query.Companies{Engine: eng}
	return &prospecting.Service{State: pst, Biller: &account.Biller{Store: st, Plans: plans}, Plans: plans, Engine: eng, Companies: companies,
		Contacts: &query.ContactService{Engine: eng, Companies: companies}, Names: names, Integrations: integ, Research: pipeline, Log: log}
}
