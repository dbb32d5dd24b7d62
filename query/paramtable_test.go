package query

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// TestParsersEnforceTheirTables: for every declared parameter, a value
// breaking each rule its table declares (type, bounds, lengths, item
// count, enum) is refused with an error naming it. The document is built
// from the same tables, so this is what keeps the two in step: a
// parameter declared but not read, or read with other limits, fails here;
// one read but not declared panics in params.spec.
func TestParsersEnforceTheirTables(t *testing.T) {
	parsers := map[string]struct {
		table ParamTable
		parse func(url.Values) error
	}{
		"discover": {DiscoverTable, func(v url.Values) error { _, err := ParseDiscover(v); return err }},
		"contacts": {ContactTable, func(v url.Values) error { _, err := ParseContactQuery(v); return err }},
	}
	for pname, ps := range parsers {
		for _, p := range ps.table {
			var bad []string // values (one query string each) the table forbids
			switch p.Type {
			case Integer:
				bad = append(bad, "x", strconv.Itoa(p.Min-1))
				if p.Bounded() {
					bad = append(bad, strconv.Itoa(p.Max+1))
				}
			case Boolean:
				bad = append(bad, "maybe")
			case String:
				if p.MaxLen > 0 {
					bad = append(bad, strings.Repeat("a", p.MaxLen+1))
				}
				if p.MinLen > 1 {
					bad = append(bad, strings.Repeat("a", p.MinLen-1))
				}
				if len(p.Enum) > 0 {
					bad = append(bad, "not-a-declared-value")
				}
			}
			var cases []url.Values
			for _, b := range bad {
				cases = append(cases, url.Values{p.Name: {b}})
			}
			if p.Array && p.MaxItems > 0 {
				items := make([]string, p.MaxItems+1)
				for i := range items {
					items[i] = fmt.Sprintf("item%d.com", i)
				}
				cases = append(cases, url.Values{p.Name: items})
			}
			if !p.Array {
				cases = append(cases, url.Values{p.Name: {"1", "2"}}) // a scalar takes one value
			}
			if len(cases) == 0 && !p.Deprecated {
				// Free text without declared limits (ranges, dates):
				// at least the parser must know the name.
				cases = append(cases, url.Values{p.Name: {"a"}, "not_declared": {"1"}})
			}
			for _, v := range cases {
				err := ps.parse(v)
				qe, ok := err.(*Error)
				if !ok {
					t.Errorf("%s %s: accepted (%v)", pname, v.Encode()[:min(80, len(v.Encode()))], err)
					continue
				}
				named := false
				for _, e := range qe.Params {
					named = named || e.Param == p.Name || e.Param == "not_declared"
					if strings.Contains(e.Rule, "unknown parameter") && e.Param == p.Name {
						t.Errorf("%s: %s is declared but the parser calls it unknown", pname, p.Name)
					}
				}
				if !named {
					t.Errorf("%s %s: errors %v do not name it", pname, p.Name, qe.Params)
				}
			}
		}
	}
}

// TestTablesAreWellFormed: names are unique and each parameter's limits
// make sense, so the document never declares an impossible value.
func TestTablesAreWellFormed(t *testing.T) {
	for name, table := range map[string]ParamTable{"discover": DiscoverTable, "contacts": ContactTable} {
		seen := map[string]bool{}
		for _, p := range table {
			if seen[p.Name] {
				t.Errorf("%s: %s declared twice", name, p.Name)
			}
			seen[p.Name] = true
			if p.Doc == "" {
				t.Errorf("%s: %s has no doc", name, p.Name)
			}
			if p.MaxLen > 0 && p.MinLen > p.MaxLen {
				t.Errorf("%s: %s min length above max", name, p.Name)
			}
			if p.Commas && !p.Array {
				t.Errorf("%s: %s splits on commas but is not an array", name, p.Name)
			}
			switch d := p.Default.(type) {
			case nil:
			case int:
				if p.Type != Integer || d < p.Min || p.Bounded() && d > p.Max {
					t.Errorf("%s: %s default %d outside its bounds", name, p.Name, d)
				}
			case bool:
				if p.Type != Boolean {
					t.Errorf("%s: %s has a boolean default", name, p.Name)
				}
			case string:
				if p.Type != String {
					t.Errorf("%s: %s has a string default", name, p.Name)
				}
			default:
				t.Errorf("%s: %s default of type %T", name, p.Name, d)
			}
		}
	}
}
