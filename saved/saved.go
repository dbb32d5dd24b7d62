// Package saved holds saved queries: result sets saved from discovery,
// segmentation, contacts, append or bulk match (save-results), exclusion
// lists, and their tags. It owns the rules (names, tags, caps, which rows
// count as domains or persona ids), the Service that the HTTP handlers, the
// tool server and the CLI call, and Store, the role interface the state
// stores implement (store/sqlite and store/postgres; one shared suite in
// store/storetest).
//
// A saved query belongs to an organization: every member can list it and
// use it as an inclusion or exclusion filter; renaming and deleting are for
// its owner and the organization's admins. Another organization's query is
// never visible: it is reported as not found (404), never as forbidden, so
// ids cannot be probed across organizations.
package saved

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Sentinel errors callers branch on.
var (
	// ErrNotFound: no saved query with that id for the caller.
	ErrNotFound = errors.New("saved query not found for the caller")
	// ErrInvalid: a request breaks a rule (400); wrapped by *RuleError.
	ErrInvalid = errors.New("invalid saved query request")
	// ErrTooLarge: save-results over the row or byte cap (413).
	ErrTooLarge = errors.New("too large")
	// ErrOverCap: a list holds more than an exclusion may use (400).
	ErrOverCap = errors.New("list over the exclusion cap")
)

// RuleError names the field and the rule a request breaks.
type RuleError struct {
	Field string
	Rule  string
	// Sentinel is ErrInvalid, ErrTooLarge or ErrOverCap.
	Sentinel error
}

func (e *RuleError) Error() string { return e.Field + ": " + e.Rule }

// Unwrap lets errors.Is find the sentinel.
func (e *RuleError) Unwrap() error { return e.Sentinel }

func invalid(field, format string, args ...any) error {
	return &RuleError{Field: field, Rule: fmt.Sprintf(format, args...), Sentinel: ErrInvalid}
}

// Actions a saved query can have. Saved results are stored as "thin_" plus
// the action that produced them.
const (
	ActionExclusion = "exclusion"
	ThinPrefix      = "thin_"
)

// ResultActions are the actions save-results accepts.
var ResultActions = []string{"discover", "segment", "contacts", "append", "match"}

// Query is a saved query. Domains and PersonaIDs are in the order they
// were first seen, without duplicates.
type Query struct {
	ID     string
	OrgID  string
	UserID string
	// UserName is the owner's email (set by the store when reading).
	UserName string
	Name     string
	Action   string
	Tags     []string
	// Params are the original request parameters (a JSON object), or nil.
	Params     json.RawMessage
	Domains    []string
	PersonaIDs []int64
	// Counts are kept beside the lists so listings need not read them.
	DomainCount    int
	PersonaIDCount int
	RowCount       int
	// Rows are save-results' data rows (a JSON array, extra columns kept
	// as sent); nil for exclusion lists.
	Rows      json.RawMessage
	CreatedAt time.Time
	UpdatedAt time.Time
}

// ListFilter selects saved queries of an organization.
type ListFilter struct {
	// Actions keeps queries of these actions only (none for all).
	Actions []string
	// Tags keeps queries having any of these (stored form); empty for all.
	Tags []string
	// Limit and Offset page the result, newest first.
	Limit, Offset int
	// DomainLimit caps the domains returned per query (DomainCount stays
	// the true total).
	DomainLimit int
}

// Update changes a saved query's name and/or tags; nil leaves a field.
type Update struct {
	Name *string
	Tags *[]string
}

// Store is the state the saved queries need. store/sqlite and
// store/postgres implement it; store/storetest holds both to one suite.
type Store interface {
	// CreateSavedQuery stores q (CreatedAt and UpdatedAt are assigned,
	// and its ID when empty: a caller may name a query with an id of its
	// own, store.ErrConflict when that id is taken) and returns it as
	// stored. store.ErrNotFound when the organization or user does not
	// exist.
	CreateSavedQuery(ctx context.Context, q Query) (Query, error)
	// SavedQuery returns an organization's saved query with its domains
	// and persona ids (not its rows); saved.ErrNotFound for an unknown id
	// or another organization's.
	SavedQuery(ctx context.Context, orgID, id string) (Query, error)
	// SavedQueryInfo is SavedQuery without the lists and tags: a small
	// read that tells whether the query exists for the organization.
	SavedQueryInfo(ctx context.Context, orgID, id string) (Query, error)
	// ListSavedQueries returns an organization's saved queries that have
	// at least one domain, newest first, with their domains (up to
	// f.DomainLimit), and how many match f in all.
	ListSavedQueries(ctx context.Context, orgID string, f ListFilter) ([]Query, int, error)
	// UpdateSavedQuery applies u to a query of the organization, owned by
	// userID unless userID is "" (an admin); saved.ErrNotFound otherwise.
	UpdateSavedQuery(ctx context.Context, orgID, userID, id string, u Update) (Query, error)
	// DeleteSavedQuery deletes a query of the organization, owned by
	// userID unless userID is "" (an admin); saved.ErrNotFound otherwise.
	DeleteSavedQuery(ctx context.Context, orgID, userID, id string) error
}

// Caller is who acts on saved queries.
type Caller struct {
	OrgID, UserID string
	// Admin may rename and delete every query of the organization.
	Admin bool
}

// owner is the userID condition of updates and deletes.
func (c Caller) owner() string {
	if c.Admin {
		return ""
	}
	return c.UserID
}

// validName trims a query name and checks its length (1-255 characters).
func validName(field, name string) (string, error) {
	name = strings.TrimSpace(name)
	n := len([]rune(name))
	if n < 1 || n > MaxNameLen {
		return "", invalid(field, "must be 1-%d characters, got %d", MaxNameLen, n)
	}
	return name, nil
}
