package ingest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/embedded"
	"github.com/openprospect/prospectd/record"
)

func drain(t *testing.T, src Source) (ok []record.Company, rowErrs []*RowError, fatal error) {
	t.Helper()
	for {
		c, _, err := src.Next()
		if errors.Is(err, io.EOF) {
			return
		}
		var re *RowError
		if errors.As(err, &re) {
			rowErrs = append(rowErrs, re)
			continue
		}
		if err != nil {
			return ok, rowErrs, err
		}
		ok = append(ok, c)
	}
}

func TestJSONL(t *testing.T) {
	in := `{"domain":"acme.com","name":"Acme","status":"closed","employees":250,"score":"300","address":{"country":"US"}}
{"domain": "broken
{"website":"https://www.beta.io/x","country":"Germany","revenue_range":5000000}

{"domain":"gamma.co.uk","status":{"status":"active","confidence":0.5},"score":1.5}
`
	ok, errs, fatal := drain(t, NewJSONL(strings.NewReader(in)))
	if fatal != nil {
		t.Fatal(fatal)
	}
	if len(ok) != 2 || len(errs) != 2 {
		t.Fatalf("ok=%d rowErrs=%v", len(ok), errs)
	}
	if ok[0].Status.Status != "closed" || ok[0].Employees != "250" || ok[0].Score != 300 {
		t.Errorf("loose shapes not read: %+v", ok[0])
	}
	if ok[1].Domain != "https://www.beta.io/x" || ok[1].Address.Country != "Germany" || ok[1].RevenueRange != "5000000" {
		t.Errorf("aliases not read: %+v", ok[1])
	}
	if errs[0].Row != 2 || !strings.Contains(errs[0].Reason, "malformed JSON") {
		t.Errorf("row error: %+v", errs[0])
	}
	if errs[1].Row != 5 || !strings.Contains(errs[1].Reason, "score") {
		t.Errorf("fractional score: %+v", errs[1])
	}
}

// hugeLine streams a line of n bytes without holding it.
type hugeLine struct{ n, off int }

func (h *hugeLine) Read(p []byte) (int, error) {
	if h.off >= h.n {
		return 0, io.EOF
	}
	k := min(len(p), h.n-h.off)
	for i := 0; i < k; i++ {
		p[i] = 'x'
	}
	if h.off+k == h.n {
		p[k-1] = '\n'
	}
	h.off += k
	return k, nil
}

func TestJSONLHundredMegabyteLine(t *testing.T) {
	r := io.MultiReader(strings.NewReader(`{"domain":"first.com"}`+"\n"), &hugeLine{n: 100 << 20}, strings.NewReader(`{"domain":"after.com"}`+"\n"))
	ok, errs, fatal := drain(t, NewJSONL(r))
	if fatal != nil || len(ok) != 2 || len(errs) != 1 || !strings.Contains(errs[0].Reason, "exceeds 8 MiB") || errs[0].Row != 2 {
		t.Fatalf("ok=%v errs=%v fatal=%v", ok, errs, fatal)
	}
	if ok[1].Domain != "after.com" {
		t.Fatalf("reading did not resume after the long line: %v", ok[1])
	}
}

func TestCSV(t *testing.T) {
	for _, tc := range []struct{ name, in string }{
		{"comma", "Domain,Name,Country,Phones,Industry\nacme.com,Acme,US,\"+1 512 555 0100;+1 512 555 0199\",SAAS;SOFTWARE\n"},
		{"semicolon with BOM", "\ufeffdomain;name;country;phones;industry_groups\nacme.com;Acme;US;+1 512 555 0100|+1 512 555 0199;SAAS|SOFTWARE\n"},
		{"tab", "website\tcompany name\taddress.country\tphone\tindustries\nacme.com\tAcme\tUS\t[\"+1 512 555 0100\",\"+1 512 555 0199\"]\t[\"SAAS\",\"SOFTWARE\"]\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, err := NewCSV(strings.NewReader(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			ok, errs, fatal := drain(t, src)
			if fatal != nil || len(errs) > 0 || len(ok) != 1 {
				t.Fatalf("ok=%v errs=%v fatal=%v", ok, errs, fatal)
			}
			c := ok[0]
			if c.Domain != "acme.com" || c.Name != "Acme" || c.Address.Country != "US" || len(c.Phones) != 2 || len(c.IndustryGroups) != 2 {
				t.Fatalf("parsed %+v", c)
			}
			if c.IndustryGroups["SAAS"] <= c.IndustryGroups["SOFTWARE"] {
				t.Fatalf("list order must give descending scores: %v", c.IndustryGroups)
			}
		})
	}
}

func TestCSVBadFiles(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "no header"},
		{"name,country\nAcme,US\n", "no domain column"},
		{"domain,nmae,colour\nacme.com,Acme,red\n", `unknown columns "nmae", "colour"`},
		{"domain,name,domain\n", "appears twice"},
	} {
		_, err := NewCSV(strings.NewReader(tc.in))
		if err == nil || !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NewCSV(%q) = %v, want %q", tc.in, err, tc.want)
		}
	}
}

func TestXLSX(t *testing.T) {
	f := excelize.NewFile()
	f.SetSheetRow("Sheet1", "A1", &[]any{"domain", "name", "employees", "score"})
	f.SetSheetRow("Sheet1", "A2", &[]any{"acme.com", "Acme", 120, 300})
	f.SetSheetRow("Sheet1", "A4", &[]any{"beta.io", "Beta", "11-50", "x"})
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	src, err := NewXLSX(&buf)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	ok, errs, fatal := drain(t, src)
	if fatal != nil || len(ok) != 1 || len(errs) != 1 {
		t.Fatalf("ok=%v errs=%v fatal=%v", ok, errs, fatal)
	}
	if ok[0].Employees != "120" || ok[0].Score != 300 || errs[0].Row != 3 || !strings.Contains(errs[0].Reason, "score") {
		t.Fatalf("ok=%+v errs=%+v", ok[0], errs[0])
	}
}

func TestOpenRefusesBadFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o644)
		return p
	}
	for _, tc := range []struct{ path, want string }{
		{write("empty.jsonl", ""), "empty"},
		{write("fake.xlsx", "domain,name\nacme.com,Acme\n"), "not an Excel workbook"},
		{write("data.parquet", "x"), "unknown extension"},
		{write("nocol.csv", "name\nAcme\n"), "no domain column"},
	} {
		if _, err := Open(tc.path); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Open(%s) = %v, want %q", filepath.Base(tc.path), err, tc.want)
		}
	}
}

func TestNormalize(t *testing.T) {
	end := "2020-05-01T10:00:00Z"
	c := record.Company{
		Domain: "https://www.Shop.Acme.co.uk/about", Status: record.Status{Status: "Closed"}, EndDate: &end,
		Address: record.Address{Country: "United Kingdom", State: "aberdeenshire"}, Phones: []string{"020 7946 0018", "not a phone", "+44 20 7946 0018"},
		PublicEmails: []string{"Info@Acme.co.uk", "bad@"}, IndustryGroups: map[string]float64{"financial services": 0.9, "saas": 0.5, "Banking": 0.2},
		Employees: "1,200", RevenueRange: "25000000", BusinessModels: []string{"b2b", "B2X"}, Languages: []string{"EN", "english"},
		Vendors: []string{"https://stripe.com", "not a domain"}, Subdomains: []string{"shop.acme.co.uk", "WWW"}, Keywords: map[string]float64{" Payments ": 1},
	}
	if err := Normalize(&c); err != nil {
		t.Fatal(err)
	}
	want := record.Company{
		Domain: "acme.co.uk", Name: "acme.co.uk", Status: record.Status{Status: "closed", Confidence: 1}, EndDate: ptr("2020-05-01"),
		Address: record.Address{Country: "GB", State: "GB-ABD"}, Phones: []string{"+442079460018"}, PublicEmails: []string{"info@acme.co.uk"},
		IndustryGroups: map[string]float64{"FINANCIAL_SERVICES": 0.9, "SAAS": 0.5}, Employees: "1001-5000", RevenueRange: "10-100M",
		BusinessModels: []string{"B2B"}, Languages: []string{"en"}, Vendors: []string{"stripe.com"}, Subdomains: []string{"shop", "www"},
		Keywords: map[string]float64{"payments": 1},
	}
	if !reflect.DeepEqual(c, want) {
		t.Fatalf("Normalize:\n got %+v\nwant %+v", c, want)
	}
	for _, bad := range []record.Company{
		{Domain: "not a domain"},
		{Domain: "a.com", Address: record.Address{Country: "Narnia"}},
		{Domain: "a.com", Address: record.Address{Country: "US", State: "Bavaria"}},
		{Domain: "a.com", IndustryGroups: map[string]float64{"ROCKETRY": 1}},
		{Domain: "a.com", Employees: "lots"},
		{Domain: "a.com", Score: 900},
		{Domain: "a.com", StartDate: "yesterday"},
		{Domain: "a.com", Status: record.Status{Status: "bankrupt"}},
	} {
		if err := Normalize(&bad); err == nil {
			t.Errorf("Normalize accepted %+v", bad)
		}
	}
}

func ptr(s string) *string { return &s }

func TestLoaderEndToEnd(t *testing.T) {
	ctx := context.Background()
	eng, err := embedded.Open(t.TempDir(), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	var b strings.Builder
	topics := []string{"endpoint security firewall malware", "savings mortgage lending bank", "tractor harvest crop farm"}
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&b, `{"domain":"co%d.com","name":"Co %d","description":"We build %s products","address":{"country":"US"}}`+"\n", i, i, topics[i%3])
	}
	b.WriteString(`{"domain":"bad domain"}` + "\n")
	b.WriteString(`{"domain":"co1.com","name":"Co One Renamed","description":"savings mortgage lending bank"}` + "\n")
	var rejects bytes.Buffer
	var mu sync.Mutex
	var calls int
	l := &Loader{Engine: eng, Rejects: &rejects, BatchSize: 7, Progress: func(Stats) { mu.Lock(); calls++; mu.Unlock() }}
	st, err := l.Load(ctx, NewJSONL(strings.NewReader(b.String())))
	if err != nil {
		t.Fatal(err)
	}
	if st.Read != 302 || st.Indexed != 301 || st.Rejected != 1 {
		t.Fatalf("stats %+v", st)
	}
	if !strings.Contains(rejects.String(), `301,bad domain,"domain: invalid domain`) {
		t.Fatalf("rejects file:\n%s", rejects.String())
	}
	if calls == 0 {
		t.Fatal("no progress reported")
	}
	if n, _ := eng.CountCompanies(ctx, nil); n != 300 {
		t.Fatalf("%d companies indexed, want 300 (the duplicate replaces)", n)
	}
	got, _ := eng.GetCompanies(ctx, []string{"co1.com"})
	if len(got) != 1 || got[0].Name != "Co One Renamed" {
		t.Fatalf("the later row of a domain must win: %+v", got)
	}
	emb, err := OpenEmbedder(ctx, eng)
	if err != nil {
		t.Fatal(err)
	}
	res, err := eng.SearchCompanies(ctx, index.Search{Vector: emb.EmbedText("firewall and malware"), Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range res.Hits {
		if !strings.Contains(h.Company.Description, "security") {
			t.Fatalf("query about security returned %s: %q", h.Company.Domain, h.Company.Description)
		}
	}
	// A second load reuses the stored embedder.
	l2 := &Loader{Engine: eng}
	if _, err := l2.Load(ctx, NewJSONL(strings.NewReader(`{"domain":"late.com","description":"crop harvest"}`+"\n"))); err != nil {
		t.Fatal(err)
	}
	if m, _ := eng.Meta(ctx); m.EmbedderID != emb.ID() {
		t.Fatalf("embedder replaced by a second load")
	}
}

func FuzzJSONL(f *testing.F) {
	f.Add([]byte(`{"domain":"a.com","status":"active","employees":5}` + "\n{bad\n"))
	f.Add([]byte(`{"status":{"status":1}}`))
	f.Fuzz(func(t *testing.T, b []byte) { readAllFuzz(t, NewJSONL(bytes.NewReader(b))) })
}

// readAllFuzz reads a fuzzed source to the end, normalizing what it yields;
// it must neither panic nor loop.
func readAllFuzz(t *testing.T, src Source) {
	for i := 0; i < 10000; i++ {
		c, _, err := src.Next()
		if errors.Is(err, io.EOF) {
			return
		}
		var re *RowError
		if err != nil && !errors.As(err, &re) {
			return
		}
		if err == nil {
			_ = Normalize(&c)
		}
	}
	t.Fatal("reader did not terminate")
}

func FuzzCSV(f *testing.F) {
	f.Add([]byte("domain,name,phones,industry_groups\nacme.com,Acme,+15125550100,SAAS\n"))
	f.Add([]byte("domain;keywords\n\"a.com\";{\"x\":1}\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		src, err := NewCSV(bytes.NewReader(b))
		if err != nil {
			return
		}
		readAllFuzz(t, src)
	})
}

func FuzzXLSX(f *testing.F) {
	x := excelize.NewFile()
	x.SetSheetRow("Sheet1", "A1", &[]any{"domain", "name"})
	x.SetSheetRow("Sheet1", "A2", &[]any{"acme.com", "Acme"})
	var buf bytes.Buffer
	x.Write(&buf)
	f.Add(buf.Bytes())
	f.Add([]byte("PK\x03\x04garbage"))
	f.Fuzz(func(t *testing.T, b []byte) {
		src, err := NewXLSX(bytes.NewReader(b))
		if err != nil {
			return
		}
		defer src.Close()
		for i := 0; i < 10000; i++ {
			if _, _, err := src.Next(); err != nil {
				var re *RowError
				if !errors.As(err, &re) {
					return
				}
			}
		}
	})
}
