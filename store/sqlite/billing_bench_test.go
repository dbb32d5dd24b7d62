package sqlite

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/openprospect/prospectd/store"
)

// BenchmarkBill bills a discovery page of 100 companies: all new (each
// request's records never billed before, as a lookalike's page mostly
// is) and all billed within the no-rebill window (the same page again).
func BenchmarkBill(b *testing.B) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(b.TempDir(), "state.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	org, err := s.CreateOrg(ctx, "bench", store.PlanTeam)
	if err != nil {
		b.Fatal(err)
	}
	page := func(n int) []store.Charge {
		out := make([]store.Charge, 100)
		for i := range out {
			out[i] = store.Charge{Kind: store.KindCompany, Key: fmt.Sprintf("c%d-%d.com", n, i)}
		}
		return out
	}
	bill := func(b *testing.B, ch []store.Charge) {
		now := time.Now()
		if _, err := s.Bill(ctx, store.BillRequest{OrgID: org.ID, Endpoint: "discover", Charges: ch, Quota: 1 << 40,
			PeriodStart: now.Add(-time.Hour), Now: now}); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("new", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			bill(b, page(i))
		}
	})
	b.Run("fresh", func(b *testing.B) {
		p := page(-1)
		bill(b, p)
		for b.Loop() {
			bill(b, p)
		}
	})
}
