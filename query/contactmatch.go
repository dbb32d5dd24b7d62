package query

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/hbollon/go-edlib"

	"github.com/openprospect/prospectd/email/patternvote"
	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/record"
)

// MatchQuery is one row of a contact bulk match.
type MatchQuery struct {
	Name          string `json:"name,omitempty"`
	Email         string `json:"email,omitempty"`
	CompanyName   string `json:"company_name,omitempty"`
	Domain        string `json:"domain,omitempty"`
	PersonCountry string `json:"person_country,omitempty"`
}

// ContactCandidate is a scored match.
type ContactCandidate struct {
	Contact record.Contact
	Score   float64 // 0-100
}

// minMatchScore drops candidates that share too little with the query.
const minMatchScore = 50

// MatchContact finds up to limit contacts for one query: an exact email
// first (score 100), then people whose name contains the query's last name
// at the given domain or in the given country, scored by Jaro-Winkler
// similarity of the folded full names (and of the company names when the
// query has one and no domain): 100 × (0.75 name + 0.25 company), or 100 ×
// name.
func (s *ContactService) MatchContact(ctx context.Context, q MatchQuery, limit int) ([]ContactCandidate, error) {
	var out []ContactCandidate
	seen := map[int64]bool{}
	if q.Email != "" {
		c, err := s.Lookup(ctx, 0, "", q.Email)
		switch {
		case err == nil:
			out = append(out, ContactCandidate{Contact: c, Score: 100})
			seen[c.PersonaID] = true
		case !errors.Is(err, ErrContactNotFound):
			return nil, err
		}
	}
	if len(out) >= limit || q.Name == "" {
		return out, nil
	}
	first, last := patternvote.NameParts(q.Name)
	key := last
	if key == "" {
		key = first
	}
	if len(key) < 2 {
		return out, nil
	}
	// Cheap bitmap filters first: the name check reads each candidate.
	var f index.And
	if q.Domain != "" {
		f = append(f, index.Terms{Field: index.DomainField, Values: []string{q.Domain}})
	}
	if q.PersonCountry != "" {
		f = append(f, index.Terms{Field: index.PersonCountryField, Values: []string{q.PersonCountry}})
	}
	f = append(f, index.Phrase{Field: index.NameField, Text: key})
	res, err := s.Engine.SearchContacts(ctx, index.ContactSearch{Filter: f, Limit: 500, MinSimilarity: -2})
	if err != nil {
		return nil, fmt.Errorf("match %q: %w", q.Name, err)
	}
	qName := strings.Join(strings.Fields(patternvote.Fold(q.Name)), " ")
	qCompany := strings.Join(strings.Fields(patternvote.Fold(q.CompanyName)), " ")
	var cands []ContactCandidate
	for _, h := range res.Hits {
		if seen[h.Contact.PersonaID] {
			continue
		}
		name := float64(edlib.JaroWinklerSimilarity(qName, strings.Join(strings.Fields(patternvote.Fold(h.Contact.Name)), " ")))
		score := name
		if q.Domain == "" && qCompany != "" {
			company := float64(edlib.JaroWinklerSimilarity(qCompany, strings.Join(strings.Fields(patternvote.Fold(h.Contact.CompanyName)), " ")))
			score = 0.75*name + 0.25*company
		}
		score = math.Round(score*1000) / 10
		if score >= minMatchScore {
			cands = append(cands, ContactCandidate{Contact: h.Contact, Score: score})
		}
	}
	slices.SortStableFunc(cands, func(a, b ContactCandidate) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return int(a.Contact.PersonaID - b.Contact.PersonaID)
	})
	out = append(out, cands...)
	if len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}
