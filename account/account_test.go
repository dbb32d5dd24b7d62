package account

import (
	"context"
	"errors"
	"io"
	"mime/quotedprintable"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/openprospect/prospectd/account/mailtest"
	"github.com/openprospect/prospectd/store"
	"github.com/openprospect/prospectd/store/sqlite"
)

func openStore(t *testing.T) store.Store {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func TestLoadPlans(t *testing.T) {
	p, err := LoadPlans("")
	if err != nil || p[store.PlanStarter].Credits != 10_000 {
		t.Fatalf("defaults: %+v %v", p, err)
	}
	path := filepath.Join(t.TempDir(), "plans.json")
	os.WriteFile(path, []byte(`{"starter": {"credits_per_period": 500}, "TEAM": {"rate_multiplier": 8}}`), 0o644)
	p, err = LoadPlans(path)
	if err != nil || p[store.PlanStarter].Credits != 500 || p[store.PlanStarter].PricePer1K != 20 || p[store.PlanTeam].RateMultiplier != 8 {
		t.Fatalf("overrides: %+v %v", p, err)
	}
	for _, bad := range []string{`{"gold": {}}`, `{"starter": {"credits_per_period": -1}}`, `[1]`, `{"team": {"rate_multiplier": 0}}`} {
		os.WriteFile(path, []byte(bad), 0o644)
		if _, err := LoadPlans(path); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}

func TestRequire(t *testing.T) {
	for _, tc := range []struct {
		have, need store.Plan
		ok         bool
	}{
		{store.PlanNone, store.PlanStarter, false},
		{store.PlanStarter, store.PlanStarter, true},
		{store.PlanStarter, store.PlanTeam, false},
		{store.PlanTeam, store.PlanStarter, true},
		{store.PlanTeam, store.PlanTeam, true},
	} {
		err := Require(store.Org{Plan: tc.have}, tc.need)
		if (err == nil) != tc.ok || err != nil && !errors.Is(err, ErrPlan) {
			t.Errorf("%s needs %s: %v", tc.have, tc.need, err)
		}
	}
}

func TestBillerCutsToCredits(t *testing.T) {
	st := openStore(t)
	ctx := context.Background()
	org, _ := st.CreateOrg(ctx, "Acme", store.PlanStarter)
	plans := DefaultPlans()
	plans[store.PlanStarter] = PlanConfig{Credits: 3, RateMultiplier: 1}
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	b := &Biller{Store: st, Plans: plans, Now: func() time.Time { return now }}
	r, err := b.Bill(ctx, org, "discover", Companies([]string{"a.com", "b.com", "c.com", "d.com"}))
	if err != nil || r.Billed != 3 || r.Refused != 1 || r.Covered[3] {
		t.Fatalf("%+v %v", r, err)
	}
	if _, err := b.Bill(ctx, org, "discover", Companies([]string{"e.com"})); !errors.Is(err, ErrNoCredits) {
		t.Fatalf("no credits: %v", err)
	}
	// Records paid within 90 days stay free even with no credits left.
	if r, err := b.Bill(ctx, org, "bizdata", Companies([]string{"a.com"})); err != nil || r.Free != 1 {
		t.Fatalf("cached: %+v %v", r, err)
	}
	u, err := b.Usage(ctx, org)
	if err != nil || u.CreditsUsed != 3 || u.CreditsLeft != 0 || u.RecordsBilled[store.KindCompany] != 3 || u.RecordsFree[store.KindCompany] != 1 ||
		!u.PeriodStart.Equal(time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("usage %+v %v", u, err)
	}
	// Next month the quota is back.
	now = now.AddDate(0, 1, 0)
	if r, err := b.Bill(ctx, org, "discover", Companies([]string{"e.com"})); err != nil || r.Billed != 1 {
		t.Fatalf("next period: %+v %v", r, err)
	}
}

func TestLimiter(t *testing.T) {
	l := &Limiter{Limits: Limits{KeyPerSecond: 1, KeyBurst: 2, OrgPerSecond: 2, OrgBurst: 3}, Plans: DefaultPlans()}
	now := time.Now()
	p := store.Principal{KeyID: "k1", Org: store.Org{ID: "o1", Plan: store.PlanStarter}}
	for i := 0; i < 2; i++ {
		if ok, _ := l.Allow(p, now); !ok {
			t.Fatalf("request %d refused within the burst", i)
		}
	}
	ok, retry := l.Allow(p, now)
	if ok || retry < time.Second {
		t.Fatalf("third request: %v retry %v", ok, retry)
	}
	// Another key of the same organization has its own key bucket but
	// shares the organization's (burst 3: one left).
	p2 := p
	p2.KeyID = "k2"
	if ok, _ := l.Allow(p2, now); !ok {
		t.Fatal("second key refused")
	}
	if ok, _ := l.Allow(p2, now); ok {
		t.Fatal("organization bucket not shared")
	}
	// Tokens come back with time.
	if ok, _ := l.Allow(p, now.Add(2*time.Second)); !ok {
		t.Fatal("not refilled")
	}
	// The team plan multiplies the limits.
	team := store.Principal{KeyID: "k3", Org: store.Org{ID: "o2", Plan: store.PlanTeam}}
	n := 0
	for {
		if ok, _ := l.Allow(team, now); !ok {
			break
		}
		n++
	}
	if n != 8 { // key burst 2 × multiplier 4
		t.Fatalf("team burst %d, want 8", n)
	}
}

func TestSignup(t *testing.T) {
	st := openStore(t)
	ctx := context.Background()
	smtp := mailtest.Start(t)
	s := &Signups{Store: st, Mailer: &SMTPMailer{URL: smtp.URL, From: "noreply@prospect.test"}, PublicURL: "https://api.example.com/"}
	req := SignupRequest{Email: "Jo.Doe@Acme-Robotics.com", FirstName: "Jo", LastName: "Doe", Agent: "claude-code"}
	next, err := s.Start(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(next, "jo.doe@acme-robotics.com") || strings.Contains(next, "pk_live") {
		t.Errorf("next step %q", next)
	}
	msgs := smtp.Messages()
	if len(msgs) != 1 || msgs[0].To[0] != "jo.doe@acme-robotics.com" {
		t.Fatalf("messages %+v", msgs)
	}
	_, rawBody, _ := strings.Cut(msgs[0].Data, "\r\n\r\n")
	body, err := io.ReadAll(quotedprintable.NewReader(strings.NewReader(rawBody)))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`https://api\.example\.com/v1/public/signup/confirm\?token=(su_[A-Za-z0-9_-]+)`).FindStringSubmatch(string(body))
	if m == nil {
		t.Fatalf("no confirmation link in %q", msgs[0].Data)
	}
	u, err := s.Confirm(ctx, m[1])
	if err != nil || u.Email != "jo.doe@acme-robotics.com" {
		t.Fatalf("confirm: %+v %v", u, err)
	}
	if _, err := s.Confirm(ctx, m[1]); !errors.Is(err, ErrTokenNotFound) {
		t.Errorf("second confirm: %v", err)
	}
	if _, err := s.Start(ctx, req); !errors.Is(err, ErrAccountExists) {
		t.Errorf("existing account: %v", err)
	}
	for _, tc := range []struct {
		email string
		want  error
	}{
		{"someone@gmail.com", ErrFreeMail},
		{"someone@yahoo.co.uk", ErrFreeMail},
		{"someone@mailinator.com", ErrDisposable},
		{"not an email", ErrSignupInvalid},
		{"Jo <jo@acme.com>", ErrSignupInvalid},
		{"jo@localhost", ErrSignupInvalid},
	} {
		if _, err := s.Start(ctx, SignupRequest{Email: tc.email, FirstName: "A", LastName: "B", Agent: "x"}); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.email, err, tc.want)
		}
	}
	if _, err := s.Start(ctx, SignupRequest{Email: "a@acme.com", FirstName: "", LastName: "B", Agent: "x"}); !errors.Is(err, ErrSignupInvalid) {
		t.Errorf("empty first name: %v", err)
	}
	if _, err := (&Signups{Store: st}).Start(ctx, SignupRequest{Email: "a@acme.com", FirstName: "A", LastName: "B", Agent: "x"}); !errors.Is(err, ErrNoMailer) {
		t.Errorf("no mailer: %v", err)
	}
}
