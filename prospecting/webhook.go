package prospecting

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/netguard"
	"github.com/openprospect/prospectd/saved"
	"github.com/openprospect/prospectd/store"
)

// EventStatus is the type of a run's status event.
const EventStatus = "prospecting_run.status"

// Webhooks sends run events, signed as saved-query monitor webhooks are
// (saved.Sign: Standard Webhooks headers, webhook-id the same on every
// retry) and through the same durable queue (saved.DeliveryQueue): an
// event is queued in the transaction that records the run's change, sent
// at once by this process, retried on saved's backoff, and resumed by any
// process (saved.Webhooks.Resume) when this one dies.
type Webhooks struct {
	// AllowPrivate lets webhooks reach loopback and private addresses
	// (tests, single-tenant setups), as the monitors' option does.
	AllowPrivate bool
	// Client sends the events (a netguard client honouring AllowPrivate
	// when nil).
	Client *http.Client
	// Backoff are the waits before each retry (saved.DefaultBackoff when
	// nil); an event is tried len(Backoff)+1 times. Lease bounds how long
	// an attempt holds its event (saved.DefaultLease when 0).
	Backoff []time.Duration
	Lease   time.Duration
	Log     zerolog.Logger
	// Queue keeps the events: the service's state store when nil.
	Queue saved.DeliveryQueue

	once   sync.Once
	sender *saved.Webhooks
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

// event is the webhook event of r's new status (ok false when r names no
// webhook), to be queued with the write that records it: its webhook-id
// names the revision the write creates.
func (s *Service) event(r *Run) (store.WebhookEvent, bool) {
	if r.Data.Request.WebhookURL == "" || r.Data.WebhookSecret == "" {
		return store.WebhookEvent{}, false
	}
	d := r.Data
	at := s.now().UTC()
	ev := Event{Type: EventStatus, Timestamp: at, Data: EventData{RunID: r.ID, Status: r.Status, PreviousStatus: r.stored,
		PlanVersion: d.PlanVersion, Checkpoint: optional(d.Checkpoint), StopReason: optional(d.StopReason),
		ResultsQueryID: optional(d.ResultsQueryID), Error: d.Error, Counts: d.Progress.Count()}}
	body, err := json.Marshal(ev)
	if err != nil {
		s.Log.Error().Err(err).Str("run", r.ID).Msg("encode run event")
		return store.WebhookEvent{}, false
	}
	id := "run_" + r.ID + "_" + strconv.FormatInt(r.Rev+1, 10)
	return store.WebhookEvent{Source: "prospecting_run:" + r.ID, ID: id, URL: d.Request.WebhookURL, Secret: d.WebhookSecret, Body: body, At: at}, true
}

// queue is where run events wait: Webhooks.Queue, else the state store.
func (s *Service) queue() saved.DeliveryQueue {
	if q := s.webhooks().Queue; q != nil {
		return q
	}
	q, _ := s.State.(saved.DeliveryQueue)
	return q
}

// send starts the delivery of a queued event in this process.
func (s *Service) send(id string) {
	if q := s.queue(); q != nil {
		s.webhooks().Sender().Go(context.Background(), q, id)
	}
}

// Sender is the saved.Webhooks that delivers run events: the same
// delivery loop, lease and signing as monitor changes.
func (w *Webhooks) Sender() *saved.Webhooks {
	w.once.Do(func() {
		c := w.Client
		if c == nil {
			c = netguard.NewClient(netguard.Options{AllowPrivate: w.AllowPrivate, Timeout: 20 * time.Second})
			// As monitor webhooks: a redirect is the receiver's answer, not
			// somewhere else to post the event.
			c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
		}
		w.sender = &saved.Webhooks{Client: c, Backoff: w.Backoff, Lease: w.Lease, Log: w.Log}
	})
	return w.sender
}

// Wait blocks until the deliveries this process started are delivered,
// given up or handed back to the queue.
func (w *Webhooks) Wait() { w.Sender().Wait() }
