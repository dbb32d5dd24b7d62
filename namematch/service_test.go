package namematch_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/embedded"
	"github.com/openprospect/prospectd/index/enginetest"
	"github.com/openprospect/prospectd/internal/demo"
	"github.com/openprospect/prospectd/namematch"
	"github.com/openprospect/prospectd/namematch/namematchtest"
)

// TestServiceFreshness: the name index is reused while the engine is
// unchanged and rebuilt after a company write, so a new company matches.
func TestServiceFreshness(t *testing.T) {
	ctx := context.Background()
	eng, err := embedded.Open(filepath.Join(t.TempDir(), "index"), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	if err := eng.SetMeta(ctx, index.Meta{EmbedderID: "test", Dimension: enginetest.Dim}); err != nil {
		t.Fatal(err)
	}
	docs := enginetest.Fixtures()
	if _, err := eng.UpsertCompanies(ctx, docs[:3]); err != nil {
		t.Fatal(err)
	}
	svc := &namematch.Service{Engine: eng}
	a, err := svc.Index(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := svc.Index(ctx); b != a {
		t.Error("an unchanged engine must reuse the index")
	}
	extra := docs[0]
	extra.Company.Domain, extra.Company.Name = "zyxwvut-robotics.com", "Zyxwvut Robotics GmbH"
	if _, err := eng.UpsertCompanies(ctx, []index.CompanyDoc{extra}); err != nil {
		t.Fatal(err)
	}
	res, err := svc.Match(ctx, []namematch.Query{{Name: "Zyxwvut Robotics"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Domain != "zyxwvut-robotics.com" {
		t.Errorf("after an upsert the new company must match, got %+v", res[0])
	}
	if c, _ := svc.Index(ctx); c == a || c.Len() != 4 {
		t.Errorf("index not rebuilt after a write (len %d)", c.Len())
	}
}

// TestMatchOneAgreesWithMatchAll: the pooled single-query path returns
// exactly what the parallel bulk path returns, query by query, also when
// matchers are reused across queries.
func TestMatchOneAgreesWithMatchAll(t *testing.T) {
	g := demo.New(demo.Options{Companies: 2400, Seed: 4})
	x := namematch.BuildFrom(namematchtest.Corpus(g, 2000))
	qs := namematchtest.Queries(g, 2000, 1000, 0.15, 4)
	in := make([]namematch.Query, len(qs))
	for i := range qs {
		in[i] = qs[i].Query
	}
	in = append(in, namematch.Query{Name: " -- "})
	bulk, err := x.MatchAll(context.Background(), in, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, q := range in {
		one := x.MatchOne(q)
		if one.Domain != bulk[i].Domain || one.Confidence != bulk[i].Confidence || one.Raw != bulk[i].Raw || (one.Err == nil) != (bulk[i].Err == nil) {
			t.Fatalf("query %d %+v: MatchOne %+v, MatchAll %+v", i, q, one, bulk[i])
		}
	}
}
