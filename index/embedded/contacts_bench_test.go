package embedded

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/openprospect/prospectd/email/patternvote"
	"github.com/openprospect/prospectd/index"
)

// BenchmarkContactSearchPhases splits the grouped contact search of the
// api ContactsHTTP benchmark (a persona's vector, seniority + department
// + company country, 5 contacts a company, 100 companies) into its
// phases and reports each one's p50 and p95 in ms:
//
//	eval     the filter (posting bitmaps)
//	rank     the plan's ranking (contactIndex.ranked): the exact one scores
//	         every candidate's int8 vector, counts their employers and
//	         ranks far enough to fill the groups; the sketch plan of broad
//	         filters (contactsketch.go) estimates them from the sign
//	         sketches and scores a pool and the chosen employers' contacts
//	hydrate  reading the picked contacts' profiles (cp/)
//	search   SearchContacts end to end (all of the above)
//	employer the groups' company profiles (GetCompanies)
//	patterns the email-pattern lookups of the groups' domains with a cold
//	         cache, as query.ContactService.emailPatterns asks the embedded
//	         engine: the votes of up to 200 contacts with addresses a
//	         domain, tallied from resident data (EmailPatternVotes; the
//	         profiles are read only for contacts whose entries were written
//	         before the votes were kept: votes-unknown-share)
//	patterns-search
//	         the same lookups as engines without EmailPatternVotes make
//	         them (and this one did before): one search of the domains'
//	         contacts with addresses, 50 domains a search, 200 contacts a
//	         domain, hydrated. It runs after patterns, so on an index of
//	         old entries it reads the profiles patterns already read.
//
// On an index whose entries predate the votes, patterns-resident-p50/p95-ms
// time the patterns lookups once more after the votes of the requests'
// domains were filled in from their profiles: what an index written by
// this version gives.
//
//	PROSPECT_BENCH_INDEX=/path/to/data/index go test -run '^$' -bench ContactSearchPhases -benchtime 200x ./index/embedded/
//
// Before the timed requests each of the 64 is ranked by both plans:
// recall-grouped is the mean share of the exact plan's grouped contacts
// the engine's plan returns (recall-grouped-min the worst request),
// exact-rank-p50/p95-ms the exact plan's ranking time, sketch-share the
// share of requests the sketch plan takes.
//
// PROSPECT_BENCH_CONTACT_EXACT_MAX, _POOL_MIN and _POOL_PER set the sketch
// plan's contactExactMax, contactPoolMin and contactPoolPerContact.
//
// PROSPECT_BENCH_CONTACT_POOL_SWEEP=2,5,10 reports the recall and the
// ranking p95 with those contactPoolPerContact values too (and no
// contactPoolMin).
//
// PROSPECT_BENCH_EVICT=1 drops the index's files from the page cache
// after the load, so the "first" figures are cold-disk reads.
func BenchmarkContactSearchPhases(b *testing.B) {
	dir := os.Getenv("PROSPECT_BENCH_INDEX")
	if dir == "" {
		b.Skip("PROSPECT_BENCH_INDEX not set")
	}
	e, err := Open(dir, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	ctx := context.Background()
	x, err := e.contactIdx()
	if err != nil {
		b.Fatal(err)
	}
	total := int(x.live.GetCardinality())
	if total == 0 {
		b.Skip("no contacts in the index")
	}
	type req struct {
		search index.ContactSearch
	}
	rng := rand.New(rand.NewPCG(7, 7))
	var reqs []req
	for len(reqs) < 64 {
		res, err := e.SearchContacts(ctx, index.ContactSearch{Offset: rng.IntN(min(total, 9000)), Limit: 1})
		if err != nil || len(res.Hits) == 0 {
			b.Fatal(err)
		}
		c := res.Hits[0].Contact
		if c.Seniority == "" || c.Department == "" || c.CompanyCountry == "" {
			continue
		}
		vecs, err := e.ContactVectors(ctx, []int64{c.PersonaID})
		if err != nil {
			b.Fatal(err)
		}
		f := index.And{
			index.Terms{Field: index.SeniorityField, Values: []string{c.Seniority, "director"}},
			index.Terms{Field: index.DepartmentField, Values: []string{c.Department}},
			index.Terms{Field: index.CountryField, Values: []string{c.CompanyCountry}},
			index.Not{Filter: index.Terms{Field: index.PersonaIDField, Values: []string{strconv.FormatInt(c.PersonaID, 10)}}},
		}
		reqs = append(reqs, req{search: index.ContactSearch{Filter: f, Vector: vecs[c.PersonaID], MinSimilarity: -2,
			PerCompany: 5, MaxCompanies: 100, Limit: 10_000}})
	}
	// The sketch plan's thresholds, to measure recall against them.
	for _, v := range []struct {
		env string
		to  *int
	}{{"PROSPECT_BENCH_CONTACT_EXACT_MAX", &contactExactMax}, {"PROSPECT_BENCH_CONTACT_POOL_MIN", &contactPoolMin},
		{"PROSPECT_BENCH_CONTACT_POOL_PER", &contactPoolPerContact}} {
		if n, err := strconv.Atoi(os.Getenv(v.env)); err == nil {
			*v.to = n
		}
	}
	var recall []float64
	var exactLat []time.Duration
	var exacts [][]cScored
	sketched := 0
	for _, r := range reqs {
		s := r.search
		x.mu.RLock()
		cand, err := x.eval(s.Filter, x.live)
		if err != nil {
			b.Fatal(err)
		}
		var exact []cScored
		var took time.Duration
		withContactPlan(math.MaxInt, contactPoolMin, func() {
			t0 := time.Now()
			exact, _, _ = x.ranked(ctx, cand, s)
			took = time.Since(t0)
		})
		got, _, _ := x.ranked(ctx, cand, s)
		if x.sketchPlan(s, int(cand.GetCardinality())) {
			sketched++
		}
		x.mu.RUnlock()
		exactLat = append(exactLat, took)
		exacts = append(exacts, exact)
		in := map[uint32]bool{}
		for _, c := range got {
			in[c.id] = true
		}
		n := 0
		for _, c := range exact {
			if in[c.id] {
				n++
			}
		}
		recall = append(recall, float64(n)/float64(max(1, len(exact))))
	}
	// Recall and ranking time of the sketch plan at other pool sizes.
	sweep := map[string]float64{}
	for _, v := range strings.Split(os.Getenv("PROSPECT_BENCH_CONTACT_POOL_SWEEP"), ",") {
		per, err := strconv.Atoi(v)
		if err != nil {
			continue
		}
		var sum, worst float64 = 0, 1
		var lat []time.Duration
		for i, r := range reqs {
			x.mu.RLock()
			cand, err := x.eval(r.search.Filter, x.live)
			if err != nil {
				b.Fatal(err)
			}
			var got []cScored
			withContactPlan(contactExactMax, 0, func() {
				old := contactPoolPerContact
				contactPoolPerContact = per
				t0 := time.Now()
				got, _, _ = x.ranked(ctx, cand, r.search)
				lat = append(lat, time.Since(t0))
				contactPoolPerContact = old
			})
			x.mu.RUnlock()
			in := map[uint32]bool{}
			for _, c := range got {
				in[c.id] = true
			}
			n := 0
			for _, c := range exacts[i] {
				if in[c.id] {
					n++
				}
			}
			rc := float64(n) / float64(max(1, len(exacts[i])))
			sum += rc
			worst = min(worst, rc)
		}
		slices.Sort(lat)
		// Reported after the loop: b.Loop's start drops earlier metrics.
		sweep["recall-pool"+v] = sum / float64(len(reqs))
		sweep["recall-min-pool"+v] = worst
		sweep["rank-p95-ms-pool"+v] = float64(lat[len(lat)*95/100].Microseconds()) / 1000
	}
	if os.Getenv("PROSPECT_BENCH_EVICT") != "" {
		// The first pass then reads profiles from the disk, as every pass
		// would with a store larger than the page cache (50M contacts).
		evictDir(b, dir)
	}
	phases := []string{"eval", "rank", "hydrate", "search", "employer", "patterns", "patterns-search"}
	lat := map[string][]time.Duration{}
	var groups, cands []float64
	var reqDomains [][]string
	for i := 0; b.Loop(); i++ {
		s := reqs[i%len(reqs)].search
		t0 := time.Now()
		x.mu.RLock()
		cand, err := x.eval(s.Filter, x.live)
		if err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		picked, _, _ := x.ranked(ctx, cand, s)
		pids := make([]int64, len(picked))
		for k, p := range picked {
			pids[k] = x.persona[p.id]
		}
		x.mu.RUnlock()
		t4 := time.Now()
		hits, err := e.GetContacts(ctx, pids)
		if err != nil {
			b.Fatal(err)
		}
		t5 := time.Now()
		if _, err := e.SearchContacts(ctx, s); err != nil {
			b.Fatal(err)
		}
		t6 := time.Now()
		var domains []string
		for _, h := range hits {
			if len(domains) == 0 || domains[len(domains)-1] != h.Domain {
				domains = append(domains, h.Domain)
			}
		}
		if _, err := e.GetCompanies(ctx, domains); err != nil {
			b.Fatal(err)
		}
		t7 := time.Now()
		if _, err := e.EmailPatternVotes(ctx, domains, 200); err != nil {
			b.Fatal(err)
		}
		t8 := time.Now()
		for k := 0; k < len(domains); k += 50 {
			batch := domains[k:min(len(domains), k+50)]
			if _, err := e.SearchContacts(ctx, index.ContactSearch{MinSimilarity: -2, PerCompany: 200, MaxCompanies: len(batch),
				Limit: 200 * len(batch), Filter: index.And{index.Terms{Field: index.DomainField, Values: batch},
					index.Exists{Field: index.ContactEmailField}}}); err != nil {
				b.Fatal(err)
			}
		}
		t9 := time.Now()
		for k, d := range []time.Duration{t1.Sub(t0), t4.Sub(t1), t5.Sub(t4), t6.Sub(t5), t7.Sub(t6), t8.Sub(t7), t9.Sub(t8)} {
			lat[phases[k]] = append(lat[phases[k]], d)
		}
		groups = append(groups, float64(len(domains)))
		cands = append(cands, float64(cand.GetCardinality()))
		if i < len(reqs) {
			reqDomains = append(reqDomains, domains)
		}
	}
	// An index of old entries: the votes of the requests' domains filled
	// in from the profiles, the lookups timed again.
	unknown := 0
	x.mu.RLock()
	for it := x.live.Iterator(); it.HasNext(); {
		if x.votes[it.Next()] == voteUnknown {
			unknown++
		}
	}
	x.mu.RUnlock()
	b.ReportMetric(float64(unknown)/float64(total), "votes-unknown-share")
	if unknown > 0 {
		for _, ds := range reqDomains {
			fillVotes(b, e, x, ds)
		}
		var res []time.Duration
		for _, ds := range reqDomains {
			t0 := time.Now()
			if _, err := e.EmailPatternVotes(ctx, ds, 200); err != nil {
				b.Fatal(err)
			}
			res = append(res, time.Since(t0))
		}
		slices.Sort(res)
		b.ReportMetric(float64(res[len(res)/2].Microseconds())/1000, "patterns-resident-p50-ms")
		b.ReportMetric(float64(res[len(res)*95/100].Microseconds())/1000, "patterns-resident-p95-ms")
	}
	for _, p := range phases {
		d := lat[p]
		// The first pass over the requests reads their blocks from the
		// store's files (and, at scale, the disk): reported on its own.
		first := slices.Clone(d[:min(len(d), len(reqs))])
		slices.Sort(first)
		b.ReportMetric(float64(first[len(first)/2].Microseconds())/1000, p+"-first-p50-ms")
		slices.Sort(d)
		b.ReportMetric(float64(d[len(d)/2].Microseconds())/1000, p+"-p50-ms")
		b.ReportMetric(float64(d[min(len(d)-1, len(d)*95/100)].Microseconds())/1000, p+"-p95-ms")
	}
	slices.Sort(exactLat)
	b.ReportMetric(float64(exactLat[len(exactLat)/2].Microseconds())/1000, "exact-rank-p50-ms")
	b.ReportMetric(float64(exactLat[len(exactLat)*95/100].Microseconds())/1000, "exact-rank-p95-ms")
	var rsum float64
	for _, r := range recall {
		rsum += r
	}
	b.ReportMetric(rsum/float64(len(recall)), "recall-grouped")
	b.ReportMetric(slices.Min(recall), "recall-grouped-min")
	b.ReportMetric(float64(sketched)/float64(len(reqs)), "sketch-share")
	for k, v := range sweep {
		b.ReportMetric(v, k)
	}
	slices.Sort(cands)
	b.ReportMetric(cands[len(cands)/2], "candidates-p50")
	b.ReportMetric(cands[len(cands)*95/100], "candidates-p95")
	b.ReportMetric(float64(len(x.persona)), "contacts")
}

// fillVotes gives the contacts with addresses of the domains that have no
// vote (entries written before the votes were kept) their vote, from
// their profiles.
func fillVotes(b *testing.B, e *Engine, x *contactIndex, domains []string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, d := range domains {
		bm := x.post[index.DomainField][d]
		if bm == nil {
			continue
		}
		for it := roaring.And(bm, x.flags[index.ContactEmailField]).Iterator(); it.HasNext(); {
			id := it.Next()
			if x.votes[id] != voteUnknown {
				continue
			}
			c, err := e.contactProfile(x.persona[id])
			if err != nil {
				b.Fatal(err)
			}
			x.votes[id] = encodeVote(patternvote.VoteOf(d, c.Email, c.Name, c.EmailValidated))
		}
	}
}
