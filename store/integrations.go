package store

import (
	"context"
	"time"
)

// Integration kinds.
const (
	IntegrationLLM    = "llm"
	IntegrationSearch = "search"
)

// Integration is an organization's LLM or search provider integration.
// The API key is stored sealed (see package secrets); the store never
// sees it in the clear.
type Integration struct {
	ID, OrgID string
	Kind      string // IntegrationLLM or IntegrationSearch
	Name      string
	Provider  string
	// Model is the LLM model name, or the search model (<provider>/search).
	Model     string
	BaseURL   string // "" for the vendor's endpoint
	SealedKey string
	// SupportsWebSearch and ModelDeprecated are LLM facts found when the
	// integration was last tested; CostPerQuery is the search price (USD).
	SupportsWebSearch bool
	ModelDeprecated   bool
	CostPerQuery      float64
	IsDefault         bool
	CreatedAt         time.Time
	UpdatedAt         time.Time
}

// IntegrationStore keeps integrations. At most one integration of a kind
// is an organization's default; the first one created becomes it.
type IntegrationStore interface {
	// CreateIntegration stores in (its ID chosen by the caller, since the
	// sealed key is bound to it) and returns it as stored.
	CreateIntegration(ctx context.Context, in Integration) (Integration, error)
	// GetIntegration returns one; ErrNotFound for an unknown id, another
	// kind or another organization's.
	GetIntegration(ctx context.Context, orgID, kind, id string) (Integration, error)
	// ListIntegrations returns an organization's integrations of a kind,
	// oldest first.
	ListIntegrations(ctx context.Context, orgID, kind string) ([]Integration, error)
	// UpdateIntegration replaces the name, provider, model, base URL,
	// sealed key and the tested facts of an existing integration.
	UpdateIntegration(ctx context.Context, in Integration) (Integration, error)
	// DeleteIntegration removes one (the default too, leaving none).
	DeleteIntegration(ctx context.Context, orgID, kind, id string) error
	// SetDefaultIntegration makes id the default of its kind.
	SetDefaultIntegration(ctx context.Context, orgID, kind, id string) error
	// ClearDefaultIntegration leaves the kind with no default; ErrConflict
	// when id is not the current default.
	ClearDefaultIntegration(ctx context.Context, orgID, kind, id string) error
	// DefaultIntegration returns the default of a kind; ErrNotFound when
	// there is none.
	DefaultIntegration(ctx context.Context, orgID, kind string) (Integration, error)
}

// ResearchRecordStore keeps the per-record results of research tasks as
// they finish, so a task resumed after a crash does not pay for the same
// record twice.
type ResearchRecordStore interface {
	// PutResearchRecord stores (or replaces) the result of one record.
	PutResearchRecord(ctx context.Context, taskID, key string, value []byte) error
	// ResearchRecords returns a task's stored results by record key.
	ResearchRecords(ctx context.Context, taskID string) (map[string][]byte, error)
}
