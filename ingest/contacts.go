package ingest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/mail"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/embedding"
	"github.com/openprospect/prospectd/ingest/delimited"
	"github.com/openprospect/prospectd/record"
	"github.com/openprospect/prospectd/record/domain"
	"github.com/openprospect/prospectd/record/geo"
)

// ContactSource yields contacts one row at a time; a bad row is a
// *RowError and reading goes on.
type ContactSource interface {
	Next() (record.Contact, int, error)
	Close() error
}

// OpenContacts opens a contacts file by extension: .jsonl/.ndjson/.json
// (JSON lines), .csv/.tsv/.txt (delimited, header row), .xlsx (first
// sheet, header row). Columns use the spec's field names.
func OpenContacts(path string) (ContactSource, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".jsonl", ".ndjson", ".json":
		return &jsonContacts{f: f, r: bufio.NewReaderSize(f, 1<<20)}, nil
	case ".csv", ".tsv", ".txt":
		br := bufio.NewReaderSize(f, 1<<20)
		if bom, _ := br.Peek(3); bytes.Equal(bom, utf8BOM) {
			br.Discard(3)
		}
		head, _ := br.Peek(4096)
		r := delimited.NewReader(br, delimited.Sniff(head), MaxRecordBytes)
		next := func() ([]string, error) {
			switch err := r.Read(); {
			case errors.Is(err, delimited.ErrTooLong) || errors.Is(err, delimited.ErrUnterminated):
				return nil, &RowError{Reason: csvReason(err)}
			case err != nil:
				return nil, err
			}
			cells := make([]string, r.Fields())
			for i := range cells {
				cells[i] = string(r.Field(i))
			}
			return cells, nil
		}
		header, err := next()
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: %w: no header row (%v)", path, ErrFormat, err)
		}
		return newTableContacts(header, next, f.Close)
	case ".xlsx":
		x, err := excelize.OpenReader(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: %w: not an Excel workbook (%v)", path, ErrFormat, err)
		}
		rows, err := x.Rows(x.GetSheetName(0))
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: %w: %v", path, ErrFormat, err)
		}
		next := func() ([]string, error) {
			if !rows.Next() {
				if err := rows.Error(); err != nil {
					return nil, err
				}
				return nil, io.EOF
			}
			return rows.Columns()
		}
		header, err := next()
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: %w: no header row", path, ErrFormat)
		}
		return newTableContacts(header, next, func() error { rows.Close(); x.Close(); return f.Close() })
	default:
		f.Close()
		return nil, fmt.Errorf("%s: %w: unknown extension %q (want .jsonl, .csv, .tsv or .xlsx)", path, ErrFormat, ext)
	}
}

// contactJSON is the lenient shape of a JSON contact: phones as strings
// or {phone, type} objects, social URLs or a bare linkedin field.
type contactJSON struct {
	record.Contact
	Phone     json.RawMessage `json:"phone"`
	PhonesRaw json.RawMessage `json:"phones"`
	LinkedIn  string          `json:"linkedin"`
	FirstName string          `json:"first_name"`
	LastName  string          `json:"last_name"`
}

type jsonContacts struct {
	f   *os.File
	r   *bufio.Reader
	row int
}

func (s *jsonContacts) Close() error { return s.f.Close() }

func (s *jsonContacts) Next() (record.Contact, int, error) {
	for {
		line, err := s.r.ReadBytes('\n')
		if len(line) == 0 && err != nil {
			return record.Contact{}, 0, err
		}
		s.row++
		if len(strings.TrimSpace(string(line))) == 0 {
			continue
		}
		var cj contactJSON
		if jerr := json.Unmarshal(line, &cj); jerr != nil {
			return record.Contact{}, s.row, &RowError{Row: s.row, Reason: "malformed JSON: " + jerr.Error()}
		}
		c := cj.Contact
		for _, raw := range []json.RawMessage{cj.Phone, cj.PhonesRaw} {
			c.Phones = append(c.Phones, phonesOf(raw)...)
		}
		if cj.LinkedIn != "" {
			c.SocialURLs = append(c.SocialURLs, cj.LinkedIn)
		}
		if c.Name == "" {
			c.Name = strings.TrimSpace(cj.FirstName + " " + cj.LastName)
		}
		return c, s.row, nil
	}
}

func phonesOf(raw json.RawMessage) []string {
	if len(raw) == 0 {
		return nil
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		list = []json.RawMessage{raw}
	}
	var out []string
	for _, item := range list {
		var s string
		if json.Unmarshal(item, &s) == nil {
			out = append(out, s)
			continue
		}
		var o struct {
			Phone string `json:"phone"`
		}
		if json.Unmarshal(item, &o) == nil && o.Phone != "" {
			out = append(out, o.Phone)
		}
	}
	return out
}

type tableContacts struct {
	cols  map[string]int
	next  func() ([]string, error)
	close func() error
	row   int
}

func newTableContacts(header []string, next func() ([]string, error), closer func() error) (ContactSource, error) {
	t := &tableContacts{cols: map[string]int{}, next: next, close: closer, row: 1}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))
		h = strings.NewReplacer(" ", "_", "-", "_").Replace(h)
		if _, dup := t.cols[h]; !dup {
			t.cols[h] = i
		}
	}
	if _, ok := t.cols["domain"]; !ok {
		closer()
		return nil, fmt.Errorf("%w: no domain column (the employer's domain)", ErrFormat)
	}
	return t, nil
}

func (t *tableContacts) Close() error { return t.close() }

func (t *tableContacts) Next() (record.Contact, int, error) {
	for {
		cells, err := t.next()
		var re *RowError
		if errors.As(err, &re) {
			t.row++
			re.Row = t.row
			return record.Contact{}, t.row, re
		}
		if err != nil {
			return record.Contact{}, 0, err
		}
		t.row++
		if blankCells(cells) {
			continue
		}
		get := func(names ...string) string {
			for _, n := range names {
				if i, ok := t.cols[n]; ok && i < len(cells) {
					if v := strings.TrimSpace(cells[i]); v != "" {
						return v
					}
				}
			}
			return ""
		}
		list := func(names ...string) []string {
			v := get(names...)
			if v == "" {
				return nil
			}
			return strings.FieldsFunc(v, func(r rune) bool { return r == ';' || r == '|' || r == ',' })
		}
		c := record.Contact{
			Domain: get("domain", "company_domain", "website"), Name: get("name", "full_name"), Title: get("title", "job_title"),
			Department: get("department"), Seniority: get("seniority"), Skills: list("skills"), Phones: list("phone", "phones"),
			Email: get("email"), SocialURLs: list("social_urls", "linkedin", "linkedin_url", "twitter", "x"),
			Country: get("country", "person_country"), State: get("state", "person_state"), JobStartDate: get("jobstart_date", "job_start_date"),
			Summary: get("summary"), CompanyName: get("company_name", "company"),
		}
		if c.Name == "" {
			c.Name = strings.TrimSpace(get("first_name") + " " + get("last_name"))
		}
		var reasons []string
		if v := get("persona_id", "id"); v != "" {
			id, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				reasons = append(reasons, "persona_id: not an integer")
			}
			c.PersonaID = id
		}
		if v := get("connections"); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				reasons = append(reasons, "connections: not an integer")
			}
			c.Connections = n
		}
		if v := get("email_validated"); v != "" {
			b, err := strconv.ParseBool(strings.ToLower(v))
			if err != nil {
				reasons = append(reasons, "email_validated: not true or false")
			}
			c.EmailValidated = b
		}
		if len(reasons) > 0 {
			return record.Contact{}, t.row, &RowError{Row: t.row, Domain: c.Domain, Reason: strings.Join(reasons, "; ")}
		}
		return c, t.row, nil
	}
}

// NormalizeContact validates and normalizes a contact in place; the
// error names the field and the rule.
func NormalizeContact(c *record.Contact) error {
	if c.PersonaID <= 0 {
		return errors.New("persona_id: required, a positive integer")
	}
	d, err := domain.Normalize(c.Domain)
	if err != nil {
		return fmt.Errorf("domain: %w", err)
	}
	c.Domain = d
	c.Name = strings.Join(strings.Fields(c.Name), " ")
	if c.Name == "" {
		return errors.New("name: required")
	}
	c.Title = strings.Join(strings.Fields(c.Title), " ")
	if c.Department != "" {
		canon := ""
		for _, dep := range record.Departments {
			if strings.EqualFold(dep, strings.TrimSpace(c.Department)) {
				canon = dep
			}
		}
		if canon == "" {
			return fmt.Errorf("department: %q is not one of the 15 canonical departments", c.Department)
		}
		c.Department = canon
	}
	if c.Seniority != "" {
		s := strings.NewReplacer(" ", "_", "-", "_").Replace(strings.ToLower(strings.TrimSpace(c.Seniority)))
		if !record.IsSeniority(s) {
			return fmt.Errorf("seniority: %q is not one of %s", c.Seniority, strings.Join(record.Seniorities, ", "))
		}
		c.Seniority = s
	}
	if c.Country != "" {
		ct, ok := geo.LookupCountry(c.Country)
		if !ok {
			return fmt.Errorf("country: %q is not a country", c.Country)
		}
		c.Country = ct.Code
	}
	if c.State != "" {
		sd, ok := geo.LookupSubdivision(c.Country, c.State)
		if !ok {
			return fmt.Errorf("state: %q is not a subdivision of %q", c.State, c.Country)
		}
		c.State = sd.Code
	}
	var phones []string
	for _, p := range c.Phones {
		if n := normalizePhone(p, c.Country); n != "" && !slices.Contains(phones, n) {
			phones = append(phones, n)
		}
	}
	c.Phones = phones
	if c.Email != "" {
		a, err := mail.ParseAddress(c.Email)
		if err != nil || a.Name != "" {
			return fmt.Errorf("email: %q is not an email address", c.Email)
		}
		c.Email = strings.ToLower(a.Address)
	}
	var urls []string
	for _, u := range c.SocialURLs {
		u = strings.TrimSpace(u)
		if u != "" && !strings.Contains(u, "://") {
			u = "https://" + u
		}
		if u != "" && !slices.Contains(urls, u) {
			urls = append(urls, u)
		}
	}
	c.SocialURLs = urls
	if c.JobStartDate != "" {
		if _, err := time.Parse(time.DateOnly, c.JobStartDate); err != nil {
			return fmt.Errorf("jobstart_date: %q is not YYYY-MM-DD", c.JobStartDate)
		}
	}
	if c.Connections < 0 {
		return errors.New("connections: must be >= 0")
	}
	var skills []string
	for _, s := range c.Skills {
		if s = strings.TrimSpace(s); s != "" && !slices.Contains(skills, s) {
			skills = append(skills, s)
		}
	}
	c.Skills = skills
	return nil
}

// Employers is the part of an engine a contact load reads: the employers'
// profiles and the embedder stored with them.
type Employers interface {
	index.CompanyReader
	index.MetaReader
}

// ContactLoader loads contacts: normalizes each row, copies the employer's
// firmographics from the company index, embeds and upserts in batches.
type ContactLoader struct {
	Contacts  index.ContactWriter
	Companies Employers
	Embedder  embedding.Embedder // nil: the index's stored embedder
	BatchSize int
	Rejects   io.Writer
	Progress  func(Stats)
}

// Load reads src to its end. Bad rows are rejected and counted; an engine
// failure ends the load (what was written stays valid; rerunning is safe).
func (l *ContactLoader) Load(ctx context.Context, src ContactSource) (Stats, error) {
	var st Stats
	emb := l.Embedder
	if emb == nil {
		var err error
		if emb, err = embedding.Open(ctx, l.Companies); err != nil {
			return st, fmt.Errorf("contacts need the company index's embedder (load companies first): %w", err)
		}
	}
	size := l.BatchSize
	if size <= 0 {
		size = DefaultBatchSize
	}
	var rejects *csv.Writer
	if l.Rejects != nil {
		rejects = csv.NewWriter(l.Rejects)
		rejects.Write([]string{"row", "domain", "reason"})
		defer rejects.Flush()
	}
	reject := func(row int, dom, reason string) {
		st.Rejected++
		if rejects != nil {
			rejects.Write([]string{strconv.Itoa(row), dom, reason})
		}
	}
	type item struct {
		row int
		c   record.Contact
	}
	var batch []item
	last := time.Now()
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		// Contacts that carry their employer (exports of this service, the
		// demo corpus) skip the lookup; the company index wins otherwise.
		var doms []string
		for _, it := range batch {
			if it.c.CompanyName == "" && !slices.Contains(doms, it.c.Domain) {
				doms = append(doms, it.c.Domain)
			}
		}
		cs, err := l.Companies.GetCompanies(ctx, doms)
		if err != nil {
			return fmt.Errorf("employer profiles: %w", err)
		}
		byDomain := map[string]record.Company{}
		for _, c := range cs {
			byDomain[c.Domain] = c
		}
		docs := make([]index.ContactDoc, len(batch))
		texts := make([]embedding.Doc, len(batch))
		rows := map[string]int{}
		for i, it := range batch {
			c := it.c
			if co, ok := byDomain[c.Domain]; ok && c.CompanyName == "" {
				c.SetEmployer(co)
			}
			docs[i] = index.ContactDoc{Contact: c, EmbedderID: emb.ID()}
			texts[i] = embedding.ContactDocOf(c)
			rows[strconv.FormatInt(c.PersonaID, 10)] = it.row
		}
		vecs, err := embedding.EmbedDocs(ctx, emb, texts)
		if err != nil {
			return fmt.Errorf("embed contacts: %w", err)
		}
		for i := range docs {
			docs[i].Vector = vecs[i]
		}
		failed, err := l.Contacts.UpsertContacts(ctx, docs)
		for _, f := range failed {
			reject(rows[f.Domain], f.Domain, f.Reason)
		}
		st.Indexed += len(docs) - len(failed)
		batch = batch[:0]
		return err
	}
	for {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		c, row, err := src.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		var re *RowError
		if errors.As(err, &re) {
			st.Read++
			reject(re.Row, re.Domain, re.Reason)
			continue
		}
		if err != nil {
			return st, err
		}
		st.Read++
		if err := NormalizeContact(&c); err != nil {
			reject(row, c.Domain, err.Error())
			continue
		}
		batch = append(batch, item{row: row, c: c})
		if len(batch) >= size {
			if err := flush(); err != nil {
				return st, err
			}
		}
		if l.Progress != nil && time.Since(last) > 100*time.Millisecond {
			l.Progress(st)
			last = time.Now()
		}
	}
	if err := flush(); err != nil {
		return st, err
	}
	if f, ok := l.Contacts.(interface{ FinishContactLoad(context.Context) error }); ok && st.Indexed > 0 {
		if err := f.FinishContactLoad(ctx); err != nil {
			return st, err
		}
	}
	if l.Progress != nil {
		l.Progress(st)
	}
	return st, nil
}
