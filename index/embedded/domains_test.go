package embedded

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/enginetest"
)

// checkTable compares t with the model of what it should hold.
func checkTable(t *testing.T, tab *domainTable, want map[string]uint32, slots int) {
	t.Helper()
	if tab.len() != len(want) {
		t.Fatalf("len %d, want %d", tab.len(), len(want))
	}
	if tab.slots() != slots {
		t.Fatalf("slots %d, want %d", tab.slots(), slots)
	}
	held := map[uint32]bool{}
	for d, slot := range want {
		held[slot] = true
		got, ok := tab.lookup(d)
		if !ok || got != slot {
			t.Fatalf("lookup(%q) = %d, %v; want %d", d, got, ok, slot)
		}
		if g := tab.get(slot); g != d {
			t.Fatalf("get(%d) = %q, want %q", slot, g, d)
		}
	}
	for s := range uint32(slots) {
		if !held[s] && tab.get(s) != "" {
			t.Fatalf("free slot %d holds %q", s, tab.get(s))
		}
	}
	n := 0
	for _, c := range tab.cells {
		if c != 0 {
			n++
		}
	}
	if n != len(want) {
		t.Fatalf("%d cells in use, want %d", n, len(want))
	}
}

func TestDomainTable(t *testing.T) {
	long := strings.Repeat("x", domainChunk+10) + ".com"
	type op struct {
		add    bool
		domain string
		slot   uint32 // of an add
	}
	cases := []struct {
		name  string
		ops   []op
		want  map[string]uint32
		slots int
		miss  []string
	}{
		{name: "empty", want: map[string]uint32{}, miss: []string{"a.com", ""}},
		{
			name:  "adds",
			ops:   []op{{true, "a.com", 0}, {true, "b.com", 1}, {true, "xn--bcher-kva.example", 2}},
			want:  map[string]uint32{"a.com": 0, "b.com": 1, "xn--bcher-kva.example": 2},
			slots: 3, miss: []string{"c.com", "a.co", "a.comm", ""},
		},
		{
			name:  "remove and reuse the slot",
			ops:   []op{{true, "a.com", 0}, {true, "b.com", 1}, {false, "a.com", 0}, {true, "c.com", 0}},
			want:  map[string]uint32{"c.com": 0, "b.com": 1},
			slots: 2, miss: []string{"a.com"},
		},
		{
			name:  "remove unknown",
			ops:   []op{{true, "a.com", 0}, {false, "b.com", 0}},
			want:  map[string]uint32{"a.com": 0},
			slots: 1, miss: []string{"b.com"},
		},
		{
			name:  "slot beyond the end leaves a gap",
			ops:   []op{{true, "a.com", 3}},
			want:  map[string]uint32{"a.com": 3},
			slots: 4,
		},
		{
			name:  "domain longer than a chunk",
			ops:   []op{{true, "a.com", 0}, {true, long, 1}, {true, "b.com", 2}},
			want:  map[string]uint32{"a.com": 0, long: 1, "b.com": 2},
			slots: 3, miss: []string{long[1:]},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tab := newDomainTable()
			for _, o := range tc.ops {
				if o.add {
					tab.add(o.slot, o.domain)
				} else if slot, ok := tab.remove(o.domain); ok && slot != o.slot {
					t.Fatalf("remove(%q) = %d, want %d", o.domain, slot, o.slot)
				}
			}
			checkTable(t, tab, tc.want, tc.slots)
			for _, d := range tc.miss {
				if s, ok := tab.lookup(d); ok {
					t.Errorf("lookup(%q) = %d, want none", d, s)
				}
			}
		})
	}
}

// TestDomainTableCollisions puts every domain on the last two home
// positions with the same tag (domains chosen by their hash), so lookups
// must tell them apart by their bytes, and removal must shift runs that
// wrap around the table's end.
func TestDomainTableCollisions(t *testing.T) {
	tab := newDomainTable()
	tab.grow()
	mask := len(tab.cells) - 1
	var names []string
	for i := 0; len(names) < 40; i++ {
		d := fmt.Sprintf("c%d.example", i)
		h := tab.hash(d)
		if home := int(h >> tab.shift); home >= mask-1 && h%(1<<(32-cellSlotBits)) == 0 { // tag 0
			names = append(names, d)
		}
	}
	m := newTableModel()
	m.tab = tab
	for _, d := range names {
		m.add(d)
	}
	if len(tab.cells) != mask+1 {
		t.Fatalf("the table grew to %d cells", len(tab.cells))
	}
	if tab.cells[0] == 0 {
		t.Fatal("no run wraps around the end")
	}
	checkTable(t, tab, m.want, m.slots)
	for i := 0; i < len(names); i += 3 {
		m.remove(t, names[i])
		checkTable(t, tab, m.want, m.slots)
	}
	for i := 0; i < len(names); i += 3 {
		if _, ok := tab.lookup(names[i]); ok {
			t.Fatalf("%s found after removal", names[i])
		}
	}
}

// tableModel drives a domainTable the way the engine does (free slots are
// reused last in, first out) beside a map of what it should hold.
type tableModel struct {
	tab   *domainTable
	want  map[string]uint32
	free  []uint32
	slots int
}

func newTableModel() *tableModel {
	return &tableModel{tab: newDomainTable(), want: map[string]uint32{}}
}

// add adds d unless held and returns its slot.
func (m *tableModel) add(d string) uint32 {
	if slot, ok := m.want[d]; ok {
		return slot
	}
	var slot uint32
	if n := len(m.free); n > 0 {
		slot, m.free = m.free[n-1], m.free[:n-1]
	} else {
		slot = uint32(m.slots)
		m.slots++
	}
	m.tab.add(slot, d)
	m.want[d] = slot
	return slot
}

// remove removes d and checks the table agreed on whether it was held.
func (m *tableModel) remove(t *testing.T, d string) {
	t.Helper()
	slot, ok := m.tab.remove(d)
	w, held := m.want[d]
	if ok != held || slot != w {
		t.Fatalf("remove(%q) = %d, %v; want %d, %v", d, slot, ok, w, held)
	}
	if ok {
		delete(m.want, d)
		m.free = append(m.free, slot)
	}
}

// TestDomainTableModel runs random adds and removes against a map, through
// growth and arena compaction, and checks that strings handed out earlier
// keep their value.
func TestDomainTableModel(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	defer func(m int) { compactMin = m }(compactMin)
	compactMin = 64 << 10
	m := newTableModel()
	kept := map[string]string{} // a string got from the table -> its value then
	names := make([]string, 0, 30000)
	for i := range 30000 {
		names = append(names, fmt.Sprintf("company-%d-%s.example", i, strings.Repeat("z", r.IntN(60))))
	}
	for step := range 200_000 {
		d := names[r.IntN(len(names))]
		if _, ok := m.want[d]; ok && r.IntN(3) > 0 {
			m.remove(t, d)
			continue
		}
		slot := m.add(d)
		if step%1000 == 0 {
			kept[m.tab.get(slot)] = strings.Clone(d)
		}
	}
	if m.tab.compactions == 0 {
		t.Fatal("the arena was never compacted")
	}
	checkTable(t, m.tab, m.want, m.slots)
	for view, was := range kept {
		if view != was {
			t.Fatalf("a string from the arena changed: %q, was %q", view, was)
		}
	}
	c := m.tab.clone()
	for d := range m.want {
		m.tab.remove(d)
		break
	}
	if c.len() != len(m.want) {
		t.Fatalf("clone changed with the table: %d, want %d", c.len(), len(m.want))
	}
	for d, slot := range m.want {
		if got, ok := c.lookup(d); !ok || got != slot {
			t.Fatalf("clone lookup(%q) = %d, %v", d, got, ok)
		}
	}
}

// TestDomainTableHighPositions pushes the arena past the chunk count where
// positions need a fifth byte (lowered for the test), with free slots
// before and after, removals and a compaction.
func TestDomainTableHighPositions(t *testing.T) {
	defer func(h, m int) { hiChunks, compactMin = h, m }(hiChunks, compactMin)
	hiChunks, compactMin = 2, 1<<10
	m := newTableModel()
	for i := range 3 {
		m.add(fmt.Sprintf("small-%d.example", i))
	}
	m.remove(t, "small-1.example") // a free slot before refsHi exists
	for i := range 4 {
		// Each takes a chunk of its own.
		m.add(fmt.Sprintf("%d%s.example", i, strings.Repeat("l", domainChunk)))
	}
	if m.tab.refsHi == nil {
		t.Fatal("positions past hiChunks without refsHi")
	}
	for i := 3; i < 2000; i++ {
		m.add(fmt.Sprintf("small-%d.example", i))
	}
	checkTable(t, m.tab, m.want, m.slots)
	for i := 3; i < 1900; i++ {
		m.remove(t, fmt.Sprintf("small-%d.example", i))
	}
	for i := range 3 {
		m.remove(t, fmt.Sprintf("%d%s.example", i, strings.Repeat("l", domainChunk)))
	}
	if m.tab.compactions == 0 {
		t.Fatal("no compaction")
	}
	checkTable(t, m.tab, m.want, m.slots)
	c := m.tab.clone()
	m.tab.trim()
	checkTable(t, c, m.want, m.slots)
	checkTable(t, m.tab, m.want, m.slots)
}

// FuzzDomainTable applies the operations a byte string encodes (add or
// remove one of a few domains, some sharing prefixes) and compares with a
// map.
func FuzzDomainTable(f *testing.F) {
	f.Add([]byte{0, 1, 2, 128, 129, 3, 131})
	f.Add([]byte("remove before add"))
	f.Fuzz(func(t *testing.T, ops []byte) {
		names := []string{"a.com", "a.co", "b.com", "", "xn--a.com", "a.com.", "c" + strings.Repeat("d", 200) + ".com"}
		m := newTableModel()
		for _, o := range ops {
			d := names[int(o&0x7f)%len(names)]
			if o&0x80 != 0 {
				m.remove(t, d)
			} else {
				m.add(d)
			}
		}
		checkTable(t, m.tab, m.want, m.slots)
	})
}

// BenchmarkDomainLookup compares the table with the map[string]uint32 it
// replaced, on 1M demo-like domains: hits in random order, and misses.
func BenchmarkDomainLookup(b *testing.B) {
	const n = 1_000_000
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("company-%07d-widgets.example", i)
	}
	tab := newDomainTable()
	m := make(map[string]uint32)
	for i, d := range names {
		tab.add(uint32(i), d)
		m[d] = uint32(i)
	}
	r := rand.New(rand.NewPCG(3, 4))
	probe := make([]string, 1<<16)
	miss := make([]string, len(probe))
	for i := range probe {
		probe[i] = strings.Clone(names[r.IntN(n)])
		miss[i] = fmt.Sprintf("other-%07d-widgets.example", r.IntN(n))
	}
	var sink uint32
	byMap := func(d string) (uint32, bool) { s, ok := m[d]; return s, ok }
	for _, run := range []struct {
		name   string
		lookup func(string) (uint32, bool)
		keys   []string
	}{
		{"table/hit", tab.lookup, probe},
		{"map/hit", byMap, probe},
		{"table/miss", tab.lookup, miss},
		{"map/miss", byMap, miss},
	} {
		b.Run(run.name, func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				s, _ := run.lookup(run.keys[i&(len(run.keys)-1)])
				sink += s
			}
		})
	}
	b.Run("table/get", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			sink += uint32(len(tab.get(uint32(i*7919) % n)))
		}
	})
	_ = sink
}

// Deleting a company a load-only engine stored but did not index leaves the
// indexed companies alone (it used to free slot 0).
func TestDeleteUnindexedCompany(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	docs := bulkDocs(2, 1)
	e, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.SetMeta(ctx, index.Meta{EmbedderID: "x", Dimension: enginetest.Dim}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.UpsertCompanies(ctx, docs[:1]); err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	e, err = Open(dir, Options{LoadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if _, err := e.UpsertCompanies(ctx, docs[1:]); err != nil {
		t.Fatal(err)
	}
	if n, err := e.DeleteCompanies(ctx, []string{docs[1].Company.Domain}); err != nil || n != 1 {
		t.Fatalf("delete = %d, %v", n, err)
	}
	if e.Len() != 1 {
		t.Fatalf("Len %d after deleting an unindexed company, want 1", e.Len())
	}
	if v, _ := e.CompanyVectors(ctx, []string{docs[0].Company.Domain}); len(v) != 1 {
		t.Fatalf("indexed company lost: %v", v)
	}
	if len(e.free) != 0 {
		t.Fatalf("free slots %v, want none", e.free)
	}
}
