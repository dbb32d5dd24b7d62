package saved

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/secrets"
	"github.com/openprospect/prospectd/store"
)

// Webhooks follow the Standard Webhooks conventions: headers webhook-id
// (the change id, the same on every retry so receivers can deduplicate),
// webhook-timestamp (Unix seconds) and webhook-signature ("v1," and the
// base64 HMAC-SHA256 of "<id>.<timestamp>.<body>" keyed with the secret's
// base64-decoded part after "whsec_").

// EventChanged is the type of a monitor change event.
const EventChanged = "saved_query.changed"

// DefaultBackoff are the waits before the retries of a failed delivery.
var DefaultBackoff = []time.Duration{10 * time.Second, time.Minute, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour}

// Webhooks delivers change events, and the events of other sources
// queued beside them (one sender per process, wired in cmd/prospectd).
type Webhooks struct {
	Client *http.Client
	// Secrets seals the signing secrets at rest and opens them at signing
	// time (see secret.go); without it only plaintext secrets, written
	// before sealing, can sign, and Monitors.Put refuses.
	Secrets *secrets.Box
	// Backoff are the waits before each retry (DefaultBackoff when nil);
	// a delivery is tried len(Backoff)+1 times.
	Backoff []time.Duration
	Log     zerolog.Logger
	Now     func() time.Time
	// Lease bounds how long an attempt holds its event (DefaultLease when
	// 0); Owner names this process's leases (random when empty).
	Lease     time.Duration
	Owner     string
	ownerOnce sync.Once
	wg        sync.WaitGroup
}

// ChangeEvent is the webhook body.
type ChangeEvent struct {
	Type      string     `json:"type"`
	Timestamp time.Time  `json:"timestamp"`
	Data      ChangeData `json:"data"`
}

// ChangeData is the event's payload.
type ChangeData struct {
	QueryID   string    `json:"query_id"`
	MonitorID string    `json:"monitor_id"`
	ChangeID  string    `json:"change_id"`
	At        time.Time `json:"at"`
	Added     []string  `json:"added"`
	Dropped   []string  `json:"dropped"`
	Total     int       `json:"total"`
}

// Sign is the webhook-signature value of a delivery.
func Sign(secret, id string, ts int64, body []byte) (string, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil {
		return "", fmt.Errorf("webhook secret: %w", err)
	}
	mac := hmac.New(sha256.New, key)
	fmt.Fprintf(mac, "%s.%d.", id, ts)
	mac.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil)), nil
}

// ErrBadSignature: a webhook whose signature does not verify.
var ErrBadSignature = errors.New("webhook signature does not verify")

// Verify checks a received webhook: one of the space-separated
// signatures matches, and the timestamp is within tolerance of now.
func Verify(secret string, h http.Header, body []byte, now time.Time, tolerance time.Duration) error {
	ts, err := strconv.ParseInt(h.Get("webhook-timestamp"), 10, 64)
	if err != nil {
		return fmt.Errorf("%w: bad timestamp", ErrBadSignature)
	}
	if d := now.Sub(time.Unix(ts, 0)); d > tolerance || d < -tolerance {
		return fmt.Errorf("%w: timestamp outside the tolerance", ErrBadSignature)
	}
	want, err := Sign(secret, h.Get("webhook-id"), ts, body)
	if err != nil {
		return err
	}
	for _, sig := range strings.Fields(h.Get("webhook-signature")) {
		if hmac.Equal([]byte(sig), []byte(want)) {
			return nil
		}
	}
	return ErrBadSignature
}

// Deliver sends a queued event — a monitor's change, or an Event of
// another source — to its webhook (see deliver); it does nothing when the
// event is not due or another process holds it.
func (w *Webhooks) Deliver(ctx context.Context, st DeliveryQueue, id string) {
	p, ok, err := st.ClaimDelivery(ctx, id, w.owner(), w.now(), w.lease())
	if err != nil {
		w.Log.Error().Err(err).Str("event", id).Msg("claim webhook delivery")
		return
	}
	if ok {
		w.deliver(ctx, st, p)
	}
}

// Go runs Deliver in the background; Wait waits for it.
func (w *Webhooks) Go(ctx context.Context, st DeliveryQueue, id string) {
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		w.Deliver(ctx, st, id)
	}()
}

// Resume starts the queued deliveries of every source that are due and
// not leased — the retries a stopped or killed process left — and
// returns how many.
func (w *Webhooks) Resume(ctx context.Context, st DeliveryQueue) (int, error) {
	ps, err := st.ClaimDeliveries(ctx, w.owner(), w.now(), w.lease(), 50)
	if err != nil {
		return 0, fmt.Errorf("claim deliveries: %w", err)
	}
	for _, p := range ps {
		w.wg.Add(1)
		go func() {
			defer w.wg.Done()
			w.deliver(ctx, st, p)
		}()
	}
	return len(ps), nil
}

// ResumeEvery runs Resume every interval until ctx is done.
func (w *Webhooks) ResumeEvery(ctx context.Context, st DeliveryQueue, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if _, err := w.Resume(ctx, st); err != nil && ctx.Err() == nil {
			w.Log.Error().Err(err).Msg("resume webhook deliveries")
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Wait waits for the deliveries started by Go and Resume (tests,
// shutdown).
func (w *Webhooks) Wait() { w.wg.Wait() }

// content is what a delivery sends: its id, where, signed with what (the
// secret as stored and its associated data).
func content(p PendingDelivery) (id, url, secret, aad string, body []byte, err error) {
	if e := p.Event; e != nil {
		return e.ID, e.URL, e.Secret, store.EventSecretAAD(e.Source, e.ID), e.Body, nil
	}
	c, m := p.Change, p.Monitor
	body, err = json.Marshal(ChangeEvent{Type: EventChanged, Timestamp: c.At, Data: ChangeData{
		QueryID: m.QueryID, MonitorID: m.ID, ChangeID: c.ID, At: c.At, Added: nonNil(c.Added), Dropped: nonNil(c.Dropped), Total: c.Total}})
	return c.ID, m.WebhookURL, m.Secret, store.MonitorSecretAAD(m.QueryID), body, err
}

// deliver sends a claimed delivery, retrying with backoff until a 2xx
// answer or the attempts run out; every attempt is logged. Between
// attempts the queue holds the attempts made and when the next is due,
// and the lease is released: if this process stops during the wait, the
// next process to look (Monitors.Resume) claims the delivery when it is
// due and goes on from there; the same event is never in flight twice.
//
// Attempts at a monitor change are logged in its delivery log (when st
// keeps one: a MonitorStore); attempts at other events are logged only.
func (w *Webhooks) deliver(ctx context.Context, st DeliveryQueue, p PendingDelivery) {
	id, url, secret, aad, body, err := content(p)
	log := w.Log.With().Str("event", id).Logger()
	if err != nil {
		log.Error().Err(err).Msg("encode webhook")
		return
	}
	backoff := w.Backoff
	if backoff == nil {
		backoff = DefaultBackoff
	}
	deliveries, _ := st.(interface {
		AddDelivery(ctx context.Context, d Delivery) error
	})
	owner := w.owner()
	for attempt := p.Attempts + 1; ; attempt++ {
		status, err := w.send(ctx, url, secret, aad, id, body)
		if p.Event == nil && deliveries != nil {
			d := Delivery{ChangeID: id, Attempt: attempt, Status: status, At: w.now()}
			if err != nil {
				d.Error = err.Error()
			}
			if lerr := deliveries.AddDelivery(ctx, d); lerr != nil {
				log.Error().Err(lerr).Msg("log webhook delivery")
			}
		}
		if err == nil || attempt > len(backoff) {
			if err != nil {
				log.Warn().Err(err).Int("attempts", attempt).Msg("webhook given up")
			} else {
				log.Info().Int("attempt", attempt).Int("status", status).Msg("webhook delivered")
			}
			if ferr := st.FinishDelivery(ctx, id, owner); ferr != nil {
				log.Error().Err(ferr).Msg("finish webhook delivery")
				return
			}
			if p.Event != nil && p.Event.Source != "" {
				// The next event of the source waited for this one.
				if _, rerr := w.Resume(ctx, st); rerr != nil {
					log.Error().Err(rerr).Msg("resume webhook deliveries")
				}
			}
			return
		}
		wait := backoff[min(attempt, len(backoff))-1]
		log.Warn().Err(err).Int("attempt", attempt).Dur("retry_in", wait).Msg("webhook failed")
		next := w.now().Add(wait)
		if rerr := st.RescheduleDelivery(ctx, id, owner, attempt, next); rerr != nil {
			log.Error().Err(rerr).Msg("reschedule webhook delivery")
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		np, ok, cerr := st.ClaimDelivery(ctx, id, owner, w.now(), w.lease())
		if cerr != nil || !ok {
			// Another process took it at its due time, or the monitor is
			// gone.
			return
		}
		attempt = np.Attempts
		if np.Event == nil {
			// The URL and secret may have been replaced.
			url, secret, aad = np.Monitor.WebhookURL, np.Monitor.Secret, store.MonitorSecretAAD(np.Monitor.QueryID)
		}
	}
}

// DefaultLease is how long a delivery attempt holds its event: longer
// than an attempt's timeout.
const DefaultLease = time.Minute

func (w *Webhooks) lease() time.Duration {
	if w.Lease > 0 {
		return w.Lease
	}
	return DefaultLease
}

// owner names this process's leases.
func (w *Webhooks) owner() string {
	w.ownerOnce.Do(func() {
		if w.Owner == "" {
			var b [8]byte
			rand.Read(b[:])
			w.Owner = hex.EncodeToString(b[:])
		}
	})
	return w.Owner
}

func (w *Webhooks) now() time.Time {
	if w.Now != nil {
		return w.Now()
	}
	return time.Now()
}

// send signs and posts one attempt; the stored secret is opened here
// only, and an error opening it (a key rotated out of the configuration)
// fails the attempt like an unreachable receiver.
func (w *Webhooks) send(ctx context.Context, url, stored, aad, id string, body []byte) (int, error) {
	secret, err := OpenSecret(w.Secrets, stored, aad)
	if err != nil {
		return 0, err
	}
	ts := w.now().Unix()
	sig, err := Sign(secret, id, ts, body)
	if err != nil {
		return 0, err
	}
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, fmt.Errorf("webhook request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("webhook-id", id)
	req.Header.Set("webhook-timestamp", strconv.FormatInt(ts, 10))
	req.Header.Set("webhook-signature", sig)
	client := w.Client
	if client == nil {
		client = WebhookClient(false)
	}
	res, err := client.Do(req)
	if err != nil {
		return 0, fmt.Errorf("webhook post: %w", err)
	}
	io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	res.Body.Close()
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return res.StatusCode, fmt.Errorf("webhook answered %d", res.StatusCode)
	}
	return res.StatusCode, nil
}

// ErrPrivateAddress: a webhook URL resolving to a loopback, private,
// link-local or otherwise non-public address, refused so customers cannot
// make the server call into its own network.
var ErrPrivateAddress = errors.New("webhook address is not public")

// WebhookClient is the HTTP client of webhook deliveries: redirects are
// not followed, and unless allowPrivate (tests, single-tenant setups)
// connections to non-public addresses are refused at dial time, after DNS
// resolution, so a name that resolves inward is refused too.
func WebhookClient(allowPrivate bool) *http.Client {
	d := &net.Dialer{Timeout: 10 * time.Second}
	if !allowPrivate {
		d.Control = func(_, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return fmt.Errorf("%w: %s", ErrPrivateAddress, address)
			}
			a := ap.Addr().Unmap()
			if a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
				a.IsMulticast() || a.IsUnspecified() || a.IsInterfaceLocalMulticast() {
				return fmt.Errorf("%w: %s", ErrPrivateAddress, a)
			}
			return nil
		}
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.Proxy = nil
	tr.DialContext = d.DialContext
	return &http.Client{Transport: tr, Timeout: 20 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
