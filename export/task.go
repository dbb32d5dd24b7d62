package export

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/query"
	"github.com/openprospect/prospectd/record"
	"github.com/openprospect/prospectd/saved"
	"github.com/openprospect/prospectd/store"
)

// Task is the body of export tasks (wired by jobs/).
type Task struct {
	Files *Files
	// Companies and Contacts run the searches; SavedFor returns them
	// resolving saved-query ids as the task's organization.
	SavedFor func(orgID string) (*query.Companies, *query.ContactService)
	Orgs     store.Orgs
	Biller   *account.Biller
	// PageSize is how many records are read, billed and written at a time
	// (DefaultPageSize when 0).
	PageSize int
	// CheckpointEvery spaces checkpoints (each syncs the file to disk):
	// pages finished since the last one are read again, for free, after a
	// restart. 0 checkpoints after every page.
	CheckpointEvery time.Duration
	Log             zerolog.Logger
	// AfterPage, when set, is called after each checkpoint (tests stop a
	// run there to resume it).
	AfterPage func(cp Checkpoint)
}

// CompanyRow is a row of a discovery export: the profile and the
// discovery fields of GET /v1/discover.
type CompanyRow struct {
	record.Profile
	Similarity   float64  `json:"similarity"`
	Vendors      []string `json:"vendors,omitempty"`
	SiteText     *string  `json:"site_text,omitempty"`
	MatchReasons []string `json:"match_reasons,omitempty"`
}

// CompanyRowOf shapes a discovery match as GET /v1/discover does.
func CompanyRowOf(d query.Discover, m query.Match) CompanyRow {
	r := CompanyRow{Profile: record.ProfileOf(m.Company), Similarity: m.Similarity, MatchReasons: m.Reasons}
	if len(d.TechStack) > 0 {
		r.Vendors = record.List(m.Company.Vendors)
	}
	if d.Retrieval {
		t := m.Company.SiteText
		r.SiteText = &t
	}
	return r
}

// Run exports the task's search, resuming from the checkpoint of an
// earlier run of the same task when there is one.
func (h *Task) Run(ctx context.Context, t store.Task, in Input, progress func(pct int)) (Result, error) {
	var req Request
	req, err := Parse(in.Source, in.Params)
	if err != nil {
		return Result{}, fmt.Errorf("export parameters: %w", err)
	}
	req.Input.Format, req.Input.MaxRecords = in.Format, in.MaxRecords
	org, err := h.Orgs.OrgByID(ctx, t.OrgID)
	if err != nil {
		return Result{}, fmt.Errorf("export: %w", err)
	}
	unlock, err := h.Files.lock(ctx, t.ID)
	if err != nil {
		return Result{}, err
	}
	defer unlock()
	w, err := h.Files.open(t.ID, in.Format, in.Source)
	if err != nil {
		return Result{}, err
	}
	defer w.close()
	cp := w.cp
	if !cp.Scanned {
		companies, contacts := h.SavedFor(t.OrgID)
		page := h.PageSize
		if page <= 0 {
			page = DefaultPageSize
		}
		page = min(page, in.MaxRecords)
		lastCheckpoint := time.Now()
		pageDone := func(offset, n, withheld, billed int) (bool, error) {
			cp.Offset = offset + n
			cp.Billed += billed
			if withheld > 0 {
				cp.Withheld, cp.Exhausted = withheld, true
			}
			if cp.Records >= in.MaxRecords {
				cp.MaxReached = true
			}
			more := !cp.Exhausted && !cp.MaxReached
			progress(95 * cp.Records / in.MaxRecords)
			if more && h.CheckpointEvery > 0 && time.Since(lastCheckpoint) < h.CheckpointEvery {
				return true, nil
			}
			if err := w.sync(&cp); err != nil {
				return false, err
			}
			if err := w.checkpoint(cp); err != nil {
				return false, err
			}
			lastCheckpoint = time.Now()
			if h.AfterPage != nil {
				h.AfterPage(cp)
			}
			return more, nil
		}
		switch in.Source {
		case SourceDiscover:
			err = companies.Scan(ctx, req.Discover, cp.Offset, page, func(off int, ms []query.Match) (bool, error) {
				ms = ms[:min(len(ms), in.MaxRecords-cp.Records)]
				paid, err := h.bill(ctx, org, "discover_export", companyItems(ms))
				if err != nil {
					return false, err
				}
				written := 0
				for i, m := range ms {
					if paid.Mask[i] {
						if err := w.row(CompanyRowOf(req.Discover, m)); err != nil {
							return false, err
						}
						written++
					}
				}
				cp.Records += written
				return pageDone(off, len(ms), len(ms)-written, paid.Billed)
			})
		case SourceContacts:
			err = contacts.Scan(ctx, req.Contacts, cp.Offset, page, func(off int, ms []query.ContactMatch) (bool, error) {
				ms = ms[:min(len(ms), in.MaxRecords-cp.Records)]
				items := contactItems(ms)
				paid, err := h.bill(ctx, org, "contacts_export", items)
				if err != nil {
					return false, err
				}
				written, companyPaid := 0, false
				for k, it := range items {
					if it.persona == 0 {
						companyPaid = paid.Mask[k]
						continue
					}
					if paid.Mask[k] && companyPaid {
						if err := w.row(record.ContactOf(ms[it.match].Contact, ms[it.match].Similarity)); err != nil {
							return false, err
						}
						written++
					}
				}
				cp.Records += written
				return pageDone(off, len(ms), len(ms)-written, paid.Billed)
			})
		}
		if errors.Is(err, index.ErrUnsupported) && cp.Offset > 0 {
			// The engine pages no deeper (Elasticsearch's result window):
			// the file keeps what it could read, and the result says so.
			h.Log.Warn().Err(err).Str("task", t.ID).Int("records", cp.Records).Msg("export stopped at the engine's deepest page")
			cp.EngineLimit, err = true, nil
		}
		if err != nil {
			return Result{}, err
		}
		if err := w.sync(&cp); err != nil {
			return Result{}, err
		}
		cp.Scanned = true
		if err := w.checkpoint(cp); err != nil {
			return Result{}, err
		}
	}
	size, err := w.finish(ctx)
	if err != nil {
		return Result{}, err
	}
	progress(100)
	res := Result{Source: in.Source, Format: in.Format, Records: cp.Records, Bytes: size, File: "/v1/exports/" + t.ID + "/file",
		CreditsBilled: cp.Billed, RecordsWithheld: cp.Withheld, CreditsExhausted: cp.Exhausted, MaxRecordsReached: cp.MaxReached,
		ExpiresAt: h.Files.now().Add(h.Files.retention()).UTC().Truncate(time.Second)}
	switch {
	case cp.Exhausted:
		res.Note = fmt.Sprintf("the period's credits ran out after %d records; records already bought in the last 90 days stay free (see GET /v1/usage)", cp.Records)
	case cp.MaxReached:
		res.Note = fmt.Sprintf("stopped at max_records (%d)", in.MaxRecords)
	case cp.EngineLimit:
		res.Note = fmt.Sprintf("stopped after %d records: the search engine serves no deeper page (Elasticsearch's result window)", cp.Records)
	}
	return res, nil
}

// billItem is one charged record of a page: a company, or a contact
// (persona set) whose company precedes it.
type billItem struct {
	domain  string
	persona int64
	match   int // index of the contact in the page
}

func companyItems(ms []query.Match) []billItem {
	out := make([]billItem, len(ms))
	for i, m := range ms {
		out[i] = billItem{domain: m.Company.Domain}
	}
	return out
}

// contactItems bills as the contact pages do (docs/decisions.md, Task
// bodies): one record per company group, then one per contact, in rank
// order; the page's hits come grouped by company.
func contactItems(ms []query.ContactMatch) []billItem {
	var out []billItem
	prev := ""
	for i, m := range ms {
		if i == 0 || m.Contact.Domain != prev {
			out = append(out, billItem{domain: m.Contact.Domain})
			prev = m.Contact.Domain
		}
		out = append(out, billItem{domain: m.Contact.Domain, persona: m.Contact.PersonaID, match: i})
	}
	return out
}

func (h *Task) bill(ctx context.Context, org store.Org, endpoint string, items []billItem) (account.Covered[billItem], error) {
	if len(items) == 0 {
		return account.Covered[billItem]{}, nil
	}
	paid, err := account.BillRecords(ctx, h.Biller, org, endpoint, items, func(it billItem) []store.Charge {
		if it.persona == 0 {
			return []store.Charge{{Kind: store.KindCompany, Key: it.domain}}
		}
		return []store.Charge{{Kind: store.KindContact, Key: strconv.FormatInt(it.persona, 10)}}
	})
	if err != nil && !errors.Is(err, account.ErrNoCredits) {
		return paid, fmt.Errorf("export: %w", err)
	}
	return paid, nil
}

// Engine is the part of a search engine exports read.
type Engine interface {
	query.CompanyIndex
	query.ContactIndex
}

// Searches returns, per organization, the discovery and contact services
// of an export: saved-query ids resolve as that organization's (another
// organization's id is unknown, as on the pages). With no saved queries
// kept (svc nil) every id is unknown.
func Searches(engine Engine, svc *saved.Service) func(orgID string) (*query.Companies, *query.ContactService) {
	return func(orgID string) (*query.Companies, *query.ContactService) {
		c := &query.Companies{Engine: engine}
		if svc != nil {
			c.Saved = func(ctx context.Context, id string) (query.SavedQuery, bool, error) {
				q, err := svc.Lists(ctx, saved.Caller{OrgID: orgID}, id)
				if errors.Is(err, saved.ErrNotFound) {
					return query.SavedQuery{}, false, nil
				}
				if err != nil {
					return query.SavedQuery{}, false, err
				}
				return query.SavedQuery{Key: q.ID, Domains: q.Domains, PersonaIDs: q.PersonaIDs, OverCap: svc.OverCap(q)}, true, nil
			}
		}
		return c, &query.ContactService{Engine: engine, Companies: c}
	}
}
