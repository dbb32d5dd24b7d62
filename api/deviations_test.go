package api

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/openprospect/prospectd/query"
	"github.com/openprospect/prospectd/record"
)

// TestRevenueRangeNullWhenUnknown: contacts and company groups carry null,
// not "", for an unknown revenue bucket, as company profiles do.
func TestRevenueRangeNullWhenUnknown(t *testing.T) {
	for _, tc := range []struct {
		name    string
		revenue string
		want    string
	}{
		{"unknown", "", `"revenue_range":null`},
		{"known", "1-10M", `"revenue_range":"1-10M"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := ContactOf(record.Contact{PersonaID: 1, Name: "A B", RevenueRange: tc.revenue}, nil)
			g := Groups{{Domain: "a.com", RevenueRange: optional(tc.revenue), Contacts: []ContactOut{c}}}
			b, err := json.Marshal(g)
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(string(b), tc.want); n != 2 {
				t.Errorf("%s appears %d times in %s, want 2 (group and contact)", tc.want, n, b)
			}
		})
	}
}

// TestQueryErrorLocations: parameters read from the query string are
// reported as query.<name>, JSON body fields as body.<field>.
func TestQueryErrorLocations(t *testing.T) {
	detailedErrors()
	_, err := query.ParseContactBody([]byte(`{"icp_prompt": 123}`))
	se := queryError(err, "body").(interface{ GetStatus() int })
	if se.GetStatus() != 422 || !strings.Contains(se.(error).Error(), "body.icp_prompt: must be a string") {
		t.Errorf("body: %d %v", se.GetStatus(), se)
	}
	_, err = query.ParseContactBody([]byte(`[]`))
	if e := queryError(err, "body").(error); !strings.Contains(e.Error(), "body: must be a JSON object") || strings.Contains(e.Error(), "body.body") {
		t.Errorf("whole body: %v", e)
	}
}
