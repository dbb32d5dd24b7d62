package datasets

import "github.com/openprospect/prospectd/store"

// Charge is one billed value of an append: a row's dataset.
type Charge struct {
	Row    int
	Set    Name
	Charge store.Charge
}

// Charges lists what an append bills, in order: bizdata per indexed
// domain (cached 90 days, so a domain repeated in the file is paid once),
// each other dataset one uncached record per row that has its data. The
// REST route and the tool server bill the same list; a value the credits
// do not cover is withheld with Table.Withhold.
func (t *Table) Charges(sets []Name) []Charge {
	var out []Charge
	for _, n := range sets {
		if n == Bizdata {
			for i, l := range t.Lines {
				if l.Company != nil {
					out = append(out, Charge{i, n, store.Charge{Kind: store.KindCompany, Key: l.Domain}})
				}
			}
			continue
		}
		for _, i := range t.Billable[n] {
			out = append(out, Charge{i, n, store.Charge{Kind: store.KindRow, Key: string(n) + ":" + t.Lines[i].Domain, NoCache: true}})
		}
	}
	return out
}
