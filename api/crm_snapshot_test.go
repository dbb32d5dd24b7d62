package api

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/openprospect/prospectd/crm"
	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/enginetest"
	"github.com/openprospect/prospectd/record"
)

// The bar of the CRM suppression issue (benchmarked in crm's
// BenchmarkSnapshot100k): a snapshot of 100,000 companies
// paging 100 per page finishes within 60 s.
const (
	bigCRM      = 100_000
	bigCRMBar   = 60 * time.Second
	indexedSize = 4_000 // companies in the index
	inBoth      = 2_000 // of them also in the CRM
)

// bigCRMFixture indexes indexedSize companies and fills the HubSpot fake
// with bigCRM websites, inBoth of them indexed companies' (in CRM shapes:
// www., paths, upper case); it returns the domains in both.
func bigCRMFixture(t *testing.T) (*crmFixture, []string) {
	f := newCRMFixture(t)
	ctx := context.Background()
	eng := f.srv.deps.Engine.(index.Engine)
	rng := rand.New(rand.NewPCG(1, 2))
	var docs []index.CompanyDoc
	var both []string
	for i := range indexedSize {
		d := fmt.Sprintf("indexed%05d.com", i)
		v := make([]float32, enginetest.Dim)
		for j := range v {
			v[j] = float32(rng.NormFloat64())
		}
		docs = append(docs, index.CompanyDoc{Vector: v, Company: record.Company{Domain: d, Name: fmt.Sprintf("Indexed %d", i),
			Status: record.Status{Status: "active", Confidence: 1}, Score: 100, Address: record.Address{Country: "US"}}})
		if i%(indexedSize/inBoth) == 0 {
			both = append(both, d)
		}
	}
	if _, err := eng.UpsertCompanies(ctx, docs); err != nil {
		t.Fatal(err)
	}
	sites := make([]string, 0, bigCRM)
	for i, d := range both {
		switch i % 3 {
		case 0:
			sites = append(sites, "https://www."+d+"/about")
		case 1:
			sites = append(sites, "HTTP://"+d)
		default:
			sites = append(sites, d)
		}
	}
	for i := len(both); i < bigCRM; i++ {
		sites = append(sites, fmt.Sprintf("www.customer-%06d.io", i))
	}
	f.fakes[crm.HubSpot].SetCompanies(sites)
	f.connect(t, f.key, crm.HubSpot)
	return f, both
}

// TestCRMSnapshot100k: the 100,000-company snapshot meets the bar and the
// list removes exactly the CRM's indexed companies from discovery.
func TestCRMSnapshot100k(t *testing.T) {
	if testing.Short() {
		t.Skip("100,000-company snapshot")
	}
	f, both := bigCRMFixture(t)
	var before struct{ Count int }
	f.call(t, "GET", "/v1/count?min_digital_footprint=0", keyHdr(f.key), &before)
	start := time.Now()
	res := f.suppress(t, f.key, crm.HubSpot, crm.KindCompanies)
	took := time.Since(start)
	t.Logf("snapshot of %d companies, %d pages: %s", bigCRM, res.Pages, took)
	if took > bigCRMBar {
		t.Fatalf("snapshot took %s, the bar is %s", took, bigCRMBar)
	}
	if res.Domains != bigCRM || res.Pages != bigCRM/100 {
		t.Fatalf("result %+v", res)
	}
	var after struct{ Count int }
	f.call(t, "GET", "/v1/count?min_digital_footprint=0&exclusion_query_id="+res.QueryID, keyHdr(f.key), &after)
	// The fixture's own few companies are not in the CRM.
	if before.Count < indexedSize || after.Count != before.Count-inBoth {
		t.Fatalf("count %d -> %d, want %d fewer", before.Count, after.Count, inBoth)
	}
	var got []map[string]any
	f.call(t, "GET", "/v1/discover?min_digital_footprint=0&max_records=10000&exclusion_query_id="+res.QueryID, keyHdr(f.key), &got)
	if len(got) != before.Count-inBoth {
		t.Fatalf("discover returned %d, want %d", len(got), before.Count-inBoth)
	}
	for _, p := range got {
		if _, found := slices.BinarySearch(both, p["domain"].(string)); found {
			t.Fatalf("%s is in the CRM but discovered", p["domain"])
		}
	}
}
