package prospecting_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/rs/zerolog"
	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/email"
	"github.com/openprospect/prospectd/email/mailworld"
	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/embedded"
	"github.com/openprospect/prospectd/ingest"
	"github.com/openprospect/prospectd/integrations"
	"github.com/openprospect/prospectd/internal/demo"
	"github.com/openprospect/prospectd/jobs"
	"github.com/openprospect/prospectd/namematch"
	"github.com/openprospect/prospectd/prospecting"
	"github.com/openprospect/prospectd/query"
	"github.com/openprospect/prospectd/research"
	"github.com/openprospect/prospectd/secrets"
	"github.com/openprospect/prospectd/store"
	"github.com/openprospect/prospectd/store/sqlite"
)

// corpus is the demo corpus every test of the package shares (built once:
// loading it is the slow part).
type corpus struct {
	dir string
	g   *demo.Generator
	n   int
}

var shared *corpus

func TestMain(m *testing.M) {
	code := m.Run()
	if shared != nil {
		os.RemoveAll(filepath.Dir(shared.dir))
	}
	os.Exit(code)
}

const corpusSize = 1500

func demoCorpus(t testing.TB) *corpus {
	t.Helper()
	if shared != nil {
		return shared
	}
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "prospecting-corpus-")
	if err != nil {
		t.Fatal(err)
	}
	eng, err := embedded.Open(filepath.Join(dir, "index"), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	g := demo.New(demo.Options{Companies: corpusSize, Seed: 7})
	if _, err := (&ingest.Loader{Engine: eng}).Load(ctx, g.Source()); err != nil {
		t.Fatal(err)
	}
	if _, err := (&ingest.ContactLoader{Contacts: eng, Companies: eng}).Load(ctx, g.ContactSource()); err != nil {
		t.Fatal(err)
	}
	if err := eng.Close(); err != nil {
		t.Fatal(err)
	}
	shared = &corpus{dir: filepath.Join(dir, "index"), g: g, n: corpusSize}
	return shared
}

// env is a service on the demo corpus with running task workers, the
// simulated mail world and (optionally) LLM and search integrations.
type env struct {
	st      *sqlite.Store
	dbPath  string // the state store's file
	svc     *prospecting.Service
	integ   *integrations.Service
	actor   prospecting.Actor
	world   *mailworld.World
	runner  *jobs.Runner
	emailer *jobs.Runner
	cancel  context.CancelFunc
	// jc and ec build the runners again (restart).
	jc jobs.Config
	ec email.Config
}

type envOpts struct {
	plan    store.Plan
	credits int // 0: the plan's
	// waves plans leads runs as wave runs (the rollout reaches every
	// organization).
	waves bool
	// hideEmails: contact search returns no addresses, as a corpus whose
	// contacts have none (every email comes from a lookup).
	hideEmails bool
	// noMailbox: companies (by demo index) whose mail server knows none
	// of their people, so lookups there find nothing.
	noMailbox func(i int) bool
}

// noEmails is a contact index whose contacts carry no address.
type noEmails struct{ query.ContactIndex }

func (n noEmails) SearchContacts(ctx context.Context, s index.ContactSearch) (index.ContactResult, error) {
	res, err := n.ContactIndex.SearchContacts(ctx, s)
	for i := range res.Hits {
		res.Hits[i].Contact.Email, res.Hits[i].Contact.EmailValidated = "", false
	}
	return res, err
}

func newEnv(t *testing.T, o envOpts) *env {
	t.Helper()
	c := demoCorpus(t)
	ctx := context.Background()
	eng, err := embedded.Open(c.dir, embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	if err := eng.LoadContacts(); err != nil {
		t.Fatal(err)
	}
	dbPath := filepath.Join(t.TempDir(), "state.db")
	st, err := sqlite.Open(ctx, dbPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if o.plan == "" {
		o.plan = store.PlanTeam
	}
	org, _ := st.CreateOrg(ctx, "acme", o.plan)
	u, _ := st.CreateUser(ctx, org.ID, "ops@acme.test", store.RoleAdmin)
	plans := account.DefaultPlans()
	if o.credits > 0 {
		cfg := plans[o.plan]
		cfg.Credits = o.credits
		plans[o.plan] = cfg
	}
	w := mailWorld(t, c, o.noMailbox)
	box, _ := secrets.New(bytes.Repeat([]byte{7}, 32))
	integ, pipeline := research.New(research.Config{Secrets: box, AllowPrivate: true, MaxRetries: 1}, st, eng, zerolog.Nop())
	ec := email.Config{DNSServer: w.DNSAddr(), SMTPPort: w.SMTPPort(), SenderDomain: "sender.example.com", AllowPrivate: true, RatePerMinute: -1,
		CommandTimeout: 2 * time.Second}
	emailer, emailSvc, err := jobs.NewEmail(jobs.Config{Engine: eng, Plans: plans, Log: zerolog.Nop(), Lease: 2 * time.Second}, st, ec)
	if err != nil {
		t.Fatal(err)
	}
	companies := &query.Companies{Engine: eng}
	var contacts query.ContactIndex = eng
	if o.hideEmails {
		contacts = noEmails{eng}
	}
	svc := &prospecting.Service{State: st, Biller: &account.Biller{Store: st, Plans: plans}, Plans: plans, Engine: eng, Companies: companies,
		Contacts: &query.ContactService{Engine: contacts, Companies: companies}, Names: &namematch.Service{Engine: eng}, Integrations: integ,
		Research: pipeline, Email: emailSvc, Log: zerolog.Nop(), Poll: 20 * time.Millisecond}
	if o.waves {
		svc.Waves = prospecting.WaveRollout{All: true}
	}
	jc := jobs.Config{State: st, Engine: eng, Plans: plans, Log: zerolog.Nop(), Workers: 2, Research: pipeline, Prospecting: svc,
		Lease: 2 * time.Second}
	runner := jobs.New(jc)
	runner.PollInterval = 50 * time.Millisecond
	e := &env{st: st, dbPath: dbPath, svc: svc, integ: integ, actor: prospecting.Actor{Org: org, UserID: u.ID}, world: w, runner: runner, emailer: emailer,
		jc: jc, ec: ec}
	e.start(t)
	return e
}

func (e *env) start(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	e.cancel = cancel
	if err := e.runner.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if err := e.emailer.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); e.runner.Stop(); e.emailer.Stop() })
}

// restart stops the task runners at once — the run's task and any email
// batch are interrupted where they are, their leases left to expire, as
// when a server dies — and starts new ones on the same state store.
func (e *env) restart(t *testing.T) {
	t.Helper()
	e.cancel()
	e.runner.Stop()
	e.emailer.Stop()
	ejc := e.jc
	ejc.State, ejc.Workers, ejc.Research, ejc.Prospecting = nil, 0, nil, nil
	emailer, emailSvc, err := jobs.NewEmail(ejc, e.st, e.ec)
	if err != nil {
		t.Fatal(err)
	}
	e.svc.Email = emailSvc
	e.runner, e.emailer = jobs.New(e.jc), emailer
	e.runner.PollInterval = 50 * time.Millisecond
	e.start(t)
}

// mailWorld serves every demo domain with a mailbox for each of its
// contacts, named by the company's address pattern.
func mailWorld(t *testing.T, c *corpus, noMailbox func(int) bool) *mailworld.World {
	t.Helper()
	w, err := mailworld.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	if err := w.AddHost("mx.demo-mail.test", mailworld.Behaviour{}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < c.n; i++ {
		pattern := c.g.EmailPattern(i)
		at := strings.LastIndexByte(pattern, '@')
		tpl, dom := pattern[:at], pattern[at+1:]
		var boxes []string
		for _, p := range c.g.ContactsOf(i) {
			if noMailbox != nil && noMailbox(i) {
				break
			}
			if l := localPart(tpl, p.Name); l != "" {
				boxes = append(boxes, l)
			}
		}
		w.AddDomain(mailworld.Domain{Name: dom, MX: []string{"mx.demo-mail.test"}, Mailboxes: boxes})
	}
	return w
}

// localPart fills an address template ({first}, {last}, {f}, {l}) from a
// name, folded to a-z as the demo corpus folds it.
func localPart(tpl, name string) string {
	f := strings.Fields(fold(name))
	if len(f) < 2 {
		return ""
	}
	first, last := f[0], f[len(f)-1]
	return strings.NewReplacer("{first}", first, "{last}", last, "{f}", first[:1], "{l}", last[:1]).Replace(tpl)
}

func fold(s string) string {
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	out, _, _ := transform.String(t, s)
	var b strings.Builder
	for _, r := range strings.ToLower(out) {
		if r >= 'a' && r <= 'z' || r == ' ' {
			b.WriteRune(r)
		}
	}
	return b.String()
}
