package email_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"golang.org/x/time/rate"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/email"
	"github.com/openprospect/prospectd/email/dnsmx"
	"github.com/openprospect/prospectd/email/mailworld"
	"github.com/openprospect/prospectd/email/smtpprobe"
	"github.com/openprospect/prospectd/jobs"
	"github.com/openprospect/prospectd/store"
)

// person is a display name with the forms mail servers of the generated
// world build addresses from (written out here, independent of the
// finder's own normalization).
type person struct{ first, last, mfirst, mlast, mlastShort string }

var benchFirsts = [][2]string{{"Jane", "jane"}, {"José", "jose"}, {"Zoë", "zoe"}, {"Jürgen", "jurgen"}, {"François", "francois"},
	{"Søren", "soren"}, {"Łukasz", "lukasz"}, {"Ana", "ana"}, {"Maria", "maria"}, {"John", "john"}, {"Wei", "wei"}, {"Priya", "priya"},
	{"Ahmed", "ahmed"}, {"Olga", "olga"}, {"Chloé", "chloe"}, {"Björn", "bjorn"}, {"Jean-Pierre", "jeanpierre"}, {"Liam", "liam"},
	{"Noah", "noah"}, {"Emma", "emma"}, {"Sofia", "sofia"}, {"Mateo", "mateo"}, {"Hiroshi", "hiroshi"}, {"Aisha", "aisha"},
	{"Kofi", "kofi"}, {"Inês", "ines"}, {"Zoltán", "zoltan"}, {"Dario", "dario"}, {"Nora", "nora"}, {"Oskar", "oskar"}}

var benchLasts = [][3]string{{"Smith", "smith", ""}, {"García", "garcia", ""}, {"Müller", "muller", ""}, {"van der Berg", "vanderberg", "berg"},
	{"O'Brien", "obrien", ""}, {"Nguyen", "nguyen", ""}, {"Dubois", "dubois", ""}, {"Kowalski", "kowalski", ""}, {"Rossi", "rossi", ""},
	{"Silva", "silva", ""}, {"Johansson", "johansson", ""}, {"Schmidt", "schmidt", ""}, {"De la Cruz", "delacruz", "cruz"},
	{"Smith-Jones", "smithjones", ""}, {"Lefèvre", "lefevre", ""}, {"Novák", "novak", ""}, {"Patel", "patel", ""}, {"Kim", "kim", ""},
	{"Andersen", "andersen", ""}, {"Costa", "costa", ""}, {"Fischer", "fischer", ""}, {"Moreau", "moreau", ""}, {"Yılmaz", "yilmaz", ""},
	{"Okafor", "okafor", ""}, {"Tanaka", "tanaka", ""}, {"Ivanova", "ivanova", ""}, {"Hansen", "hansen", ""}, {"López", "lopez", ""},
	{"Brown", "brown", ""}, {"von Trapp", "vontrapp", "trapp"}}

// benchPatterns are the world's address patterns with their shares.
var benchPatterns = []struct {
	tpl string
	w   int
}{{"{first}.{last}", 42}, {"{f}{last}", 18}, {"{first}{last}", 8}, {"{f}.{last}", 7}, {"{first}", 6}, {"{first}_{last}", 4},
	{"{first}{l}", 4}, {"{last}.{first}", 3}, {"{first}-{last}", 3}, {"{last}{f}", 3}, {"{last}", 2}}

func pickPattern(r *rand.Rand) string {
	n := r.IntN(100)
	for _, p := range benchPatterns {
		if n < p.w {
			return p.tpl
		}
		n -= p.w
	}
	return benchPatterns[0].tpl
}

func applyBench(tpl, first, last string) string {
	return strings.NewReplacer("{first}", first, "{last}", last, "{f}", first[:1], "{l}", last[:1]).Replace(tpl)
}

// lookupCase is one lookup with its truth.
type lookupCase struct {
	req      email.Request
	truth    string // the person's address; "" when the person has none
	aliases  []string
	findable bool // the address exists and a verifier can single it out
	catchAll bool
	greylist bool
	hostKind string // behaviour of the exchanger asked
}

// genWorld builds a world of n domains with mixed behaviours and returns
// one lookup of an existing person per domain plus one of a stranger for
// every fourth domain.
func genWorld(tb testing.TB, n int, seed uint64) (*mailworld.World, []lookupCase) {
	tb.Helper()
	w, err := mailworld.New()
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(w.Close)
	type hostKind struct {
		name  string
		count int
		b     mailworld.Behaviour
	}
	kinds := []hostKind{
		{"strict", 20, mailworld.Behaviour{}},
		{"tls", 6, mailworld.Behaviour{RequireTLS: true}},
		{"grey", 5, mailworld.Behaviour{GreylistDelay: time.Second}},
		{"rate", 5, mailworld.Behaviour{RejectOddConns: true}},
		{"tarpit", 5, mailworld.Behaviour{Tarpit: 3 * time.Millisecond}},
		{"drop", 3, mailworld.Behaviour{DropAfter: 12}},
		{"cap", 3, mailworld.Behaviour{MaxRcpts: 10}},
		{"block", 2, mailworld.Behaviour{PolicyBlock: true}},
	}
	var hosts []string
	hostKindOf := map[string]string{}
	for _, k := range kinds {
		for i := 0; i < k.count; i++ {
			h := fmt.Sprintf("mx%d.%s-hosting.example.net", i, k.name)
			if err := w.AddHost(h, k.b); err != nil {
				tb.Fatal(err)
			}
			hosts = append(hosts, h)
			hostKindOf[h] = k.name
		}
	}
	w.AddDownHost("mx-down.example.net")
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	var cases []lookupCase
	for i := 0; i < n; i++ {
		dom := fmt.Sprintf("company%04d.example.com", i)
		host := hosts[r.IntN(len(hosts))]
		d := mailworld.Domain{Name: dom, MX: []string{host}}
		roll := r.IntN(100)
		switch {
		case roll < 3: // NXDOMAIN: never added
		case roll < 5:
			d.MX = nil // exists, no mail host
		case roll < 10:
			d.MX, d.A = nil, hosts[r.IntN(20)] // implicit MX on a strict host
		case roll < 15:
			d.MX = []string{"mx-down.example.net", host} // first MX down
		}
		d.CatchAll = r.IntN(100) < 10
		tpl := pickPattern(r)
		short := r.IntN(100) < 25 // use the particle-less surname where there is one
		var people []person
		for k := 0; k < 6; k++ {
			f, l := benchFirsts[r.IntN(len(benchFirsts))], benchLasts[r.IntN(len(benchLasts))]
			p := person{first: f[0], last: l[0], mfirst: f[1], mlast: l[1]}
			if short && l[2] != "" {
				p.mlast = l[2]
			}
			people = append(people, p)
			d.Mailboxes = append(d.Mailboxes, applyBench(tpl, p.mfirst, p.mlast))
		}
		target := people[0]
		addr := applyBench(tpl, target.mfirst, target.mlast)
		alias := r.IntN(100) < 3
		if alias { // the person also has a second, differently patterned address
			d.Mailboxes = append(d.Mailboxes, applyBench("{first}{last}", target.mfirst, target.mlast), applyBench("{f}{last}", target.mfirst, target.mlast))
		}
		dup := false // another person of the domain shares the address
		for _, p := range people[1:] {
			if applyBench(tpl, p.mfirst, p.mlast) == addr {
				dup = true
			}
		}
		exists := roll >= 5
		if exists {
			w.AddDomain(d)
		} else if roll >= 3 {
			w.AddDomain(mailworld.Domain{Name: dom})
		}
		mxHost := host
		if d.A != "" {
			mxHost = d.A
		}
		known := ""
		if r.IntN(2) == 0 {
			known = tpl
		}
		c := lookupCase{req: email.Request{FirstName: target.first, LastName: target.last, Domain: dom, KnownPattern: known},
			catchAll: exists && d.CatchAll, greylist: exists && hostKindOf[mxHost] == "grey", hostKind: hostKindOf[mxHost]}
		if alias {
			c.aliases = []string{applyBench("{first}{last}", target.mfirst, target.mlast) + "@" + dom, applyBench("{f}{last}", target.mfirst, target.mlast) + "@" + dom}
		}
		if exists {
			c.truth = addr + "@" + dom
			c.findable = !d.CatchAll && hostKindOf[mxHost] != "block" && !alias && !dup
		}
		cases = append(cases, c)
		if i%4 == 0 { // a stranger at the same domain
			f, l := benchFirsts[r.IntN(len(benchFirsts))], benchLasts[r.IntN(len(benchLasts))]
			stranger := email.Request{FirstName: f[0] + "x", LastName: l[0] + "q", Domain: dom}
			cases = append(cases, lookupCase{req: stranger, catchAll: exists && d.CatchAll, greylist: exists && hostKindOf[mxHost] == "grey"})
		}
	}
	return w, cases
}

func benchService(tb testing.TB, w *mailworld.World, limiter *rate.Limiter) (*email.Service, *jobs.Runner, store.Org, func() *email.Service) {
	st := openStoreTB(tb)
	org, _ := st.CreateOrg(context.Background(), "Bench", store.PlanTeam)
	p, err := smtpprobe.New(smtpprobe.Config{Port: w.SMTPPort(), AllowPrivate: true, HeloName: "bench.example.org", MailFrom: "verify@bench.example.org",
		CommandTimeout: 5 * time.Second, Backoff: 100 * time.Millisecond, Pace: limiter})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(p.Close)
	f := &email.Finder{DNS: &dnsmx.Resolver{Server: w.DNSAddr(), Timeout: 5 * time.Second}, Prober: p, GreylistDelay: time.Second}
	r := &jobs.Runner{Store: st, Workers: 4, Lease: 10 * time.Second, PollInterval: 50 * time.Millisecond, Log: zerolog.Nop()}
	svc := &email.Service{Store: st, Orgs: st, Finder: f, Biller: &account.Biller{Store: st, Plans: account.DefaultPlans()}, Tasks: r,
		Log: zerolog.Nop(), MaxActive: 10_000}
	jobs.RegisterEmail(r, svc)
	return svc, r, org, func() *email.Service { return svc }
}

// BenchmarkEmailWorld is the accuracy bar on a generated world of 2,000
// domains, run through the whole service (durable jobs, batches of 500,
// global rate lifted): precision of found >= 99.5%, recall of findable
// addresses >= 95%, catch-all domains never found, every greylisted lookup
// completed after its recheck; and the first 500-request batch within 30 s.
//
//	go test ./email -run '^$' -bench EmailWorld -benchtime 1x
func BenchmarkEmailWorld(b *testing.B) {
	for i := 0; i < b.N; i++ {
		w, cases := genWorld(b, 2000, uint64(7+i))
		svc, r, org, _ := benchService(b, w, nil)
		ctx := context.Background()
		if err := r.Start(ctx); err != nil {
			b.Fatal(err)
		}
		var batches [][]lookupCase
		for len(cases) > 0 {
			k := min(500, len(cases))
			batches = append(batches, cases[:k])
			cases = cases[k:]
		}
		submit := func(bc []lookupCase) string {
			reqs := make([]email.Request, len(bc))
			for k, c := range bc {
				req, err := email.Validate(email.KindFind, c.req)
				if err != nil {
					b.Fatal(err)
				}
				reqs[k] = req
			}
			batch, _, err := svc.Submit(ctx, org.ID, email.Submission{Kind: email.KindFind, Requests: reqs})
			if err != nil {
				b.Fatal(err)
			}
			return batch.ID
		}
		start := time.Now()
		first := submit(batches[0])
		views := map[string]email.BatchView{first: waitBatchTB(b, svc, org.ID, first, 5*time.Minute)}
		batch500 := time.Since(start)
		ids := []string{first}
		for _, bc := range batches[1:] {
			ids = append(ids, submit(bc))
		}
		for _, id := range ids[1:] {
			views[id] = waitBatchTB(b, svc, org.ID, id, 10*time.Minute)
		}
		total := time.Since(start)
		r.Stop()

		statuses := map[string]int{}
		var found, correct, findable, findableFound, catchAllFound, grey, greyOpen, lookups int
		for bi, id := range ids {
			for k, j := range views[id].Results {
				c := batches[bi][k]
				lookups++
				if j.Status != store.EmailCompleted || j.Result == nil {
					b.Errorf("%s: job %s", c.req.Domain, j.Status)
					continue
				}
				res := j.Result
				statuses[res.Status]++
				if c.greylist {
					grey++
					if res.Status == email.StatusGreylisted {
						greyOpen++
					}
				}
				if c.findable {
					findable++
				}
				if res.Status != email.StatusFound {
					continue
				}
				found++
				if c.catchAll {
					catchAllFound++
				}
				right := res.Result != nil && c.truth != "" && res.Result.Email == c.truth
				for _, a := range c.aliases {
					right = right || res.Result != nil && res.Result.Email == a
				}
				if right {
					correct++
					if c.findable {
						findableFound++
					}
				} else {
					b.Logf("wrong found: %+v (truth %s) got %+v", c.req, c.truth, res.Result)
				}
			}
		}
		precision := float64(correct) / float64(max(found, 1))
		recall := float64(findableFound) / float64(max(findable, 1))
		var keys []string
		for k := range statuses {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var parts []string
		for _, k := range keys {
			parts = append(parts, fmt.Sprintf("%s=%d", k, statuses[k]))
		}
		b.Logf("%d lookups in %s (first 500-request batch %s): %s", lookups, total.Round(time.Millisecond), batch500.Round(time.Millisecond), strings.Join(parts, " "))
		b.Logf("precision %.4f (%d/%d), recall %.4f (%d/%d findable), catch-all found %d, greylisted lookups %d (still greylisted %d)",
			precision, correct, found, recall, findableFound, findable, catchAllFound, grey, greyOpen)
		b.ReportMetric(precision, "precision")
		b.ReportMetric(recall, "recall")
		b.ReportMetric(batch500.Seconds(), "batch500_s")
		if precision < 0.995 || recall < 0.95 || catchAllFound > 0 || greyOpen > 0 || batch500 > 30*time.Second {
			b.Errorf("bar missed: precision %.4f (>= 0.995), recall %.4f (>= 0.95), catch-all found %d (0), greylisted left %d (0), batch %s (<= 30 s)",
				precision, recall, catchAllFound, greyOpen, batch500)
		}
	}
}

// BenchmarkEmailRate measures the global pace: with a configured rate,
// SMTP sessions start at that rate within 5%.
//
//	go test ./email -run '^$' -bench EmailRate -benchtime 1x
func BenchmarkEmailRate(b *testing.B) {
	for _, tc := range []struct {
		perMin float64
		n      int
	}{{600, 61}, {email.DefaultRatePerMinute, 36}} {
		b.Run(fmt.Sprintf("%.0f_per_min", tc.perMin), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				w, cases := genWorld(b, 400, 11)
				lim := email.Config{RatePerMinute: tc.perMin}.Limiter()
				svc, _, _, _ := benchService(b, w, lim)
				// Lookups of existing people at domains whose exchanger
				// answers in one session (each lookup is one session), 16
				// at a time.
				var reqs []email.Request
				for _, c := range cases {
					if c.findable && c.hostKind == "strict" && len(reqs) < tc.n {
						req, _ := email.Validate(email.KindFind, c.req)
						reqs = append(reqs, req)
					}
				}
				var mu sync.Mutex
				var starts []time.Time
				sem := make(chan struct{}, 16)
				var wg sync.WaitGroup
				for _, req := range reqs {
					wg.Add(1)
					sem <- struct{}{}
					go func(req email.Request) {
						defer wg.Done()
						defer func() { <-sem }()
						res := svc.Finder.Find(context.Background(), req)
						if res.Evidence != nil && len(res.Evidence.Steps) > 0 {
							mu.Lock()
							for _, s := range res.Evidence.Steps {
								if s.Step == "mail" {
									starts = append(starts, s.At)
									break
								}
							}
							mu.Unlock()
						}
					}(req)
				}
				wg.Wait()
				if len(starts) < 2 {
					b.Fatalf("%d sessions recorded", len(starts))
				}
				sort.Slice(starts, func(a, c int) bool { return starts[a].Before(starts[c]) })
				span := starts[len(starts)-1].Sub(starts[0])
				measured := float64(len(starts)-1) / span.Minutes()
				dev := (measured - tc.perMin) / tc.perMin
				b.Logf("%d sessions over %s: %.1f a minute (configured %.0f, %+.2f%%)", len(starts), span.Round(time.Millisecond), measured, tc.perMin, 100*dev)
				b.ReportMetric(measured, "lookups/min")
				if dev > 0.05 || dev < -0.05 {
					b.Errorf("measured %.1f a minute, configured %.0f: off by %.1f%%", measured, tc.perMin, 100*dev)
				}
			}
		})
	}
}
