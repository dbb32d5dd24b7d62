// Package store owns the service's state outside the search index:
// organizations, users and API keys (and, as the service grows, tasks,
// the credit ledger and saved queries). Store is the one interface; the
// SQLite (default, one machine) and PostgreSQL (scaled out) implementations
// live in sub-packages and both run store/storetest.
package store

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"
)

// Sentinel errors.
var (
	ErrNotFound     = errors.New("not found")
	ErrConflict     = errors.New("already exists")
	ErrUnauthorized = errors.New("unknown or revoked API key")
)

// Plan is an organization's subscription tier.
type Plan string

// Plans, lowest first.
const (
	PlanNone    Plan = "none"
	PlanStarter Plan = "starter"
	PlanTeam    Plan = "team"
)

// ParsePlan validates a plan name (case-insensitive).
func ParsePlan(s string) (Plan, error) {
	switch p := Plan(strings.ToLower(strings.TrimSpace(s))); p {
	case PlanNone, PlanStarter, PlanTeam:
		return p, nil
	}
	return "", fmt.Errorf("unknown plan %q: want none, starter or team", s)
}

// Role is a user's role in an organization.
type Role string

// Roles.
const (
	RoleAdmin  Role = "admin"
	RoleMember Role = "member"
)

// Org is an organization (account).
type Org struct {
	ID        string
	Name      string
	Plan      Plan
	CreatedAt time.Time
}

// User belongs to one organization.
type User struct {
	ID, OrgID, Email string
	Role             Role
	CreatedAt        time.Time
}

// APIKey is a key's stored metadata; the secret itself is never stored.
type APIKey struct {
	ID, OrgID, UserID string
	Prefix            string // first characters of the secret, for display
	CreatedAt         time.Time
	LastUsedAt        *time.Time
	RevokedAt         *time.Time
}

// Principal is an authenticated caller.
type Principal struct {
	Org   Org
	User  User
	KeyID string
}

// The store's roles: each consumer takes the ones it uses (account.Biller
// the Ledger, account.Signups the Signups, the task runner Tasks and
// TaskLeases, the API Keys to authenticate); Store is their composition,
// which each driver implements.

// Orgs are the organizations (accounts).
type Orgs interface {
	CreateOrg(ctx context.Context, name string, plan Plan) (Org, error)
	OrgByName(ctx context.Context, name string) (Org, error)
	OrgByID(ctx context.Context, orgID string) (Org, error)
	SetOrgPlan(ctx context.Context, orgID string, plan Plan) error
}

// Users are the people of organizations.
type Users interface {
	CreateUser(ctx context.Context, orgID, email string, role Role) (User, error)
	UserByEmail(ctx context.Context, email string) (User, error)
}

// Keys are the users' API keys.
type Keys interface {
	// CreateAPIKey issues a key for the user; the secret is returned once.
	CreateAPIKey(ctx context.Context, userID string) (secret string, key APIKey, err error)
	// Authenticate resolves a secret to its caller, ErrUnauthorized for an
	// unknown, malformed or revoked key.
	Authenticate(ctx context.Context, secret string) (Principal, error)
	RevokeAPIKey(ctx context.Context, keyID string) error
	ListAPIKeys(ctx context.Context, orgID string) ([]APIKey, error)
}

// Ledger is the credit ledger.
type Ledger interface {
	// Bill debits an organization for a response's records, atomically:
	// concurrent calls for one organization never overspend its quota
	// and never bill a record twice within NoRebillWindow.
	Bill(ctx context.Context, req BillRequest) (BillResult, error)
	// Usage sums an organization's ledger over [from, to).
	Usage(ctx context.Context, orgID string, from, to time.Time) (Usage, error)
}

// Signups are pending and confirmed signups.
type Signups interface {
	// SaveSignup records a pending signup, or replaces the pending one of
	// the same email (a new token). ErrConflict when a user with that
	// email exists or the signup was confirmed.
	SaveSignup(ctx context.Context, s Signup, tokenHash string) error
	// ConfirmSignup confirms the pending signup whose token hashes to
	// tokenHash and is younger than maxAge, and creates its organization
	// (plan none, named after the email) and admin user. ErrNotFound for an
	// unknown, used or expired token.
	ConfirmSignup(ctx context.Context, tokenHash string, maxAge time.Duration) (User, error)
}

// Tasks are an organization's view of its tasks: submit, read, cancel.
type Tasks interface {
	// CreateTask records a new task, in_progress, for the organization.
	CreateTask(ctx context.Context, orgID, kind string, input []byte) (Task, error)
	// GetTask returns an organization's task; ErrNotFound for an unknown
	// id or another organization's task.
	GetTask(ctx context.Context, orgID, id string) (Task, error)
	// CancelTask asks for an organization's task to stop: an in_progress
	// task a worker has claimed becomes cancelling (the worker finishes it
	// as cancelled), one never claimed is cancelled at once. Cancelling a
	// cancelling or cancelled task is a no-op; a completed or failed one is
	// ErrConflict; another organization's is ErrNotFound.
	CancelTask(ctx context.Context, orgID, id string) error
}

// TaskLeases are the workers' view of tasks: claim, renew, report, finish.
type TaskLeases interface {
	// ClaimTask atomically takes the oldest unfinished task (in_progress,
	// or cancelling so the worker can finish it as cancelled) of one of
	// kinds whose lease is free or expired, leases it to worker until now
	// plus lease and counts the attempt. ok is false when there is none.
	ClaimTask(ctx context.Context, worker string, kinds []string, lease time.Duration) (t Task, ok bool, err error)
	// ExtendLease renews the worker's lease to now plus lease and returns
	// the task (its Status tells the worker about a cancel request).
	// ErrNotFound for an unknown task, ErrConflict when the worker no
	// longer holds it or it is finished.
	ExtendLease(ctx context.Context, id, worker string, lease time.Duration) (Task, error)
	// UpdateProgress records the progress (clamped to 0-100) of a task
	// the worker holds; errors as ExtendLease.
	UpdateProgress(ctx context.Context, id, worker string, progress int) error
	// CompleteTask finishes a task the worker holds as completed with its
	// JSON result and progress 100. A task finishes once: completing or
	// failing it again, or by a worker whose lease was taken over, is
	// ErrConflict.
	CompleteTask(ctx context.Context, id, worker string, result []byte) error
	// FailTask finishes a task the worker holds as failed with msg, or as
	// cancelled when it was being cancelled; errors as CompleteTask.
	FailTask(ctx context.Context, id, worker, msg string) error
}

// Checker reports whether the store can serve.
type Checker interface {
	Health(ctx context.Context) error
}

// Accounts are organizations, their users and the users' keys: what the
// operator's key commands manage.
type Accounts interface {
	Orgs
	Users
	Keys
}

// Store is the state store: every role, as each driver implements it
// (`var _ store.Store = (*Store)(nil)` in store/sqlite and store/postgres).
type Store interface {
	Orgs
	Users
	Keys
	Ledger
	Signups
	Tasks
	TaskLeases
	EmailStore
	IntegrationStore
	ResearchRecordStore
	Logins
	OAuth
	Refreshes
	Checker
	Close() error
}

// KeyPrefix starts every secret, so leaked keys are recognizable.
const KeyPrefix = "pk_live_"

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// NewSecret returns a fresh API key secret: KeyPrefix and 32 random bytes
// in base62.
func NewSecret() (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("generate key: %w", err)
	}
	n := new(big.Int).SetBytes(b[:])
	var out []byte
	base := big.NewInt(62)
	mod := new(big.Int)
	for i := 0; i < 43; i++ {
		n.DivMod(n, base, mod)
		out = append(out, base62[mod.Int64()])
	}
	return KeyPrefix + string(out), nil
}

// HashSecret is the stored form of a secret. A fast hash is right here:
// secrets carry 256 random bits, so there is nothing to brute-force, and the
// lookup runs on every request.
func HashSecret(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// DisplayPrefix is the part of a secret kept for display.
func DisplayPrefix(secret string) string {
	if len(secret) > len(KeyPrefix)+6 {
		return secret[:len(KeyPrefix)+6]
	}
	return secret
}

// LastUsedEvery bounds last-used writes to one per key per interval, so
// authentication is not a write per request.
const LastUsedEvery = time.Minute
