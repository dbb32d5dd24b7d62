package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/ingest/crawl"
	"github.com/openprospect/prospectd/ingest/refresh"
	"github.com/openprospect/prospectd/store"
)

// refreshFlags are the scheduled refresh settings of serve and refresh.
type refreshFlags struct {
	config  *string
	workers *int
}

func addRefreshFlags(fs *flagSet) refreshFlags {
	return refreshFlags{
		config: fs.String("refresh-config", "PROSPECT_REFRESH_CONFIG", "", "JSON file of scheduled refresh sources (file, directory or URL with a cron schedule; see docs/refresh.md); empty: none"),
		workers: fs.Int("refresh-workers", "PROSPECT_REFRESH_WORKERS", 1,
			"goroutines a refresh normalizes and embeds with (a refresh shares the machine with the API)"),
	}
}

// service builds the refresh service; eng may be nil for the commands
// that only submit and report runs.
func (f refreshFlags) service(st store.Store, eng index.Engine, dataDir string, crawlOpts crawl.Options, log zerolog.Logger) (*refresh.Service, error) {
	kinds := refresh.DefaultKinds()
	ck := crawl.RefreshKind{Options: crawlOpts}
	if eng != nil {
		ck.Index = eng
	}
	kinds[crawl.KindName] = ck
	cfg, err := refresh.LoadConfig(*f.config, kinds)
	if err != nil {
		return nil, fmt.Errorf("--refresh-config: %w", err)
	}
	svc := &refresh.Service{Config: cfg, Kinds: kinds, State: st, Env: refresh.Env{DataDir: dataDir}, Log: log, Workers: *f.workers}
	if eng != nil {
		svc.Engine, svc.Env.Index = eng, eng
	}
	return svc, nil
}

func runRefresh(ctx context.Context, args []string) error {
	const use = "usage: prospectd refresh status [NAME] | run NAME [--wait]"
	if len(args) == 0 || (args[0] != "status" && args[0] != "run") {
		return errors.New(use)
	}
	sub := args[0]
	fs := newFlagSet("refresh " + sub)
	rf := addRefreshFlags(fs)
	b := addBackendFlags(fs)
	wait := fs.Bool("wait", "PROSPECT_REFRESH_WAIT", false, "run: follow the run until it ends (a running `prospectd serve` on the same state store runs it)")
	limit := fs.Int("limit", "PROSPECT_REFRESH_LIMIT", 10, "status NAME: runs to show")
	pos, err := fs.parse(args[1:])
	if err != nil {
		return err
	}
	st, err := b.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	svc, err := rf.service(st, nil, *b.dataDir, crawl.Options{}, zerolog.Nop())
	if err != nil {
		return err
	}
	if len(svc.Config.Sources) == 0 {
		return errors.New("no refresh sources: pass the server's configuration with --refresh-config FILE")
	}
	switch sub {
	case "status":
		name := ""
		if len(pos) > 0 {
			name = pos[0]
		}
		n := 1
		if name != "" {
			n = *limit
		}
		sts, err := svc.Status(ctx, name, n)
		if err != nil {
			return err
		}
		if name != "" {
			enc := json.NewEncoder(os.Stdout)
			enc.SetIndent("", "  ")
			return enc.Encode(sts[0])
		}
		printStatus(sts)
		return nil
	default:
		if len(pos) != 1 {
			return errors.New(use)
		}
		r, err := svc.Submit(ctx, pos[0], refresh.TriggerManual)
		if err != nil {
			return err
		}
		fmt.Printf("refresh of %s queued: task %s\n", pos[0], r.TaskID)
		if !*wait {
			return nil
		}
		return follow(ctx, st, r.TaskID)
	}
}

func printStatus(sts []refresh.SourceStatus) {
	tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SOURCE\tKIND\tMODE\tSCHEDULE\tLAST RUN\tSTATUS\tREAD\tCHANGED\tCLOSED\tREJECTED")
	for _, s := range sts {
		sched := s.Schedule
		if sched == "" {
			sched = "(manual)"
		}
		if len(s.Runs) == 0 {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t-\t-\t\t\t\t\n", s.Name, s.Kind, s.Mode, sched)
			continue
		}
		r := s.Runs[0]
		status := r.Status
		if r.Counts.NotModified {
			status += " (not modified)"
		}
		if r.Status == store.RefreshRunning {
			status = fmt.Sprintf("running %d%%", r.Progress)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%d\n", s.Name, s.Kind, s.Mode, sched, r.CreatedAt.Local().Format(time.DateTime),
			status, r.Counts.Read, r.Counts.Changed, r.Counts.Closed, r.Counts.Rejected)
	}
	tw.Flush()
}

// follow prints a run's progress until it ends.
func follow(ctx context.Context, st store.Refreshes, taskID string) error {
	last := ""
	for {
		r, err := st.RefreshRunByTask(ctx, taskID)
		if err != nil {
			return err
		}
		v := refresh.ViewOf(r, false)
		line := fmt.Sprintf("%s %d%% read %d changed %d unchanged %d closed %d rejected %d", v.Status, v.Progress,
			v.Counts.Read, v.Counts.Changed, v.Counts.Unchanged, v.Counts.Closed, v.Counts.Rejected)
		if line != last {
			fmt.Println(line)
			last = line
		}
		switch r.Status {
		case store.RefreshCompleted:
			return nil
		case store.RefreshFailed:
			return fmt.Errorf("refresh failed: %s", strings.TrimSpace(r.Error))
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
}
