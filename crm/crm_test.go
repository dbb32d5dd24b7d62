package crm_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/crm"
	"github.com/openprospect/prospectd/crm/crmfake"
	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/embedded"
	"github.com/openprospect/prospectd/index/enginetest"
	"github.com/openprospect/prospectd/saved"
	"github.com/openprospect/prospectd/secrets"
	"github.com/openprospect/prospectd/store"
	"github.com/openprospect/prospectd/store/sqlite"
)

// syncBuffer is a log sink the tests scan for tokens.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

type harness struct {
	st        *sqlite.Store
	svc       *crm.Service
	fake      *crmfake.Server
	provider  string
	org, user string
	log       *syncBuffer
	mu        sync.Mutex
	now       time.Time
	eng       *embedded.Engine
}

func (h *harness) clock() time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.now
}

func (h *harness) advance(d time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.now = h.now.Add(d)
}

func newHarness(t testing.TB, provider string) *harness {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	st, err := sqlite.Open(ctx, filepath.Join(dir, "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	o, err := st.CreateOrg(ctx, "acme", store.PlanStarter)
	if err != nil {
		t.Fatal(err)
	}
	u, err := st.CreateUser(ctx, o.ID, "ops@acme.test", store.RoleAdmin)
	if err != nil {
		t.Fatal(err)
	}
	key := bytes.Repeat([]byte{7}, 32)
	box, err := secrets.New(key)
	if err != nil {
		t.Fatal(err)
	}
	fake := crmfake.New(provider)
	t.Cleanup(fake.Close)
	h := &harness{st: st, fake: fake, provider: provider, org: o.ID, user: u.ID, log: &syncBuffer{}, now: time.Now()}
	h.svc = crm.NewService(st, box, crm.Config{
		Providers: map[string]crm.ProviderConfig{provider: {ClientID: crmfake.ClientID, ClientSecret: crmfake.ClientSecret,
			AuthURL: fake.AuthURL(), TokenURL: fake.TokenURL(), APIBase: fake.APIBase()}},
		PublicURL: "http://127.0.0.1:1", Now: h.clock, Log: zerolog.New(h.log)})
	return h
}

// connect runs the authorization-code flow: the fake plays the consenting
// user and redirects to the callback, whose code and state the service
// takes.
func (h *harness) connect(t testing.TB) {
	t.Helper()
	ctx := context.Background()
	u, err := h.svc.AuthorizeURL(ctx, h.org, h.user, h.provider)
	if err != nil {
		t.Fatal(err)
	}
	code, state := h.follow(t, u)
	if _, err := h.svc.Callback(ctx, h.provider, state, code); err != nil {
		t.Fatalf("callback: %v", err)
	}
}

func (h *harness) follow(t testing.TB, authorize string) (code, state string) {
	t.Helper()
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := hc.Get(authorize)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	loc, err := url.Parse(res.Header.Get("Location"))
	if err != nil || res.StatusCode != http.StatusFound {
		t.Fatalf("authorize answered %d, location %q", res.StatusCode, res.Header.Get("Location"))
	}
	if loc.Path != crm.CallbackPath(h.provider) {
		t.Fatalf("redirected to %s, want the callback", loc.Path)
	}
	return loc.Query().Get("code"), loc.Query().Get("state")
}

func (h *harness) snapshotter() *crm.Snapshotter {
	return &crm.Snapshotter{Service: h.svc, Contacts: h.eng, Sleep: func(ctx context.Context, d time.Duration) error { return ctx.Err() }}
}

func (h *harness) task(t testing.TB) store.Task {
	t.Helper()
	tk, err := h.st.CreateTask(context.Background(), h.org, crm.KindSnapshot, []byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	return tk
}

func (h *harness) run(ctx context.Context, t testing.TB, s *crm.Snapshotter, tk store.Task, kind string) (crm.SnapshotResult, error) {
	return s.Run(ctx, tk, crm.SnapshotInput{Provider: h.provider, Kind: kind, UserID: h.user}, func(int) {})
}

func (h *harness) status(t testing.TB) string {
	t.Helper()
	c, err := h.st.CRMConnection(context.Background(), h.org, h.provider)
	if err != nil {
		t.Fatal(err)
	}
	return c.Status
}

// websites makes n company websites in the shapes CRMs hold them, and
// the root domains they normalize to.
func websites(n int) (sites, domains []string) {
	for i := range n {
		d := fmt.Sprintf("company%05d.com", i)
		switch i % 4 {
		case 0:
			sites = append(sites, d)
		case 1:
			sites = append(sites, "https://www."+d+"/about")
		case 2:
			sites = append(sites, "http://shop."+d)
		default:
			sites = append(sites, "WWW."+strings.ToUpper(d))
		}
		domains = append(domains, d)
	}
	return sites, domains
}

func TestConnectAndSnapshotCompanies(t *testing.T) {
	for _, provider := range crm.ProviderNames {
		t.Run(provider, func(t *testing.T) {
			h := newHarness(t, provider)
			sites, want := websites(450)
			// Duplicates and values that are not domains are skipped.
			h.fake.SetCompanies(append(sites, sites[3], "not a website", "localhost"))
			h.fake.RateLimitEvery = 2
			h.connect(t)
			res, err := h.run(context.Background(), t, h.snapshotter(), h.task(t), crm.KindCompanies)
			if err != nil {
				t.Fatal(err)
			}
			if res.Domains != len(want) || res.Skipped != 2 || res.RateLimitWaits == 0 || res.QueryID == "" {
				t.Fatalf("result %+v", res)
			}
			q, err := h.st.SavedQuery(context.Background(), h.org, res.QueryID)
			if err != nil {
				t.Fatal(err)
			}
			got := slices.Clone(q.Domains)
			slices.Sort(got)
			if !slices.Equal(got, want) || q.Action != saved.ActionExclusion || q.Name != crm.ListName(provider, crm.KindCompanies) {
				t.Fatalf("list %q %s has %d domains, want %d", q.Name, q.Action, len(got), len(want))
			}
			if st := h.fake.Stats(); st.RateLimited != res.RateLimitWaits {
				t.Fatalf("fake refused %d requests, the snapshot waited %d times", st.RateLimited, res.RateLimitWaits)
			}
			if h.status(t) != crm.StatusActive {
				t.Fatal("connection not active")
			}
		})
	}
}

func TestSnapshotReplacesPreviousList(t *testing.T) {
	h := newHarness(t, crm.HubSpot)
	h.connect(t)
	ctx := context.Background()
	h.fake.SetCompanies([]string{"old.com", "both.com"})
	first, err := h.run(ctx, t, h.snapshotter(), h.task(t), crm.KindCompanies)
	if err != nil {
		t.Fatal(err)
	}
	h.fake.SetCompanies([]string{"both.com", "new.com"})
	second, err := h.run(ctx, t, h.snapshotter(), h.task(t), crm.KindCompanies)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.st.SavedQuery(ctx, h.org, first.QueryID); !errors.Is(err, saved.ErrNotFound) {
		t.Fatalf("previous list still there: %v", err)
	}
	q, _ := h.st.SavedQuery(ctx, h.org, second.QueryID)
	if !slices.Equal(q.Domains, []string{"both.com", "new.com"}) {
		t.Fatalf("list = %v", q.Domains)
	}
	ls, err := h.svc.List(ctx, h.org, false)
	if err != nil || len(ls) != 1 || ls[0].CompaniesQueryID != second.QueryID {
		t.Fatalf("connections = %+v, %v", ls, err)
	}
}

func TestSessionExpiryRefreshes(t *testing.T) {
	for _, provider := range crm.ProviderNames {
		t.Run(provider, func(t *testing.T) {
			h := newHarness(t, provider)
			h.fake.SetCompanies([]string{"a.com", "b.com"})
			h.connect(t)
			h.fake.ExpireAccess() // the session ends without notice
			res, err := h.run(context.Background(), t, h.snapshotter(), h.task(t), crm.KindCompanies)
			if err != nil {
				t.Fatal(err)
			}
			if res.Domains != 2 || h.fake.Stats().Refreshes != 1 || h.status(t) != crm.StatusActive {
				t.Fatalf("result %+v, refreshes %d, status %s", res, h.fake.Stats().Refreshes, h.status(t))
			}
		})
	}
}

func TestRefreshBeforeExpiry(t *testing.T) {
	for _, provider := range []string{crm.HubSpot, crm.Pipedrive} {
		t.Run(provider, func(t *testing.T) {
			h := newHarness(t, provider)
			h.fake.SetCompanies([]string{"a.com"})
			h.connect(t)
			ctx := context.Background()
			if _, err := h.run(ctx, t, h.snapshotter(), h.task(t), crm.KindCompanies); err != nil {
				t.Fatal(err)
			}
			if n := h.fake.Stats().Refreshes; n != 0 {
				t.Fatalf("%d refreshes of a fresh token", n)
			}
			before, _ := h.st.CRMConnection(ctx, h.org, h.provider)
			// Inside the refresh window of the token's lifetime.
			h.advance(h.fake.AccessTTL - crm.RefreshBefore + time.Minute)
			if _, err := h.run(ctx, t, h.snapshotter(), h.task(t), crm.KindCompanies); err != nil {
				t.Fatal(err)
			}
			after, _ := h.st.CRMConnection(ctx, h.org, h.provider)
			if n := h.fake.Stats().Refreshes; n != 1 || after.SealedAccess == before.SealedAccess || !after.Expiry.After(before.Expiry) {
				t.Fatalf("refreshes %d; expiry %v -> %v", n, before.Expiry, after.Expiry)
			}
		})
	}
}

func TestRevokedTokensNeedReauth(t *testing.T) {
	for _, provider := range crm.ProviderNames {
		t.Run(provider, func(t *testing.T) {
			h := newHarness(t, provider)
			h.fake.SetCompanies([]string{"a.com"})
			h.connect(t)
			ctx := context.Background()
			ls, _ := h.svc.List(ctx, h.org, true)
			if len(ls) != 1 || ls[0].Status != crm.StatusActive {
				t.Fatalf("probe of a live connection = %+v", ls)
			}
			h.fake.Revoke()
			if ls, _ := h.svc.List(ctx, h.org, false); ls[0].Status != crm.StatusActive {
				t.Fatalf("stored status changed without a probe: %+v", ls)
			}
			ls, err := h.svc.List(ctx, h.org, true)
			if err != nil || ls[0].Status != crm.StatusNeedsReauth || h.status(t) != crm.StatusNeedsReauth {
				t.Fatalf("probe after revocation = %+v, %v", ls, err)
			}
			_, err = h.run(ctx, t, h.snapshotter(), h.task(t), crm.KindCompanies)
			if !errors.Is(err, crm.ErrNeedsReauth) {
				t.Fatalf("snapshot with revoked tokens: %v", err)
			}
			// Reconnecting makes it active again.
			h.connect(t)
			if h.status(t) != crm.StatusActive {
				t.Fatal("reconnect did not make the connection active")
			}
			if _, err := h.run(ctx, t, h.snapshotter(), h.task(t), crm.KindCompanies); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestRevokedDuringSnapshot(t *testing.T) {
	h := newHarness(t, crm.Salesforce)
	sites, _ := websites(1000)
	h.fake.SetCompanies(sites)
	h.connect(t)
	s := h.snapshotter()
	pages := 0
	tk := h.task(t)
	_, err := s.Run(context.Background(), tk, crm.SnapshotInput{Provider: h.provider, Kind: crm.KindCompanies, UserID: h.user}, func(int) {
		if pages++; pages == 2 {
			h.fake.Revoke()
		}
	})
	if !errors.Is(err, crm.ErrNeedsReauth) || h.status(t) != crm.StatusNeedsReauth {
		t.Fatalf("err %v, status %s", err, h.status(t))
	}
	if qs, _, _ := h.st.ListSavedQueries(context.Background(), h.org, saved.ListFilter{Limit: 10}); len(qs) != 0 {
		t.Fatalf("a partial snapshot was saved: %+v", qs)
	}
	if cp, _ := h.st.CRMCheckpoint(context.Background(), tk.ID); cp != (crm.Checkpoint{}) {
		t.Fatalf("checkpoint %+v", cp)
	}
}

func TestTransientErrorsRetried(t *testing.T) {
	for _, tc := range []struct {
		name    string
		fail    int
		wantErr bool
	}{
		{"outage shorter than the retries", 3, false},
		{"outage longer than the retries", 50, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, crm.Pipedrive)
			sites, want := websites(300)
			h.fake.SetCompanies(sites)
			h.connect(t)
			tk := h.task(t)
			pages := 0
			// The outage starts after the first page is checkpointed.
			res, err := h.snapshotter().Run(context.Background(), tk, crm.SnapshotInput{Provider: h.provider, Kind: crm.KindCompanies, UserID: h.user},
				func(int) {
					if pages++; pages == 1 {
						h.fake.FailNext(tc.fail)
					}
				})
			if tc.wantErr {
				if err == nil || !errors.Is(err, crm.ErrProvider) {
					t.Fatalf("err = %v", err)
				}
				// A failed snapshot leaves no checkpoint behind.
				if cp, _ := h.st.CRMCheckpoint(context.Background(), tk.ID); cp != (crm.Checkpoint{}) {
					t.Fatalf("checkpoint kept: %+v", cp)
				}
				if items, _ := h.st.CRMItems(context.Background(), tk.ID); len(items) != 0 {
					t.Fatalf("%d items kept", len(items))
				}
				return
			}
			if err != nil || res.Domains != len(want) {
				t.Fatalf("result %+v, %v", res, err)
			}
		})
	}
}

func TestDailyCapWaits(t *testing.T) {
	for _, provider := range crm.ProviderNames {
		t.Run(provider, func(t *testing.T) {
			h := newHarness(t, provider)
			sites, want := websites(900)
			h.fake.SetCompanies(sites)
			h.fake.DailyCapAfter = 2
			h.connect(t)
			var waits []time.Duration
			s := h.snapshotter()
			s.MaxWait = 2 * time.Hour
			s.Sleep = func(ctx context.Context, d time.Duration) error {
				waits = append(waits, d)
				h.fake.ResetDaily() // a new day
				return nil
			}
			res, err := h.run(context.Background(), t, s, h.task(t), crm.KindCompanies)
			if err != nil {
				t.Fatal(err)
			}
			if res.Domains != len(want) || len(waits) == 0 {
				t.Fatalf("result %+v, waits %v", res, waits)
			}
			if provider != crm.Pipedrive && waits[0] != crm.DefaultDailyWait {
				t.Fatalf("waited %v on a daily cap, want %v", waits[0], crm.DefaultDailyWait)
			}
		})
	}
}

func TestResumeFromCheckpoint(t *testing.T) {
	for _, provider := range crm.ProviderNames {
		t.Run(provider, func(t *testing.T) {
			h := newHarness(t, provider)
			sites, want := websites(2000)
			h.fake.SetCompanies(sites)
			h.connect(t)
			tk := h.task(t)
			ctx, cancel := context.WithCancel(context.Background())
			pages := 0
			in := crm.SnapshotInput{Provider: h.provider, Kind: crm.KindCompanies, UserID: h.user}
			_, err := h.snapshotter().Run(ctx, tk, in, func(int) {
				if pages++; pages == 3 {
					cancel() // the worker stops mid-snapshot
				}
			})
			if err == nil {
				t.Fatal("an interrupted snapshot finished")
			}
			cp, _ := h.st.CRMCheckpoint(context.Background(), tk.ID)
			if cp.Pages < 3 || cp.Done || cp.Cursor == "" {
				t.Fatalf("checkpoint %+v", cp)
			}
			before := h.fake.Stats().Listings
			res, err := h.snapshotter().Run(context.Background(), tk, in, func(int) {})
			if err != nil {
				t.Fatal(err)
			}
			if res.Domains != len(want) {
				t.Fatalf("resumed snapshot has %d domains, want %d", res.Domains, len(want))
			}
			// The resumed run reads only the pages after the checkpoint.
			perPage := 100
			if provider == crm.Salesforce {
				perPage = 200 // Salesforce's smallest batch
			}
			if fresh, want := h.fake.Stats().Listings-before, len(sites)/perPage-cp.Pages; fresh != want {
				t.Fatalf("resumed run read %d pages, want %d (checkpoint at page %d)", fresh, want, cp.Pages)
			}
		})
	}
}

func TestSnapshotContacts(t *testing.T) {
	for _, provider := range crm.ProviderNames {
		t.Run(provider, func(t *testing.T) {
			h := newHarness(t, provider)
			ctx := context.Background()
			eng, err := embedded.Open(filepath.Join(t.TempDir(), "index"), embedded.Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { eng.Close() })
			if err := eng.SetMeta(ctx, index.Meta{EmbedderID: "test", Dimension: enginetest.Dim}); err != nil {
				t.Fatal(err)
			}
			if _, err := eng.UpsertContacts(ctx, enginetest.ContactFixtures()); err != nil {
				t.Fatal(err)
			}
			h.eng = eng
			h.fake.SetContacts([]string{"Ana@Acme.com", "nobody@unknown.test", "priya@brightbank.co.uk", "jm@wachdienst.de", "not-an-email"})
			h.connect(t)
			res, err := h.run(ctx, t, h.snapshotter(), h.task(t), crm.KindContacts)
			if err != nil {
				t.Fatal(err)
			}
			q, _ := h.st.SavedQuery(ctx, h.org, res.QueryID)
			got := slices.Clone(q.PersonaIDs)
			slices.Sort(got)
			if !slices.Equal(got, []int64{1, 10, 20}) || res.Skipped != 2 || len(q.Domains) != 0 {
				t.Fatalf("persona ids %v, skipped %d", got, res.Skipped)
			}
			if ls, _ := h.svc.List(ctx, h.org, false); ls[0].ContactsQueryID != res.QueryID || ls[0].CompaniesQueryID != "" {
				t.Fatalf("connection lists = %+v", ls[0])
			}
		})
	}
}

func TestStateSingleUseAndExpiry(t *testing.T) {
	h := newHarness(t, crm.Pipedrive)
	ctx := context.Background()
	u, err := h.svc.AuthorizeURL(ctx, h.org, h.user, h.provider)
	if err != nil {
		t.Fatal(err)
	}
	code, state := h.follow(t, u)
	for _, tc := range []struct {
		name, provider, state string
		want                  error
	}{
		{"unknown state", crm.Pipedrive, "forged", crm.ErrBadState},
		{"empty state", crm.Pipedrive, "", crm.ErrBadState},
		{"unknown provider", "zoho", state, crm.ErrUnknownProvider},
		{"unconfigured provider", crm.HubSpot, state, crm.ErrNotConfigured},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := h.svc.Callback(ctx, tc.provider, tc.state, code); !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
		})
	}
	if _, err := h.svc.Callback(ctx, h.provider, state, code); err != nil {
		t.Fatal(err)
	}
	if _, err := h.svc.Callback(ctx, h.provider, state, code); !errors.Is(err, crm.ErrBadState) {
		t.Fatalf("state used twice: %v", err)
	}
	u, _ = h.svc.AuthorizeURL(ctx, h.org, h.user, h.provider)
	code, state = h.follow(t, u)
	h.advance(crm.StateTTL + time.Second)
	if _, err := h.svc.Callback(ctx, h.provider, state, code); !errors.Is(err, crm.ErrBadState) {
		t.Fatalf("expired state: %v", err)
	}
}

func TestTokensNeverLogged(t *testing.T) {
	h := newHarness(t, crm.HubSpot)
	h.fake.SetCompanies([]string{"a.com"})
	h.fake.RateLimitEvery = 2
	h.connect(t)
	ctx := context.Background()
	h.fake.ExpireAccess()
	if _, err := h.run(ctx, t, h.snapshotter(), h.task(t), crm.KindCompanies); err != nil {
		t.Fatal(err)
	}
	tokens := h.fake.Tokens()
	h.fake.Revoke()
	_, err := h.run(ctx, t, h.snapshotter(), h.task(t), crm.KindCompanies)
	c, _ := h.st.CRMConnection(ctx, h.org, h.provider)
	if len(tokens) < 2 {
		t.Fatalf("tokens %d", len(tokens))
	}
	for _, tok := range tokens {
		for what, text := range map[string]string{"log": h.log.String(), "error": err.Error(), "status reason": c.StatusReason,
			"sealed access": c.SealedAccess, "sealed refresh": c.SealedRefresh} {
			if strings.Contains(text, tok) {
				t.Fatalf("%s carries a token", what)
			}
		}
	}
	if !strings.Contains(h.log.String(), "needs reauthorization") {
		t.Fatalf("log does not say why: %s", h.log.String())
	}
}

// BenchmarkSnapshot100k: a snapshot of 100,000 CRM companies from the
// loopback HubSpot fake paging 100 per page (1,000 requests), each page
// normalized to root domains and checkpointed in SQLite, then saved as
// one exclusion list. The bar is 60 s.
func BenchmarkSnapshot100k(b *testing.B) {
	h := newHarness(b, crm.HubSpot)
	sites := make([]string, 100_000)
	for i := range sites {
		sites[i] = fmt.Sprintf("https://www.customer-%06d.com/", i)
	}
	h.fake.SetCompanies(sites)
	h.connect(b)
	b.ResetTimer()
	for range b.N {
		res, err := h.run(context.Background(), b, h.snapshotter(), h.task(b), crm.KindCompanies)
		if err != nil || res.Domains != len(sites) || res.Pages != 1000 {
			b.Fatalf("result %+v, %v", res, err)
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/snapshot")
}

func TestDeleteRevokesAtProvider(t *testing.T) {
	for _, provider := range crm.ProviderNames {
		t.Run(provider, func(t *testing.T) {
			h := newHarness(t, provider)
			h.connect(t)
			ctx := context.Background()
			rev, err := h.svc.Delete(ctx, h.org, h.provider)
			if err != nil || !rev.Revoked {
				t.Fatalf("Delete = %+v, %v", rev, err)
			}
			if got := h.fake.Stats().Revocations; got != 1 {
				t.Fatalf("the provider revoked %d refresh tokens, want 1", got)
			}
			if slices.ContainsFunc(h.fake.Tokens(), func(s string) bool { return strings.Contains(s, "_rt_") }) {
				t.Fatalf("a refresh token outlived the connection: %v", h.fake.Tokens())
			}
			if _, err := h.st.CRMConnection(ctx, h.org, h.provider); !errors.Is(err, crm.ErrNoConnection) {
				t.Fatalf("connection still stored: %v", err)
			}
			if _, err := h.svc.Delete(ctx, h.org, h.provider); !errors.Is(err, crm.ErrNoConnection) {
				t.Fatalf("second Delete: %v, want ErrNoConnection", err)
			}
		})
	}
	t.Run("provider unreachable: removed anyway, said so", func(t *testing.T) {
		h := newHarness(t, crm.HubSpot)
		h.connect(t)
		h.fake.Close()
		rev, err := h.svc.Delete(context.Background(), h.org, h.provider)
		if err != nil || rev.Revoked || !strings.Contains(rev.Detail, "unreachable") {
			t.Fatalf("Delete = %+v, %v", rev, err)
		}
		if _, err := h.st.CRMConnection(context.Background(), h.org, h.provider); !errors.Is(err, crm.ErrNoConnection) {
			t.Fatalf("connection still stored: %v", err)
		}
		if strings.Contains(h.log.String(), "_rt_") {
			t.Fatal("a refresh token reached the log")
		}
	})
}
