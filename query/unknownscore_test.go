package query

import (
	"context"
	"slices"
	"testing"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/embedded"
	"github.com/openprospect/prospectd/record"
)

// TestUnknownScoreIsNotLow: a company without a digital-footprint score
// passes the default floor and is not a lead-generation site; a floor the
// caller sets above 0 keeps it out.
func TestUnknownScoreIsNotLow(t *testing.T) {
	ctx := context.Background()
	eng, err := embedded.Open(t.TempDir(), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	if err := eng.SetMeta(ctx, index.Meta{EmbedderID: "test", Dimension: 2}); err != nil {
		t.Fatal(err)
	}
	active := record.Status{Status: record.StatusActive, Confidence: 1}
	docs := []index.CompanyDoc{
		{Vector: []float32{1, 0}, Company: record.Company{Domain: "unknown.com", Status: active}},
		{Vector: []float32{1, 0}, Company: record.Company{Domain: "leadgen.com", Status: active, Score: 80}},
		{Vector: []float32{1, 0}, Company: record.Company{Domain: "lowphone.com", Status: active, Score: 80, Phones: []string{"+15125550100"}}},
		{Vector: []float32{1, 0}, Company: record.Company{Domain: "high.com", Status: active, Score: 300}},
	}
	if failed, err := eng.UpsertCompanies(ctx, docs); err != nil || len(failed) > 0 {
		t.Fatalf("upsert: %v %v", failed, err)
	}
	if err := eng.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	svc := &Companies{Engine: eng}
	for _, tc := range []struct {
		params      string
		want        []string
		inclUnknown bool
	}{
		{"", []string{"high.com", "lowphone.com", "unknown.com"}, true},
		{"exclude_leadgen=false", []string{"high.com", "leadgen.com", "lowphone.com", "unknown.com"}, true},
		{"min_digital_footprint=100", []string{"high.com"}, false},
		{"min_digital_footprint=1&exclude_leadgen=false", []string{"high.com", "leadgen.com", "lowphone.com"}, false},
		{"min_digital_footprint=0", []string{"high.com", "lowphone.com", "unknown.com"}, false},
		{"max_digital_footprint=200", []string{"lowphone.com", "unknown.com"}, true},
		{"min_digital_footprint=0&max_digital_footprint=200&exclude_leadgen=false", []string{"leadgen.com", "lowphone.com", "unknown.com"}, false},
	} {
		t.Run(tc.params, func(t *testing.T) {
			res, err := svc.Discover(ctx, mustParse(t, tc.params))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range res.Matches {
				got = append(got, m.Company.Domain)
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
			if res.Applied.FootprintUnknown != tc.inclUnknown {
				t.Errorf("applied digital_footprint_include_unknown %v, want %v", res.Applied.FootprintUnknown, tc.inclUnknown)
			}
		})
	}
}
