package embedded

import (
	"testing"

	"github.com/openprospect/prospectd/index"
)

// TestVectorRecall checks the approximate plan against an exact scan on a
// synthetic clustered index, at several filter selectivities. The planner
// threshold is lowered so the small index goes through the sketch passes.
func TestVectorRecall(t *testing.T) {
	n := 40_000
	if testing.Short() {
		n = 20_000
	}
	e, err := buildClustered(t.TempDir(), n, 256, 3)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	oldExact, oldPool := exactMax, poolMin
	exactMax, poolMin = 2000, 800 // 2% of the index, as at 1M
	defer func() { exactMax, poolMin = oldExact, oldPool }()
	for _, tc := range []struct {
		name   string
		filter index.Filter
	}{
		{"all", nil},
		{"country 30%", index.Terms{Field: index.CountryField, Values: []string{"US"}}},
		{"country 10%", index.Terms{Field: index.CountryField, Values: []string{"GB"}}},
		{"industries 10%", index.Terms{Field: index.IndustryField, Values: []string{"SAAS", "SOFTWARE", "RETAIL", "BANKING", "GAMING"}}},
	} {
		// One weighted sketch pass over every candidate (below
		// screenOnce, as every filter here), and the unweighted screen
		// before it (screenOnce 0).
		for _, once := range []int{screenOnce, 0} {
			for _, mix := range []bool{false, true} {
				old := screenOnce
				screenOnce = once
				r10, r100 := recallAt(t, e, tc.filter, benchQueries(e, 20, mix, 5))
				screenOnce = old
				t.Logf("%s screenOnce=%d mix=%v: recall@10 %.3f recall@100 %.3f", tc.name, once, mix, r10, r100)
				if r10 < 0.95 || r100 < 0.95 {
					t.Errorf("%s screenOnce=%d mix=%v: recall@10 %.3f recall@100 %.3f, want >= 0.95", tc.name, once, mix, r10, r100)
				}
			}
		}
	}
}
