package email_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/openprospect/prospectd/email"
	"github.com/openprospect/prospectd/email/dnsmx"
	"github.com/openprospect/prospectd/email/mailworld"
	"github.com/openprospect/prospectd/email/smtpprobe"
)

// testWorld starts a mail world with one domain per behaviour.
func testWorld(t testing.TB) *mailworld.World {
	t.Helper()
	w, err := mailworld.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	hosts := map[string]mailworld.Behaviour{
		"mx.strict.example.com":  {},
		"mx.tls.example.com":     {RequireTLS: true},
		"mx.grey.example.com":    {GreylistDelay: 300 * time.Millisecond},
		"mx.rate.example.com":    {RejectOddConns: true},
		"mx.tarpit.example.com":  {Tarpit: 20 * time.Millisecond},
		"mx.slow.example.com":    {Tarpit: 2 * time.Second},
		"mx.drop.example.com":    {DropAfter: 8},
		"mx.cap.example.com":     {MaxRcpts: 6},
		"mx.block.example.com":   {PolicyBlock: true},
		"mx2.multi.example.com":  {OfferTLS: true},
		"mail.aonly.example.com": {},
	}
	for name, b := range hosts {
		if err := w.AddHost(name, b); err != nil {
			t.Fatal(err)
		}
	}
	w.AddDownHost("mx1.multi.example.com")
	for _, d := range []mailworld.Domain{
		{Name: "strict.example.com", MX: []string{"mx.strict.example.com"}, Mailboxes: []string{"jane.doe", "zoe.vanderberg", "postmaster"}},
		{Name: "known.example.com", MX: []string{"mx.strict.example.com"}, Mailboxes: []string{"doej"}},
		{Name: "two.example.com", MX: []string{"mx.strict.example.com"}, Mailboxes: []string{"jane.doe", "jdoe"}},
		{Name: "catch.example.com", MX: []string{"mx.strict.example.com"}, CatchAll: true},
		{Name: "tls.example.com", MX: []string{"mx.tls.example.com"}, Mailboxes: []string{"jdoe"}},
		{Name: "grey.example.com", MX: []string{"mx.grey.example.com"}, Mailboxes: []string{"jane"}},
		{Name: "rate.example.com", MX: []string{"mx.rate.example.com"}, Mailboxes: []string{"jane_doe"}},
		{Name: "tarpit.example.com", MX: []string{"mx.tarpit.example.com"}, Mailboxes: []string{"jane.doe"}},
		{Name: "slow.example.com", MX: []string{"mx.slow.example.com"}, Mailboxes: []string{"jane.doe"}},
		{Name: "drop.example.com", MX: []string{"mx.drop.example.com"}, Mailboxes: []string{"doe.jane"}},
		{Name: "cap.example.com", MX: []string{"mx.cap.example.com"}, Mailboxes: []string{"doej"}},
		{Name: "block.example.com", MX: []string{"mx.block.example.com"}, Mailboxes: []string{"jane.doe"}},
		{Name: "multi.example.com", MX: []string{"mx1.multi.example.com", "mx2.multi.example.com"}, Mailboxes: []string{"j.doe"}},
		{Name: "aonly.example.com", A: "mail.aonly.example.com", Mailboxes: []string{"jane.doe"}},
		{Name: "nomail.example.com"},
	} {
		w.AddDomain(d)
	}
	return w
}

func testFinder(t testing.TB, w *mailworld.World, cfg smtpprobe.Config) *email.Finder {
	t.Helper()
	cfg.Port = w.SMTPPort()
	if cfg.MailFrom == "" {
		cfg.MailFrom = "verify@sender.example.com"
	}
	cfg.HeloName = "verifier.sender.example.com"
	if cfg.CommandTimeout == 0 {
		cfg.CommandTimeout = 2 * time.Second
	}
	if cfg.Backoff == 0 {
		cfg.Backoff = 50 * time.Millisecond
	}
	p, err := smtpprobe.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return &email.Finder{DNS: &dnsmx.Resolver{Server: w.DNSAddr(), Timeout: 2 * time.Second}, Prober: p,
		GreylistDelay: 200 * time.Millisecond, LookupTimeout: 10 * time.Second}
}

func find(t *testing.T, f *email.Finder, first, last, domain, known string) email.Result {
	t.Helper()
	req, err := email.Validate(email.KindFind, email.Request{FirstName: first, LastName: last, Domain: domain, KnownPattern: known})
	if err != nil {
		t.Fatal(err)
	}
	return f.Find(context.Background(), req)
}

func TestFinderWorld(t *testing.T) {
	w := testWorld(t)
	f := testFinder(t, w, smtpprobe.Config{AllowPrivate: true})
	for _, tc := range []struct {
		name, first, last, domain, known string
		status, email                    string
		catchAll                         bool
		tier                             int
	}{
		{"strict found", "Jane", "Doe", "strict.example.com", "", email.StatusFound, "jane.doe@strict.example.com", false, 2},
		{"particles and accents", "Zoë", "van der Berg", "strict.example.com", "", email.StatusFound, "zoe.vanderberg@strict.example.com", false, 2},
		{"strict absent", "Bob", "Ray", "strict.example.com", "", email.StatusNotFound, "", false, 0},
		{"several live", "Jane", "Doe", "two.example.com", "", email.StatusAmbiguous, "", false, 0},
		{"catch-all", "Jane", "Doe", "catch.example.com", "", email.StatusCatchAll, "", true, 0},
		{"catch-all with pattern", "Jane", "Doe", "catch.example.com", "{first}.{last}", email.StatusCatchAllPattern, "jane.doe@catch.example.com", true, 1},
		{"starttls required", "Jane", "Doe", "tls.example.com", "", email.StatusFound, "jdoe@tls.example.com", false, 2},
		{"rate limited then accepted", "Jane", "Doe", "rate.example.com", "", email.StatusFound, "jane_doe@rate.example.com", false, 3},
		{"tarpit within timeouts", "Jane", "Doe", "tarpit.example.com", "", email.StatusFound, "jane.doe@tarpit.example.com", false, 2},
		{"dropped connections", "Jane", "Doe", "drop.example.com", "", email.StatusFound, "doe.jane@drop.example.com", false, 3},
		{"recipient cap (452)", "Jane", "Doe", "cap.example.com", "", email.StatusFound, "doej@cap.example.com", false, 3},
		{"policy block", "Jane", "Doe", "block.example.com", "", email.StatusInconclusive, "", false, 0},
		{"backup MX", "Jane", "Doe", "multi.example.com", "", email.StatusFound, "j.doe@multi.example.com", false, 2},
		{"implicit MX", "Jane", "Doe", "aonly.example.com", "", email.StatusFound, "jane.doe@aonly.example.com", false, 2},
		{"nxdomain", "Jane", "Doe", "nowhere.example.com", "", email.StatusUndeliverable, "", false, 0},
		{"no mail host", "Jane", "Doe", "nomail.example.com", "", email.StatusUndeliverable, "", false, 0},
		{"known pattern first", "Jane", "Doe", "known.example.com", "{last}{f}", email.StatusFound, "doej@known.example.com", false, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := find(t, f, tc.first, tc.last, tc.domain, tc.known)
			if r.Status != tc.status || r.IsCatchAll != tc.catchAll {
				t.Fatalf("status %s catch-all %v, want %s %v; evidence %+v", r.Status, r.IsCatchAll, tc.status, tc.catchAll, r.Evidence)
			}
			if tc.email == "" {
				if r.Result != nil {
					t.Fatalf("result %+v, want none", r.Result)
				}
				return
			}
			if r.Result == nil || r.Result.Email != tc.email || r.Result.Tier != tc.tier {
				t.Fatalf("result %+v, want %s tier %d", r.Result, tc.email, tc.tier)
			}
			if r.Result.Valid != (tc.status == email.StatusFound) {
				t.Fatalf("valid %v for %s", r.Result.Valid, tc.status)
			}
			if r.Status == email.StatusFound && (r.Result.SMTPCode != 250 || r.Evidence.MXHost == "" || r.Evidence.CheckedAt.IsZero() ||
				r.Evidence.CatchAllProbe == nil || r.Evidence.CatchAllProbe.Code != 550 || r.Attempts < 1) {
				t.Fatalf("evidence incomplete: %+v %+v", r.Result, r.Evidence)
			}
		})
	}
	if n := w.DataCommands(); n != 0 {
		t.Fatalf("%d DATA commands sent", n)
	}
}

func TestFinderEvidenceDetails(t *testing.T) {
	w := testWorld(t)
	f := testFinder(t, w, smtpprobe.Config{AllowPrivate: true})
	r := find(t, f, "Jane", "Doe", "tls.example.com", "")
	if !r.Evidence.TLS {
		t.Fatal("STARTTLS not recorded")
	}
	steps := map[string]bool{}
	for _, s := range r.Evidence.Steps {
		steps[s.Step] = true
		if s.Step == "mail" && s.Arg != "verify@sender.example.com" {
			t.Fatalf("MAIL FROM %q", s.Arg)
		}
	}
	for _, s := range []string{"connect", "greeting", "ehlo", "starttls", "mail", "rcpt"} {
		if !steps[s] {
			t.Fatalf("no %s step in %+v", s, r.Evidence.Steps)
		}
	}
	r = find(t, f, "Jane", "Doe", "multi.example.com", "")
	if r.Evidence.MXHost != "mx2.multi.example.com" || len(r.Evidence.MX) != 2 {
		t.Fatalf("backup MX evidence %+v", r.Evidence)
	}
	r = find(t, f, "Jane", "Doe", "aonly.example.com", "")
	if !r.Evidence.ImplicitMX {
		t.Fatal("implicit MX not recorded")
	}
	// The greylisted lookup is rechecked after the delay and found.
	r = find(t, f, "Jane", "Doe", "grey.example.com", "")
	if r.Status != email.StatusGreylisted || r.RetryAt == nil || r.Result != nil {
		t.Fatalf("first greylisted lookup: %s %v", r.Status, r.RetryAt)
	}
	time.Sleep(time.Until(*r.RetryAt))
	r = find(t, f, "Jane", "Doe", "grey.example.com", "")
	if r.Status != email.StatusFound || r.Result.Email != "jane@grey.example.com" {
		t.Fatalf("after recheck: %s %+v", r.Status, r.Result)
	}
}

func TestFinderReusesConnections(t *testing.T) {
	w := testWorld(t)
	f := testFinder(t, w, smtpprobe.Config{AllowPrivate: true})
	for _, n := range []string{"Jane", "Bob", "Carl", "Dora"} {
		find(t, f, n, "Doe", "strict.example.com", "")
	}
	if c := w.Connections("mx.strict.example.com"); c != 1 {
		t.Fatalf("%d connections for 4 lookups, want 1 reused", c)
	}
}

func TestFinderTimeout(t *testing.T) {
	w := testWorld(t)
	f := testFinder(t, w, smtpprobe.Config{AllowPrivate: true, CommandTimeout: 300 * time.Millisecond})
	r := find(t, f, "Jane", "Doe", "slow.example.com", "")
	if r.Status != email.StatusTimeout {
		t.Fatalf("status %s, want timeout (%+v)", r.Status, r.Evidence)
	}
}

// TestNonPublicRefused: without the operator flag, a loopback exchanger is
// never connected to.
func TestNonPublicRefused(t *testing.T) {
	w := testWorld(t)
	f := testFinder(t, w, smtpprobe.Config{AllowPrivate: false})
	r := find(t, f, "Jane", "Doe", "strict.example.com", "")
	if r.Status != email.StatusError || !strings.Contains(r.Evidence.Error, "non-public") {
		t.Fatalf("status %s error %q", r.Status, r.Evidence.Error)
	}
	if c := w.Connections("mx.strict.example.com"); c != 0 {
		t.Fatalf("%d connections made to a loopback exchanger", c)
	}
	p, _ := smtpprobe.New(smtpprobe.Config{Port: w.SMTPPort()})
	_, err := p.Probe(context.Background(), []smtpprobe.Target{{Name: "x", Addrs: nil}}, nil)
	if !errors.Is(err, smtpprobe.ErrUnreachable) {
		t.Fatalf("no address: %v", err)
	}
}

func TestVerify(t *testing.T) {
	w := testWorld(t)
	f := testFinder(t, w, smtpprobe.Config{AllowPrivate: true})
	for addr, want := range map[string]string{
		"jane.doe@strict.example.com": email.StatusFound,
		"nobody@strict.example.com":   email.StatusUndeliverable,
		"any@catch.example.com":       email.StatusCatchAll,
		"x@nowhere.example.com":       email.StatusUndeliverable,
	} {
		req, err := email.Validate(email.KindVerify, email.Request{Email: addr})
		if err != nil {
			t.Fatal(err)
		}
		r := f.Verify(context.Background(), req)
		if r.Status != want {
			t.Errorf("verify %s = %s, want %s", addr, r.Status, want)
		}
		if want == email.StatusFound && (r.Result == nil || r.Result.Email != addr || !r.Result.Valid) {
			t.Errorf("verify %s result %+v", addr, r.Result)
		}
	}
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		kind string
		req  email.Request
		err  string
	}{
		{email.KindFind, email.Request{FirstName: "Jane", LastName: "Doe", Domain: "acme.com"}, ""},
		{email.KindFind, email.Request{FirstName: "Jane", LastName: "Doe", Domain: "https://www.acme.com/about"}, ""},
		{email.KindFind, email.Request{FirstName: "Jane", LastName: "Doe", Domain: "jane@acme.com"}, ""},
		{email.KindFind, email.Request{LastName: "Doe", Domain: "acme.com"}, "first_name"},
		{email.KindFind, email.Request{FirstName: "Jane", Domain: "acme.com"}, "last_name"},
		{email.KindFind, email.Request{FirstName: "Jane", LastName: "Doe"}, "domain"},
		{email.KindFind, email.Request{FirstName: "Jane", LastName: "Doe", Domain: "not a domain"}, "domain"},
		{email.KindFind, email.Request{FirstName: "Jane", LastName: "Doe", Domain: "acme.com", KnownPattern: "{middle}"}, "known_pattern"},
		{email.KindVerify, email.Request{Email: "jane@acme.com"}, ""},
		{email.KindVerify, email.Request{Email: "Jane <jane@acme.com>"}, "email"},
		{email.KindVerify, email.Request{Email: "jane"}, "email"},
		{"other", email.Request{}, "kind"},
	} {
		got, err := email.Validate(tc.kind, tc.req)
		if err == nil && tc.kind == email.KindFind && got.Domain != "acme.com" {
			t.Errorf("Validate(%+v) domain %q, want acme.com", tc.req, got.Domain)
		}
		if (err == nil) != (tc.err == "") || err != nil && (!strings.Contains(err.Error(), tc.err) || !errors.Is(err, email.ErrBadRequest)) {
			t.Errorf("Validate(%s, %+v) = %v, want %q", tc.kind, tc.req, err, tc.err)
		}
	}
}

// TestEscalateAcrossRecipientCaps: an escalated lookup (40 candidates) at
// an exchanger capping recipients at 6 per transaction continues on new
// connections until every candidate is asked.
func TestEscalateAcrossRecipientCaps(t *testing.T) {
	w := testWorld(t)
	f := testFinder(t, w, smtpprobe.Config{AllowPrivate: true})
	req, _ := email.Validate(email.KindFind, email.Request{FirstName: "Jean-Pierre", LastName: "van der Berg", Domain: "cap.example.com"})
	req.Escalate = true
	w.AddMailbox("cap.example.com", "jean.berg")
	r := f.Find(context.Background(), req)
	if r.Status != email.StatusFound || r.Result.Email != "jean.berg@cap.example.com" || len(r.Evidence.Candidates) <= 20 {
		t.Fatalf("escalated lookup: %s %+v (%d candidates, %s)", r.Status, r.Result, len(r.Evidence.Candidates), r.Evidence.Error)
	}
}
