package ingest

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/embedded"
	"github.com/openprospect/prospectd/internal/demo"
)

func TestContactLoader(t *testing.T) {
	ctx := context.Background()
	eng, err := embedded.Open(t.TempDir(), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	g := demo.New(demo.Options{Companies: 300, Seed: 3})
	if _, err := (&Loader{Engine: eng}).Load(ctx, g.Source()); err != nil {
		t.Fatal(err)
	}
	doms := g.Domains(2)
	dir := t.TempDir()
	jsonl := filepath.Join(dir, "contacts.jsonl")
	os.WriteFile(jsonl, []byte(strings.Join([]string{
		`{"persona_id": 1, "domain": "https://www.` + doms[0] + `/team", "name": "Ana  García", "title": "CTO", "department": "technology", "seniority": "Executive", "skills": ["Go"], "phone": [{"phone": "+44 7400 123456", "type": "mobile"}], "email": "Ana@` + doms[0] + `", "email_validated": true, "linkedin": "linkedin.com/in/ana-garcia", "country": "Spain", "state": "Madrid", "jobstart_date": "2020-01-01"}`,
		`{"persona_id": 2, "domain": "` + doms[1] + `", "first_name": "Bob", "last_name": "Stone", "department": "Sales"}`,
		`{"persona_id": 3, "domain": "not a domain", "name": "X"}`,
		`{broken`,
		`{"persona_id": 4, "domain": "unknown-employer.com", "name": "Cleo Park", "seniority": "manager"}`,
	}, "\n")), 0o644)
	csvPath := filepath.Join(dir, "contacts.csv")
	os.WriteFile(csvPath, []byte("\ufeffpersona_id;Domain;First Name;Last Name;Title;Skills;Connections\n"+
		"5;"+doms[1]+";Dana;Lee;VP Sales;negotiation|crm;1200\n6;"+doms[1]+";Eli;Moss;;;many\n"), 0o644)

	var rejects bytes.Buffer
	l := &ContactLoader{Contacts: eng, Companies: eng, Rejects: &rejects}
	for _, path := range []string{jsonl, csvPath} {
		src, err := OpenContacts(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.Load(ctx, src); err != nil {
			t.Fatal(err)
		}
		src.Close()
	}
	for _, want := range []string{"is not one of the 15 canonical departments", "domain:", "malformed JSON", "connections: not an integer"} {
		if !strings.Contains(rejects.String(), want) {
			t.Errorf("rejects lack %q:\n%s", want, rejects.String())
		}
	}
	got, err := eng.GetContacts(ctx, []int64{1, 2, 4, 5})
	if err != nil || len(got) != 3 {
		t.Fatalf("stored %d: %v", len(got), err)
	}
	ana, cleo, dana := got[0], got[1], got[2]
	if ana.Domain != doms[0] || ana.Name != "Ana García" || ana.Department != "Technology" || ana.Seniority != "executive" ||
		ana.Email != "ana@"+doms[0] || ana.Phones[0] != "+447400123456" || ana.Country != "ES" || ana.State != "ES-M" ||
		ana.SocialURLs[0] != "https://linkedin.com/in/ana-garcia" || ana.CompanyName == "" || len(ana.Industry) == 0 {
		t.Errorf("ana %+v", ana)
	}
	if cleo.CompanyName != "" || cleo.Seniority != "manager" {
		t.Errorf("a contact of an unknown employer keeps empty employer fields: %+v", cleo)
	}
	if dana.Name != "Dana Lee" || dana.Connections != 1200 || len(dana.Skills) != 2 || dana.Title != "VP Sales" {
		t.Errorf("dana %+v", dana)
	}
	if n, _ := eng.CountContacts(ctx, index.Terms{Field: index.LinkedInField, Values: []string{"ana-garcia"}}); n != 1 {
		t.Errorf("linkedin handle lookup: %d", n)
	}
	if _, err := OpenContacts(filepath.Join(dir, "x.parquet")); err == nil {
		t.Error("unknown extension accepted")
	}
	os.WriteFile(filepath.Join(dir, "nodomain.csv"), []byte("name,title\nA,B\n"), 0o644)
	if _, err := OpenContacts(filepath.Join(dir, "nodomain.csv")); err == nil || !strings.Contains(err.Error(), "no domain column") {
		t.Errorf("no domain column: %v", err)
	}
}

// TestContactCSVRows: contact files go through the same delimited reader
// as company files: quotes, row numbers, and an unterminated quote as one
// rejected row.
func TestContactCSVRows(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.csv")
	os.WriteFile(path, []byte("domain,name,title\r\n"+
		"a.com,\"Lee, Dana\",\"VP \"\"Sales\"\"\"\r\n"+ // row 2 (the header is row 1)
		",,\n"+ // row 3: blank
		"b.com,O\"Neil,\"CTO\" (acting)\n"+ // row 4
		"c.com,\"never closed,x\nd.com,y,z\n"), 0o644) // row 5: swallows the rest
	src, err := OpenContacts(path)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	type row struct {
		row               int
		domain, name, job string
		reason            string
	}
	var got []row
	for {
		c, n, err := src.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		var re *RowError
		if errors.As(err, &re) {
			got = append(got, row{row: n, reason: re.Reason})
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, row{row: n, domain: c.Domain, name: c.Name, job: c.Title})
	}
	want := []row{
		{row: 2, domain: "a.com", name: "Lee, Dana", job: `VP "Sales"`},
		{row: 4, domain: "b.com", name: `O"Neil`, job: "CTO (acting)"},
		{row: 5, reason: "unterminated quoted field (a quote opened and never closed)"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("rows\n got %+v\nwant %+v", got, want)
	}
}

func FuzzContactRows(f *testing.F) {
	f.Add([]byte(`{"persona_id": 1, "domain": "a.com", "name": "A", "phone": "+15125550100"}` + "\n"))
	f.Add([]byte("persona_id,domain,name,phones\n1,a.com,A,+15125550100|x\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		dir := t.TempDir()
		for _, name := range []string{"c.jsonl", "c.csv"} {
			p := filepath.Join(dir, name)
			os.WriteFile(p, b, 0o644)
			src, err := OpenContacts(p)
			if err != nil {
				continue
			}
			for i := 0; i < 10000; i++ {
				c, _, err := src.Next()
				if err != nil {
					if _, ok := err.(*RowError); ok {
						continue
					}
					break
				}
				_ = NormalizeContact(&c)
			}
			src.Close()
		}
	})
}
