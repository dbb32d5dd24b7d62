package account

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/openprospect/prospectd/store"
)

// ErrNoCredits: a response had billable records and the organization's
// credits for the period covered none of them.
var ErrNoCredits = errors.New("no credits left in this period")

// Biller bills responses to organizations.
type Biller struct {
	Store store.Ledger
	Plans Plans
	Now   func() time.Time // time.Now when nil
}

func (b *Biller) now() time.Time {
	if b.Now != nil {
		return b.Now()
	}
	return time.Now()
}

// Bill debits org for the charges of one response. The caller returns
// only the covered records: when credits run out mid-response the
// response is cut to what they pay for (records already paid within 90
// days are always covered). It returns ErrNoCredits, with the result,
// when there were charges and none is covered.
func (b *Biller) Bill(ctx context.Context, org store.Org, endpoint string, charges []store.Charge) (store.BillResult, error) {
	now := b.now()
	start, _ := Period(now)
	res, err := b.Store.Bill(ctx, store.BillRequest{
		OrgID: org.ID, Endpoint: endpoint, Charges: charges,
		Quota: b.Plans[org.Plan].Credits, PeriodStart: start, Now: now,
	})
	if err != nil {
		return res, fmt.Errorf("bill %s: %w", endpoint, err)
	}
	if len(charges) > 0 && res.Billed+res.Free == 0 {
		return res, ErrNoCredits
	}
	return res, nil
}

// UsageReport is an organization's plan and consumption this period.
type UsageReport struct {
	Plan          store.Plan
	Config        PlanConfig
	PeriodStart   time.Time
	PeriodEnd     time.Time
	CreditsUsed   int
	CreditsLeft   int
	RecordsBilled map[string]int
	RecordsFree   map[string]int
	EstimatedCost float64 // USD at the plan's price
}

// Usage reports org's consumption in the current period.
func (b *Biller) Usage(ctx context.Context, org store.Org) (UsageReport, error) {
	start, end := Period(b.now())
	u, err := b.Store.Usage(ctx, org.ID, start, end)
	if err != nil {
		return UsageReport{}, err
	}
	cfg := b.Plans[org.Plan]
	return UsageReport{
		Plan: org.Plan, Config: cfg, PeriodStart: start, PeriodEnd: end,
		CreditsUsed: u.Credits, CreditsLeft: max(0, cfg.Credits-u.Credits),
		RecordsBilled: u.Records, RecordsFree: u.Free,
		EstimatedCost: float64(u.Credits) * cfg.PricePer1K / 1000,
	}, nil
}

// Companies returns one company charge per domain.
func Companies(domains []string) []store.Charge {
	out := make([]store.Charge, len(domains))
	for i, d := range domains {
		out[i] = store.Charge{Kind: store.KindCompany, Key: d}
	}
	return out
}
