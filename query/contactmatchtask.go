package query

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/record"
	"github.com/openprospect/prospectd/store"
)

// KindContactMatch is the task kind of POST /v1/contacts/bulk-match.
const KindContactMatch = "contact_bulk_match"

// ContactMatchInput is a contact bulk match task's input: validated
// queries, whether to return full records, and matches per query.
type ContactMatchInput struct {
	Queries []MatchQuery `json:"queries"`
	Enrich  bool         `json:"enrich"`
	Limit   int          `json:"limit"`
}

// ContactMatchResult is one query's matches; a match is the lookup subset
// with match_score, or a full contact record (with match_score) when
// enrich is set and the credits cover it.
type ContactMatchResult struct {
	Query   MatchQuery       `json:"query"`
	Matches []map[string]any `json:"matches"`
}

// ContactMatchTask is the body of contact bulk match tasks (wired by
// jobs/).
type ContactMatchTask struct {
	Contacts *ContactService
	Orgs     store.Orgs
	Biller   *account.Biller
}

// Run matches every query. Enriched matches are billed as contacts, in
// order, as far as the credits go; the rest keep the lookup subset.
func (h *ContactMatchTask) Run(ctx context.Context, t store.Task, in ContactMatchInput, progress func(pct int)) ([]ContactMatchResult, error) {
	org, err := h.Orgs.OrgByID(ctx, t.OrgID)
	if err != nil {
		return nil, err
	}
	found := make([][]ContactCandidate, 0, len(in.Queries))
	for i, q := range in.Queries {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c, err := h.Contacts.MatchContact(ctx, q, in.Limit)
		if err != nil {
			return nil, err
		}
		found = append(found, c)
		progress((i + 1) * 100 / len(in.Queries))
	}
	covered := map[int64]bool{}
	if in.Enrich {
		var all []ContactCandidate
		for _, cs := range found {
			all = append(all, cs...)
		}
		paid, err := account.BillRecords(ctx, h.Biller, org, "contacts_bulk_match", all, func(c ContactCandidate) []store.Charge {
			return []store.Charge{{Kind: store.KindContact, Key: strconv.FormatInt(c.Contact.PersonaID, 10)}}
		})
		// Credits that cover none leave every match as the lookup subset.
		if err != nil && !errors.Is(err, account.ErrNoCredits) && len(all) > 0 {
			return nil, err
		}
		for _, c := range paid.Records {
			covered[c.Contact.PersonaID] = true
		}
	}
	out := make([]ContactMatchResult, len(in.Queries))
	for i, q := range in.Queries {
		out[i] = ContactMatchResult{Query: q, Matches: []map[string]any{}}
		for _, c := range found[i] {
			var m map[string]any
			if covered[c.Contact.PersonaID] {
				b, err := json.Marshal(record.ContactOf(c.Contact, nil))
				if err != nil {
					return nil, err
				}
				if err := json.Unmarshal(b, &m); err != nil {
					return nil, err
				}
			} else {
				m = map[string]any{"persona_id": c.Contact.PersonaID, "name": c.Contact.Name, "title": record.OptionalText(c.Contact.Title),
					"domain": c.Contact.Domain, "company_name": c.Contact.CompanyName}
			}
			m["match_score"] = c.Score
			out[i].Matches = append(out[i].Matches, m)
		}
	}
	return out, nil
}
