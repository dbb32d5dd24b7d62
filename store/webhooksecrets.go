package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

// Webhook signing secrets (saved-query monitors', prospecting runs' and
// the queued events') are stored sealed with package secrets, each bound
// by its associated data to the row that owns it, so a sealed value
// copied to another row does not open. The associated data of each:

// MonitorSecretAAD binds a monitor's secret to its saved query (a query
// has at most one monitor; replacing it keeps the query).
func MonitorSecretAAD(queryID string) string { return "saved_monitor:" + queryID }

// RunWebhookSource is the Source of a prospecting run's queued events, and
// the associated data of the run's secret: a run's sealed secret is queued
// with its events as it is.
func RunWebhookSource(runID string) string { return "prospecting_run:" + runID }

// EventSecretAAD binds a queued event's secret to its source (the events
// of a run share the run's secret), or to its id when it has none.
func EventSecretAAD(source, id string) string {
	if source != "" {
		return source
	}
	return "webhook_event:" + id
}

// WebhookSecretSealer rewrites stored webhook signing secrets in place:
// serve seals at start-up the plaintext secrets versions before sealing
// wrote, and those sealed under a rotated-out key again under the current
// one. Both state stores implement it.
type WebhookSecretSealer interface {
	// ResealWebhookSecrets calls fix with every stored signing secret —
	// monitors', queued events' and prospecting runs' (the webhook_secret
	// of the run's data) — and the associated data binding it to its row,
	// and stores what fix returns when it reports a change, only if the
	// row still holds the value read (a concurrent write wins). A fix
	// error skips its row; every row is tried and the errors are joined.
	// n counts the secrets rewritten.
	ResealWebhookSecrets(ctx context.Context, fix func(stored, aad string) (string, bool, error)) (n int, err error)
}

// Kinds of HeldSecret.
const (
	SecretOfMonitor = "monitor"
	SecretOfEvent   = "event"
	SecretOfRun     = "run"
)

// HeldSecret is a signing secret as a driver reads it for
// ResealWebhookSecrets: a monitor's or a queued event's column, or the
// webhook_secret member of a prospecting run's data.
type HeldSecret struct {
	Kind string
	// ID is the monitor's, the event's or the run's; Rev the run's
	// revision when read.
	ID  string
	Rev int64
	// Value is the secret as stored; Data the run's data it was read
	// from.
	Value string
	Data  []byte
	AAD   string
}

// ResealSecrets is the drivers' ResealWebhookSecrets once they have read
// the secrets: it applies fix to each and hands the changed ones to put
// with the new value (and, for a run, its data with the value replaced);
// put reports whether the row still held the old value and took the new.
func ResealSecrets(ctx context.Context, held []HeldSecret, fix func(stored, aad string) (string, bool, error),
	put func(ctx context.Context, h HeldSecret, value string, data []byte) (bool, error)) (int, error) {
	var errs []error
	n := 0
	for _, h := range held {
		v, changed, err := fix(h.Value, h.AAD)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s %s: %w", h.Kind, h.ID, err))
			continue
		}
		if !changed {
			continue
		}
		var data []byte
		if h.Kind == SecretOfRun {
			if data, err = replaceMember(h.Data, "webhook_secret", v); err != nil {
				errs = append(errs, fmt.Errorf("run %s: %w", h.ID, err))
				continue
			}
		}
		ok, err := put(ctx, h, v, data)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s %s: %w", h.Kind, h.ID, err))
			continue
		}
		if ok {
			n++
		}
	}
	return n, errors.Join(errs...)
}

// RunSecret reads the webhook_secret member of a run's data ("" when
// there is none).
func RunSecret(data []byte) (string, error) {
	var d struct {
		Secret string `json:"webhook_secret"`
	}
	if err := json.Unmarshal(data, &d); err != nil {
		return "", fmt.Errorf("run data: %w", err)
	}
	return d.Secret, nil
}

// replaceMember sets a string member of a JSON object, keeping the others.
func replaceMember(data []byte, name, value string) ([]byte, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		return nil, fmt.Errorf("run data: %w", err)
	}
	v, err := json.Marshal(value)
	if err != nil {
		return nil, err
	}
	obj[name] = v
	return json.Marshal(obj)
}

// HoldSecret makes the HeldSecret of a row a driver read: kind, the
// row's id and revision (runs), the stored value (monitors, events), the
// owner its associated data names (a monitor's query id, an event's
// source) and a run's data.
func HoldSecret(kind, id string, rev int64, value, owner string, data []byte) (HeldSecret, error) {
	h := HeldSecret{Kind: kind, ID: id, Rev: rev, Value: value, Data: data}
	var err error
	switch kind {
	case SecretOfMonitor:
		h.AAD = MonitorSecretAAD(owner)
	case SecretOfEvent:
		h.AAD = EventSecretAAD(owner, id)
	case SecretOfRun:
		h.AAD = RunWebhookSource(id)
		h.Value, err = RunSecret(data)
	default:
		err = fmt.Errorf("webhook secret of unknown kind %q", kind)
	}
	return h, err
}
