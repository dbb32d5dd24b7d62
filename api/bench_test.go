package api

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/embedded"
	"github.com/openprospect/prospectd/ingest"
	"github.com/openprospect/prospectd/internal/cputime"
	"github.com/openprospect/prospectd/internal/demo"
	"github.com/openprospect/prospectd/namematch/namematchtest"
	"github.com/openprospect/prospectd/record"
	"github.com/openprospect/prospectd/store"
	"github.com/openprospect/prospectd/store/sqlite"
)

// The discovery benchmarks run over HTTP against a server on loopback.
// PROSPECT_BENCH_INDEX names an embedded index directory (for the figures
// in docs/benchmarks.md, <data-dir>/index after `prospectd demo
// --companies 1000000`); without it a 20,000-company demo corpus is built
// in a temporary directory.

type benchServer struct {
	base, key string
	eng       *embedded.Engine
	st        store.Store
	srv       *Server
	close     func()
}

var bench struct {
	once sync.Once
	srv  *benchServer
	err  error
}

func benchSetup(tb testing.TB) *benchServer {
	tb.Helper()
	bench.once.Do(func() { bench.srv, bench.err = startBenchServer() })
	if bench.err != nil {
		tb.Fatal(bench.err)
	}
	return bench.srv
}

func startBenchServer() (*benchServer, error) {
	ctx := context.Background()
	tmp, err := os.MkdirTemp("", "prospect-bench-*")
	if err != nil {
		return nil, err
	}
	dir := os.Getenv("PROSPECT_BENCH_INDEX")
	if dir == "" {
		dir = filepath.Join(tmp, "index")
	}
	// As `serve` opens it (ANN on by default): broad queries take the ANN
	// plan once the index is built (at once when its file was saved).
	eng, err := embedded.Open(dir, embedded.Options{ANN: true})
	if err != nil {
		return nil, err
	}
	if n, _ := eng.CountCompanies(ctx, nil); n == 0 {
		g := demo.New(demo.Options{Companies: 20_000, Seed: 1})
		if _, err := (&ingest.Loader{Engine: eng}).Load(ctx, g.Source()); err != nil {
			return nil, err
		}
		if _, err := (&ingest.ContactLoader{Contacts: eng, Companies: eng}).Load(ctx, g.ContactSource()); err != nil {
			return nil, err
		}
	}
	if err := eng.LoadContacts(); err != nil {
		return nil, err
	}
	st, err := sqlite.Open(ctx, filepath.Join(tmp, "state.db"))
	if err != nil {
		return nil, err
	}
	org, err := st.CreateOrg(ctx, "bench", store.PlanTeam)
	if err != nil {
		return nil, err
	}
	u, err := st.CreateUser(ctx, org.ID, "bench@example.com", store.RoleAdmin)
	if err != nil {
		return nil, err
	}
	key, _, err := st.CreateAPIKey(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	// Credits without end: the benchmark measures search, not billing refusals.
	plans := account.DefaultPlans()
	plans[store.PlanTeam] = account.PlanConfig{Credits: 1 << 40, RateMultiplier: 1e6}
	log := zerolog.Nop()
	if os.Getenv("PROSPECT_BENCH_LOG") != "" {
		log = zerolog.New(zerolog.ConsoleWriter{Out: os.Stderr}).With().Timestamp().Logger()
	}
	srv := newServer(Deps{Engine: eng, Store: st, Log: log, Plans: plans})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	go srv.App().Listener(ln)
	return &benchServer{base: "http://" + ln.Addr().String() + "/v1", key: key, eng: eng, st: st, srv: srv, close: func() {
		srv.App().Shutdown()
		eng.Close()
		st.Close()
		os.RemoveAll(tmp)
	}}, nil
}

// benchQueries builds n query strings of one kind from the index's own
// companies, so any corpus works.
func benchQueries(tb testing.TB, s *benchServer, kind string, n int) []string {
	tb.Helper()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, uint64(len(kind))))
	var out []string
	for len(out) < n {
		ind := record.Industries[rng.IntN(len(record.Industries))]
		f := index.Terms{Field: index.IndustryField, Values: []string{ind}}
		total, err := s.eng.CountCompanies(ctx, f)
		if err != nil {
			tb.Fatal(err)
		}
		if total < 50 {
			continue
		}
		res, err := s.eng.SearchCompanies(ctx, index.Search{Filter: f, Offset: rng.IntN(total - 20), Limit: 5})
		if err != nil {
			tb.Fatal(err)
		}
		v := url.Values{}
		switch kind {
		case "lookalike":
			// 5 example domains + one country + one industry.
			for _, h := range res.Hits {
				v.Add("domain", h.Company.Domain)
			}
			v.Set("country", res.Hits[0].Company.Address.Country)
			v.Set("category", ind)
		case "icp_text":
			desc := res.Hits[0].Company.Description
			if i := strings.Index(desc, ". "); i > 0 {
				desc = desc[:i]
			}
			v.Set("icp_text", desc)
		case "filters":
			v.Set("country", res.Hits[0].Company.Address.Country)
			v.Set("category", ind)
			v.Set("employee_range", "11,500")
		case "prompt":
			c := res.Hits[0].Company
			kw := "companies"
			for k := range c.Keywords {
				kw = k + " companies"
				break
			}
			v.Set("icp_prompt", fmt.Sprintf("%s in %s with 10-1000 employees", kw, c.Address.Country))
		}
		v.Set("max_records", "100")
		out = append(out, v.Encode())
	}
	return out
}

func (s *benchServer) get(client *http.Client, path, q string) (time.Duration, error) {
	req, _ := http.NewRequest(http.MethodGet, s.base+path+"?"+q, nil)
	req.Header.Set("X-API-Key", s.key)
	start := time.Now()
	res, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	_, err = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	took := time.Since(start)
	if err != nil {
		return 0, err
	}
	if res.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("GET %s?%s: status %d", path, q, res.StatusCode)
	}
	return took, nil
}

func percentiles(d []time.Duration) (p50, p99 time.Duration) {
	slices.Sort(d)
	return d[len(d)/2], d[min(len(d)-1, len(d)*99/100)]
}

// reportPercentiles sorts d and reports its p50, p95 and p99 in ms.
func reportPercentiles(b *testing.B, d []time.Duration) {
	p50, p99 := percentiles(d)
	p95 := d[min(len(d)-1, len(d)*95/100)]
	b.ReportMetric(float64(p50.Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(p95.Microseconds())/1000, "p95-ms")
	b.ReportMetric(float64(p99.Microseconds())/1000, "p99-ms")
}

// BenchmarkDiscoverHTTP measures GET /v1/discover end to end over
// loopback, one request at a time, for each kind of query.
func BenchmarkDiscoverHTTP(b *testing.B) {
	s := benchSetup(b)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	for _, kind := range []string{"lookalike", "icp_text", "filters", "prompt"} {
		qs := benchQueries(b, s, kind, 64)
		b.Run(kind, func(b *testing.B) {
			var lat []time.Duration
			for i := 0; b.Loop(); i++ {
				took, err := s.get(client, "/discover", qs[i%len(qs)])
				if err != nil {
					b.Fatal(err)
				}
				lat = append(lat, took)
			}
			p50, p99 := percentiles(lat)
			b.ReportMetric(float64(p50.Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(p99.Microseconds())/1000, "p99-ms")
		})
	}
}

// BenchmarkContactsHTTP measures contact search over HTTP: a similarity
// search from a persona with two persona filters (seniority, department)
// and one company filter (country), 5 contacts per company, 100
// companies; and a filter-only count.
func BenchmarkContactsHTTP(b *testing.B) {
	s := benchSetup(b)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(7, 7))
	total, err := s.eng.CountContacts(ctx, nil)
	if err != nil || total == 0 {
		b.Fatalf("no contacts in the index (%v)", err)
	}
	ce := s.eng
	var bodies []string
	for len(bodies) < 64 {
		res, err := ce.SearchContacts(ctx, index.ContactSearch{Offset: rng.IntN(min(total, 9000)), Limit: 1})
		if err != nil || len(res.Hits) == 0 {
			b.Fatal(err)
		}
		c := res.Hits[0].Contact
		if c.Seniority == "" || c.Department == "" || c.CompanyCountry == "" {
			continue
		}
		bodies = append(bodies, fmt.Sprintf(`{"persona_id": [%d], "seniority": [%q, "director"], "department": [%q], "filter_country": [%q], "results_by_company": 5, "max_companies": 100}`,
			c.PersonaID, c.Seniority, c.Department, c.CompanyCountry))
	}
	b.Run("similarity-2-persona-1-company-filter", func(b *testing.B) {
		var lat []time.Duration
		cpu := cputime.Process() // the server's CPU too: it runs in this process
		for i := 0; b.Loop(); i++ {
			req, _ := http.NewRequest(http.MethodPost, s.base+"/contacts/discover", strings.NewReader(bodies[i%len(bodies)]))
			req.Header.Set("X-API-Key", s.key)
			req.Header.Set("Content-Type", "application/json")
			start := time.Now()
			res, err := client.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode != http.StatusOK {
				b.Fatalf("status %d", res.StatusCode)
			}
			lat = append(lat, time.Since(start))
		}
		// CPU per request: what the cores spent (server, client, GC), which
		// the other helpers' load on this shared machine does not inflate
		// as it does the wall-time percentiles.
		b.ReportMetric(float64((cputime.Process()-cpu).Microseconds())/1000/float64(len(lat)), "cpu-ms/op")
		reportPercentiles(b, lat)
	})
	counts := []string{"seniority=executive&filter_country=US&has_email=true", "department=Technology&employee_range=51,500",
		"filter_industry=SOFTWARE&seniority=vp&seniority=director", "has_mobile=true&person_country=DE", "min_connections=500&jobstart_date=2020-01-01"}
	b.Run("count-filters-only", func(b *testing.B) {
		var lat []time.Duration
		for i := 0; b.Loop(); i++ {
			took, err := s.get(client, "/contacts/count", counts[i%len(counts)])
			if err != nil {
				b.Fatal(err)
			}
			lat = append(lat, took)
		}
		reportPercentiles(b, lat)
	})
}

// TestDiscoverLoad keeps 8 discovery requests in flight for
// PROSPECT_LOAD_SECONDS seconds (skipped when unset) with a mix of
// lookalike, text, prompt and filter queries, and fails on any error.
func TestDiscoverLoad(t *testing.T) {
	secs, _ := strconv.Atoi(os.Getenv("PROSPECT_LOAD_SECONDS"))
	if secs <= 0 {
		t.Skip("PROSPECT_LOAD_SECONDS not set: the load test is a benchmark run (see docs/benchmarks.md)")
	}
	s := benchSetup(t)
	var mix []string
	for _, kind := range []string{"lookalike", "icp_text", "filters", "prompt"} {
		mix = append(mix, benchQueries(t, s, kind, 50)...)
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	deadline := time.Now().Add(time.Duration(secs) * time.Second)
	var mu sync.Mutex
	var lat []time.Duration
	var errs []error
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; time.Now().Before(deadline); i += 8 {
				took, err := s.get(client, "/discover", mix[i%len(mix)])
				mu.Lock()
				if err != nil {
					errs = append(errs, err)
				} else {
					lat = append(lat, took)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(errs) > 0 {
		t.Fatalf("%d errors, first: %v", len(errs), errs[0])
	}
	p50, p99 := percentiles(lat)
	t.Logf("8 in flight for %ds: %d requests, %.1f req/s, p50 %v, p99 %v, 0 errors", secs, len(lat), float64(len(lat))/float64(secs), p50, p99)
}

func TestMain(m *testing.M) {
	code := m.Run()
	if bench.srv != nil {
		bench.srv.close()
	}
	os.Exit(code)
}

// BenchmarkAuthOverhead measures what the middleware adds to every
// authenticated request: resolving the key in the SQLite state store and
// taking a token from the per-key and per-organization rate limiters.
func BenchmarkAuthOverhead(b *testing.B) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "state.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	org, _ := st.CreateOrg(ctx, "bench", store.PlanTeam)
	u, _ := st.CreateUser(ctx, org.ID, "b@bench.test", store.RoleAdmin)
	key, _, _ := st.CreateAPIKey(ctx, u.ID)
	// Generous limits: the benchmark measures the cost, not refusals.
	srv := New(Deps{Store: st, Log: zerolog.Nop(), Limits: &account.Limits{KeyPerSecond: 1e9, KeyBurst: 1e9, OrgPerSecond: 1e9, OrgBurst: 1e9}})
	lat := make([]time.Duration, 0, 1<<16)
	for b.Loop() {
		start := time.Now()
		p, err := st.Authenticate(ctx, key)
		if err != nil {
			b.Fatal(err)
		}
		if ok, _ := srv.limiter.Allow(p, start); !ok {
			b.Fatal("limited")
		}
		lat = append(lat, time.Since(start))
	}
	p50, p99 := percentiles(lat)
	b.ReportMetric(float64(p50.Nanoseconds())/1e6, "p50-ms")
	b.ReportMetric(float64(p99.Nanoseconds())/1e6, "p99-ms")
}

// BenchmarkAppendHTTP posts a 10,000-row CSV (domains of indexed companies
// plus two other columns) to POST /v1/append with bizdata and vendors and
// reads the whole JSON answer. Each round uses a new organization, so all
// 10,000 profiles are billed (no 90-day cache hits).
func BenchmarkAppendHTTP(b *testing.B) {
	s := benchSetup(b)
	ctx := context.Background()
	total, err := s.eng.CountCompanies(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 7))
	var file strings.Builder
	file.WriteString("Company,Website,Owner\n")
	for rows := 0; rows < 10_000; {
		res, err := s.eng.SearchCompanies(ctx, index.Search{Offset: rng.IntN(max(total-500, 1)), Limit: 500})
		if err != nil {
			b.Fatal(err)
		}
		for _, h := range res.Hits {
			if rows < 10_000 {
				fmt.Fprintf(&file, "%q,https://www.%s/,rep%d\n", h.Company.Name, h.Company.Domain, rows%7)
				rows++
			}
		}
	}
	client := &http.Client{Timeout: time.Minute}
	var lat []time.Duration
	round := 0
	for b.Loop() {
		round++
		org, err := s.st.CreateOrg(ctx, fmt.Sprintf("append-%d", round), store.PlanTeam)
		if err != nil {
			b.Fatal(err)
		}
		u, _ := s.st.CreateUser(ctx, org.ID, fmt.Sprintf("a%d@bench.test", round), store.RoleAdmin)
		key, _, _ := s.st.CreateAPIKey(ctx, u.ID)
		body, ct := multipartBody(b, nil, "list.csv", []byte(file.String()))
		req, _ := http.NewRequest(http.MethodPost, s.base+"/append?dataset=bizdata&dataset=vendors", body)
		req.Header.Set("Content-Type", ct)
		req.Header.Set("X-API-Key", key)
		start := time.Now()
		res, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		n, err := io.Copy(io.Discard, res.Body)
		res.Body.Close()
		lat = append(lat, time.Since(start))
		if err != nil || res.StatusCode != http.StatusOK {
			b.Fatalf("append: status %d, %v", res.StatusCode, err)
		}
		if got := res.Header.Get("X-Credits-Billed"); got == "0" {
			b.Fatalf("billed %s", got)
		}
		b.ReportMetric(float64(n)/1e6, "MB/op")
	}
	p50, _ := percentiles(lat)
	b.ReportMetric(float64(p50.Nanoseconds())/1e6, "p50-ms")
}

// BenchmarkBulkMatchHTTP submits 10,000 perturbed company names (with
// country, city, zip and phone columns where the generator gives them; 15%
// of companies not in the index) to POST /v1/bulkmatch and polls the task
// until it completes: upload, matching, hydration, billing and the stored
// result. The name index is built first (a server builds it when it
// starts) and its build time reported apart. The index must be a seed-1
// demo corpus.
func BenchmarkBulkMatchHTTP(b *testing.B) {
	s := benchSetup(b)
	ctx := context.Background()
	if err := s.srv.StartJobs(ctx); err != nil {
		b.Fatal(err)
	}
	defer s.srv.StopJobs()
	n, err := s.eng.CountCompanies(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	if _, err := s.srv.deps.Names.Index(ctx); err != nil {
		b.Fatal(err)
	}
	build := time.Since(start)
	g := demo.New(demo.Options{Companies: n + n/5, Seed: 1})
	qs := namematchtest.Queries(g, n, 10_000, 0.15, 7)
	var file bytes.Buffer
	w := csv.NewWriter(&file)
	w.Write([]string{"Company", "Country", "City", "Zip", "Phone"})
	for _, q := range qs {
		w.Write([]string{q.Query.Name, q.Query.Country, q.Query.City, q.Query.Zip, q.Query.Phone})
	}
	w.Flush()
	fields := map[string]string{"name_column": "Company", "country_column": "Country", "city_column": "City",
		"zip_code_column": "Zip", "phone_column": "Phone", "min_match_confidence": "80"}
	client := &http.Client{Timeout: 5 * time.Minute}
	for b.Loop() {
		body, ct := multipartBody(b, fields, "names.csv", file.Bytes())
		req, _ := http.NewRequest(http.MethodPost, s.base+"/bulkmatch", body)
		req.Header.Set("Content-Type", ct)
		req.Header.Set("X-API-Key", s.key)
		start := time.Now()
		res, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		var acc TaskAccepted
		json.NewDecoder(res.Body).Decode(&acc)
		res.Body.Close()
		if res.StatusCode != http.StatusAccepted {
			b.Fatalf("submit: status %d", res.StatusCode)
		}
		var st struct {
			Status  string            `json:"status"`
			Results []json.RawMessage `json:"results"`
			Error   string            `json:"error"`
		}
		for {
			time.Sleep(100 * time.Millisecond)
			req, _ := http.NewRequest(http.MethodGet, s.base+"/bulkmatch/status/"+acc.TaskID, nil)
			req.Header.Set("X-API-Key", s.key)
			res, err := client.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			err = json.NewDecoder(res.Body).Decode(&st)
			res.Body.Close()
			if err != nil {
				b.Fatal(err)
			}
			if st.Status != store.TaskInProgress {
				break
			}
		}
		if st.Status != store.TaskCompleted || len(st.Results) != len(qs) {
			b.Fatalf("task %s with %d rows: %s", st.Status, len(st.Results), st.Error)
		}
		b.ReportMetric(time.Since(start).Seconds(), "s/10k")
	}
	b.ReportMetric(build.Seconds(), "s-index-build")
}
