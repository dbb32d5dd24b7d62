package ingest

import (
	"context"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/openprospect/prospectd/index/embedded"
	"github.com/openprospect/prospectd/index/embedding"
	"github.com/openprospect/prospectd/query"
)

// wikipediaFile is the shared development set (shared/data/README.md).
const wikipediaFile = "../../shared/data/wikipedia-companies.jsonl"

// TestFirstLoadSearchable: a first load of any size is searchable by
// icp_text right after it ends, with default discovery settings (records
// without a digital-footprint score included).
func TestFirstLoadSearchable(t *testing.T) {
	small := `{"domain":"acme-payroll.com","name":"Acme Payroll","description":"Payroll software for small businesses","country":"US"}
{"domain":"brightdental.co.uk","name":"Bright Dental","description":"Dental clinic chain in London","country":"GB","state":"ENG"}
{"domain":"nordwind.de","name":"Nordwind","description":"Wind turbine maintenance services","country":"DE"}
`
	one := `{"domain":"solo.io","description":"Kubernetes service mesh software"}` + "\n"
	ten := strings.Builder{}
	for i, d := range []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"} {
		desc := "Organic bakery and cafe"
		if i == 7 {
			desc = "Cybersecurity consulting for banks"
		}
		ten.WriteString(`{"domain":"` + d + `-co.com","description":"` + desc + `"}` + "\n")
	}
	wiki, err := os.ReadFile(wikipediaFile)
	if err != nil {
		t.Fatalf("read the shared Wikipedia set: %v", err)
	}
	for _, tc := range []struct {
		name, file, icp, want string
		hashing               bool
	}{
		{"one company", one, "service mesh", "solo.io", true},
		{"three companies", small, "payroll software", "acme-payroll.com", true},
		{"three companies, other text", small, "wind turbine", "nordwind.de", true},
		{"ten companies", ten.String(), "cybersecurity for banks", "hotel-co.com", true},
		{"Wikipedia", string(wiki), "electric utility", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			eng, err := embedded.Open(t.TempDir(), embedded.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer eng.Close()
			st, err := (&Loader{Engine: eng}).Load(ctx, NewJSONL(strings.NewReader(tc.file)))
			if err != nil {
				t.Fatalf("load: %v", err)
			}
			if st.Indexed == 0 {
				t.Fatalf("nothing indexed: %+v", st)
			}
			emb, err := embedding.Open(ctx, eng)
			if err != nil {
				t.Fatal(err)
			}
			if _, isHashing := emb.(*embedding.Hashing); isHashing != tc.hashing {
				t.Errorf("embedder %s: hashing %v, want %v", emb.ID(), isHashing, tc.hashing)
			}
			v, _ := url.ParseQuery("icp_text=" + url.QueryEscape(tc.icp) + "&max_records=5")
			d, err := query.ParseDiscover(v)
			if err != nil {
				t.Fatal(err)
			}
			res, err := (&query.Companies{Engine: eng}).Discover(ctx, d)
			if err != nil {
				t.Fatalf("discover: %v", err)
			}
			if len(res.Matches) == 0 {
				t.Fatalf("icp_text %q found nothing in %d companies", tc.icp, st.Indexed)
			}
			top := res.Matches[0].Company
			if tc.want != "" && top.Domain != tc.want {
				t.Errorf("icp_text %q: first match %s, want %s", tc.icp, top.Domain, tc.want)
			}
			if tc.want == "" && !strings.Contains(strings.ToLower(top.Description), tc.icp) {
				t.Errorf("icp_text %q: first match %s (%q) does not mention it", tc.icp, top.Domain, top.Description)
			}
		})
	}
}
