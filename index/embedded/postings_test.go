package embedded

import (
	"context"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/openprospect/prospectd/index"
)

func TestCompactBitmap(t *testing.T) {
	cases := []struct {
		name string
		ids  []uint32
	}{
		{"empty", nil},
		{"one", []uint32{7}},
		{"sparse across containers", []uint32{1, 70_000, 140_001, 1 << 30}},
		{"dense (bitmap container)", seq(0, 10_000, 3)},
		{"run", seq(100, 50_000, 1)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			bm := roaring.New()
			for _, id := range tc.ids {
				bm.AddMany([]uint32{id}) // id by id, as the load does
			}
			want := bm.Clone()
			got := compactBitmap(bm)
			if !got.Equals(want) {
				t.Fatalf("contents changed: %v, want %v", got.Stats(), want.Stats())
			}
			if got.GetSizeInBytes() > want.GetSizeInBytes() {
				t.Errorf("size %d, was %d", got.GetSizeInBytes(), want.GetSizeInBytes())
			}
			// The copy is independent of the original.
			got.Add(5)
			if bm.Contains(5) && !want.Contains(5) {
				t.Error("copy shares containers with the original")
			}
		})
	}
}

func seq(from, to, step uint32) []uint32 {
	var out []uint32
	for i := from; i < to; i += step {
		out = append(out, i)
	}
	return out
}

func TestKeywordPostings(t *testing.T) {
	type op struct {
		add    []uint32 // ids to add to "v"
		self   []uint32 // else: ids to add under their own domain
		remove uint32   // else: id to remove from "v"
	}
	// Document 5's domain is "v", document 6's is "w".
	domains := newDomainTable()
	domains.add(5, "v")
	domains.add(6, "w")
	cases := []struct {
		name string
		ops  []op
		want []uint32
		in   string // where "v" is: "one", "many", "self" or "" (nowhere)
	}{
		{"one id stays inline", []op{{add: []uint32{5}}}, []uint32{5}, "one"},
		{"same id twice stays inline", []op{{add: []uint32{9}}, {add: []uint32{9, 9}}}, []uint32{9}, "one"},
		{"two ids in one add", []op{{add: []uint32{5, 9}}}, []uint32{5, 9}, "many"},
		{"second id moves to a bitmap", []op{{add: []uint32{9}}, {add: []uint32{5}}}, []uint32{5, 9}, "many"},
		{"bitmap grows", []op{{add: []uint32{5, 9}}, {add: []uint32{70_000}}}, []uint32{5, 9, 70_000}, "many"},
		{"bitmap down to one moves inline", []op{{add: []uint32{5, 9}}, {remove: 5}}, []uint32{9}, "one"},
		{"bitmap emptied", []op{{add: []uint32{5, 9}}, {remove: 5}, {remove: 9}}, nil, ""},
		{"inline removed", []op{{add: []uint32{9}}, {remove: 9}}, nil, ""},
		{"removing another id keeps inline", []op{{add: []uint32{9}}, {remove: 8}}, []uint32{9}, "one"},
		{"removing from a missing value", []op{{remove: 8}}, nil, ""},
		{"back to a bitmap after moving inline", []op{{add: []uint32{5, 9}}, {remove: 9}, {add: []uint32{1}}}, []uint32{1, 5}, "many"},
		{"own domain is a bit", []op{{self: []uint32{5}}}, []uint32{5}, "self"},
		{"another document joins an own domain", []op{{self: []uint32{5}}, {add: []uint32{9}}}, []uint32{5, 9}, "many"},
		{"two documents join an own domain", []op{{self: []uint32{5}}, {add: []uint32{9, 11}}}, []uint32{5, 9, 11}, "many"},
		{"own domain held by another already", []op{{add: []uint32{9}}, {self: []uint32{5}}}, []uint32{5, 9}, "many"},
		{"own domain removed", []op{{self: []uint32{5}}, {remove: 5}}, nil, ""},
		{"another own domain kept", []op{{self: []uint32{5, 6}}, {remove: 5}}, nil, ""},
		{"joined value back to its own document", []op{{self: []uint32{5}}, {add: []uint32{9}}, {remove: 9}}, []uint32{5}, "one"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := newKeywordPostings()
			p.add("other", []uint32{3}, domains) // an unrelated value is never touched
			for _, o := range tc.ops {
				switch {
				case o.add != nil:
					p.add("v", o.add, domains)
				case o.self != nil:
					p.addSelf(o.self, domains)
				default:
					p.remove("v", o.remove)
				}
			}
			var got []uint32
			if bm := p.get("v", domains); bm != nil {
				got = bm.ToArray()
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("documents %v, want %v", got, tc.want)
			}
			var in []string
			if _, ok := p.one["v"]; ok {
				in = append(in, "one")
			}
			if _, ok := p.many["v"]; ok {
				in = append(in, "many")
			}
			if p.self.Contains(5) {
				in = append(in, "self")
			}
			if want := []string{tc.in}; tc.in == "" && len(in) > 0 || tc.in != "" && !slices.Equal(in, want) {
				t.Fatalf(`"v" is in %v, want %q`, in, tc.in)
			}
			if bm := p.get("other", domains); bm == nil || !slices.Equal(bm.ToArray(), []uint32{3}) {
				t.Fatalf("other value changed: %v", bm)
			}
			counts := map[string]uint64{}
			p.each(domains, func(v string, c uint64) { counts[v] += c })
			want := map[string]uint64{"other": 1}
			if len(tc.want) > 0 {
				want["v"] = uint64(len(tc.want))
			}
			if p.self.Contains(6) {
				want["w"] = 1
			}
			if !maps.Equal(counts, want) {
				t.Errorf("each: %v, want %v", counts, want)
			}
			if tc.name == "another own domain kept" {
				if bm := p.get("w", domains); bm == nil || !slices.Equal(bm.ToArray(), []uint32{6}) {
					t.Fatalf(`"w" holds %v, want [6]`, bm)
				}
			}
		})
	}
}

// TestOwnDomainPostings follows a value that is a company's own domain
// through the engine: held alone, joined by another company, left by its
// own, and after a reopen.
func TestOwnDomainPostings(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	e := openDim(t, dir, flatTestDim)
	docs := flatDocs(rand.New(rand.NewPCG(1, 1)), 0, 3) // c0000.com, c0001.com, c0002.com
	docs[0].Company.MXProvider = "c0000.com"            // its own
	docs[1].Company.MXProvider = "c0001.com"
	docs[2].Company.MXProvider = "mail.example"
	upsert := func(ds ...index.CompanyDoc) {
		t.Helper()
		if failed, err := e.UpsertCompanies(ctx, ds); err != nil || len(failed) > 0 {
			t.Fatal(failed, err)
		}
	}
	check := func(step, mx string, want ...string) {
		t.Helper()
		res, err := e.SearchCompanies(ctx, index.Search{Filter: index.Terms{Field: index.MXProviderField, Values: []string{mx}}, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, h := range res.Hits {
			got = append(got, h.Company.Domain)
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Fatalf("%s: mx %s matches %v, want %v", step, mx, got, want)
		}
	}
	upsert(docs...)
	check("own", "c0000.com", "c0000.com")
	check("own", "c0001.com", "c0001.com")
	docs[2].Company.MXProvider = "c0000.com"
	upsert(docs[2])
	check("joined", "c0000.com", "c0000.com", "c0002.com")
	check("joined", "mail.example")
	if _, err := e.DeleteCompanies(ctx, []string{"c0000.com"}); err != nil {
		t.Fatal(err)
	}
	check("own deleted", "c0000.com", "c0002.com")
	docs[1].Company.MXProvider = "mail.example"
	upsert(docs[1])
	check("own changed", "c0001.com")
	check("own changed", "mail.example", "c0001.com")
	e = reopen(t, e, dir)
	check("reopened", "c0000.com", "c0002.com")
	check("reopened", "c0001.com")
	check("reopened", "mail.example", "c0001.com")
}
