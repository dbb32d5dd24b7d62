package storetest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/openprospect/prospectd/saved"
	"github.com/openprospect/prospectd/secrets"
	"github.com/openprospect/prospectd/store"
)

// WebhookSecretStore keeps monitors, runs and the webhook queue, and
// rewrites their signing secrets in place.
type WebhookSecretStore interface {
	MonitorStore
	store.ProspectingRuns
	store.WebhookSecretSealer
}

// RunWebhookSecrets runs the webhook-secret suite; open must return a
// fresh store.
func RunWebhookSecrets(t *testing.T, open func(t *testing.T) WebhookSecretStore) {
	t.Run("SealLegacy", func(t *testing.T) { testSealLegacySecrets(t, open(t)) })
	t.Run("ChosenRunID", func(t *testing.T) { testChosenRunID(t, open(t)) })
}

// Box is a secrets.Box for tests: primary and old keys of 32 repeated
// bytes each.
func Box(t *testing.T, primary byte, old ...byte) *secrets.Box {
	t.Helper()
	var olds [][]byte
	for _, o := range old {
		olds = append(olds, bytes.Repeat([]byte{o}, 32))
	}
	box, err := secrets.New(bytes.Repeat([]byte{primary}, 32), olds...)
	if err != nil {
		t.Fatal(err)
	}
	return box
}

// testSealLegacySecrets: plaintext secrets as versions before sealing
// wrote them — a monitor's, a run's (in its data) and queued events' —
// are sealed in place, each bound to its row, the rest of each row as it
// was; a second pass has nothing to do; a rotation seals them again under
// the new key; a key that cannot open them leaves them as they are with
// an error naming the rows; a row written meanwhile keeps its new value.
func testSealLegacySecrets(t *testing.T, s WebhookSecretStore) {
	ctx := context.Background()
	m := newMember(t, s, "acme", "ops@acme.test")
	q, err := s.CreateSavedQuery(ctx, saved.Query{OrgID: m.org, UserID: m.user, Name: "watch", Action: "discover", Domains: []string{"a.com"}, Params: []byte(`{"icp_text":"x"}`)})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	const monSecret, runSecret, loneSecret = "whsec_bW9uaXRvci1zZWNyZXQ=", "whsec_cnVuLXNlY3JldA==", "whsec_bG9uZS1zZWNyZXQ="
	mon, err := s.PutMonitor(ctx, saved.Monitor{OrgID: m.org, UserID: m.user, QueryID: q.ID, Schedule: "@hourly", WebhookURL: "https://hooks.example/m", Secret: monSecret, NextRunAt: t0})
	if err != nil {
		t.Fatal(err)
	}
	c := &saved.Change{At: t0, Added: []string{"b.com"}, Total: 1}
	if ok, err := s.RecordRun(ctx, mon.ID, t0, saved.Run{At: t0, Domains: []string{"b.com"}, Next: t0.Add(time.Hour), Change: c}); err != nil || !ok {
		t.Fatalf("record run: %v %v", ok, err)
	}
	data := `{"request":{"brief":"b","webhook_url":"https://hooks.example/r"},"plan_version":3,"webhook_secret":"` + runSecret + `","progress":{"round":1}}`
	run, _, err := s.CreateRun(ctx, store.ProspectingRun{OrgID: m.org, UserID: m.user, IdemKey: "k", ReqHash: "h", Status: "drafting", Data: json.RawMessage(data)})
	if err != nil {
		t.Fatal(err)
	}
	plain, _, err := s.CreateRun(ctx, store.ProspectingRun{OrgID: m.org, UserID: m.user, IdemKey: "k2", ReqHash: "h", Status: "drafting", Data: json.RawMessage(`{"plan_version":1}`)})
	if err != nil {
		t.Fatal(err)
	}
	src := store.RunWebhookSource(run.ID)
	if run, err = s.UpdateRun(ctx, run,
		store.WebhookEvent{Source: src, ID: "ev-run", URL: "https://hooks.example/r", Secret: runSecret, Body: []byte(`{}`), At: t0},
		store.WebhookEvent{ID: "ev-lone", URL: "https://hooks.example/l", Secret: loneSecret, Body: []byte(`{}`), At: t0}); err != nil {
		t.Fatal(err)
	}

	type seen struct{ stored, aad string }
	pass := func(box *secrets.Box) (int, []seen, error) {
		var got []seen
		n, err := s.ResealWebhookSecrets(ctx, func(stored, aad string) (string, bool, error) {
			got = append(got, seen{stored, aad})
			return saved.Reseal(box, stored, aad)
		})
		slices.SortFunc(got, func(a, b seen) int { return strings.Compare(a.aad+a.stored, b.aad+b.stored) })
		return n, got, err
	}
	// secretsNow reads every secret back as stored: the monitor's, the
	// queued events' (by event id) and the run's.
	secretsNow := func() map[string]string {
		out := map[string]string{}
		mo, err := s.MonitorOf(ctx, m.org, q.ID)
		if err != nil {
			t.Fatal(err)
		}
		out["monitor"] = mo.Secret
		ps, err := s.ClaimDeliveries(ctx, "check", t0.Add(time.Hour), time.Minute, 10)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			if p.Event != nil {
				out[p.Event.ID] = p.Event.Secret
			} else if p.Monitor.Secret != mo.Secret {
				t.Fatalf("claimed change with monitor secret %q, monitor holds %q", p.Monitor.Secret, mo.Secret)
			}
			if err := s.RescheduleDelivery(ctx, p.ID(), "check", 0, t0); err != nil {
				t.Fatal(err)
			}
		}
		r, err := s.GetRun(ctx, m.org, run.ID)
		if err != nil {
			t.Fatal(err)
		}
		if out["run"], err = store.RunSecret(r.Data); err != nil {
			t.Fatal(err)
		}
		if r.Rev != run.Rev {
			t.Fatalf("run rev %d, was %d", r.Rev, run.Rev)
		}
		var was, is map[string]json.RawMessage
		json.Unmarshal(run.Data, &was)
		json.Unmarshal(r.Data, &is)
		delete(was, "webhook_secret")
		delete(is, "webhook_secret")
		if !maps.EqualFunc(was, is, func(a, b json.RawMessage) bool { return bytes.Equal(a, b) }) {
			t.Fatalf("run data changed beyond its secret: %s -> %s", run.Data, r.Data)
		}
		if p, err := s.GetRun(ctx, m.org, plain.ID); err != nil || string(p.Data) != `{"plan_version":1}` {
			t.Fatalf("a run without a webhook was rewritten: %s %v", p.Data, err)
		}
		return out
	}
	want := map[string]string{"monitor": monSecret, "ev-run": runSecret, "ev-lone": loneSecret, "run": runSecret}
	aads := map[string]string{"monitor": store.MonitorSecretAAD(q.ID), "ev-run": src, "ev-lone": store.EventSecretAAD("", "ev-lone"), "run": src}
	if got := secretsNow(); !maps.Equal(got, want) {
		t.Fatalf("stored before sealing: %v", got)
	}
	// opens checks every secret is sealed, bound to its row, under box's
	// primary key, and opens to what it was.
	opens := func(box *secrets.Box) {
		t.Helper()
		for k, v := range secretsNow() {
			if !secrets.IsSealed(v) || strings.Contains(v, strings.TrimPrefix(want[k], "whsec_")) || box.NeedsRotation(v) {
				t.Fatalf("%s: stored %q", k, v)
			}
			if p, err := box.Open(v, aads[k]); err != nil || p != want[k] {
				t.Fatalf("%s: opens to %q, %v", k, p, err)
			}
			if _, err := box.Open(v, "prospecting_run:other"); err == nil {
				t.Fatalf("%s: opens bound to another row", k)
			}
		}
	}

	old := Box(t, 1)
	n, got, err := pass(old)
	if err != nil || n != 4 {
		t.Fatalf("first pass: %d sealed, %v; saw %v", n, err, got)
	}
	wantSeen := []seen{{monSecret, aads["monitor"]}, {runSecret, src}, {runSecret, src}, {loneSecret, aads["ev-lone"]}}
	slices.SortFunc(wantSeen, func(a, b seen) int { return strings.Compare(a.aad+a.stored, b.aad+b.stored) })
	if !slices.Equal(got, wantSeen) {
		t.Fatalf("fix saw %v, want %v", got, wantSeen)
	}
	opens(old)
	if n, _, err := pass(old); err != nil || n != 0 {
		t.Fatalf("second pass: %d sealed, %v", n, err)
	}

	// A key that opens none of them: nothing changes, every row is named.
	before := secretsNow()
	n, _, err = pass(Box(t, 3, 4))
	if err == nil || n != 0 || !errors.Is(err, secrets.ErrUnknownKey) {
		t.Fatalf("unknown key: %d, %v", n, err)
	}
	for _, id := range []string{mon.ID, run.ID, "ev-run", "ev-lone"} {
		if !strings.Contains(err.Error(), id) {
			t.Errorf("the error names no row %s: %v", id, err)
		}
	}
	if after := secretsNow(); !maps.Equal(before, after) {
		t.Fatalf("a failed pass changed %v to %v", before, after)
	}

	// Rotation: the old key among the old ones seals all again under the
	// new one; a monitor replaced meanwhile keeps its new secret.
	rotated := Box(t, 2, 1)
	replaced := false
	n, err = s.ResealWebhookSecrets(ctx, func(stored, aad string) (string, bool, error) {
		if aad == aads["monitor"] && !replaced {
			replaced = true
			if _, err := s.PutMonitor(ctx, saved.Monitor{OrgID: m.org, UserID: m.user, QueryID: q.ID, Schedule: "@hourly", WebhookURL: "https://hooks.example/m",
				Secret: "v1:new", NextRunAt: t0}); err != nil {
				t.Fatal(err)
			}
		}
		return saved.Reseal(rotated, stored, aad)
	})
	if err != nil || n != 3 {
		t.Fatalf("rotation: %d sealed, %v", n, err)
	}
	after := secretsNow()
	if after["monitor"] != "v1:new" {
		t.Fatalf("the pass overwrote a monitor replaced meanwhile: %q", after["monitor"])
	}
	newOnly := Box(t, 2)
	for _, k := range []string{"run", "ev-run", "ev-lone"} {
		if p, err := newOnly.Open(after[k], aads[k]); err != nil || p != want[k] {
			t.Fatalf("%s after rotation: %q %v", k, p, err)
		}
	}
}

// testChosenRunID: a run created with an id keeps it (the service binds
// the run's sealed secret to it); a repeat of its key returns that run.
func testChosenRunID(t *testing.T, s WebhookSecretStore) {
	ctx := context.Background()
	m := newMember(t, s, "acme", "ops@acme.test")
	chosen := uuid.NewString()
	r, created, err := s.CreateRun(ctx, store.ProspectingRun{ID: chosen, OrgID: m.org, UserID: m.user, IdemKey: "k", ReqHash: "h", Status: "drafting", Data: json.RawMessage(`{}`)})
	if err != nil || !created || r.ID != chosen {
		t.Fatalf("create with an id: %+v %v %v", r, created, err)
	}
	again, created, err := s.CreateRun(ctx, store.ProspectingRun{ID: uuid.NewString(), OrgID: m.org, UserID: m.user, IdemKey: "k", ReqHash: "h", Status: "drafting", Data: json.RawMessage(`{}`)})
	if err != nil || created || again.ID != chosen {
		t.Fatalf("repeat: %+v %v %v", again, created, err)
	}
	if got, err := s.GetRun(ctx, m.org, chosen); err != nil || got.ID != chosen {
		t.Fatalf("get: %+v %v", got, err)
	}
}
