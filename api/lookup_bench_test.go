package api

import (
	"context"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/internal/demo"
	"github.com/openprospect/prospectd/namematch/namematchtest"
	"github.com/openprospect/prospectd/record"
)

// BenchmarkLookupHTTP measures the single-record lookups over HTTP on
// loopback, one request at a time, each request billed (a new record for
// most of them): GET /v1/match with a perturbed name and the evidence the
// generator gives (the index must be a seed-1 demo corpus; the name index
// is built before timing, as a server does at start), GET
// /v1/contacts/match with a person's name and employer domain, and each
// per-domain dataset lookup with one domain, GET /v1/extract with one
// crawled domain, and vendors with 100.
func BenchmarkLookupHTTP(b *testing.B) {
	s := benchSetup(b)
	ctx := context.Background()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}, Timeout: time.Minute}
	n, err := s.eng.CountCompanies(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	if _, err := s.srv.deps.Names.Index(ctx); err != nil {
		b.Fatal(err)
	}
	b.Logf("%d companies; name index built in %s", n, time.Since(start).Round(time.Millisecond))

	run := func(name, path string, qs []string) {
		b.Run(name, func(b *testing.B) {
			var lat []time.Duration
			for i := 0; b.Loop(); i++ {
				took, err := s.get(client, path, qs[i%len(qs)])
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

	// Names of indexed companies only, so every request is a 200 (a
	// no-match is a 404, which s.get counts as an error).
	g := demo.New(demo.Options{Companies: n, Seed: 1})
	var names []string
	for _, q := range namematchtest.Queries(g, n, 4000, 0, 13) {
		if len(names) == 1000 {
			break
		}
		v := url.Values{"name": {q.Query.Name}}
		for k, val := range map[string]string{"country": q.Query.Country, "state": q.Query.State, "city": q.Query.City, "zip": q.Query.Zip, "phone": q.Query.Phone} {
			if val != "" {
				v.Set(k, val)
			}
		}
		r, err := s.srv.deps.Names.MatchOne(ctx, q.Query)
		if err == nil && r.Err == nil && r.Domain != "" && r.Confidence >= 50 {
			names = append(names, v.Encode())
		}
	}
	run("match", "/match", names)

	if total, err := s.eng.CountContacts(ctx, nil); err == nil && total > 0 {
		rng := rand.New(rand.NewPCG(3, 3))
		var people []string
		for len(people) < 500 {
			res, err := s.eng.SearchContacts(ctx, index.ContactSearch{Offset: rng.IntN(min(total, 9000)), Limit: 1})
			if err != nil || len(res.Hits) == 0 {
				b.Fatal(err)
			}
			c := res.Hits[0].Contact
			people = append(people, url.Values{"name": {c.Name}, "domain": {c.Domain}, "limit": {"10"}}.Encode())
		}
		run("contacts-match", "/contacts/match", people)
	}

	// Domains spread over the index.
	rng := rand.New(rand.NewPCG(5, 5))
	var domains []string
	for len(domains) < 5000 {
		res, err := s.eng.SearchCompanies(ctx, index.Search{Offset: rng.IntN(max(n-100, 1)), Limit: 100})
		if err != nil {
			b.Fatal(err)
		}
		for _, h := range res.Hits {
			domains = append(domains, h.Company.Domain)
		}
	}
	one := make([]string, len(domains))
	for i, d := range domains {
		one[i] = "domain=" + d
	}
	for _, ep := range []string{"score", "status", "redirects", "growth", "vendors", "subdomains"} {
		run(ep, "/"+ep, one)
	}
	// GET /v1/extract reads what the crawler stored: mark the first 2,000
	// domains crawled (text and vectors as they were), as a crawl that
	// found the same text does.
	crawled := domains[:2000]
	got, err := s.eng.GetCompanies(ctx, crawled)
	if err != nil {
		b.Fatal(err)
	}
	vecs, err := s.eng.CompanyVectors(ctx, crawled)
	if err != nil {
		b.Fatal(err)
	}
	docs := make([]index.CompanyDoc, len(got))
	for i, c := range got {
		c.Crawl = &record.Crawl{At: "2026-11-25T10:00:00Z", URL: "https://" + c.Domain + "/", Languages: c.Languages, TextAt: "2026-11-25T10:00:00Z"}
		docs[i] = index.CompanyDoc{Company: c, Vector: vecs[c.Domain]}
	}
	if _, err := s.eng.UpsertCompanies(ctx, docs); err != nil {
		b.Fatal(err)
	}
	run("extract", "/extract", one[:len(got)])

	var hundreds []string
	for i := 0; i+100 <= len(domains); i += 100 {
		hundreds = append(hundreds, "domain="+strings.Join(domains[i:i+100], ",")+"&match=google.com")
	}
	run("vendors-100-domains-match", "/vendors", hundreds)
}
