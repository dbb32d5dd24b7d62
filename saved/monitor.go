package saved

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/robfig/cron/v3"
	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/secrets"
	"github.com/openprospect/prospectd/store"
)

// Monitoring (beyond the spec): a saved discover query re-runs on a cron
// schedule; the domains it gains and loses since the previous run are a
// Change, kept as history and sent to a webhook signed the Standard
// Webhooks way (see webhook.go).

// Monitor watches one saved query.
type Monitor struct {
	ID, OrgID, UserID, QueryID string
	// Schedule is a standard 5-field cron expression (or @hourly, @daily).
	Schedule   string
	WebhookURL string
	// Secret signs the webhooks ("whsec_" + base64): as stored, sealed
	// (see secret.go), except in the Monitor Put returns, which carries
	// it in plaintext to be shown once.
	Secret string
	// Domains are the last run's result; nil before the first run.
	Domains   []string
	LastRunAt *time.Time
	NextRunAt time.Time
	CreatedAt time.Time
}

// Change is what one run found different from the run before.
type Change struct {
	ID, MonitorID  string
	At             time.Time
	Added, Dropped []string
	// Total is the number of domains the run found.
	Total      int
	Deliveries []Delivery
}

// Delivery is one attempt to send a Change to the webhook.
type Delivery struct {
	ChangeID string
	Attempt  int
	// Status is the HTTP status (0 when no answer came).
	Status int
	Error  string
	At     time.Time
}

// Run is the outcome of a monitor run the store records.
type Run struct {
	At      time.Time
	Domains []string
	Next    time.Time
	// Change is nil on the first run (the baseline) and when nothing
	// changed.
	Change *Change
}

// MonitorStore is the state monitoring needs (both state stores).
type MonitorStore interface {
	// PutMonitor creates the query's monitor or replaces it (a new
	// schedule, URL and secret; history kept).
	PutMonitor(ctx context.Context, m Monitor) (Monitor, error)
	// MonitorOf returns the monitor of an organization's query;
	// ErrNotFound when there is none.
	MonitorOf(ctx context.Context, orgID, queryID string) (Monitor, error)
	DeleteMonitor(ctx context.Context, orgID, queryID string) error
	// DueMonitors returns up to limit monitors whose next run is at or
	// before now.
	DueMonitors(ctx context.Context, now time.Time, limit int) ([]Monitor, error)
	// RecordRun stores a run of monitor id if its next run is still prev
	// (so of processes racing for one run, one records it) and reports
	// whether it did. A run with a Change also queues the change's
	// delivery (due at the run's time), in the same transaction.
	RecordRun(ctx context.Context, id string, prev time.Time, r Run) (bool, error)
	// AddDelivery logs a delivery attempt.
	AddDelivery(ctx context.Context, d Delivery) error
	// Changes returns the latest changes of an organization's query's
	// monitor, newest first, with their delivery attempts.
	Changes(ctx context.Context, orgID, queryID string, limit int) ([]Change, error)
	DeliveryQueue
}

// PendingDelivery is an event still to be delivered, with the attempts
// made so far: a monitor's change with its monitor (URL and secret), or
// an Event of another source, sent as queued.
type PendingDelivery struct {
	Monitor  Monitor
	Change   Change
	Event    *Event
	Attempts int
	NextAt   time.Time
}

// ID is the delivery's webhook-id.
func (p PendingDelivery) ID() string {
	if p.Event != nil {
		return p.Event.ID
	}
	return p.Change.ID
}

// Event is an event of another source than monitors (a prospecting
// run's status), queued with its URL, secret and body (ID is the
// webhook-id) and delivered as it is, through the same queue, leases,
// backoff and signing as monitor changes.
type Event = store.WebhookEvent

// DeliveryQueue keeps the events not yet delivered — monitor changes and
// Events of other sources, in one queue — so retries survive a restart.
// A delivery is leased to one owner (a process) while it is attempted; a
// lease that is not released (the process died) expires, and the
// delivery is claimed again. Deliveries are named by their webhook-id
// (a change's id for monitor changes).
type DeliveryQueue interface {
	// ClaimDeliveries leases to owner, until now+lease, up to limit
	// deliveries due at now whose lease is free or expired.
	ClaimDeliveries(ctx context.Context, owner string, now time.Time, lease time.Duration, limit int) ([]PendingDelivery, error)
	// ClaimDelivery is ClaimDeliveries for one change; ok is false when it
	// is not due, leased to another owner, or no longer queued.
	ClaimDelivery(ctx context.Context, changeID, owner string, now time.Time, lease time.Duration) (PendingDelivery, bool, error)
	// RescheduleDelivery records the attempts made and when the next is
	// due, and releases the lease; ErrNotFound when owner does not hold it.
	RescheduleDelivery(ctx context.Context, changeID, owner string, attempts int, next time.Time) error
	// FinishDelivery takes a delivered (or given up) event off the queue;
	// ErrNotFound when owner does not hold it.
	FinishDelivery(ctx context.Context, changeID, owner string) error
}

// MinMonitorInterval is the shortest time between two runs a schedule may
// ask for: a run is a discovery query, and a minute-by-minute schedule
// would find nothing new.
const MinMonitorInterval = time.Hour

// ParseSchedule checks a cron expression and its interval.
func ParseSchedule(spec string) (cron.Schedule, error) {
	sched, err := cron.ParseStandard(strings.TrimSpace(spec))
	if err != nil {
		return nil, invalid("schedule", "not a cron expression (5 fields, or @hourly, @daily, @weekly): %v", err)
	}
	t := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < 50; i++ {
		n := sched.Next(t)
		if n.IsZero() {
			return nil, invalid("schedule", "never fires")
		}
		if i > 0 && n.Sub(t) < MinMonitorInterval {
			return nil, invalid("schedule", "runs more often than every %s", MinMonitorInterval)
		}
		t = n
	}
	return sched, nil
}

// NewSecret returns a webhook secret: "whsec_" and 24 random bytes in
// base64 (the Standard Webhooks form).
func NewSecret() (string, error) {
	var b [24]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("webhook secret: %w", err)
	}
	return "whsec_" + base64.StdEncoding.EncodeToString(b[:]), nil
}

// Monitors runs monitors and delivers their changes.
type Monitors struct {
	Store   MonitorStore
	Queries Store
	// Discover re-runs a saved query's discovery parameters for its
	// organization and returns the domains found.
	Discover func(ctx context.Context, m Monitor, params json.RawMessage) ([]string, error)
	Webhooks *Webhooks
	Log      zerolog.Logger
	Now      func() time.Time
	// DeliveryEvery is how often Start looks for queued deliveries that
	// are due (retries of any process, resumed after a restart);
	// DefaultDeliveryEvery when 0.
	DeliveryEvery time.Duration

	wg sync.WaitGroup
}

// DefaultDeliveryEvery is how often queued deliveries are looked for.
const DefaultDeliveryEvery = 5 * time.Second

// MonitorRequest creates or replaces a monitor.
type MonitorRequest struct {
	Schedule   string
	WebhookURL string
}

// Put validates and stores the monitor of a saved query the caller may
// change; the returned Monitor carries the new secret. Only queries with
// discovery parameters (action discover or thin_discover) can be watched.
func (ms *Monitors) Put(ctx context.Context, c Caller, queryID string, in MonitorRequest, check func(json.RawMessage) error) (Monitor, error) {
	sched, err := ParseSchedule(in.Schedule)
	if err != nil {
		return Monitor{}, err
	}
	u, err := url.Parse(strings.TrimSpace(in.WebhookURL))
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return Monitor{}, invalid("webhook_url", "must be an absolute http or https URL")
	}
	q, err := ms.Queries.SavedQuery(ctx, c.OrgID, queryID)
	if err != nil {
		return Monitor{}, fmt.Errorf("monitor %s: %w", queryID, err)
	}
	if !c.Admin && q.UserID != c.UserID {
		return Monitor{}, fmt.Errorf("monitor %s: %w", queryID, ErrNotFound)
	}
	if q.Action != "discover" && q.Action != ThinPrefix+"discover" {
		return Monitor{}, invalid("query_id", "only discover queries can be monitored (this one is %s)", q.Action)
	}
	if len(q.Params) == 0 {
		return Monitor{}, invalid("query_id", "the saved query has no query_params to run again")
	}
	if err := check(q.Params); err != nil {
		return Monitor{}, err
	}
	secret, err := NewSecret()
	if err != nil {
		return Monitor{}, err
	}
	var box *secrets.Box
	if ms.Webhooks != nil {
		box = ms.Webhooks.Secrets
	}
	sealed, err := SealSecret(box, secret, store.MonitorSecretAAD(q.ID))
	if err != nil {
		return Monitor{}, fmt.Errorf("monitor %s: %w", queryID, err)
	}
	m, err := ms.Store.PutMonitor(ctx, Monitor{OrgID: c.OrgID, UserID: c.UserID, QueryID: q.ID, Schedule: strings.TrimSpace(in.Schedule),
		WebhookURL: u.String(), Secret: sealed, NextRunAt: sched.Next(ms.now())})
	if err != nil {
		return Monitor{}, fmt.Errorf("monitor %s: %w", queryID, err)
	}
	m.Secret = secret
	return m, nil
}

// Delete stops monitoring a query the caller may change.
func (ms *Monitors) Delete(ctx context.Context, c Caller, queryID string) error {
	q, err := ms.Queries.SavedQueryInfo(ctx, c.OrgID, queryID)
	if err != nil {
		return fmt.Errorf("monitor %s: %w", queryID, err)
	}
	if !c.Admin && q.UserID != c.UserID {
		return fmt.Errorf("monitor %s: %w", queryID, ErrNotFound)
	}
	if err := ms.Store.DeleteMonitor(ctx, c.OrgID, q.ID); err != nil {
		return fmt.Errorf("monitor %s: %w", queryID, err)
	}
	return nil
}

func (ms *Monitors) now() time.Time {
	if ms.Now != nil {
		return ms.Now().UTC()
	}
	return time.Now().UTC()
}

// Tick runs the monitors that are due once and starts the delivery of
// their changes; it returns the number of runs recorded.
func (ms *Monitors) Tick(ctx context.Context) (int, error) {
	now := ms.now()
	due, err := ms.Store.DueMonitors(ctx, now, 20)
	if err != nil {
		return 0, fmt.Errorf("due monitors: %w", err)
	}
	n := 0
	for _, m := range due {
		ok, err := ms.run(ctx, m, now)
		if err != nil {
			ms.Log.Error().Err(err).Str("monitor", m.ID).Msg("monitor run")
			continue
		}
		if ok {
			n++
		}
	}
	return n, nil
}

func (ms *Monitors) run(ctx context.Context, m Monitor, now time.Time) (bool, error) {
	sched, err := ParseSchedule(m.Schedule)
	if err != nil {
		return false, err
	}
	q, err := ms.Queries.SavedQuery(ctx, m.OrgID, m.QueryID)
	if err != nil {
		return false, err
	}
	r := Run{At: now, Next: sched.Next(now)}
	if r.Domains, err = ms.Discover(ctx, m, q.Params); err != nil {
		// A failed run is retried at the next scheduled time.
		ms.Log.Warn().Err(err).Str("monitor", m.ID).Msg("monitor discovery failed")
		r.Domains = m.Domains
	} else if m.Domains != nil {
		added, dropped := diff(m.Domains, r.Domains)
		if len(added)+len(dropped) > 0 {
			r.Change = &Change{MonitorID: m.ID, At: now, Added: added, Dropped: dropped, Total: len(r.Domains)}
		}
	}
	if r.Domains == nil {
		r.Domains = []string{}
	}
	ok, err := ms.Store.RecordRun(ctx, m.ID, m.NextRunAt, r)
	if err != nil || !ok {
		return false, err
	}
	if r.Change != nil && ms.Webhooks != nil {
		ms.wg.Add(1)
		go func() {
			defer ms.wg.Done()
			ms.Webhooks.Deliver(context.WithoutCancel(ctx), ms.Store, r.Change.ID)
		}()
	}
	return true, nil
}

// Resume starts the queued deliveries that are due and not leased — the
// retries a stopped or killed process left, of monitors and of every
// other source sharing the queue — and returns how many.
func (ms *Monitors) Resume(ctx context.Context) (int, error) {
	if ms.Webhooks == nil {
		return 0, nil
	}
	return ms.Webhooks.Resume(ctx, ms.Store)
}

// Wait waits for the deliveries in flight (tests, shutdown).
func (ms *Monitors) Wait() {
	ms.wg.Wait()
	if ms.Webhooks != nil {
		ms.Webhooks.Wait()
	}
}

// Start runs Tick every interval, and Resume every DeliveryEvery, until
// ctx is done.
func (ms *Monitors) Start(ctx context.Context, interval time.Duration) {
	every := ms.DeliveryEvery
	if every <= 0 {
		every = DefaultDeliveryEvery
	}
	if ms.Webhooks != nil {
		go ms.Webhooks.ResumeEvery(ctx, ms.Store, every)
	}
	go func() {
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			if _, err := ms.Tick(ctx); err != nil && ctx.Err() == nil {
				ms.Log.Error().Err(err).Msg("monitor tick")
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
}

// diff returns the domains of now not in before, and of before not in now.
func diff(before, now []string) (added, dropped []string) {
	was := make(map[string]bool, len(before))
	for _, d := range before {
		was[d] = true
	}
	is := make(map[string]bool, len(now))
	for _, d := range now {
		is[d] = true
		if !was[d] {
			added = append(added, d)
		}
	}
	for _, d := range before {
		if !is[d] {
			dropped = append(dropped, d)
		}
	}
	slices.Sort(added)
	slices.Sort(dropped)
	return added, dropped
}
