package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/embedded"
	"github.com/openprospect/prospectd/index/embedding"
	"github.com/openprospect/prospectd/index/refit"
	"github.com/openprospect/prospectd/store"
)

// operatorOrg is the organization the server's own tasks (automatic
// refits) are filed under: tasks belong to an organization, and this one
// has no plan, no users and no keys.
const operatorOrg = "prospectd-operator"

// refitCheckEvery is how often a running server checks the refit rule,
// whatever wrote to the index meanwhile.
const refitCheckEvery = 15 * time.Minute

func runRefit(ctx context.Context, args []string) error {
	fs := newFlagSet("refit")
	force := fs.Bool("force", "PROSPECT_REFIT_FORCE", false, "refit even when the rule says it is not due (a fitted model is fitted again on the current companies)")
	check := fs.Bool("check", "PROSPECT_REFIT_CHECK", false, "only print whether a refit is due, and why")
	b := addBackendFlags(fs)
	pf := addEmbedderFlags(fs)
	ff := addFitFlags(fs)
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	fit, err := ff.options()
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return fmt.Errorf("usage: prospectd refit [--force] [--check]")
	}
	log := newLogger(*b.logFormat)
	emb, err := pf.embedder(ctx, log)
	if err != nil {
		return err
	}
	eng, err := b.openEngine(ctx, embedded.Options{})
	if err != nil {
		return err
	}
	defer eng.Close()
	svc, ok := newRefitService(eng, log, fit)
	if !ok {
		return fmt.Errorf("the %s engine cannot refit: %w", eng.Name(), index.ErrUnsupported)
	}
	svc.Embedder = emb
	if *check {
		meta, err := eng.Meta(ctx)
		if err != nil {
			return fmt.Errorf("read index metadata: %w", err)
		}
		n, err := eng.CountCompanies(ctx, nil)
		if err != nil {
			return err
		}
		due, why := refit.Due(meta, n)
		fmt.Printf("embedder %s, %d companies: due %v (%s)\n", meta.EmbedderID, n, due, why)
		return nil
	}
	return refitNow(ctx, svc, *force)
}

// refitNow runs a refit in the foreground with a progress bar.
func refitNow(ctx context.Context, svc *refit.Service, force bool) error {
	p := newProgress("refit", 100)
	out, err := svc.Run(ctx, refit.Input{Force: force}, p.percent)
	p.finish()
	if err != nil {
		return err
	}
	if !out.Refitted {
		fmt.Printf("no refit: %s\n", out.Reason)
		return nil
	}
	fmt.Printf("refitted %s → %s: %d companies, %d contacts re-embedded (%d written meanwhile) in %.1fs\n",
		out.From, out.To, out.Companies, out.Contacts, out.Concurrent, out.Seconds)
	return nil
}

// percent reports a task's progress in percent.
func (p *progress) percent(pct int) {
	if p.bar != nil {
		_ = p.bar.Set(pct)
		return
	}
	if time.Since(p.last) < 3*time.Second {
		return
	}
	p.last = time.Now()
	fmt.Fprintf(os.Stderr, "%s: %d%% (%s)\n", p.label, pct, time.Since(p.start).Round(time.Second))
}

// newRefitService returns the refit service of an engine that can refit
// (fit: the options of its fits of the built-in model).
func newRefitService(eng index.Engine, log zerolog.Logger, fit embedding.Options) (*refit.Service, bool) {
	re, ok := eng.(refit.Engine)
	if !ok {
		return nil, false
	}
	return &refit.Service{Engine: re, Log: log, FitOptions: fit}, true
}

// refitAfterIngest runs the refit rule after a company load: the loading
// command owns the index, so a due refit runs at once, on an engine
// opened for serving (a load-only engine has no in-memory index to swap).
func refitAfterIngest(ctx context.Context, b backendFlags, log zerolog.Logger, fit embedding.Options) error {
	eng, err := b.openEngine(ctx, embedded.Options{})
	if err != nil {
		return err
	}
	defer eng.Close()
	svc, ok := newRefitService(eng, log, fit)
	if !ok {
		return nil
	}
	meta, err := eng.Meta(ctx)
	if errors.Is(err, index.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	n, err := eng.CountCompanies(ctx, nil)
	if err != nil {
		return err
	}
	if due, why := refit.Due(meta, n); due {
		fmt.Printf("refit due: %s\n", why)
		return refitNow(ctx, svc, false)
	}
	return nil
}

// startRefitChecks wires the refit task of a server: the rule is checked
// at start and every refitCheckEvery, and a due refit is queued as a task
// (it runs on a worker while the server answers).
func startRefitChecks(ctx context.Context, svc *refit.Service, st store.Orgs, submit func(ctx context.Context, orgID, kind string, input any) (store.Task, error), log zerolog.Logger) error {
	o, err := st.OrgByName(ctx, operatorOrg)
	if errors.Is(err, store.ErrNotFound) {
		o, err = st.CreateOrg(ctx, operatorOrg, store.PlanNone)
	}
	if err != nil {
		return fmt.Errorf("operator organization: %w", err)
	}
	svc.OrgID, svc.Submit = o.ID, submit
	go func() {
		t := time.NewTicker(refitCheckEvery)
		defer t.Stop()
		for {
			if queued, err := svc.AfterLoad(ctx); err != nil {
				log.Warn().Err(err).Msg("refit check")
			} else if queued {
				log.Info().Msg("refit due: queued a refit task")
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return nil
}

// embedderFlags choose an external embedding provider: any
// OpenAI-compatible /embeddings endpoint. The key is read from the
// environment only (embedding.RemoteKeyEnv).
type embedderFlags struct {
	url, model         *string
	dim, batch         *int
	allowPrivate, dims *bool
}

func addEmbedderFlags(fs *flagSet) embedderFlags {
	return embedderFlags{
		url: fs.String("embeddings-url", "PROSPECT_EMBEDDINGS_URL", "",
			"base URL of an OpenAI-compatible embeddings API (the client posts to URL/embeddings), e.g. http://10.0.0.5:8080/v1; empty uses the built-in embedder. "+
				"The key is read from "+embedding.RemoteKeyEnv+" only"),
		model: fs.String("embeddings-model", "PROSPECT_EMBEDDINGS_MODEL", "", "embedding model name sent to --embeddings-url"),
		dim:   fs.Int("embeddings-dim", "PROSPECT_EMBEDDINGS_DIM", 0, "vector length of --embeddings-model; 0 asks the provider once"),
		dims: fs.Bool("embeddings-send-dim", "PROSPECT_EMBEDDINGS_SEND_DIM", false,
			"send --embeddings-dim as the request's \"dimensions\" (models that shorten their vectors; many self-hosted servers refuse it)"),
		batch: fs.Int("embeddings-batch", "PROSPECT_EMBEDDINGS_BATCH", 64, "texts per embeddings request"),
		allowPrivate: fs.Bool("embeddings-allow-private", "PROSPECT_EMBEDDINGS_ALLOW_PRIVATE", false,
			"let --embeddings-url reach loopback and private addresses (a self-hosted embedding server on the operator's network); off by default"),
	}
}

// embedder returns the configured provider, nil without --embeddings-url.
func (f embedderFlags) embedder(ctx context.Context, log zerolog.Logger) (embedding.Embedder, error) {
	if *f.url == "" {
		if *f.model != "" {
			return nil, fmt.Errorf("--embeddings-model: needs --embeddings-url")
		}
		return nil, nil
	}
	if *f.model == "" {
		return nil, fmt.Errorf("--embeddings-model: required with --embeddings-url")
	}
	key := os.Getenv(embedding.RemoteKeyEnv)
	r, err := embedding.NewRemote(ctx, embedding.RemoteConfig{BaseURL: *f.url, Model: *f.model, Dim: *f.dim, SendDimensions: *f.dims,
		BatchSize: *f.batch, AllowPrivate: *f.allowPrivate, APIKey: key})
	if err != nil {
		return nil, fmt.Errorf("--embeddings-url: %w", err)
	}
	cfg := r.Config()
	log.Info().Str("url", cfg.BaseURL).Str("model", cfg.Model).Int("dim", cfg.Dim).Bool("key_set", key != "").
		Bool("allow_private", cfg.AllowPrivate).Str("embedder", r.ID()).Msg("external embedding provider")
	return r, nil
}

// useProvider makes a new index start with the configured provider (its
// first load embeds through it); an index with another embedder is
// switched by a refit task (serve) or `prospectd refit`, and an engine
// that cannot refit refuses the mismatch.
func useProvider(ctx context.Context, eng index.Engine, emb embedding.Embedder) error {
	if emb == nil {
		return nil
	}
	meta, err := eng.Meta(ctx)
	switch {
	case errors.Is(err, index.ErrNotFound):
		m := index.Meta{EmbedderID: emb.ID(), Dimension: emb.Dim()}
		if bm, ok := emb.(interface{ MarshalBinary() ([]byte, error) }); ok {
			if m.Model, err = bm.MarshalBinary(); err != nil {
				return err
			}
		}
		if err := eng.SetMeta(ctx, m); err != nil {
			return fmt.Errorf("store the embedding provider with the new index: %w", err)
		}
		return nil
	case err != nil:
		return fmt.Errorf("read index metadata: %w", err)
	case meta.EmbedderID == emb.ID():
		return nil
	}
	if eng.Name() == "elasticsearch" && emb.Dim() != meta.Dimension {
		return fmt.Errorf("the index holds %d-dim vectors and %s makes %d: the Elasticsearch engine refits only within one dimension (use a new --elasticsearch-prefix and re-ingest): %w",
			meta.Dimension, emb.ID(), emb.Dim(), index.ErrUnsupported)
	}
	if _, ok := eng.(refit.Engine); !ok {
		return fmt.Errorf("the index was built with embedder %s; the %s engine cannot switch it to %s: %w", meta.EmbedderID, eng.Name(), emb.ID(), index.ErrUnsupported)
	}
	return nil
}
