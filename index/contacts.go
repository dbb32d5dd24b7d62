package index

import (
	"context"

	"github.com/openprospect/prospectd/email/patternvote"
	"github.com/openprospect/prospectd/record"
)

// ContactDoc is one contact as written to an engine: the record (employer
// fields filled in) and its embedding.
type ContactDoc struct {
	Contact record.Contact
	Vector  []float32
	// EmbedderID: as CompanyDoc.EmbedderID.
	EmbedderID string
}

// ContactSearch is a ranked contact search, grouped by employer.
//
// With a Vector, contacts rank by cosine similarity; otherwise by
// seniority (executives first), then connections, then persona id. Each
// company's contacts stay in rank order and companies are ordered by their
// best contact. PerCompany caps the contacts kept per company (0: no cap),
// MaxCompanies the companies (0: no cap), Limit the contacts in all.
// Offset skips ranked contacts before grouping; callers use it only
// without PerCompany (the spec forces offset 0 with a per-company cap).
type ContactSearch struct {
	Filter        Filter
	Vector        []float32
	MinSimilarity float64
	PerCompany    int
	MaxCompanies  int
	Offset, Limit int
	WithVectors   bool
	// Ranked, when set, is called once before SearchContacts returns, after
	// the ranking has chosen the hits and before their profiles are read,
	// with the hits' employer domains in the order of their first hit. A
	// caller starts reading what it needs of those employers then, beside
	// the engine's reads of the contacts: on an index larger than the page
	// cache both wait on the disk. It must not block. It is not called
	// when the search fails before the ranking.
	Ranked func(domains []string)
}

// RankedDomains returns the distinct domains of hits in the order of
// their first hit (what ContactSearch.Ranked is given).
func RankedDomains[T any](hits []T, domain func(T) string) []string {
	var out []string
	seen := map[string]bool{}
	for _, h := range hits {
		if d := domain(h); !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out
}

// ContactHit is one ranked contact.
type ContactHit struct {
	Contact    record.Contact
	Similarity float64
	Vector     []float32
}

// ContactResult holds the hits, in groups (a company's hits are
// consecutive), and the number of contacts and distinct companies that
// match the filter (and MinSimilarity).
type ContactResult struct {
	Hits      []ContactHit
	Total     int
	Companies int
}

// ContactReader reads contacts by persona id.
type ContactReader interface {
	// GetContacts returns the contacts found, in input order.
	GetContacts(ctx context.Context, ids []int64) ([]record.Contact, error)
	ContactVectors(ctx context.Context, ids []int64) (map[int64][]float32, error)
}

// ContactSearcher ranks and counts contacts.
type ContactSearcher interface {
	SearchContacts(ctx context.Context, s ContactSearch) (ContactResult, error)
	// CountContacts counts the contacts matching f (nil matches all).
	CountContacts(ctx context.Context, f Filter) (int, error)
}

// ContactWriter writes contacts; upserts are keyed by persona id.
type ContactWriter interface {
	UpsertContacts(ctx context.Context, docs []ContactDoc) (failed []DocError, err error)
	DeleteContacts(ctx context.Context, ids []int64) (int, error)
}

// ContactEngine is the contact half of an Engine.
type ContactEngine interface {
	ContactReader
	ContactSearcher
	ContactWriter
}

// EmailPatternVoter is an optional ContactEngine capability of engines
// that keep each contact's email-pattern vote (patternvote.Vote) resident:
// EmailPatternVotes returns, for each domain in order, the tally of the
// votes of its first sample contacts with an address in the no-vector
// contact order (seniority, then more connections, then lower persona id)
// — the contacts a ContactSearch of that domain, Exists on the email and
// PerCompany sample returns — from resident data rather than their
// profiles (an engine may still read the profiles of contacts it has no
// vote for). A caller electing a pattern from the tally gets what
// patternvote elects from those contacts' profiles.
type EmailPatternVoter interface {
	EmailPatternVotes(ctx context.Context, domains []string, sample int) ([]patternvote.Tally, error)
}
