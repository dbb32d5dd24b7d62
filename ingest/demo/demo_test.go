package demo

import (
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/nyaruka/phonenumbers"

	"github.com/openprospect/prospectd/index/embedding"
	"github.com/openprospect/prospectd/ingest"
	"github.com/openprospect/prospectd/record"
	"github.com/openprospect/prospectd/record/domain"
)

func TestDeterministic(t *testing.T) {
	a, b := New(Options{Companies: 100, Seed: 7}), New(Options{Companies: 100, Seed: 7})
	for i := 0; i < 100; i += 13 {
		if !reflect.DeepEqual(a.Company(i), b.Company(i)) {
			t.Fatalf("company %d differs between two generators with one seed", i)
		}
	}
	if c := New(Options{Companies: 100, Seed: 8}); reflect.DeepEqual(a.Company(3), c.Company(3)) {
		t.Fatal("different seeds give the same company")
	}
}

func TestCorpusIsValidAndVaried(t *testing.T) {
	const n = 20000
	g := New(Options{Companies: n, Seed: 1})
	domains := map[string]bool{}
	industries, countries := map[string]bool{}, map[string]bool{}
	closed, redirects := 0, 0
	for i := 0; i < n; i++ {
		c := g.Company(i)
		if domains[c.Domain] {
			t.Fatalf("duplicate domain %s", c.Domain)
		}
		domains[c.Domain] = true
		if d, err := domain.Normalize(c.Domain); err != nil || d != c.Domain {
			t.Fatalf("domain %q does not normalize to itself: %q %v", c.Domain, d, err)
		}
		norm := c
		if err := ingest.Normalize(&norm); err != nil {
			t.Fatalf("company %d fails ingest normalization: %v", i, err)
		}
		if len(norm.Phones) != len(c.Phones) {
			t.Fatalf("company %d has an invalid phone %v", i, c.Phones)
		}
		lab := g.Label(i)
		if _, ok := c.IndustryGroups[lab.Industry]; !ok || c.Industries()[0] != lab.Industry {
			t.Fatalf("company %d: top industry %v, label %s", i, c.Industries(), lab.Industry)
		}
		industries[lab.Industry] = true
		countries[c.Address.Country] = true
		if c.Closed() {
			closed++
			if c.EndDate == nil || *c.EndDate < c.StartDate {
				t.Fatalf("closed company %d with end date %v (start %s)", i, c.EndDate, c.StartDate)
			}
		} else if c.EndDate != nil {
			t.Fatalf("active company %d has an end date", i)
		}
		if c.RedirectDomain != nil {
			redirects++
		}
		age := float64(demoYear) - float64(atoi(c.StartDate[:4]))
		if c.Score < 1 || c.Score > MaxScoreForAge(age+1) {
			t.Fatalf("company %d: score %d above the age curve (%v years)", i, c.Score, age)
		}
		for _, u := range c.SocialURLs {
			if record.SocialNetworkOf(u) == "" {
				t.Fatalf("unrecognized social URL %s", u)
			}
		}
		if !record.IsEmployeeBucket(c.Employees) || (c.RevenueRange != "" && !record.IsRevenueBucket(c.RevenueRange)) {
			t.Fatalf("bad buckets %q %q", c.Employees, c.RevenueRange)
		}
	}
	if len(industries) != 53 {
		t.Errorf("%d industries appear, want all 53", len(industries))
	}
	if len(countries) < 100 {
		t.Errorf("%d countries appear, want 100+", len(countries))
	}
	if closed < n/100 || closed > n/10 {
		t.Errorf("%d closed companies of %d", closed, n)
	}
	if redirects == 0 {
		t.Error("no redirects")
	}
}

func TestPhonesValid(t *testing.T) {
	g := New(Options{Companies: 2000, Seed: 3})
	for i := 0; i < 2000; i++ {
		for _, p := range g.Company(i).Phones {
			n, err := phonenumbers.Parse(p, "")
			if err != nil || !phonenumbers.IsValidNumber(n) {
				t.Fatalf("invalid phone %s", p)
			}
		}
	}
}

// TestLookalikeRelevance fits the built-in embedder on the corpus and checks
// that a company's nearest neighbours share its industry and niche.
func TestLookalikeRelevance(t *testing.T) {
	const n = 4000
	g := New(Options{Companies: n, Seed: 1})
	docs := make([]embedding.Doc, n)
	for i := range docs {
		docs[i] = embedding.DocOf(g.Company(i))
	}
	m, err := embedding.Fit(docs, embedding.Options{})
	if err != nil {
		t.Fatal(err)
	}
	vecs := make([][]float32, n)
	for i := range docs {
		vecs[i] = m.Embed(docs[i])
	}
	var sameInd, sameNiche, total float64
	for q := 0; q < 100; q++ {
		type nb struct {
			i int
			s float32
		}
		nbs := make([]nb, 0, n)
		for j := range vecs {
			if j == q {
				continue
			}
			var s float32
			for k := range vecs[q] {
				s += vecs[q][k] * vecs[j][k]
			}
			nbs = append(nbs, nb{j, s})
		}
		sort.Slice(nbs, func(a, b int) bool { return nbs[a].s > nbs[b].s })
		lq := g.Label(q)
		for _, x := range nbs[:20] {
			l := g.Label(x.i)
			if l.Industry == lq.Industry {
				sameInd++
				if l.Niche == lq.Niche {
					sameNiche++
				}
			}
			total++
		}
	}
	t.Logf("top-20 lookalikes: %.1f%% same industry, %.1f%% same niche", 100*sameInd/total, 100*sameNiche/total)
	if sameInd/total < 0.8 || sameNiche/total < 0.5 {
		t.Errorf("lookalikes share industry %.2f (want >= 0.8), niche %.2f (want >= 0.5)", sameInd/total, sameNiche/total)
	}
}

func atoi(s string) int {
	n := 0
	for _, r := range s {
		n = n*10 + int(r-'0')
	}
	return n
}

func BenchmarkCompany(b *testing.B) {
	g := New(Options{Companies: b.N, Seed: 1})
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		g.Company(i)
	}
}

func TestTextsReadable(t *testing.T) {
	c := New(Options{Companies: 1, Seed: 1}).Company(0)
	if !strings.Contains(c.Description, c.Name) || len(c.SiteText) < 300 {
		t.Fatalf("description %q / site text %d chars", c.Description, len(c.SiteText))
	}
}
