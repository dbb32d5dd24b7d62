package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/saved"
)

// benchExclusionList saves an exclusion list of n domains for the bench
// organization: every fourth indexed domain (so a quarter of any result
// set is excluded and pages must be refilled), then made-up domains.
func benchExclusionList(b *testing.B, s *benchServer, n int) (id string, excluded map[string]bool) {
	b.Helper()
	ctx := context.Background()
	var all []string
	if err := s.eng.ScanCompanies(ctx, func(k index.CompanyKey) error {
		all = append(all, k.Domain)
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	excluded = map[string]bool{}
	var list []string
	for i := 0; i < len(all) && len(list) < n; i += 4 {
		list = append(list, all[i])
		excluded[all[i]] = true
	}
	for i := 0; len(list) < n; i++ {
		list = append(list, fmt.Sprintf("not-indexed-%d.com", i))
	}
	org, err := s.st.OrgByName(ctx, "bench")
	if err != nil {
		b.Fatal(err)
	}
	u, err := s.st.UserByEmail(ctx, "bench@example.com")
	if err != nil {
		b.Fatal(err)
	}
	q, _, err := s.srv.queries.svc.CreateExclusionList(ctx, saved.Caller{OrgID: org.ID, UserID: u.ID}, saved.ExclusionList{Name: "bench", Domains: list})
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("exclusion list of %d domains (%d indexed of %d)", q.DomainCount, len(excluded), len(all))
	return q.ID, excluded
}

// fetch GETs path?q, timing the request and reading the body, then
// decodes the answer as a JSON array of objects.
func (s *benchServer) fetch(client *http.Client, path, q string) (time.Duration, []map[string]any, error) {
	req, _ := http.NewRequest(http.MethodGet, s.base+path+"?"+q, nil)
	req.Header.Set("X-API-Key", s.key)
	start := time.Now()
	res, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	took := time.Since(start)
	if err != nil {
		return 0, nil, err
	}
	if res.StatusCode != http.StatusOK {
		return 0, nil, fmt.Errorf("GET %s?%s: status %d: %s", path, q, res.StatusCode, body)
	}
	var rows []map[string]any
	if err := json.Unmarshal(body, &rows); err != nil {
		return 0, nil, err
	}
	return took, rows, nil
}

// count GETs /v1/count?q (without max_records).
func (s *benchServer) count(client *http.Client, q string) (int, error) {
	v, err := url.ParseQuery(q)
	if err != nil {
		return 0, err
	}
	v.Del("max_records")
	req, _ := http.NewRequest(http.MethodGet, s.base+"/count?"+v.Encode(), nil)
	req.Header.Set("X-API-Key", s.key)
	res, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	var out struct{ Count int }
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil || res.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("count %s: status %d: %v", q, res.StatusCode, err)
	}
	return out.Count, nil
}

// BenchmarkDiscoverExclusionHTTP compares GET /v1/discover with and
// without a 250,000-domain exclusion_query_id, request for request
// (alternating), and checks that every page with the exclusion is full
// and holds no excluded domain. Reported: p50 of each and their ratio
// (issue 15 bar: <= 1.5 at 1M companies).
func BenchmarkDiscoverExclusionHTTP(b *testing.B) {
	s := benchSetup(b)
	id, excluded := benchExclusionList(b, s, 250_000)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	for _, kind := range []string{"icp_text", "filters"} {
		qs := benchQueries(b, s, kind, 64)
		b.Run(kind, func(b *testing.B) {
			var plain, excl []time.Duration
			for i := 0; b.Loop(); i++ {
				q := qs[i%len(qs)]
				took, rows, err := s.fetch(client, "/discover", q)
				if err != nil {
					b.Fatal(err)
				}
				plain = append(plain, took)
				full := len(rows)
				took, rows, err = s.fetch(client, "/discover", q+"&exclusion_query_id="+id)
				if err != nil {
					b.Fatal(err)
				}
				excl = append(excl, took)
				for _, r := range rows {
					if excluded[r["domain"].(string)] {
						b.Fatalf("%s: excluded %s returned", q, r["domain"])
					}
				}
				// Full unless fewer companies match than a page holds
				// (the exact count, untimed).
				if len(rows) < 100 {
					n, err := s.count(client, q+"&exclusion_query_id="+id)
					if err != nil {
						b.Fatal(err)
					}
					if len(rows) != min(n, 100) {
						b.Fatalf("%s: %d results with the exclusion (%d without), %d match: the page is not full", q, len(rows), full, n)
					}
				}
			}
			p50, p99 := percentiles(plain)
			xp50, xp99 := percentiles(excl)
			b.ReportMetric(float64(p50.Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(p99.Microseconds())/1000, "p99-ms")
			b.ReportMetric(float64(xp50.Microseconds())/1000, "excl-p50-ms")
			b.ReportMetric(float64(xp99.Microseconds())/1000, "excl-p99-ms")
			b.ReportMetric(float64(xp50)/float64(p50), "p50-ratio")
		})
	}
}

// BenchmarkSaveResultsHTTP posts 50,000 result rows (domains of the index
// with profile-like extra columns) to POST /v1/queries/save-results
// (issue 15 bar: <= 3 s).
func BenchmarkSaveResultsHTTP(b *testing.B) {
	s := benchSetup(b)
	ctx := context.Background()
	var domains []string
	if err := s.eng.ScanCompanies(ctx, func(k index.CompanyKey) error {
		if len(domains) < 50_000 {
			domains = append(domains, k.Domain)
		}
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	for i := 0; len(domains) < 50_000; i++ {
		domains = append(domains, fmt.Sprintf("extra-%d.com", i))
	}
	var body bytes.Buffer
	body.WriteString(`{"query_name":"bench","action":"discover","query_params":{"icp_text":"bench"},"tags":["bench"],"data":[`)
	for i, d := range domains {
		if i > 0 {
			body.WriteByte(',')
		}
		fmt.Fprintf(&body, `{"domain":%q,"name":"Company %d","similarity":%d.5,"score":%d,"address":{"city":"Springfield","country":"US"},"keywords":{"software":0.9,"payroll":0.4}}`,
			d, i, i%100, i%800)
	}
	body.WriteString("]}")
	b.Logf("body %.1f MB, 50,000 rows", float64(body.Len())/(1<<20))
	client := &http.Client{}
	var lat []time.Duration
	for b.Loop() {
		req, _ := http.NewRequest(http.MethodPost, s.base+"/queries/save-results", bytes.NewReader(body.Bytes()))
		req.Header.Set("X-API-Key", s.key)
		req.Header.Set("Content-Type", "application/json")
		start := time.Now()
		res, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		out, _ := io.ReadAll(res.Body)
		res.Body.Close()
		lat = append(lat, time.Since(start))
		if res.StatusCode != http.StatusOK || !bytes.Contains(out, []byte(`"row_count":50000`)) {
			b.Fatalf("status %d: %s", res.StatusCode, out)
		}
	}
	p50, p99 := percentiles(lat)
	b.ReportMetric(float64(p50.Milliseconds()), "p50-ms")
	b.ReportMetric(float64(p99.Milliseconds()), "p99-ms")
}
