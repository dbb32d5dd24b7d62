package prospecting

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/netguard"
	"github.com/openprospect/prospectd/saved"
)

// EventStatus is the type of a run's status event.
const EventStatus = "prospecting_run.status"

// Webhooks sends run events, signed as saved-query monitor webhooks are
// (saved.Sign: Standard Webhooks headers, webhook-id the same on every
// retry) and retried on saved's backoff. Unlike monitor changes the
// events are queued in this process, not in the store: saved's durable
// queue is keyed to monitors, so an event still being retried when the
// process stops is lost (the run itself, pollable, is not).
type Webhooks struct {
	// AllowPrivate lets webhooks reach loopback and private addresses
	// (tests, single-tenant setups), as the monitors' option does.
	AllowPrivate bool
	// Client sends the events (a netguard client honouring AllowPrivate
	// when nil).
	Client *http.Client
	// Backoff are the waits before each retry (saved.DefaultBackoff when
	// nil); an event is tried len(Backoff)+1 times.
	Backoff []time.Duration
	Log     zerolog.Logger

	once   sync.Once
	mu     sync.Mutex
	queues map[string][]event // by run: events leave in order
	wg     sync.WaitGroup
}

// Event is a webhook body.
type Event struct {
	Type      string    `json:"type"`
	Timestamp time.Time `json:"timestamp"`
	Data      EventData `json:"data"`
}

// EventData is what a status event says about the run.
type EventData struct {
	RunID          string  `json:"run_id"`
	Status         string  `json:"status"`
	PreviousStatus string  `json:"previous_status"`
	PlanVersion    int     `json:"plan_version"`
	Checkpoint     *string `json:"checkpoint"`
	StopReason     *string `json:"stop_reason"`
	ResultsQueryID *string `json:"results_query_id"`
	Error          string  `json:"error,omitempty"`
	Counts         Counts  `json:"counts"`
}

type event struct {
	id, url, secret string
	body            []byte
}

var defaultWebhooks = &Webhooks{}

func (s *Service) webhooks() *Webhooks {
	if s.Webhooks != nil {
		return s.Webhooks
	}
	return defaultWebhooks
}

// check refuses a webhook URL the client would not reach ("" is none).
func (w *Webhooks) check(raw string) error {
	if raw == "" {
		return nil
	}
	if _, err := netguard.ValidateURL(raw, w.AllowPrivate); err != nil {
		return invalid("webhook_url", "%v", err)
	}
	return nil
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// notify queues the event of r's new status, when r names a webhook.
func (s *Service) notify(r *Run) {
	if r.Data.Request.WebhookURL == "" || r.Data.WebhookSecret == "" {
		return
	}
	d := r.Data
	ev := Event{Type: EventStatus, Timestamp: s.now().UTC(), Data: EventData{RunID: r.ID, Status: r.Status, PreviousStatus: r.stored,
		PlanVersion: d.PlanVersion, Checkpoint: optional(d.Checkpoint), StopReason: optional(d.StopReason),
		ResultsQueryID: optional(d.ResultsQueryID), Error: d.Error, Counts: d.Progress.Count()}}
	body, err := json.Marshal(ev)
	if err != nil {
		s.Log.Error().Err(err).Str("run", r.ID).Msg("encode run event")
		return
	}
	// The revision names the event: a retry carries the same webhook-id.
	id := "run_" + r.ID + "_" + strconv.FormatInt(r.Rev, 10)
	s.webhooks().enqueue(r.ID, event{id: id, url: d.Request.WebhookURL, secret: d.WebhookSecret, body: body})
}

func (w *Webhooks) enqueue(runID string, ev event) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.queues == nil {
		w.queues = map[string][]event{}
	}
	q := w.queues[runID]
	w.queues[runID] = append(q, ev)
	if len(q) == 0 {
		w.wg.Add(1)
		go w.drain(runID)
	}
}

// drain sends a run's events one after another, each until delivered or
// out of attempts.
func (w *Webhooks) drain(runID string) {
	defer w.wg.Done()
	for {
		w.mu.Lock()
		q := w.queues[runID]
		if len(q) == 0 {
			delete(w.queues, runID)
			w.mu.Unlock()
			return
		}
		ev := q[0]
		w.mu.Unlock()
		w.deliver(runID, ev)
		w.mu.Lock()
		w.queues[runID] = w.queues[runID][1:]
		w.mu.Unlock()
	}
}

// Wait blocks until every queued event is delivered or given up.
func (w *Webhooks) Wait() { w.wg.Wait() }

func (w *Webhooks) deliver(runID string, ev event) {
	backoff := w.Backoff
	if backoff == nil {
		backoff = saved.DefaultBackoff
	}
	log := w.Log.With().Str("run", runID).Str("event", ev.id).Logger()
	for attempt := 0; ; attempt++ {
		code, err := w.send(ev)
		if err == nil {
			log.Info().Int("attempt", attempt+1).Int("status", code).Msg("run webhook delivered")
			return
		}
		if attempt >= len(backoff) {
			log.Error().Err(err).Int("attempts", attempt+1).Msg("run webhook given up")
			return
		}
		log.Warn().Err(err).Int("attempt", attempt+1).Dur("retry_in", backoff[attempt]).Msg("run webhook failed")
		time.Sleep(backoff[attempt])
	}
}

func (w *Webhooks) client() *http.Client {
	w.once.Do(func() {
		if w.Client == nil {
			c := netguard.NewClient(netguard.Options{AllowPrivate: w.AllowPrivate, Timeout: 20 * time.Second})
			// As monitor webhooks: a redirect is the receiver's answer, not
			// somewhere else to post the event.
			c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
			w.Client = c
		}
	})
	return w.Client
}

func (w *Webhooks) send(ev event) (int, error) {
	ts := time.Now().Unix()
	sig, err := saved.Sign(ev.secret, ev.id, ts, ev.body)
	if err != nil {
		return 0, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, ev.url, bytes.NewReader(ev.body))
	if err != nil {
		return 0, fmt.Errorf("run webhook request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("webhook-id", ev.id)
	req.Header.Set("webhook-timestamp", strconv.FormatInt(ts, 10))
	req.Header.Set("webhook-signature", sig)
	res, err := w.client().Do(req)
	if err != nil {
		return 0, fmt.Errorf("run webhook post: %w", err)
	}
	io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	res.Body.Close()
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return res.StatusCode, fmt.Errorf("run webhook answered %d", res.StatusCode)
	}
	return res.StatusCode, nil
}
