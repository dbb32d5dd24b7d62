package export

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/xuri/excelize/v2"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/embedded"
	"github.com/openprospect/prospectd/ingest"
	"github.com/openprospect/prospectd/internal/demo"
	"github.com/openprospect/prospectd/query"
	"github.com/openprospect/prospectd/record"
	"github.com/openprospect/prospectd/store"
	"github.com/openprospect/prospectd/store/sqlite"
)

// world is a demo corpus large enough for exports past 25,000 records,
// built once for the package's tests.
type world struct {
	eng *embedded.Engine
	st  *sqlite.Store
	dir string
}

var (
	worldOnce sync.Once
	theWorld  *world
	worldErr  error
)

const worldCompanies = 32_000

// worldContacts is how many of the demo companies' contacts are loaded.
const worldContacts = 30_000

// firstContacts is the first n contacts of a source.
type firstContacts struct {
	src *demo.ContactSource
	n   int
}

func (f *firstContacts) Next() (record.Contact, int, error) {
	if f.n <= 0 {
		return record.Contact{}, 0, io.EOF
	}
	f.n--
	return f.src.Next()
}

func (f *firstContacts) Close() error { return f.src.Close() }

// testPage is the export page size of the tests.
const testPage = 2500

func getWorld(t testing.TB) *world {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a 32,000-company corpus")
	}
	worldOnce.Do(func() {
		ctx := context.Background()
		dir, err := os.MkdirTemp("", "export-test-*")
		if err != nil {
			worldErr = err
			return
		}
		eng, err := embedded.Open(filepath.Join(dir, "index"), embedded.Options{})
		if err != nil {
			worldErr = err
			return
		}
		g := demo.New(demo.Options{Companies: worldCompanies, Seed: 3})
		if _, err := (&ingest.Loader{Engine: eng}).Load(ctx, g.Source()); err != nil {
			worldErr = err
			return
		}
		if _, err := (&ingest.ContactLoader{Contacts: eng, Companies: eng}).Load(ctx, &firstContacts{src: g.ContactSource(), n: worldContacts}); err != nil {
			worldErr = err
			return
		}
		if err := eng.LoadContacts(); err != nil {
			worldErr = err
			return
		}
		st, err := sqlite.Open(ctx, filepath.Join(dir, "state.db"))
		if err != nil {
			worldErr = err
			return
		}
		theWorld = &world{eng: eng, st: st, dir: dir}
	})
	if worldErr != nil {
		t.Fatal(worldErr)
	}
	return theWorld
}

func TestMain(m *testing.M) {
	code := m.Run()
	if theWorld != nil {
		theWorld.st.Close()
		theWorld.eng.Close()
		os.RemoveAll(theWorld.dir)
	}
	os.Exit(code)
}

// newTask returns an export task body over the world for a new
// organization on plan (credits overrides the plan's when > 0).
func (w *world) newTask(t *testing.T, credits int) (*Task, store.Org) {
	t.Helper()
	ctx := context.Background()
	org, err := w.st.CreateOrg(ctx, fmt.Sprintf("org-%s-%d", strings.ReplaceAll(t.Name(), "/", "-"), time.Now().UnixNano()), store.PlanTeam)
	if err != nil {
		t.Fatal(err)
	}
	plans := account.DefaultPlans()
	if credits > 0 {
		plans[store.PlanTeam] = account.PlanConfig{PricePer1K: 12, Credits: credits, RateMultiplier: 1}
	}
	return &Task{
		Files:    &Files{Dir: filepath.Join(t.TempDir(), "exports")},
		SavedFor: Searches(w.eng, nil),
		Orgs:     w.st,
		Biller:   &account.Biller{Store: w.st, Plans: plans},
		PageSize: testPage,
		Log:      zerolog.Nop(),
	}, org
}

// allCompanies matches nearly every demo company: no score floor, lead
// generation sites and redirects kept.
var allCompanies = url.Values{"min_digital_footprint": {"0"}, "exclude_leadgen": {"false"}, "redirect": {"true"}}

func input(t *testing.T, source, format string, max int, v url.Values) Input {
	t.Helper()
	q := url.Values{"format": {format}, "max_records": {fmt.Sprint(max)}}
	for k, vs := range v {
		q[k] = vs
	}
	r, err := Parse(source, q)
	if err != nil {
		t.Fatal(err)
	}
	return r.Input
}

// pagedCompanies pages the same discovery through query.Companies in
// pages of 5,000 (past the API's 10,000 cap, which only the parser
// enforces) and returns the rows as JSON objects.
func pagedCompanies(t *testing.T, w *world, v url.Values, n int) []map[string]json.RawMessage {
	t.Helper()
	d, err := query.ParseDiscover(v)
	if err != nil {
		t.Fatal(err)
	}
	c := &query.Companies{Engine: w.eng}
	var out []map[string]json.RawMessage
	for off := 0; len(out) < n; off += 5000 {
		d.Offset, d.MaxRecords = off, 5000
		res, err := c.Discover(context.Background(), d)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Matches) == 0 {
			break
		}
		for _, m := range res.Matches {
			out = append(out, asMap(t, CompanyRowOf(d, m)))
		}
	}
	return out[:min(n, len(out))]
}

// pagedContacts pages contact discovery in pages of the export's size:
// each page is grouped by company, so the pages must cut the ranking
// where the export does.
func pagedContacts(t *testing.T, w *world, v url.Values, n int) []map[string]json.RawMessage {
	t.Helper()
	d, err := query.ParseContactQuery(v)
	if err != nil {
		t.Fatal(err)
	}
	svc := &query.ContactService{Engine: w.eng, Companies: &query.Companies{Engine: w.eng}}
	var out []map[string]json.RawMessage
	for off := 0; len(out) < n; off += testPage {
		d.Offset, d.MaxRecords, d.PerCompany, d.MaxCompanies = off, testPage, 0, 0
		res, err := svc.Discover(context.Background(), d)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Groups) == 0 {
			break
		}
		for _, g := range res.Groups {
			for _, c := range g.Contacts {
				out = append(out, asMap(t, record.ContactOf(c.Contact, c.Similarity)))
			}
		}
	}
	return out[:min(n, len(out))]
}

func asMap(t *testing.T, v any) map[string]json.RawMessage {
	t.Helper()
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// readBack reads an export file into rows of cell texts (CSV, XLSX) or
// JSON objects shaped the same way (JSONL), so every format compares
// against the paged rows through CellText.
func readBack(t *testing.T, path, format, source string) [][]string {
	t.Helper()
	cols := Columns(source)
	switch format {
	case FormatCSV:
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		rows, err := csv.NewReader(f).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(rows[0], ",") != strings.Join(cols, ",") {
			t.Fatalf("header %v, want %v", rows[0], cols)
		}
		return rows[1:]
	case FormatJSONL:
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		var out [][]string
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			var m map[string]json.RawMessage
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Fatal(err)
			}
			row := make([]string, len(cols))
			for i, c := range cols {
				row[i] = CellText(m[c])
			}
			out = append(out, row)
		}
		return out
	default:
		book, err := excelize.OpenFile(path)
		if err != nil {
			t.Fatal(err)
		}
		defer book.Close()
		rows, err := book.Rows(book.GetSheetName(0))
		if err != nil {
			t.Fatal(err)
		}
		var out [][]string
		first := true
		for rows.Next() {
			cells, err := rows.Columns(excelize.Options{RawCellValue: true})
			if err != nil {
				t.Fatal(err)
			}
			for len(cells) < len(cols) {
				cells = append(cells, "")
			}
			if first {
				if strings.Join(cells, ",") != strings.Join(cols, ",") {
					t.Fatalf("header %v, want %v", cells, cols)
				}
				first = false
				continue
			}
			out = append(out, cells)
		}
		return out
	}
}

// cells is a paged row as an export writes its cells.
func cells(t *testing.T, m map[string]json.RawMessage, cols []string, format string) []string {
	t.Helper()
	out := make([]string, len(cols))
	for i, c := range cols {
		b, ok := m[c]
		if !ok {
			continue
		}
		if format == FormatXLSX {
			switch x := xlsxCell(b).(type) {
			case float64:
				out[i] = strconv.FormatFloat(x, 'f', -1, 64)
				continue
			case bool:
				out[i] = map[bool]string{true: "1", false: "0"}[x]
				continue
			}
		}
		out[i] = CellText(b)
	}
	return out
}

func compareRows(t *testing.T, got [][]string, want []map[string]json.RawMessage, cols []string, format string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d rows, want %d", format, len(got), len(want))
	}
	for i := range want {
		w := cells(t, want[i], cols, format)
		for j := range cols {
			g := got[i][j]
			if format == FormatXLSX && g != w[j] {
				// Excel stores numbers as doubles: compare them as numbers.
				var a, b float64
				if _, err := fmt.Sscan(g, &a); err == nil {
					if _, err := fmt.Sscan(w[j], &b); err == nil && a == b {
						continue
					}
				}
			}
			if g != w[j] {
				t.Fatalf("%s row %d column %s: %q, want %q", format, i, cols[j], g, w[j])
			}
		}
	}
}

// TestExportMatchesPaging exports 25,000 companies in each format, and
// 25,000 contacts, reads the files back and compares them with paging the
// same query.
func TestExportMatchesPaging(t *testing.T) {
	w := getWorld(t)
	const n = 25_000
	companies := pagedCompanies(t, w, allCompanies, n)
	if len(companies) < n {
		t.Fatalf("the corpus has %d matching companies, want %d", len(companies), n)
	}
	contactParams := url.Values{}
	contacts := pagedContacts(t, w, contactParams, n)
	if len(contacts) < n {
		t.Fatalf("the corpus has %d contacts, want %d", len(contacts), n)
	}
	for _, tc := range []struct {
		source, format string
		params         url.Values
		want           []map[string]json.RawMessage
	}{
		{SourceDiscover, FormatCSV, allCompanies, companies},
		{SourceDiscover, FormatJSONL, allCompanies, companies},
		{SourceDiscover, FormatXLSX, allCompanies, companies},
		// The writers do not depend on the source: one format for contacts.
		{SourceContacts, FormatCSV, contactParams, contacts},
	} {
		t.Run(tc.source+"-"+tc.format, func(t *testing.T) {
			task, org := w.newTask(t, 0)
			res, err := task.Run(context.Background(), store.Task{ID: "t" + tc.format, OrgID: org.ID}, input(t, tc.source, tc.format, n, tc.params), func(int) {})
			if err != nil {
				t.Fatal(err)
			}
			if res.Records != n || !res.MaxRecordsReached || res.CreditsExhausted {
				t.Fatalf("result %+v", res)
			}
			path := filepath.Join(task.Files.Dir, "t"+tc.format+"."+tc.format)
			st, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if st.Mode().Perm() != 0o600 || st.Size() != res.Bytes {
				t.Fatalf("file mode %v size %d, result says %d", st.Mode().Perm(), st.Size(), res.Bytes)
			}
			compareRows(t, readBack(t, path, tc.format, tc.source), tc.want, Columns(tc.source), tc.format)
			// Billing is the pages': one credit per company (and, for
			// contacts, per employer and contact) bought.
			wantBilled := n
			if tc.source == SourceContacts {
				doms := map[string]bool{}
				for _, c := range tc.want {
					doms[string(c["domain"])] = true
				}
				wantBilled += len(doms)
			}
			if res.CreditsBilled != wantBilled {
				t.Fatalf("billed %d, want %d", res.CreditsBilled, wantBilled)
			}
		})
	}
}

// errKilled stops a run at a checkpoint, as a kill would.
var errKilled = errors.New("killed")

// TestExportResumesWithoutBillingTwice stops an export after some pages
// (leaving rows written after the last checkpoint, as a kill between
// writing and checkpointing would), runs the task again, and expects the
// file a run without interruption writes and each record billed once.
func TestExportResumesWithoutBillingTwice(t *testing.T) {
	w := getWorld(t)
	const n = 12_000
	for _, format := range Formats {
		t.Run(format, func(t *testing.T) {
			task, org := w.newTask(t, 0)
			in := input(t, SourceDiscover, format, n, allCompanies)
			tk := store.Task{ID: "resume" + format, OrgID: org.ID}
			pages := 0
			ctx, cancel := context.WithCancelCause(context.Background())
			task.AfterPage = func(cp Checkpoint) {
				if pages++; pages == 3 {
					// Rows past the checkpoint: what a kill mid-page leaves.
					f, err := os.OpenFile(filepath.Join(task.Files.Dir, tk.ID+".part"), os.O_WRONLY|os.O_APPEND, 0)
					if err != nil {
						t.Error(err)
					}
					f.WriteString("torn row, never checkpointed\n")
					f.Close()
					cancel(errKilled)
				}
			}
			if _, err := task.Run(ctx, tk, in, func(int) {}); err == nil {
				t.Fatal("the interrupted run completed")
			}
			task.AfterPage = nil
			res, err := task.Run(context.Background(), tk, in, func(int) {})
			if err != nil {
				t.Fatal(err)
			}
			if res.Records != n || res.CreditsBilled != n {
				t.Fatalf("result %+v", res)
			}
			u, err := task.Biller.Usage(context.Background(), org)
			if err != nil {
				t.Fatal(err)
			}
			if u.CreditsUsed != n {
				t.Fatalf("credits used %d over both runs, want %d (each company once)", u.CreditsUsed, n)
			}
			compareRows(t, readBack(t, filepath.Join(task.Files.Dir, tk.ID+"."+format), format, SourceDiscover),
				pagedCompanies(t, w, allCompanies, n), Columns(SourceDiscover), format)
			// A completed export run again (its completion was lost) keeps
			// its file and bills nothing.
			again, err := task.Run(context.Background(), tk, in, func(int) {})
			if err != nil || again.Records != n || again.Bytes != res.Bytes {
				t.Fatalf("again: %+v %v", again, err)
			}
		})
	}
}

// TestExportStopsWhenCreditsRunOut gives an organization 3,500 credits
// and expects the export to hold the first 3,500 companies and say why.
func TestExportStopsWhenCreditsRunOut(t *testing.T) {
	w := getWorld(t)
	task, org := w.newTask(t, 3500)
	res, err := task.Run(context.Background(), store.Task{ID: "credits", OrgID: org.ID}, input(t, SourceDiscover, FormatJSONL, 20_000, allCompanies), func(int) {})
	if err != nil {
		t.Fatal(err)
	}
	if res.Records != 3500 || !res.CreditsExhausted || res.RecordsWithheld != 2*testPage-3500 || res.CreditsBilled != 3500 || !strings.Contains(res.Note, "credits ran out") {
		t.Fatalf("result %+v", res)
	}
	got := readBack(t, filepath.Join(task.Files.Dir, "credits.jsonl"), FormatJSONL, SourceDiscover)
	compareRows(t, got, pagedCompanies(t, w, allCompanies, 3500), Columns(SourceDiscover), FormatJSONL)
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		source, query string
		bad           []string // parameters named in the error
	}{
		{SourceDiscover, "country=DE&format=xlsx&max_records=50000", nil},
		{SourceDiscover, "format=pdf", []string{"format"}},
		{SourceDiscover, "max_records=0", []string{"max_records"}},
		{SourceDiscover, "max_records=1000001", []string{"max_records"}},
		{SourceDiscover, "offset=10", []string{"offset"}},
		{SourceDiscover, "country=Atlantis&format=csv", []string{"country"}},
		{SourceDiscover, "colour=red", []string{"colour"}},
		{SourceContacts, "seniority=Director&format=jsonl", nil},
		{SourceContacts, "results_by_company=2&max_companies=5", []string{"max_companies", "results_by_company"}},
		{SourceContacts, "department=sales&format=doc", []string{"department", "format"}},
	} {
		v, _ := url.ParseQuery(tc.query)
		r, err := Parse(tc.source, v)
		if tc.bad == nil {
			if err != nil {
				t.Errorf("%s?%s: %v", tc.source, tc.query, err)
			} else if r.Input.Source != tc.source || r.Input.Params.Get("format") != "" {
				t.Errorf("%s?%s: input %+v", tc.source, tc.query, r.Input)
			}
			continue
		}
		var qe *query.Error
		if !errors.As(err, &qe) || qe.Status != 422 {
			t.Errorf("%s?%s: %v, want a 422", tc.source, tc.query, err)
			continue
		}
		var named []string
		for _, p := range qe.Params {
			named = append(named, p.Param)
		}
		if strings.Join(named, ",") != strings.Join(tc.bad, ",") {
			t.Errorf("%s?%s: names %v, want %v (%v)", tc.source, tc.query, named, tc.bad, err)
		}
	}
}

func TestClean(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	f := &Files{Dir: dir, Retention: time.Hour, Now: func() time.Time { return now }}
	for name, age := range map[string]time.Duration{"old.csv": 2 * time.Hour, "old.checkpoint": 2 * time.Hour, "new.csv": time.Minute} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, now.Add(-age), now.Add(-age)); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := f.Clean(); err != nil || n != 2 {
		t.Fatalf("removed %d, %v", n, err)
	}
	if _, _, err := f.Open("new", "csv"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.Open("old", "csv"); !errors.Is(err, ErrGone) {
		t.Fatalf("expired file: %v", err)
	}
	if _, _, err := f.Open("../x", "csv"); !errors.Is(err, ErrGone) {
		t.Fatalf("path outside: %v", err)
	}
}

// shallow is an engine that, like Elasticsearch, serves no page past a
// result window.
type shallow struct {
	*embedded.Engine
	window int
}

func (s shallow) SearchCompanies(ctx context.Context, q index.Search) (index.Result, error) {
	if q.Offset+q.Limit > s.window {
		return index.Result{}, fmt.Errorf("%w: offset+limit %d exceeds the result window", index.ErrUnsupported, q.Offset+q.Limit)
	}
	return s.Engine.SearchCompanies(ctx, q)
}

// TestExportStopsAtTheEnginesWindow: an engine that refuses deep pages
// ends a similarity export with what it served, and the result says why;
// a filter-only export pages by score (a keyset cursor) and never asks
// for a deep page.
func TestExportStopsAtTheEnginesWindow(t *testing.T) {
	w := getWorld(t)
	for _, tc := range []struct {
		name string
		text string
		want int
	}{
		{"similarity", "software for accountants", 5000},
		{"filters only", "", 20_000},
	} {
		task, org := w.newTask(t, 0)
		task.SavedFor = Searches(shallow{w.eng, 5000}, nil)
		params := url.Values{}
		for k, v := range allCompanies {
			params[k] = v
		}
		if tc.text != "" {
			params.Set("icp_text", tc.text)
		}
		res, err := task.Run(context.Background(), store.Task{ID: "shallow" + strings.ReplaceAll(tc.name, " ", ""), OrgID: org.ID}, input(t, SourceDiscover, FormatCSV, 20_000, params), func(int) {})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if res.Records != tc.want || tc.want == 5000 && !strings.Contains(res.Note, "no deeper page") {
			t.Fatalf("%s: result %+v", tc.name, res)
		}
	}
}
