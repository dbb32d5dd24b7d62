package prospecting

import (
	"context"
	"encoding/json"
	"strconv"
	"time"

	"github.com/openprospect/prospectd/netguard"
	"github.com/openprospect/prospectd/saved"
	"github.com/openprospect/prospectd/secrets"
	"github.com/openprospect/prospectd/store"
)

// EventStatus is the type of a run's status event.
const EventStatus = "prospecting_run.status"

// Webhooks sends run events, signed as saved-query monitor webhooks are
// (saved.Sign: Standard Webhooks headers, webhook-id the same on every
// retry) and through the same durable queue (saved.DeliveryQueue) and
// sender: an event is queued in the transaction that records the run's
// change, sent at once by this process, retried on the sender's backoff,
// and resumed by any process (saved.Webhooks.Resume) when this one dies.
// A run's secret is stored sealed with the sender's secrets.Box, bound to
// the run, and queued with its events as it is.
type Webhooks struct {
	// AllowPrivate lets run webhook URLs name loopback and private
	// addresses (tests, single-tenant setups); the sender's client must
	// reach them too.
	AllowPrivate bool
	// Sender delivers the events: the process's one saved.Webhooks, which
	// also delivers monitor changes and holds the secrets.Box. Without it
	// (or its Box) runs cannot have a webhook.
	Sender *saved.Webhooks
	// Queue keeps the events: the service's state store when nil.
	Queue saved.DeliveryQueue
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

// check refuses a webhook URL the client would not reach ("" is none),
// and any when there is no sender with a key to seal the secret.
func (w *Webhooks) check(raw string) error {
	if raw == "" {
		return nil
	}
	if w.box() == nil {
		return invalid("webhook_url", "this deployment sends no run webhooks (no webhook sender with a secrets key is configured)")
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
	// The run's sealed secret is bound to its source: it goes as it is.
	return store.WebhookEvent{Source: store.RunWebhookSource(r.ID), ID: id, URL: d.Request.WebhookURL, Secret: d.WebhookSecret, Body: body, At: at}, true
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
	if q, w := s.queue(), s.webhooks().Sender; q != nil && w != nil {
		w.Go(context.Background(), q, id)
	}
}

// box is what seals run secrets (nil when no sender has one).
func (w *Webhooks) box() *secrets.Box {
	if w.Sender == nil {
		return nil
	}
	return w.Sender.Secrets
}

// Wait blocks until the deliveries this process started are delivered,
// given up or handed back to the queue.
func (w *Webhooks) Wait() {
	if w.Sender != nil {
		w.Sender.Wait()
	}
}
