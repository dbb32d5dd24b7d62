package crawl

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/embedding"
	"github.com/openprospect/prospectd/record"
	"github.com/openprospect/prospectd/record/domain"
)

// Defaults of Options.
const (
	DefaultConcurrency  = 16
	DefaultDelay        = time.Second
	DefaultTimeout      = 15 * time.Second
	DefaultMaxBody      = 2 << 20
	DefaultMaxText      = 64 << 10
	DefaultMaxRedirects = 5
	DefaultBatchSize    = 100
	DefaultUserAgent    = "prospectd-crawler/1"
)

// ErrNoEmbedder: the index has no embedder yet (nothing was loaded), so
// there is nothing to crawl for.
var ErrNoEmbedder = errors.New("crawl: the index has no embedder; load companies first")

// Options configure a crawl; the zero value is polite and safe.
type Options struct {
	// Concurrency is how many sites are fetched at once (each host still
	// gets one request at a time); DefaultConcurrency when 0.
	Concurrency int
	// Delay is the pause between two requests to one host (a longer
	// robots.txt Crawl-delay wins, up to 30 s); DefaultDelay when 0,
	// none when negative (benchmarks and tests).
	Delay time.Duration
	// Timeout bounds one request, body included; DefaultTimeout when 0.
	Timeout time.Duration
	// MaxBody is the most of a page read (the rest is not downloaded);
	// MaxText the most of its text kept. Defaults when 0.
	MaxBody int64
	MaxText int
	// MaxRedirects bounds a redirect chain; DefaultMaxRedirects when 0.
	MaxRedirects int
	// UserAgent is sent with every request and matched against robots.txt
	// groups by its product name; DefaultUserAgent when empty.
	UserAgent string
	// AllowPrivate lets the crawler reach loopback, private and
	// link-local addresses: for tests and sites on the operator's own
	// network. Off, such addresses are refused at connect time.
	AllowPrivate bool
	// Lookup resolves host names (tests map names to loopback with it);
	// the system resolver when nil. Addresses are checked at connect time
	// whatever it returns.
	Lookup func(ctx context.Context, host string) ([]netip.Addr, error)
	// StartURLs are the URLs tried for a domain, in order, until one
	// answers; https://DOMAIN/ then http://DOMAIN/ when nil.
	StartURLs func(domain string) []string
	// Embedder embeds changed records; the index's stored embedder when nil.
	Embedder embedding.Embedder
	// BatchSize is how many records are written at once; default 100.
	BatchSize int
	// Now is the clock (tests); time.Now when nil.
	Now func() time.Time
	// Progress is called after each written batch and at the end, never
	// concurrently.
	Progress func(Stats)
	Log      zerolog.Logger
}

func (o Options) withDefaults() Options {
	if o.Concurrency <= 0 {
		o.Concurrency = DefaultConcurrency
	}
	switch {
	case o.Delay == 0:
		o.Delay = DefaultDelay
	case o.Delay < 0:
		o.Delay = 0
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxBody <= 0 {
		o.MaxBody = DefaultMaxBody
	}
	if o.MaxText <= 0 {
		o.MaxText = DefaultMaxText
	}
	if o.MaxRedirects <= 0 {
		o.MaxRedirects = DefaultMaxRedirects
	}
	if o.UserAgent == "" {
		o.UserAgent = DefaultUserAgent
	}
	if o.StartURLs == nil {
		o.StartURLs = func(d string) []string { return []string{"https://" + d + "/", "http://" + d + "/"} }
	}
	if o.BatchSize <= 0 {
		o.BatchSize = DefaultBatchSize
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// agentName is the product token robots.txt groups are matched with.
func (o Options) agentName() string {
	name, _, _ := strings.Cut(o.UserAgent, "/")
	return strings.TrimSpace(name)
}

// Stats counts a crawl.
type Stats struct {
	Targets    int `json:"targets"`     // distinct valid domains asked for
	Invalid    int `json:"invalid"`     // values that are not domains
	NotIndexed int `json:"not_indexed"` // domains without a record (skipped)
	Crawled    int `json:"crawled"`     // records updated with a crawl
	Answered   int `json:"answered"`    // sites that gave an HTTP answer
	TextRead   int `json:"text_read"`   // pages whose text was read
	Reembedded int `json:"reembedded"`  // records whose site text changed
	Redirects  int `json:"redirects"`   // sites redirecting to another domain
	Refused    int `json:"refused"`     // non-public addresses refused
	Disallowed int `json:"disallowed"`  // pages robots.txt kept us from
	Failed     int `json:"failed"`      // no answer (unreachable, timeout)
	Truncated  int `json:"truncated"`   // pages cut at the size caps
	// Sources counts the redirect targets whose redirect_sources changed.
	Sources   int   `json:"redirect_targets_updated"`
	Bytes     int64 `json:"bytes"`
	WriteErrs int   `json:"write_errors"` // records the engine refused
}

// Writer is the part of an index a crawl uses: it reads the records it
// updates and their vectors, writes them back, reads the embedder and
// makes the writes visible at the end.
type Writer interface {
	index.CompanyReader
	index.CompanyWriter
	index.MetaReader
	index.Refresher
}

// Run crawls the sites of targets (domains or URLs; normalized to root
// domains and deduplicated) and writes what it found into their records
// through w: HTTP status, redirect_domain, site text (re-embedding the
// record when it changed), languages, the crawl's record and, afterwards,
// the redirect sources of the domains redirected to. Domains without a
// record are skipped. It returns the counts so far with the first error
// that stops it (ctx cancelled, the engine failing); what was written
// stays written and running again is safe.
func Run(ctx context.Context, o Options, targets []string, w Writer) (Stats, error) {
	o = o.withDefaults()
	var st Stats
	domains := make([]string, 0, len(targets))
	seen := make(map[string]struct{}, len(targets))
	for _, t := range targets {
		d, err := domain.Normalize(strings.TrimSpace(t))
		if err != nil {
			st.Invalid++
			continue
		}
		if _, dup := seen[d]; !dup {
			seen[d] = struct{}{}
			domains = append(domains, d)
		}
	}
	seen = nil
	st.Targets = len(domains)
	emb := o.Embedder
	if emb == nil {
		var err error
		if emb, err = embedding.Open(ctx, w); err != nil {
			if errors.Is(err, index.ErrNotFound) {
				return st, ErrNoEmbedder
			}
			return st, fmt.Errorf("crawl: %w", err)
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	f := newFetcher(o)
	todo := make(chan string)
	found := make(chan site, o.Concurrency)
	var workers sync.WaitGroup
	for range o.Concurrency {
		workers.Add(1)
		go func() {
			defer workers.Done()
			for d := range todo {
				s := f.fetch(ctx, d)
				select {
				case found <- s:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	// The feeder sends only indexed domains: a site without a record is
	// not worth a request.
	var feedErr error
	var notIndexed int
	fed := make(chan struct{})
	go func() {
		defer close(fed)
		defer close(todo)
		for chunk := range slices.Chunk(domains, o.BatchSize) {
			got, err := w.GetCompanies(ctx, chunk)
			if err != nil {
				feedErr = fmt.Errorf("crawl: read records: %w", err)
				cancel()
				return
			}
			notIndexed += len(chunk) - len(got)
			for _, c := range got {
				select {
				case todo <- c.Domain:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	go func() {
		workers.Wait()
		close(found)
	}()

	wr := &recordWriter{o: o, w: w, emb: emb, st: &st, moves: map[string]*sourceMoves{}}
	var werr error
	batch := make([]site, 0, o.BatchSize)
	for s := range found {
		if werr != nil {
			continue // draining after a failed write
		}
		batch = append(batch, s)
		if len(batch) == o.BatchSize {
			werr = wr.write(ctx, batch)
			batch = batch[:0]
			if werr != nil {
				cancel()
			} else if o.Progress != nil {
				o.Progress(st)
			}
		}
	}
	if werr == nil && len(batch) > 0 {
		werr = wr.write(ctx, batch)
	}
	<-fed
	st.NotIndexed += notIndexed
	if werr == nil {
		werr = feedErr
	}
	if werr == nil {
		werr = ctx.Err()
	}
	if werr == nil {
		werr = wr.moveSources(ctx)
	}
	// Make what was written visible, even when the run stopped early.
	if err := w.Refresh(context.WithoutCancel(ctx)); err != nil && werr == nil {
		werr = fmt.Errorf("crawl: refresh index: %w", err)
	}
	if o.Progress != nil {
		o.Progress(st)
	}
	return st, werr
}

// recordWriter applies crawled sites to their records.
type recordWriter struct {
	o   Options
	w   Writer
	emb embedding.Embedder
	st  *Stats
	// moves are the redirect sources to add to and remove from each
	// target, applied once every site is written.
	moves map[string]*sourceMoves
}

type sourceMoves struct{ add, remove []string }

func (r *recordWriter) move(target, source string, add bool) {
	if target == "" {
		return
	}
	m := r.moves[target]
	if m == nil {
		m = &sourceMoves{}
		r.moves[target] = m
	}
	if add {
		m.add = append(m.add, source)
	} else {
		m.remove = append(m.remove, source)
	}
}

// write reads the records of a batch of sites, applies the sites and
// writes the records back, embedding those whose site text changed.
func (r *recordWriter) write(ctx context.Context, batch []site) error {
	names := make([]string, len(batch))
	for i, s := range batch {
		names[i] = s.domain
	}
	got, err := r.w.GetCompanies(ctx, names)
	if err != nil {
		return fmt.Errorf("crawl: read records: %w", err)
	}
	byDomain := make(map[string]*record.Company, len(got))
	for i := range got {
		byDomain[got[i].Domain] = &got[i]
	}
	var keep []string // records whose vector stays
	docs := make([]index.CompanyDoc, 0, len(got))
	for _, s := range batch {
		c := byDomain[s.domain]
		if c == nil {
			continue // deleted since the feeder read it
		}
		r.count(s)
		oldTarget := ""
		if c.RedirectDomain != nil {
			oldTarget = *c.RedirectDomain
		}
		changed := apply(c, s)
		newTarget := ""
		if c.RedirectDomain != nil {
			newTarget = *c.RedirectDomain
		}
		if oldTarget != newTarget {
			r.move(oldTarget, s.domain, false)
			r.move(newTarget, s.domain, true)
		}
		doc := index.CompanyDoc{Company: *c}
		if changed {
			doc.Vector = r.emb.Embed(embedding.DocOf(*c))
			r.st.Reembedded++
		} else {
			keep = append(keep, c.Domain)
		}
		docs = append(docs, doc)
	}
	return r.upsert(ctx, docs, keep)
}

// upsert writes docs, reading the stored vectors of the keep domains.
func (r *recordWriter) upsert(ctx context.Context, docs []index.CompanyDoc, keep []string) error {
	if len(docs) == 0 {
		return nil
	}
	if len(keep) > 0 {
		vecs, err := r.w.CompanyVectors(ctx, keep)
		if err != nil {
			return fmt.Errorf("crawl: read vectors: %w", err)
		}
		for i := range docs {
			if docs[i].Vector == nil {
				if docs[i].Vector = vecs[docs[i].Company.Domain]; docs[i].Vector == nil {
					docs[i].Vector = r.emb.Embed(embedding.DocOf(docs[i].Company))
				}
			}
		}
	}
	failed, err := r.w.UpsertCompanies(ctx, docs)
	if err != nil {
		return fmt.Errorf("crawl: write records: %w", err)
	}
	for _, f := range failed {
		r.o.Log.Warn().Str("domain", f.Domain).Str("reason", f.Reason).Msg("crawl: record refused")
	}
	r.st.WriteErrs += len(failed)
	r.st.Crawled += len(docs) - len(failed)
	return nil
}

func (r *recordWriter) count(s site) {
	st := r.st
	st.Bytes += s.bytes
	switch {
	case s.refused:
		st.Refused++
	case s.disallowed && s.status == nil:
		st.Disallowed++
	case s.status == nil:
		st.Failed++
	}
	if s.status != nil {
		st.Answered++
	}
	if s.page != nil {
		st.TextRead++
	}
	if s.redirect != "" {
		st.Redirects++
	}
	if s.truncated {
		st.Truncated++
	}
}

// apply writes what a crawl found into c and reports whether the text the
// embedder reads changed.
func apply(c *record.Company, s site) (textChanged bool) {
	prev := c.Crawl
	c.Crawl = &record.Crawl{At: s.at.Format(time.RFC3339), URL: s.url, Error: s.err}
	if prev != nil && s.page == nil {
		// The text and its languages are still those of the last read.
		c.Crawl.TextAt, c.Crawl.Languages = prev.TextAt, prev.Languages
	}
	if s.status != nil {
		c.HTTPStatus = s.status
		// An answer tells where the domain leads, nowhere included.
		c.RedirectDomain = nil
		if s.redirect != "" {
			red := s.redirect
			c.RedirectDomain = &red
		}
	}
	if s.page != nil {
		c.Crawl.TextAt, c.Crawl.Languages = c.Crawl.At, s.langs
		if text := s.page.Text(); text != c.SiteText {
			c.SiteText = text
			textChanged = true
		}
		if len(s.langs) > 0 {
			c.Languages = slices.Clone(s.langs)
		}
	}
	return textChanged
}

// moveSources updates the redirect sources of every target whose sources
// changed in this run, in batches.
func (r *recordWriter) moveSources(ctx context.Context) error {
	targets := make([]string, 0, len(r.moves))
	for t := range r.moves {
		targets = append(targets, t)
	}
	slices.Sort(targets)
	for len(targets) > 0 {
		n := min(len(targets), r.o.BatchSize)
		got, err := r.w.GetCompanies(ctx, targets[:n])
		if err != nil {
			return fmt.Errorf("crawl: read redirect targets: %w", err)
		}
		targets = targets[n:]
		docs := make([]index.CompanyDoc, 0, len(got))
		keep := make([]string, 0, len(got))
		for _, c := range got {
			if moveSources(&c, r.moves[c.Domain]) {
				docs = append(docs, index.CompanyDoc{Company: c})
				keep = append(keep, c.Domain)
			}
		}
		crawled := r.st.Crawled
		if err := r.upsert(ctx, docs, keep); err != nil {
			return err
		}
		r.st.Sources += r.st.Crawled - crawled
		r.st.Crawled = crawled
	}
	return nil
}

// moveSources removes and adds redirect sources of c, keeping at most
// record.MaxRedirectSources listed and RedirectCount the true total.
func moveSources(c *record.Company, m *sourceMoves) bool {
	changed := false
	for _, d := range m.remove {
		if i := slices.Index(c.RedirectSources, d); i >= 0 {
			c.RedirectSources = slices.Delete(c.RedirectSources, i, i+1)
			c.RedirectCount = max(c.RedirectCount-1, len(c.RedirectSources))
			changed = true
		} else if c.RedirectCount > len(c.RedirectSources) {
			// Past the listed cap: it was counted, not listed.
			c.RedirectCount--
			changed = true
		}
	}
	for _, d := range m.add {
		if slices.Contains(c.RedirectSources, d) {
			continue
		}
		if len(c.RedirectSources) < record.MaxRedirectSources {
			c.RedirectSources = append(c.RedirectSources, d)
		}
		c.RedirectCount = max(c.RedirectCount, len(c.RedirectSources)-1) + 1
		changed = true
	}
	return changed
}
