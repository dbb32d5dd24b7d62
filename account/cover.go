package account

import (
	"context"
	"errors"

	"github.com/openprospect/prospectd/store"
)

// Covered is what one bill paid for: the records the period's credits
// cover and the credits it cost.
type Covered[T any] struct {
	// Records are the covered records, in input order.
	Records []T
	// Mask says per input record whether it is covered: every one of its
	// charges was paid for now or within store.NoRebillWindow (a record
	// without charges is covered).
	Mask []bool
	// Withheld counts the records not covered.
	Withheld int
	// Billed is the credits this bill debited; Used the credits used in
	// the period, this bill included; Left the credits left.
	Billed, Used, Left int
}

// BillRecords is the one way responses and tasks pay for records: it bills
// the charges of records (charges gives a record's; they are billed in
// record order, so credits that run out mid-list cover the first records)
// and reports which records the credits cover. The caller returns only
// those — or withholds the others' values. It returns ErrNoCredits, with
// the coverage, when there were charges and none was covered; any other
// error leaves the coverage empty.
func BillRecords[T any](ctx context.Context, b *Biller, org store.Org, endpoint string, records []T, charges func(T) []store.Charge) (Covered[T], error) {
	var all []store.Charge
	ends := make([]int, len(records)) // record i's charges end at ends[i]
	for i, r := range records {
		all = append(all, charges(r)...)
		ends[i] = len(all)
	}
	res, err := b.Bill(ctx, org, endpoint, all)
	if err != nil && !errors.Is(err, ErrNoCredits) {
		return Covered[T]{}, err
	}
	out := Covered[T]{Mask: make([]bool, len(records)), Billed: res.Billed, Used: res.Used, Left: res.Left}
	start := 0
	for i, r := range records {
		ok := true
		for k := start; k < ends[i]; k++ {
			ok = ok && k < len(res.Covered) && res.Covered[k]
		}
		start = ends[i]
		out.Mask[i] = ok
		if ok {
			out.Records = append(out.Records, r)
		} else {
			out.Withheld++
		}
	}
	return out, err
}
