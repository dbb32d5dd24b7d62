package embedded

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/cockroachdb/pebble"

	"github.com/openprospect/prospectd/email/patternvote"
	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/enginetest"
	"github.com/openprospect/prospectd/internal/demo"
	"github.com/openprospect/prospectd/record"
)

// voteNames cover what the folded name (textfold) and patternvote's name
// parts disagree on — hyphens, apostrophes, digits, letters spelled out
// or dropped — and what they agree on.
var voteNames = []string{"Ana García", "Jürgen Müller", "Bob Stone", "Priya", "Cleo Park", "Ayşe Yılmaz",
	"Jean-Pierre Martin", "Mary Anne O'Brien", "Søren Ærø", "Łukasz Straße", "ẞtefan Groß", "John Smith 3rd",
	"R2 D2", "東京 太郎", "", "  ", "José Núñez-García", "Li", "Zoë d'Arc", "Anne  Marie   Lee", "-Ed- Kim'",
	"Ørjan Ødegård", "Nguyễn Văn An", "Kai Müller-Lüdenscheidt", "Ian O’Neil", "x", "Đorđe Ilić"}

// voteContact makes a contact of domain d whose address mostly follows
// one of the templates (as patternvote reads the name), sometimes not:
// another host, upper case, no '@', no address at all.
func voteContact(rng *rand.Rand, pid int64, d string) record.Contact {
	name := voteNames[rng.IntN(len(voteNames))]
	c := record.Contact{PersonaID: pid, Name: name, Domain: d, Connections: rng.IntN(5) * 100,
		EmailValidated: rng.IntN(3) == 0}
	if k := rng.IntN(len(record.Seniorities) + 1); k < len(record.Seniorities) {
		c.Seniority = record.Seniorities[k]
	}
	first, last := patternvote.NameParts(name)
	local := patternvote.Apply(patternvote.Templates[rng.IntN(4)*rng.IntN(4)], first, last)
	switch r := rng.IntN(20); {
	case r == 0:
		return c // no address
	case r == 1:
		c.Email = local + "@gmail.com"
	case r == 2:
		c.Email = strings.ToUpper(local + "@" + d)
	case r == 3:
		c.Email = "no-at-sign"
	case r == 4:
		c.Email = fmt.Sprintf("u%d@%s", pid, d)
	default:
		c.Email = local + "@" + d
	}
	return c
}

func voteDoc(rng *rand.Rand, c record.Contact) index.ContactDoc {
	v := make([]float32, enginetest.Dim)
	for i := range v {
		v[i] = rng.Float32() - 0.5
	}
	return index.ContactDoc{Contact: c, Vector: v}
}

// searchTallies are the tallies of the search path (what query does
// without an EmailPatternVoter): a grouped search of the domains'
// contacts with addresses, sample a company, 50 domains a search, and the
// votes of the hits' profiles.
func searchTallies(t *testing.T, e *Engine, domains []string, sample int) []patternvote.Tally {
	t.Helper()
	out := make([]patternvote.Tally, len(domains))
	for k := 0; k < len(domains); k += 50 {
		batch := domains[k:min(len(domains), k+50)]
		res, err := e.SearchContacts(context.Background(), index.ContactSearch{MinSimilarity: -2, PerCompany: sample,
			MaxCompanies: len(batch), Limit: sample * len(batch),
			Filter: index.And{index.Terms{Field: index.DomainField, Values: batch}, index.Exists{Field: index.ContactEmailField}}})
		if err != nil {
			t.Fatal(err)
		}
		for i, d := range batch {
			for _, h := range res.Hits {
				if h.Contact.Domain == d {
					out[k+i].Add(patternvote.VoteOf(d, h.Contact.Email, h.Contact.Name, h.Contact.EmailValidated))
				}
			}
		}
	}
	return out
}

// checkVotes compares EmailPatternVotes with the search path (samples
// of 200, 7 and 1) and returns how many profiles EmailPatternVotes read.
func checkVotes(t *testing.T, e *Engine, domains []string, stage string) (reads int) {
	t.Helper()
	var n atomic.Int64
	defer func() { contactProfileHook = nil }()
	for _, sample := range []int{200, 7, 1} {
		want := searchTallies(t, e, domains, sample)
		contactProfileHook = func(int64) { n.Add(1) } // EmailPatternVotes' reads only
		got, err := e.EmailPatternVotes(context.Background(), domains, sample)
		contactProfileHook = nil
		if err != nil {
			t.Fatal(err)
		}
		counted := 0
		for i, d := range domains {
			if got[i] != want[i] {
				t.Errorf("%s, sample %d, %s: resident %+v, from profiles %+v", stage, sample, d, got[i], want[i])
			}
			counted += int(want[i].Total)
		}
		if sample == 200 && counted < 1000 {
			t.Fatalf("%s: only %d addresses counted: the fixture does not exercise the votes", stage, counted)
		}
	}
	return int(n.Load())
}

// voteFixture writes contacts of many domains into e (a new index, its
// meta set here): a domain of 900 (more than 200 with addresses: the
// sample cut), one of 230 and 60 of 1-40. It returns the domains to ask
// for (with one without contacts and a repeat) and the documents, in the
// order written.
func voteFixture(t *testing.T, e *Engine, rng *rand.Rand) (asked []string, docs []index.ContactDoc) {
	t.Helper()
	ctx := context.Background()
	if err := e.SetMeta(ctx, index.Meta{EmbedderID: "x", Dimension: enginetest.Dim}); err != nil {
		t.Fatal(err)
	}
	domains := []string{"big.example", "mid.example"}
	for i := 0; i < 60; i++ {
		domains = append(domains, fmt.Sprintf("d%d.example", i))
	}
	pid := int64(0)
	add := func(d string, n int) {
		for range n {
			pid++
			docs = append(docs, voteDoc(rng, voteContact(rng, pid, d)))
		}
	}
	add("big.example", 900)
	add("mid.example", 230)
	for _, d := range domains[2:] {
		add(d, 1+rng.IntN(40))
	}
	rng.Shuffle(len(docs), func(i, j int) { docs[i], docs[j] = docs[j], docs[i] })
	if _, err := e.UpsertContacts(ctx, docs); err != nil {
		t.Fatal(err)
	}
	return append(append([]string{}, domains...), "none.example", domains[5]), docs
}

// downgradeEntries rewrites the stored entries of pids as they were
// written before the votes were kept (no folded-name flag, no name parts)
// and returns the entries' bytes as they were.
func downgradeEntries(t testing.TB, e *Engine, pids []int64) map[int64][]byte {
	t.Helper()
	was := make(map[int64][]byte, len(pids))
	for _, pid := range pids {
		key := contactKey(prefixContactEntry, pid)
		v, closer, err := e.db.Get(key)
		if err != nil {
			t.Fatal(err)
		}
		was[pid] = slices.Clone(v)
		closer.Close()
		var en cEntry
		if err := en.unmarshal(was[pid], nil); err != nil {
			t.Fatal(err)
		}
		en.flags &^= flagFoldedName
		en.hasParts = false
		if err := e.db.Set(key, en.marshal(nil), pebble.Sync); err != nil {
			t.Fatal(err)
		}
	}
	return was
}

// TestEmailPatternVotesMatchSearch: the resident tallies equal the ones
// of the search path over the profiles — after the writes, after
// replacing and deleting contacts, and after a reload in which some
// entries are in the format written before the votes were kept (their
// profiles are read).
func TestEmailPatternVotesMatchSearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	dir := t.TempDir()
	ctx := context.Background()
	e, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { e.Close() }()
	asked, docs := voteFixture(t, e, rng)
	domains := asked[:len(asked)-2]
	checkVotes(t, e, asked, "written")

	// Replace a third (a new name, address, rank or employer) and delete
	// a tenth.
	var repl []index.ContactDoc
	var del []int64
	for i, d := range docs {
		switch i % 10 {
		case 0, 3, 6:
			c := voteContact(rng, d.Contact.PersonaID, domains[rng.IntN(len(domains))])
			repl = append(repl, voteDoc(rng, c))
		case 9:
			del = append(del, d.Contact.PersonaID)
		}
	}
	if _, err := e.UpsertContacts(ctx, repl); err != nil {
		t.Fatal(err)
	}
	if _, err := e.DeleteContacts(ctx, del); err != nil {
		t.Fatal(err)
	}
	checkVotes(t, e, asked, "replaced and deleted")

	// Reload with every fourth live entry as written before the votes.
	var old []int64
	for i, d := range docs {
		if i%4 == 1 && i%10 != 9 {
			old = append(old, d.Contact.PersonaID)
		}
	}
	downgradeEntries(t, e, old)
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if e, err = Open(dir, Options{}); err != nil {
		t.Fatal(err)
	}
	x, err := e.contactIdx()
	if err != nil {
		t.Fatal(err)
	}
	unknown := 0
	it := x.live.Iterator()
	for it.HasNext() {
		if x.votes[it.Next()] == voteUnknown {
			unknown++
		}
	}
	if unknown != len(old) {
		t.Fatalf("%d contacts without a vote after the reload, %d entries written without", unknown, len(old))
	}
	if reads := checkVotes(t, e, asked, "reloaded, some old entries"); reads == 0 {
		t.Fatal("no profile read for the old entries")
	}
}

// TestVoteEntryRoundTrip: an entry's name parts survive marshal and
// unmarshal, the vote byte it gets from the store is the one it was
// written with, and the folded name gives the parts only when it should.
func TestVoteEntryRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	spelled := 0
	for i, name := range voteNames {
		c := voteContact(rng, int64(i+1), "acme.example")
		c.Name = name
		en := newCEntry(&c, make([]float32, enginetest.Dim))
		var back cEntry
		if err := back.unmarshal(en.marshal(nil), nil); err != nil {
			t.Fatal(err)
		}
		if back.vote != en.vote || back.parts != en.parts || back.hasParts != en.hasParts || back.flags != en.flags {
			t.Errorf("%q: read back %+v, written %+v", name, back, en)
		}
		want := encodeVote(patternvote.VoteOf(c.Domain, c.Email, c.Name, c.EmailValidated))
		if en.vote != want || en.vote == voteUnknown {
			t.Errorf("%q <%s>: vote %#x, want %#x", name, c.Email, en.vote, want)
		}
		if en.hasParts {
			spelled++
		}
		if en.hasParts == (en.flags&flagFoldedName != 0) {
			t.Errorf("%q: the entry has both or neither of the folded-name flag and parts", name)
		}
	}
	if spelled < 8 || spelled > len(voteNames)-8 {
		t.Errorf("%d of %d names spell out their parts: the names do not exercise both ways", spelled, len(voteNames))
	}
	for b := 0; b < 256; b++ {
		if b&^voteDouble == voteUnknown || b&^voteDouble == voteNotCounted && b != voteNotCounted || b&^voteDouble >= voteTemplate+patternvote.NumTemplates {
			continue
		}
		if got := encodeVote(decodeVote(uint8(b))); got != uint8(b) {
			t.Errorf("vote byte %#x decodes and encodes to %#x", b, got)
		}
	}
}

// BenchmarkContactVote is what the votes add per contact, over the demo
// generator's contacts: vote (the vote byte from a decoded entry: what
// every contact load adds, in the parallel decoders), parts (choosing how
// a written entry gives its name parts), and decode (a whole entry's
// unmarshal with the interner as the load does, vote included) for scale.
// It logs the share of entries that spell out their name parts (-v).
func BenchmarkContactVote(b *testing.B) {
	g := demo.New(demo.Options{Companies: 2000, Seed: 1})
	var ens []cEntry
	var vals [][]byte
	var cs []record.Contact
	vec := make([]float32, 256)
	for i := range vec {
		vec[i] = float32(i%7) - 3
	}
	spelled := 0
	for i := 0; i < g.Len() && len(cs) < 10_000; i++ {
		for _, c := range g.ContactsOf(i) {
			en := newCEntry(&c, vec)
			if en.hasParts {
				spelled++
			}
			cs = append(cs, c)
			ens = append(ens, en)
			vals = append(vals, en.marshal(nil))
		}
	}
	b.Logf("%d contacts, %.3f of them spell out their name parts", len(ens), float64(spelled)/float64(len(ens)))
	b.Run("vote", func(b *testing.B) {
		var sink uint8
		for i := 0; b.Loop(); i++ {
			sink += ens[i%len(ens)].voteCode()
		}
		_ = sink
	})
	b.Run("parts", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			en := ens[i%len(ens)]
			en.flags &^= flagFoldedName
			en.setNameParts(cs[i%len(cs)].Name)
		}
	})
	b.Run("decode", func(b *testing.B) {
		in := interner{}
		var en cEntry
		for i := 0; b.Loop(); i++ {
			if err := en.unmarshal(vals[i%len(vals)], in); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestEmailPatternVotesOnIndex compares the resident tallies with the
// search path's on an existing index (PROSPECT_BENCH_INDEX): 3,000
// domains of contacts at random and the 20 with the most contacts.
func TestEmailPatternVotesOnIndex(t *testing.T) {
	dir := os.Getenv("PROSPECT_BENCH_INDEX")
	if dir == "" {
		t.Skip("PROSPECT_BENCH_INDEX not set")
	}
	e, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	x, err := e.contactIdx()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(11, 12))
	x.mu.RLock()
	var domains []string
	for range 3000 {
		domains = append(domains, x.domNames[x.domID[rng.IntN(len(x.persona))]])
	}
	type sized struct {
		d string
		n uint64
	}
	var big []sized
	for d, bm := range x.post[index.DomainField] {
		big = append(big, sized{d, bm.GetCardinality()})
	}
	x.mu.RUnlock()
	slices.SortFunc(big, func(a, b sized) int { return cmp.Compare(b.n, a.n) })
	for _, s := range big[:min(20, len(big))] {
		domains = append(domains, s.d)
	}
	t.Logf("largest domain: %d contacts", big[0].n)
	want := searchTallies(t, e, domains, 200)
	got, err := e.EmailPatternVotes(context.Background(), domains, 200)
	if err != nil {
		t.Fatal(err)
	}
	patterns := 0
	for i, d := range domains {
		if got[i] != want[i] {
			t.Errorf("%s: resident %+v, from profiles %+v", d, got[i], want[i])
		}
		if _, _, ok := got[i].Best(); ok {
			patterns++
		}
	}
	t.Logf("%d domains, %d with a pattern", len(domains), patterns)
}

func TestFoldedParts(t *testing.T) {
	for _, tc := range []struct {
		in, first, last string
		ok              bool
	}{
		{"", "", "", true}, {"priya", "priya", "", true}, {"ana garcia", "ana", "garcia", true},
		{"mary anne obrien", "mary", "obrien", true}, {"a b", "a", "b", true},
		{"ana  garcia", "", "", false}, {" ana", "", "", false}, {"ana ", "", "", false}, {" ", "", "", false},
		{"r2 d2", "", "", false}, {"søren", "", "", false}, {"Ana", "", "", false},
	} {
		first, last, ok := foldedParts(tc.in)
		if first != tc.first || last != tc.last || ok != tc.ok {
			t.Errorf("foldedParts(%q) = %q, %q, %v", tc.in, first, last, ok)
		}
	}
}
