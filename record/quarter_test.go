package record

import "testing"

func TestQuarter(t *testing.T) {
	for _, tc := range []struct {
		q    Quarter
		k    int
		want Quarter
	}{
		{"2026-Q3", 0, "2026-Q3"}, {"2026-Q3", 1, "2026-Q4"}, {"2026-Q4", 1, "2027-Q1"}, {"2026-Q1", -1, "2025-Q4"}, {"2026-Q1", -8, "2024-Q1"},
	} {
		if got := tc.q.Add(tc.k); got != tc.want {
			t.Errorf("%s.Add(%d) = %s, want %s", tc.q, tc.k, got, tc.want)
		}
	}
	if Quarter("2026-Q3").Column() != "2026q3" {
		t.Error("column name")
	}
}
