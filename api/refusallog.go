package api

import (
	"sync"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/gofiber/fiber/v2"
	"github.com/rs/zerolog"
)

// refusalWindow is how often one client's refused requests (401, 429)
// are logged: the first of each window, with the number refused since
// the last line; a client held at its rate limit sending thousands of
// requests a second writes one line a minute.
const refusalWindow = time.Minute

// maxRefusalClients bounds the clients tracked at once; past it a refusal
// is logged unaggregated (a line per request of clients beyond the
// first maxRefusalClients in a window).
const maxRefusalClients = 100_000

// logClientLocal is the fiber.Ctx local naming the client of a refused
// request for refusalLog: the API key's id when authentication knows it.
const logClientLocal = "prospectd.log_client"

// setLogClient names the client of a refused request for refusalLog, on a
// Fiber request (any other adapter has no access log to aggregate).
func setLogClient(ctx huma.Context, client string) {
	for {
		u, ok := ctx.(interface{ Unwrap() huma.Context })
		if !ok {
			break
		}
		ctx = u.Unwrap()
	}
	if fc, ok := ctx.(interface{ Unwrap() *fiber.Ctx }); ok {
		fc.Unwrap().Locals(logClientLocal, client)
	}
}

// refusalLog aggregates the log lines of refused requests per client.
type refusalLog struct {
	now     func() time.Time
	mu      sync.Mutex
	clients map[string]*refusals
	swept   time.Time
}

type refusals struct {
	since  time.Time // start of the client's window
	count  int       // refusals since its last logged line
	method string    // of the last refusal, for the summary line
	path   string
	status int
}

// summary is the count of a client's refusals never logged, reported when
// its window expires.
type summary struct {
	client string
	r      refusals
}

// admit records a refusal of client and reports whether to log it, and
// then how many of the client's refusals went unlogged before it; due are
// the counts of other clients whose windows ended, to log now.
func (q *refusalLog) admit(client, method, path string, status int) (log bool, unlogged int, due []summary) {
	now := q.now()
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.clients == nil {
		q.clients = map[string]*refusals{}
	}
	if now.Sub(q.swept) >= refusalWindow {
		q.swept = now
		for k, r := range q.clients {
			if k != client && now.Sub(r.since) >= refusalWindow {
				if r.count > 0 {
					due = append(due, summary{client: k, r: *r})
				}
				delete(q.clients, k)
			}
		}
	}
	r := q.clients[client]
	switch {
	case r == nil && len(q.clients) >= maxRefusalClients:
		return true, 0, due
	case r == nil:
		q.clients[client] = &refusals{since: now}
		return true, 0, due
	case now.Sub(r.since) >= refusalWindow:
		unlogged = r.count
		*r = refusals{since: now}
		return true, unlogged, due
	default:
		r.count++
		r.method, r.path, r.status = method, path, status
		return false, 0, due
	}
}

// logRequest writes the access log line of a request: every request,
// except refused ones (401, 429), which refusalLog aggregates per client.
func (q *refusalLog) logRequest(log zerolog.Logger, c *fiber.Ctx, status int, took time.Duration) {
	if status != fiber.StatusUnauthorized && status != fiber.StatusTooManyRequests {
		ev := log.Info()
		if status >= 500 {
			ev = log.Error()
		}
		ev.Str("method", c.Method()).Str("path", c.Path()).Int("status", status).Dur("took", took).Msg("request")
		return
	}
	client, _ := c.Locals(logClientLocal).(string)
	if client == "" {
		client = "ip:" + c.IP()
	}
	ok, unlogged, due := q.admit(client, c.Method(), c.Path(), status)
	for _, s := range due {
		log.Info().Str("client", s.client).Int("refused", s.r.count).Str("method", s.r.method).Str("path", s.r.path).
			Int("status", s.r.status).Msg("refused requests not logged since the client's last line")
	}
	if ok {
		log.Info().Str("method", c.Method()).Str("path", c.Path()).Int("status", status).Dur("took", took).
			Str("client", client).Int("refused_unlogged", unlogged).Msg("request refused (further refusals of this client are counted, one line a minute)")
	}
}
