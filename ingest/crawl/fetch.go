package crawl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/temoto/robotstxt"
	"golang.org/x/net/html/charset"

	"github.com/openprospect/prospectd/netguard"
	"github.com/openprospect/prospectd/record"
	"github.com/openprospect/prospectd/record/domain"
)

// Reasons a crawl read no page, as record.Crawl.Error holds them.
const (
	ReasonRefused     = "address not allowed"
	ReasonRobots      = "disallowed by robots.txt"
	ReasonTimeout     = "timed out"
	ReasonNotHTML     = "not an HTML page"
	ReasonRedirects   = "too many redirects"
	ReasonBadRedirect = "redirect to an invalid URL"
)

// maxRobotsBytes is what a robots.txt may weigh (Google reads 500 KiB).
const maxRobotsBytes = 500 << 10

// maxCrawlDelay caps a host's Crawl-delay: a crawl of many sites must not
// stall on one that asks for minutes between requests.
const maxCrawlDelay = 30 * time.Second

// site is what fetching one domain found.
type site struct {
	domain string
	at     time.Time
	// status is the domain's own answer: the last response before the
	// redirect chain left the domain, or the final one; nil when no HTTP
	// answer came (unreachable, refused, disallowed).
	status *record.HTTPStatus
	// redirect is the root domain the chain ended on, when not domain.
	redirect string
	url      string
	page     *Page // nil when no page text was read
	langs    []string
	err      string
	// refused, disallowed, timedOut, truncated: for the stats.
	refused, disallowed, timedOut, truncated bool
	bytes                                    int64
}

// fetcher fetches sites; it is shared by a run's workers.
type fetcher struct {
	o      Options
	client *http.Client
	gate   *gate

	mu     sync.Mutex
	robots map[string]*robotsEntry // by scheme://host:port
}

type robotsEntry struct {
	once  sync.Once
	group *robotstxt.Group // nil: everything allowed
	err   error            // robots.txt could not be fetched
}

func newFetcher(o Options) *fetcher {
	c := netguard.NewClient(netguard.Options{AllowPrivate: o.AllowPrivate, Timeout: o.Timeout, Lookup: o.Lookup})
	// Redirects are followed by hand: each hop waits for its host's turn,
	// is checked against that host's robots.txt and tells where the
	// domain's own answer ends.
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &fetcher{o: o, client: c, gate: newGate(), robots: map[string]*robotsEntry{}}
}

// fetch crawls one domain: robots.txt, then its home page through the
// redirect chain, trying each start URL (https, then http) until one
// answers.
func (f *fetcher) fetch(ctx context.Context, d string) site {
	s := site{domain: d, at: f.o.Now().UTC()}
	for i, start := range f.o.StartURLs(d) {
		s = site{domain: d, at: s.at}
		err := f.follow(ctx, &s, start)
		if err == nil {
			return s
		}
		s.err = reasonOf(err)
		s.refused = errors.Is(err, netguard.ErrForbidden)
		s.timedOut = s.err == ReasonTimeout
		// Only a site that gave no answer at all is tried on the next
		// scheme; a refused address stays refused.
		if s.refused || ctx.Err() != nil || i == len(f.o.StartURLs(d))-1 {
			return s
		}
	}
	return s
}

// follow fetches start and the redirects after it, filling s. An error
// means no HTTP answer came from the start URL's host.
func (f *fetcher) follow(ctx context.Context, s *site, start string) error {
	u, err := url.Parse(start)
	if err != nil {
		return fmt.Errorf("start URL %q: %w", start, err)
	}
	// own is the domain's answer before the chain left it, last the
	// latest answer; finish picks the status from them.
	var own, last *record.HTTPStatus
	finish := func(end *url.URL) {
		s.noteRedirect(end)
		s.status = last
		if s.redirect != "" && own != nil {
			s.status = own
		}
	}
	for hop := 0; ; hop++ {
		if _, err := netguard.ValidateURL(u.String(), f.o.AllowPrivate); err != nil {
			if hop == 0 {
				return err
			}
			s.err, s.refused = ReasonRefused, true
			finish(u)
			return nil
		}
		allowed, delay, err := f.allowed(ctx, u)
		if err == nil && !allowed {
			s.err, s.disallowed = ReasonRobots, true
			finish(u)
			return nil
		}
		var resp *http.Response
		if err == nil {
			resp, err = f.get(ctx, u, delay)
		}
		if err != nil {
			if hop == 0 {
				return err
			}
			// The chain left for a host that does not answer: the
			// domain's own answer stands, and where it pointed.
			s.err = reasonOf(err)
			s.timedOut = s.err == ReasonTimeout
			finish(u)
			return nil
		}
		last = &record.HTTPStatus{Code: resp.StatusCode, Reason: reason(resp), RecordDate: s.at.Format(time.DateOnly)}
		loc := resp.Header.Get("Location")
		if resp.StatusCode >= 300 && resp.StatusCode < 400 && loc != "" {
			drain(resp)
			next, err := u.Parse(loc)
			if err != nil || (next.Scheme != "http" && next.Scheme != "https") {
				s.err = ReasonBadRedirect
				finish(u)
				return nil
			}
			if own == nil && rootOf(next) != s.domain {
				own = last
			}
			if hop >= f.o.MaxRedirects {
				s.err = ReasonRedirects
				finish(next)
				return nil
			}
			u = next
			continue
		}
		defer resp.Body.Close()
		s.url = u.String()
		finish(u)
		if s.redirect != "" || resp.StatusCode < 200 || resp.StatusCode >= 300 {
			// The text of another domain is that domain's; an error page
			// says nothing of the company.
			return nil
		}
		return f.read(s, resp)
	}
}

// noteRedirect records u's root domain as where the domain redirects, when
// it is another one.
func (s *site) noteRedirect(u *url.URL) {
	if r := rootOf(u); r != "" && r != s.domain {
		s.redirect = r
	} else {
		s.redirect = ""
	}
}

func rootOf(u *url.URL) string {
	r, err := domain.Normalize(u.Hostname())
	if err != nil {
		return ""
	}
	return r
}

// read extracts the page text of a 2xx response.
func (f *fetcher) read(s *site, resp *http.Response) error {
	ct := resp.Header.Get("Content-Type")
	media, _, _ := mime.ParseMediaType(ct)
	if media != "" && media != "text/html" && media != "application/xhtml+xml" && media != "text/plain" {
		s.err = ReasonNotHTML
		return nil
	}
	body := &countingReader{r: io.LimitReader(resp.Body, f.o.MaxBody)}
	// charset.NewReader reads the Content-Type's charset, else a BOM or
	// a <meta charset> in the first 1,024 bytes, else guesses; the result
	// is UTF-8.
	r, err := charset.NewReader(body, ct)
	if err != nil {
		r = body // an unknown charset label: read the bytes as they are
	}
	var p Page
	if media == "text/plain" {
		p, err = Extract(io.MultiReader(strings.NewReader("<pre>"), r), f.o.MaxText, int(f.o.MaxBody))
	} else {
		p, err = Extract(r, f.o.MaxText, int(f.o.MaxBody))
	}
	s.bytes = body.n
	s.truncated = p.Truncated || body.n >= f.o.MaxBody
	if err != nil {
		s.err = reasonOf(err)
		s.timedOut = s.err == ReasonTimeout
		if len(p.Blocks) == 0 && p.Title == "" {
			return nil
		}
	}
	s.page = &p
	s.langs = Languages(p)
	return nil
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n += int64(n)
	return n, err
}

// get sends one GET when the host's turn comes.
func (f *fetcher) get(ctx context.Context, u *url.URL, delay time.Duration) (*http.Response, error) {
	slot, err := f.gate.acquire(ctx, u.Host)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		f.gate.release(slot, delay)
		return nil, fmt.Errorf("build request: %w", err)
	}
	req.Header.Set("User-Agent", f.o.UserAgent)
	req.Header.Set("Accept", "text/html,application/xhtml+xml;q=0.9,text/plain;q=0.5,*/*;q=0.1")
	resp, err := f.client.Do(req)
	if err != nil {
		f.gate.release(slot, delay)
		return nil, err
	}
	// The host's turn lasts until the body is closed.
	resp.Body = &releasingBody{ReadCloser: resp.Body, release: func() { f.gate.release(slot, delay) }}
	return resp, nil
}

type releasingBody struct {
	io.ReadCloser
	once    sync.Once
	release func()
}

func (b *releasingBody) Close() error {
	err := b.ReadCloser.Close()
	b.once.Do(b.release)
	return err
}

// drain reads a little of a body so the connection can be reused, and
// closes it.
func drain(resp *http.Response) {
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
}

// allowed reports whether robots.txt of u's host lets us fetch u, and the
// delay to keep between requests to that host. robots.txt is read once per
// host and run (at most robotsCacheSize hosts are remembered). As Google
// does, a missing robots.txt (4xx) allows everything and a failing one
// (5xx) nothing; one that cannot be fetched at all is an error for the
// caller, like the page it guards.
func (f *fetcher) allowed(ctx context.Context, u *url.URL) (bool, time.Duration, error) {
	key := u.Scheme + "://" + u.Host
	f.mu.Lock()
	e := f.robots[key]
	if e == nil {
		if len(f.robots) >= robotsCacheSize {
			clear(f.robots)
		}
		e = &robotsEntry{}
		f.robots[key] = e
	}
	f.mu.Unlock()
	e.once.Do(func() {
		e.group, e.err = f.fetchRobots(ctx, key)
	})
	if ferr := e.err; ferr != nil {
		// Not remembered: the next site on this host tries again.
		f.mu.Lock()
		if f.robots[key] == e {
			delete(f.robots, key)
		}
		f.mu.Unlock()
		return false, 0, ferr
	}
	delay := f.o.Delay
	if e.group == nil {
		return true, delay, nil
	}
	if cd := min(e.group.CrawlDelay, maxCrawlDelay); cd > delay && f.o.Delay > 0 {
		delay = cd
	}
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	if u.RawQuery != "" {
		path += "?" + u.RawQuery
	}
	return e.group.Test(path), delay, nil
}

// robotsCacheSize bounds the robots.txt cache of a run.
const robotsCacheSize = 4096

// disallowAll is the group of a robots.txt that failed with a 5xx.
var disallowAll = func() *robotstxt.Group {
	r, _ := robotstxt.FromString("User-agent: *\nDisallow: /\n")
	return r.FindGroup("*")
}()

func (f *fetcher) fetchRobots(ctx context.Context, base string) (*robotstxt.Group, error) {
	u, err := url.Parse(base + "/robots.txt")
	if err != nil {
		return nil, fmt.Errorf("robots.txt URL: %w", err)
	}
	// Redirects of robots.txt are not followed: a host that moves its
	// robots.txt elsewhere is read as having none.
	resp, err := f.get(ctx, u, f.o.Delay)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode >= 500:
		return disallowAll, nil
	case resp.StatusCode != http.StatusOK:
		return nil, nil
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxRobotsBytes))
	if err != nil {
		return nil, fmt.Errorf("read robots.txt: %w", err)
	}
	r, err := robotstxt.FromStatusAndBytes(resp.StatusCode, body)
	if err != nil {
		return nil, nil // unparsable: as good as none
	}
	return r.FindGroup(f.o.agentName()), nil
}

func reason(resp *http.Response) string {
	if t := http.StatusText(resp.StatusCode); t != "" {
		return t
	}
	_, r, _ := strings.Cut(resp.Status, " ")
	return r
}

// reasonOf is the short reason a crawl record keeps for err.
func reasonOf(err error) string {
	var ne net.Error
	var dnsErr *net.DNSError
	switch {
	case errors.Is(err, netguard.ErrForbidden):
		return ReasonRefused
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return ReasonTimeout
	case errors.As(err, &dnsErr):
		return "no such host"
	case errors.Is(err, context.Canceled):
		return "cancelled"
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) {
		return "connect: " + opErr.Err.Error()
	}
	msg := err.Error()
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		msg = msg[i+2:]
	}
	return msg
}
