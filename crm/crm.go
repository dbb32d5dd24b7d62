// Package crm holds CRM connections and suppression snapshots: the OAuth
// 2.0 authorization-code flow with HubSpot, Pipedrive and Salesforce
// (golang.org/x/oauth2), the provider clients that page through their
// companies and contacts, the connection rules (tokens sealed at rest,
// refreshed before expiry, status active / needs_reauth) and the snapshot
// task body that turns a CRM into a saved exclusion list.
//
// Store is the role interface the state stores implement (store/sqlite and
// store/postgres, migration 009; one suite in store/storetest). The
// loopback fake of the three providers the tests run against is
// crm/crmfake.
package crm

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/openprospect/prospectd/saved"
)

// Providers, as they appear in paths.
const (
	HubSpot    = "hubspot"
	Pipedrive  = "pipedrive"
	Salesforce = "salesforce"
)

// ProviderNames lists the providers in a stable order.
var ProviderNames = []string{HubSpot, Pipedrive, Salesforce}

// Connection statuses.
const (
	StatusActive      = "active"
	StatusNeedsReauth = "needs_reauth"
)

// Snapshot kinds.
const (
	KindCompanies = "companies"
	KindContacts  = "contacts"
)

// Sentinel errors callers branch on.
var (
	// ErrUnknownProvider: not hubspot, pipedrive or salesforce (404).
	ErrUnknownProvider = errors.New("unknown CRM provider")
	// ErrNotConfigured: a known provider the operator has not configured
	// (no client id) (503).
	ErrNotConfigured = errors.New("CRM provider not configured on this server")
	// ErrNoConnection: the organization has no connection to the provider
	// (404).
	ErrNoConnection = errors.New("no CRM connection for the provider")
	// ErrBadState: an unknown, used or expired OAuth state token (400).
	ErrBadState = errors.New("unknown, used or expired state")
	// ErrNeedsReauth: the provider refused the stored token or its
	// refresh; the connection is marked needs_reauth (409).
	ErrNeedsReauth = errors.New("the CRM refused the stored token: reconnect")
	// ErrProvider: the provider answered something unexpected (502).
	ErrProvider = errors.New("CRM provider error")
)

// Connection is an organization's connection to one provider. Tokens are
// sealed (package secrets); the store never sees them in clear.
type Connection struct {
	OrgID, Provider string
	// UserID is who connected.
	UserID string
	Status string
	// StatusReason says why a connection needs reauthorization (never a
	// token).
	StatusReason  string
	SealedAccess  string
	SealedRefresh string
	// Expiry of the access token; zero when the provider does not say
	// (Salesforce: valid until the session times out).
	Expiry time.Time
	// APIBase is the per-connection API address the provider's token
	// answer named (Salesforce instance_url, Pipedrive api_domain); "" for
	// the configured base.
	APIBase string
	// CompaniesQueryID and ContactsQueryID are the saved exclusion lists of
	// the last whole snapshots ("" for none).
	CompaniesQueryID, ContactsQueryID string
	ConnectedAt, UpdatedAt            time.Time
}

// State is a pending authorization: the single-use state token's hash and
// whom it belongs to.
type State struct {
	Hash, OrgID, UserID, Provider string
	ExpiresAt                     time.Time
}

// Checkpoint is a snapshot's progress as stored after each page.
type Checkpoint struct {
	// Cursor is where the next page starts ("" for the first page).
	Cursor string
	Pages  int
	// Items counts the distinct items stored so far.
	Items int
	// Done is set when the last page was stored.
	Done bool
}

// Store keeps connections, pending authorizations and snapshot progress.
type Store interface {
	// CreateCRMState records a pending authorization.
	CreateCRMState(ctx context.Context, s State) error
	// TakeCRMState returns and deletes the pending authorization whose
	// state hashes to hash, if it has not expired at now; ErrBadState
	// otherwise (unknown, already taken or expired), so it works once.
	TakeCRMState(ctx context.Context, hash string, now time.Time) (State, error)
	// PutCRMConnection creates or replaces the tokens, user, status and
	// API base of an organization's connection to a provider, keeping its
	// snapshot lists; connected_at is set to c.ConnectedAt.
	PutCRMConnection(ctx context.Context, c Connection) error
	// CRMConnection returns one; ErrNoConnection when there is none.
	CRMConnection(ctx context.Context, orgID, provider string) (Connection, error)
	// ListCRMConnections returns an organization's connections by provider.
	ListCRMConnections(ctx context.Context, orgID string) ([]Connection, error)
	// UpdateCRMTokens stores refreshed tokens and marks the connection
	// active; ErrNoConnection when it was deleted meanwhile.
	UpdateCRMTokens(ctx context.Context, orgID, provider, sealedAccess, sealedRefresh string, expiry time.Time) error
	// SetCRMStatus sets the status and its reason; ErrNoConnection when
	// there is no connection.
	SetCRMStatus(ctx context.Context, orgID, provider, status, reason string) error
	// DeleteCRMConnection removes a connection; ErrNoConnection when there
	// is none. Its saved exclusion lists stay (they are saved queries).
	DeleteCRMConnection(ctx context.Context, orgID, provider string) error

	// CRMCheckpoint returns a snapshot task's progress (zero for none).
	CRMCheckpoint(ctx context.Context, taskID string) (Checkpoint, error)
	// SaveCRMPage stores a page's items (duplicates ignored) and the next
	// cursor in one transaction.
	SaveCRMPage(ctx context.Context, taskID, cursor string, done bool, items []string) error
	// ResetCRMCheckpoint forgets a task's progress and items (a cursor
	// that can no longer be resumed).
	ResetCRMCheckpoint(ctx context.Context, taskID string) error
	// CRMItems returns a task's distinct items in the order stored.
	CRMItems(ctx context.Context, taskID string) ([]string, error)
	// FinishCRMSnapshot, in one transaction: creates q (a saved query,
	// as saved.Store.CreateSavedQuery does), points the connection's list
	// of kind (of q.OrgID's connection to provider) at it, deletes the list it replaces and the task's progress.
	// ErrNoConnection (and nothing saved) when the connection was deleted.
	FinishCRMSnapshot(ctx context.Context, taskID, provider, kind string, q saved.Query) (saved.Query, error)
}

// QueryIDOf returns a connection's list of kind.
func (c Connection) QueryIDOf(kind string) string {
	if kind == KindContacts {
		return c.ContactsQueryID
	}
	return c.CompaniesQueryID
}

// ValidKind checks a snapshot kind ("" is companies).
func ValidKind(kind string) (string, error) {
	switch kind {
	case "", KindCompanies:
		return KindCompanies, nil
	case KindContacts:
		return KindContacts, nil
	}
	return "", fmt.Errorf("kind: must be companies or contacts, got %q", kind)
}
