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
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return fmt.Errorf("usage: prospectd refit [--force] [--check]")
	}
	log := newLogger(*b.logFormat)
	emb, err := pf.embedder(log)
	if err != nil {
		return err
	}
	eng, err := b.openEngine(ctx, embedded.Options{})
	if err != nil {
		return err
	}
	defer eng.Close()
	svc, ok := newRefitService(eng, log)
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

// newRefitService returns the refit service of an engine that can refit.
func newRefitService(eng index.Engine, log zerolog.Logger) (*refit.Service, bool) {
	re, ok := eng.(refit.Engine)
	if !ok {
		return nil, false
	}
	return &refit.Service{Engine: re, Log: log}, true
}

// refitAfterIngest runs the refit rule after a company load: the loading
// command owns the index, so a due refit runs at once, on an engine
// opened for serving (a load-only engine has no in-memory index to swap).
func refitAfterIngest(ctx context.Context, b backendFlags, log zerolog.Logger) error {
	eng, err := b.openEngine(ctx, embedded.Options{})
	if err != nil {
		return err
	}
	defer eng.Close()
	svc, ok := newRefitService(eng, log)
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
