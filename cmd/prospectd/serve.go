package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/api"
	"github.com/openprospect/prospectd/export"
	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/embedded"
	"github.com/openprospect/prospectd/index/embedding"
	"github.com/openprospect/prospectd/ingest/crawl"
	"github.com/openprospect/prospectd/internal/privatefs"
	"github.com/openprospect/prospectd/internal/toolwire"
	"github.com/openprospect/prospectd/jobs"
	"github.com/openprospect/prospectd/namematch"
	"github.com/openprospect/prospectd/prospecting"
	"github.com/openprospect/prospectd/research"
	"github.com/openprospect/prospectd/saved"
	"github.com/openprospect/prospectd/store"
	"github.com/openprospect/prospectd/web"
)

func runServe(ctx context.Context, args []string) error {
	started := time.Now()
	fs := newFlagSet("serve")
	addr := fs.String("addr", "PROSPECT_ADDR", "127.0.0.1:8080", "listen address")
	demoN := fs.Int("demo", "PROSPECT_DEMO", 0, "when the index is empty, build a demo corpus of N companies first and print a demo API key")
	seed := fs.Int("seed", "PROSPECT_DEMO_SEED", 1, "demo corpus seed")
	plansFile := fs.String("plans", "PROSPECT_PLANS", "", "JSON file overriding the plans' price_per_1k_usd, credits_per_period and rate_multiplier")
	smtpURL := fs.String("smtp-url", "PROSPECT_SMTP_URL", "", "SMTP relay for signup confirmations: smtp://user:pass@host:587 or smtps://...; empty refuses signups (503)")
	mailFrom := fs.String("mail-from", "PROSPECT_MAIL_FROM", "", "sender address of signup emails")
	publicURL := fs.String("public-url", "PROSPECT_PUBLIC_URL", "", "external base URL for links in emails (default http://ADDR)")
	taskLease := fs.Duration("task-lease", "PROSPECT_TASK_LEASE", 30*time.Second, "how long a task waits for a stopped or killed server before another worker takes it over")
	runBatch := fs.Int("prospecting-batch", "PROSPECT_PROSPECTING_BATCH", 25, "companies a prospecting run checks or researches per persisted step")
	webhookPrivate := fs.Bool("webhook-allow-private", "PROSPECT_WEBHOOK_ALLOW_PRIVATE", false,
		"let monitor and run webhooks reach loopback and private addresses (single-tenant setups, tests); off by default")
	ann := fs.Bool("ann", "PROSPECT_ANN", true, "build and use the IVF index for broad vector queries of the embedded engine (false: the sketch screen over every candidate)")
	renumber := fs.Bool("renumber", "PROSPECT_RENUMBER", true, "at shutdown, renumber the embedded engine's companies into the IVF index's list order when they stray from it (about a minute at 10M companies; false for hosts that stop the process sooner)")
	upgradeContacts := fs.Bool("upgrade-contacts", "PROSPECT_UPGRADE_CONTACTS", true, "after the contact index load, rewrite once, in the background, the embedded engine's contact entries written by versions before the resident email-pattern votes (about 4 minutes of two cores and one more copy of the entries on disk at 15M contacts; false keeps the profile reads instead)")
	runWaves := fs.String("prospecting-waves", "PROSPECT_PROSPECTING_WAVES", "", "wave runs' rollout: organizations whose leads runs are planned as wave runs (all, or comma-separated organization ids; empty: none)")
	b := addBackendFlags(fs)
	ef := addEmailFlags(fs)
	rf := addResearchFlags(fs)
	ts := addToolServerFlags(fs)
	rfl := addRefreshFlags(fs)
	cf := addCrawlFlags(fs)
	crf := addCRMFlags(fs)
	pf := addEmbedderFlags(fs)
	ff := addFitFlags(fs)
	if _, err := fs.parse(args); err != nil {
		return err
	}
	fit, err := ff.options()
	if err != nil {
		return err
	}
	emailCfg, err := ef.config()
	if err != nil {
		return err
	}
	log := newLogger(*b.logFormat)
	plans, err := account.LoadPlans(*plansFile)
	if err != nil {
		return fmt.Errorf("--plans: %w", err)
	}
	var mailer account.Mailer
	if *smtpURL != "" {
		if *mailFrom == "" {
			return fmt.Errorf("--mail-from: required with --smtp-url")
		}
		mailer = &account.SMTPMailer{URL: *smtpURL, From: *mailFrom}
	}
	if *publicURL == "" {
		*publicURL = "http://" + *addr
	}

	st, err := b.openStore(ctx)
	if err != nil {
		return fmt.Errorf("open state store: %w", err)
	}
	defer st.Close()
	eng, err := b.openEngine(ctx, embedded.Options{ANN: *ann, NoRenumber: !*renumber})
	if err != nil {
		return fmt.Errorf("open search engine: %w", err)
	}
	defer eng.Close()

	provider, err := pf.embedder(ctx, log)
	if err != nil {
		return err
	}
	if err := useProvider(ctx, eng, provider); err != nil {
		return err
	}
	if *demoN > 0 {
		empty, err := indexIsEmpty(ctx, eng)
		if err != nil {
			return err
		}
		if empty {
			log.Info().Int("companies", *demoN).Msg("empty index: building the demo corpus")
			s, took, err := loadDemo(ctx, eng, *demoN, int64(*seed), fit)
			if err != nil {
				return err
			}
			log.Info().Int("indexed", s.Indexed).Dur("took", took).Msg("demo corpus loaded")
			cs, took, err := loadDemoContacts(ctx, eng, *demoN, int64(*seed), 0)
			if err != nil {
				return err
			}
			log.Info().Int("indexed", cs.Indexed).Dur("took", took).Msg("demo contacts loaded")
		}
	}
	// Refuse to serve vectors made by another embedder than this binary's.
	if _, err := embedding.Open(ctx, eng); err != nil && !errors.Is(err, index.ErrNotFound) {
		return err
	}

	base := "http://" + *addr + "/v1"
	if *demoN > 0 {
		key, err := demoKey(ctx, st, *b.dataDir)
		if err != nil {
			return err
		}
		example := "example.com"
		if res, err := eng.SearchCompanies(ctx, index.Search{Limit: 1}); err == nil && len(res.Hits) > 0 {
			example = res.Hits[0].Company.Domain
		}
		fmt.Printf("\nDemo API key: %s\nBase URL:     %s\nTry:          curl -H \"X-API-Key: %s\" \"%s/bizdata?domain=%s\"\n\n", key, base, key, base, example)
	}

	// The name index is shared: the server builds it in the background at
	// start-up, company bulk match tasks read it.
	names := &namematch.Service{Engine: eng}
	researchCfg, err := rf.config(*b.dataDir)
	if err != nil {
		return fmt.Errorf("integration secrets: %w", err)
	}
	integrationSvc, pipeline := research.New(researchCfg, st, eng, log)
	hooks := webhookSender(researchCfg.Secrets, *webhookPrivate, log)
	if err := sealWebhookSecrets(ctx, st, researchCfg.Secrets, log); err != nil {
		return err
	}
	jc := jobs.Config{State: st, Engine: eng, Names: names, Plans: plans, Log: log, Workers: 2, Lease: *taskLease, Research: pipeline}
	exports := &export.Files{Dir: filepath.Join(*b.dataDir, "exports"), Log: log}
	jc.Exports = exports
	if ss, ok := st.(saved.Store); ok {
		jc.Saved = saved.NewService(ss)
	}
	go exports.CleanLoop(ctx, time.Hour)
	refreshSvc, err := rfl.service(st, eng, *b.dataDir, cf.options(log), log)
	if err != nil {
		return err
	}
	jc.Refresh = refreshSvc
	jc.Crawl = &crawl.Task{Index: eng, Options: cf.options(log)}
	crmSvc, err := crf.service(st, researchCfg.Secrets, *publicURL, log)
	if err != nil {
		return err
	}
	jc.CRM = crmSvc
	refits, canRefit := newRefitService(eng, log, fit)
	if canRefit {
		refits.Embedder = provider
		jc.Refit = refits
	}
	runs := prospectingService(st, eng, plans, names, integrationSvc, pipeline, log)
	jc.Prospecting = runs
	tasks := jobs.New(jc)
	if canRefit {
		if err := startRefitChecks(ctx, refits, st, tasks.Submit, log); err != nil {
			return err
		}
	}
	emailTasks, emails, err := jobs.NewEmail(jc, st, emailCfg)
	if err != nil {
		return err
	}
	if runs != nil {
		runs.Email, runs.BatchSize = emails, *runBatch
		runs.Waves = prospecting.ParseWaveRollout(*runWaves)
		runs.Webhooks = &prospecting.Webhooks{AllowPrivate: *webhookPrivate, Sender: hooks}
	}
	srv := api.New(api.Deps{Engine: eng, Store: st, Tasks: tasks, Names: names, Email: emails, EmailTasks: emailTasks,
		Integrations: integrationSvc, Research: pipeline, Exports: exports, Refresh: refreshSvc, CRM: crmSvc, Log: log, Plans: plans, Mailer: mailer, PublicURL: *publicURL, WebApp: web.ConfirmPath,
		Prospecting: runs, Webhooks: hooks, WebhookPrivateHosts: *webhookPrivate})
	tcfg, err := ts.config(toolwire.Config{PublicURL: *publicURL, State: st, Engine: eng, Tasks: tasks, Plans: plans, Email: emails,
		Research: pipeline, Integrations: integrationSvc, Names: names, CRM: crmSvc, Prospecting: runs, Log: log}, *b.dataDir)
	if err != nil {
		return err
	}
	parts, err := toolwire.Mount(srv, tcfg)
	if err != nil {
		return fmt.Errorf("tool server: %w", err)
	}
	go parts.OAuth.PurgeLoop(ctx, time.Hour)
	refreshSvc.Schedule(ctx)
	n, _ := eng.CountCompanies(ctx, nil)
	if n == 0 {
		log.Warn().Msg("the index is empty: load companies with `prospectd ingest companies FILE`, or start with --demo N for a demo corpus and key")
	}
	ev := log.Info().Str("addr", *addr).Str("engine", eng.Name()).Int("companies", n).Str("base_url", base)
	if lim := debug.SetMemoryLimit(-1); lim != math.MaxInt64 {
		ev = ev.Int64("memory_limit", lim)
	}
	ev.Dur("ready_in", time.Since(started)).Msg("serving")
	if cl, ok := eng.(interface{ LoadContacts() error }); ok {
		// The contact index loads in the background; a contact request
		// arriving first waits for it.
		go func() {
			t := time.Now()
			if err := cl.LoadContacts(); errors.Is(err, embedded.ErrClosed) {
				log.Info().Msg("contact index load stopped: shutting down")
				return
			} else if err != nil {
				log.Error().Err(err).Msg("load contact index")
				return
			}
			log.Info().Dur("took", time.Since(t)).Msg("contact index loaded")
			if *upgradeContacts {
				upgradeContactEntries(ctx, eng, log)
			}
		}()
	}
	return srv.Listen(ctx, *addr)
}

// contactUpgrader is the embedded engine's upgrade of contact entries
// written before the email-pattern votes were kept.
type contactUpgrader interface {
	PendingContactUpgrades() (int, error)
	UpgradeContactEntries(context.Context) (embedded.ContactUpgrade, error)
}

// upgradeContactEntries rewrites, after the contact index load, the
// entries an older version wrote, so email-pattern votes need no profile
// reads (a few minutes of background work at 15M contacts, once; a
// stopped upgrade continues at the next start).
func upgradeContactEntries(ctx context.Context, eng index.Engine, log zerolog.Logger) {
	u, ok := eng.(contactUpgrader)
	if !ok {
		return
	}
	pending, err := u.PendingContactUpgrades()
	if err != nil || pending == 0 {
		return // a load error was logged by the caller
	}
	log.Info().Int("contacts", pending).Msg("upgrading contact entries written by an older version (email-pattern votes)")
	t := time.Now()
	st, err := u.UpgradeContactEntries(ctx)
	ev := log.Info()
	switch {
	case errors.Is(err, embedded.ErrClosed) || ctx.Err() != nil:
		ev = ev.Str("stopped", "shutting down: the next start continues")
	case err != nil:
		ev = log.Error().Err(err)
	}
	ev.Int("upgraded", st.Upgraded).Int("current", st.Current).Int("gone", st.Gone).Int("stale", st.Stale).
		Dur("took", time.Since(t)).Msg("contact entries upgraded")
}

// demoKey returns the demo organization's key, creating it on first use.
// The plaintext is kept in the data dir (mode 0600) so every demo start can
// print it; keys made with `prospectd keys create` are never stored in clear.
func demoKey(ctx context.Context, st store.Accounts, dataDir string) (string, error) {
	path := filepath.Join(dataDir, "demo-api-key")
	if b, err := os.ReadFile(path); err == nil {
		key := strings.TrimSpace(string(b))
		if _, err := st.Authenticate(ctx, key); err == nil {
			return key, nil
		}
	}
	key, err := createKey(ctx, st, "demo", string(store.PlanTeam), "demo@demo.invalid", store.RoleAdmin)
	if err != nil {
		return "", fmt.Errorf("create demo key: %w", err)
	}
	if err := privatefs.MkdirAll(dataDir); err != nil {
		return "", err
	}
	if err := os.WriteFile(path, []byte(key+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("save demo key: %w", err)
	}
	return key, nil
}
