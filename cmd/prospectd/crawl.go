package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/index/embedded"
	"github.com/openprospect/prospectd/ingest/crawl"
)

// crawlFlags configure the website crawler, for `prospectd crawl` and for
// the crawl tasks `serve` runs.
type crawlFlags struct {
	concurrency  *int
	delay        *time.Duration
	timeout      *time.Duration
	maxBody      *int
	userAgent    *string
	allowPrivate *bool
}

func addCrawlFlags(fs *flagSet) crawlFlags {
	return crawlFlags{
		concurrency:  fs.Int("crawl-concurrency", "PROSPECT_CRAWL_CONCURRENCY", crawl.DefaultConcurrency, "sites crawled at once (each host still gets one request at a time)"),
		delay:        fs.Duration("crawl-delay", "PROSPECT_CRAWL_DELAY", crawl.DefaultDelay, "pause between two requests to one host (a longer robots.txt Crawl-delay wins, up to 30s); negative for none"),
		timeout:      fs.Duration("crawl-timeout", "PROSPECT_CRAWL_TIMEOUT", crawl.DefaultTimeout, "time limit of one request, body included"),
		maxBody:      fs.Int("crawl-max-body", "PROSPECT_CRAWL_MAX_BODY", crawl.DefaultMaxBody, "bytes of a page read at most"),
		userAgent:    fs.String("crawl-user-agent", "PROSPECT_CRAWL_USER_AGENT", crawl.DefaultUserAgent, "User-Agent sent, and matched against robots.txt by its product name"),
		allowPrivate: fs.Bool("crawl-allow-private", "PROSPECT_CRAWL_ALLOW_PRIVATE", false, "let the crawler reach loopback, private and link-local addresses (tests, sites on your own network)"),
	}
}

func (c crawlFlags) options(log zerolog.Logger) crawl.Options {
	return crawl.Options{Concurrency: *c.concurrency, Delay: *c.delay, Timeout: *c.timeout, MaxBody: int64(*c.maxBody),
		UserAgent: *c.userAgent, AllowPrivate: *c.allowPrivate, Log: log}
}

func runCrawl(ctx context.Context, args []string) error {
	fs := newFlagSet("crawl")
	all := fs.Bool("all", "PROSPECT_CRAWL_ALL", false, "crawl the site of every indexed company")
	file := fs.String("domains", "PROSPECT_CRAWL_DOMAINS", "", "file of domains or URLs to crawl, one per line (# comments)")
	cf := addCrawlFlags(fs)
	b := addBackendFlags(fs)
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	given := len(pos) > 0
	if n := btoi(*all) + btoi(*file != "") + btoi(given); n != 1 {
		return fmt.Errorf("usage: prospectd crawl --all | --domains FILE | DOMAIN... (exactly one of them)")
	}
	targets := pos
	if *file != "" {
		if targets, err = crawl.ReadDomains(*file); err != nil {
			return err
		}
	}
	log := newLogger(*b.logFormat)
	// Not a bulk load: the crawl reads back records it wrote (redirect
	// targets) and writes in small batches.
	eng, err := b.openEngine(ctx, embedded.Options{})
	if err != nil {
		return err
	}
	defer eng.Close()
	if *all {
		if targets, err = crawl.IndexedDomains(ctx, eng); err != nil {
			return err
		}
	}
	o := cf.options(log)
	start := time.Now()
	last := start
	o.Progress = func(s crawl.Stats) {
		if time.Since(last) >= 3*time.Second {
			last = time.Now()
			fmt.Fprintf(os.Stderr, "crawl: %d of %d sites (%.1f sites/s)\n", s.Crawled+s.NotIndexed, s.Targets,
				float64(s.Crawled)/time.Since(start).Seconds())
		}
	}
	st, err := crawl.Run(ctx, o, targets, eng)
	out, _ := json.MarshalIndent(st, "", "  ")
	fmt.Printf("%s\ncrawled %d sites in %s\n", out, st.Crawled, time.Since(start).Round(time.Millisecond))
	if err != nil {
		return fmt.Errorf("crawl stopped after %d sites (those are stored; re-running is safe): %w", st.Crawled, err)
	}
	return nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
