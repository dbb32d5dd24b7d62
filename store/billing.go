package store

import "time"

// Record kinds on the credit ledger.
const (
	KindCompany = "company" // a company profile, keyed by domain
	KindContact = "contact" // a contact, keyed by persona id
	KindEmail   = "email"   // a found email address, keyed by the address
	KindRow     = "row"     // an append row of a non-bizdata dataset; never cached
)

// NoRebillWindow is how long a billed record stays free for the
// organization that paid for it.
const NoRebillWindow = 90 * 24 * time.Hour

// Charge is one billable record of a response.
type Charge struct {
	Kind string
	// Key identifies the record within its kind (a domain, a persona id,
	// an email address). Charges with NoCache are billed every time.
	Key     string
	NoCache bool
}

// BillRequest debits an organization for the records of one response.
type BillRequest struct {
	OrgID    string
	Endpoint string
	Charges  []Charge
	// Quota is the organization's credits per period; PeriodStart is when
	// the current period began.
	Quota       int
	PeriodStart time.Time
	Now         time.Time
}

// BillResult says which charges the organization's credits covered. A
// record billed within NoRebillWindow is free; a record repeated within
// one request is billed once; net-new records are paid in order until the
// period's credits run out, and the rest are not covered.
type BillResult struct {
	Covered []bool // per charge
	Billed  int    // credits debited by this request
	Free    int    // charges covered without a debit
	Refused int    // charges not covered
	Used    int    // credits used in the period, this request included
	Left    int    // credits left in the period
}

// Usage is an organization's consumption over a period.
type Usage struct {
	Credits int
	// Records counts billed records by kind; Free counts records returned
	// without a debit (within the no-rebill window).
	Records map[string]int
	Free    map[string]int
}

// Signup is a person's request for an account, pending until confirmed.
type Signup struct {
	Email, FirstName, LastName, Agent string
	CreatedAt                         time.Time
	ConfirmedAt                       *time.Time
}

// RecordRef names a cacheable record.
type RecordRef struct{ Kind, Key string }

// Allocation is how one bill splits: the backends share it so both stores
// apply the same rules.
type Allocation struct {
	Result BillResult
	// Paid are the cacheable records newly paid for (to remember for
	// NoRebillWindow); ByKind and FreeByKind count per kind for the ledger.
	Paid       []RecordRef
	ByKind     map[string]int
	FreeByKind map[string]int
}

// Allocate applies the billing rules to charges, given which records were
// billed within the window (fresh) and the credits used so far this
// period. Charges are considered in order.
func Allocate(charges []Charge, fresh map[RecordRef]bool, quota, used int) Allocation {
	a := Allocation{ByKind: map[string]int{}, FreeByKind: map[string]int{}}
	r := &a.Result
	r.Covered = make([]bool, len(charges))
	left := max(0, quota-used)
	seen := map[RecordRef]bool{}
	for i, c := range charges {
		ref := RecordRef{c.Kind, c.Key}
		if !c.NoCache && (fresh[ref] || seen[ref]) {
			r.Covered[i] = true
			r.Free++
			a.FreeByKind[c.Kind]++
			continue
		}
		if left == 0 {
			r.Refused++
			continue
		}
		left--
		r.Covered[i] = true
		r.Billed++
		a.ByKind[c.Kind]++
		if !c.NoCache {
			seen[ref] = true
			a.Paid = append(a.Paid, ref)
		}
	}
	r.Used = used + r.Billed
	r.Left = max(0, quota-r.Used)
	return a
}
