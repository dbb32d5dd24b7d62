// Package integrations holds an organization's LLM and search provider
// integrations: validation of the fields, a live test against the
// provider before anything is saved, sealing of the API key (package
// secrets) and building ready clients for the research pipeline. Keys
// are write-only: nothing this package returns holds one in the clear,
// except the clients it builds.
package integrations

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/openprospect/prospectd/netguard"
	"github.com/openprospect/prospectd/providers/llm"
	"github.com/openprospect/prospectd/providers/search"
	"github.com/openprospect/prospectd/secrets"
	"github.com/openprospect/prospectd/store"
)

// Sentinel errors callers branch on.
var (
	// ErrInvalid: a field breaks a rule; the message names it.
	ErrInvalid = errors.New("invalid integration")
	// ErrTestFailed: the provider refused the key, model or URL.
	ErrTestFailed = errors.New("provider test failed")
	// ErrNoIntegration: no integration given and no default set.
	ErrNoIntegration = errors.New("no integration")
)

// Service manages integrations.
type Service struct {
	Store store.IntegrationStore
	Box   *secrets.Box
	// AllowPrivate lets base_url values and provider calls reach private
	// and loopback addresses (self-hosted models); off by default.
	AllowPrivate bool
	// Lookup overrides name resolution of the guarded client (tests).
	Lookup func(ctx context.Context, host string) ([]netip.Addr, error)
	// TestTimeout bounds a test call; 20 s when 0.
	TestTimeout time.Duration
	// MaxRetries of provider calls (0: the clients' default).
	MaxRetries int

	httpOnce sync.Once
	http     *http.Client
}

// HTTP is the guarded client every provider call goes through.
func (s *Service) HTTP() *http.Client {
	s.httpOnce.Do(func() {
		s.http = netguard.NewClient(netguard.Options{AllowPrivate: s.AllowPrivate, Lookup: s.Lookup})
	})
	return s.http
}

func invalid(field, rule string) error {
	return fmt.Errorf("%s: %s: %w", field, rule, ErrInvalid)
}

func (s *Service) testTimeout() time.Duration {
	if s.TestTimeout > 0 {
		return s.TestTimeout
	}
	return 20 * time.Second
}

func (s *Service) checkBaseURL(raw string) (string, error) {
	if raw == "" {
		return "", nil
	}
	u, err := netguard.ValidateURL(raw, s.AllowPrivate)
	if err != nil {
		return "", invalid("base_url", "must be an http(s) URL with a valid public hostname and no whitespace, quotes or angle brackets ("+strings.TrimSuffix(err.Error(), ": "+netguard.ErrForbidden.Error())+")")
	}
	return u.String(), nil
}

// LLMFields are the fields of an LLM integration as a caller sends them.
// A nil APIKey on update keeps the stored key.
type LLMFields struct {
	Name, Provider, Model, BaseURL string
	APIKey                         *string
}

// LLMTest is what a successful test learned.
type LLMTest struct {
	SupportsWebSearch, ModelDeprecated bool
}

func (s *Service) checkLLM(f *LLMFields) error {
	f.Name, f.Provider, f.Model, f.BaseURL = strings.TrimSpace(f.Name), strings.ToLower(strings.TrimSpace(f.Provider)), strings.TrimSpace(f.Model), strings.TrimSpace(f.BaseURL)
	switch f.Provider {
	case llm.OpenAI, llm.Anthropic, llm.Custom:
	default:
		return invalid("provider", "must be openai, anthropic or custom")
	}
	if f.Model == "" {
		return invalid("model_name", "must not be blank")
	}
	if f.Provider == llm.Custom && f.BaseURL == "" {
		return invalid("base_url", "is required when provider is custom")
	}
	u, err := s.checkBaseURL(f.BaseURL)
	if err != nil {
		return err
	}
	f.BaseURL = u
	if f.APIKey != nil && strings.TrimSpace(*f.APIKey) == "" && f.Provider != llm.Custom {
		return invalid("api_key", "must not be blank")
	}
	return nil
}

func (s *Service) llmClient(f LLMFields, key string) (llm.Client, error) {
	return llm.New(llm.Config{Provider: f.Provider, APIKey: key, Model: f.Model, BaseURL: f.BaseURL, HTTP: s.HTTP(), MaxRetries: s.MaxRetries})
}

// TestLLM checks fields and key against the provider.
func (s *Service) TestLLM(ctx context.Context, f LLMFields) (LLMTest, error) {
	if f.APIKey == nil {
		return LLMTest{}, invalid("api_key", "is required")
	}
	if err := s.checkLLM(&f); err != nil {
		return LLMTest{}, err
	}
	return s.testLLM(ctx, f, *f.APIKey)
}

func (s *Service) testLLM(ctx context.Context, f LLMFields, key string) (LLMTest, error) {
	c, err := s.llmClient(f, key)
	if err != nil {
		return LLMTest{}, invalid("provider", err.Error())
	}
	ctx, cancel := context.WithTimeout(ctx, s.testTimeout())
	defer cancel()
	dep, err := llm.Test(ctx, c, f.Model)
	if err != nil {
		return LLMTest{}, fmt.Errorf("%w: %s", ErrTestFailed, llm.Redact(err.Error(), key))
	}
	return LLMTest{SupportsWebSearch: llm.SupportsWebSearch(f.Provider, f.Model), ModelDeprecated: dep}, nil
}

// CreateLLM tests then stores a new LLM integration.
func (s *Service) CreateLLM(ctx context.Context, orgID string, f LLMFields) (store.Integration, error) {
	if f.Name = strings.TrimSpace(f.Name); f.Name == "" {
		return store.Integration{}, invalid("integration_name", "must not be blank")
	}
	test, err := s.TestLLM(ctx, f)
	if err != nil {
		return store.Integration{}, err
	}
	_ = s.checkLLM(&f) // normalized by TestLLM's copy; normalize ours too
	in := store.Integration{ID: uuid.NewString(), OrgID: orgID, Kind: store.IntegrationLLM, Name: f.Name,
		Provider: f.Provider, Model: f.Model, BaseURL: f.BaseURL,
		SupportsWebSearch: test.SupportsWebSearch, ModelDeprecated: test.ModelDeprecated}
	if in.SealedKey, err = s.Box.Seal(*f.APIKey, in.ID); err != nil {
		return in, fmt.Errorf("seal key: %w", err)
	}
	return s.Store.CreateIntegration(ctx, in)
}

// UpdateLLM replaces an LLM integration's fields. A nil key keeps the
// stored one, except when the provider or base_url change: the stored key
// is never sent to an endpoint it was not entered for. Any change of
// provider, model, base_url or key is tested before saving.
func (s *Service) UpdateLLM(ctx context.Context, orgID, id string, f LLMFields) (store.Integration, error) {
	cur, err := s.Store.GetIntegration(ctx, orgID, store.IntegrationLLM, id)
	if err != nil {
		return cur, err
	}
	if f.Name = strings.TrimSpace(f.Name); f.Name == "" {
		return cur, invalid("integration_name", "must not be blank")
	}
	if err := s.checkLLM(&f); err != nil {
		return cur, err
	}
	endpointChanged := f.Provider != cur.Provider || f.BaseURL != cur.BaseURL
	if f.APIKey == nil && endpointChanged {
		return cur, invalid("api_key", "is required when provider or base_url change")
	}
	key := ""
	if f.APIKey != nil {
		key = *f.APIKey
	} else if key, err = s.Box.Open(cur.SealedKey, cur.ID); err != nil {
		return cur, fmt.Errorf("open stored key: %w", err)
	}
	if endpointChanged || f.Model != cur.Model || f.APIKey != nil {
		test, err := s.testLLM(ctx, f, key)
		if err != nil {
			return cur, err
		}
		cur.SupportsWebSearch, cur.ModelDeprecated = test.SupportsWebSearch, test.ModelDeprecated
	}
	cur.Name, cur.Provider, cur.Model, cur.BaseURL = f.Name, f.Provider, f.Model, f.BaseURL
	if cur.SealedKey, err = s.Box.Seal(key, cur.ID); err != nil {
		return cur, fmt.Errorf("seal key: %w", err)
	}
	return s.Store.UpdateIntegration(ctx, cur)
}

// SearchFields are the fields of a search integration as sent.
type SearchFields struct {
	Name, Provider, SearchModel, BaseURL string
	APIKey                               *string
}

func (s *Service) checkSearch(f *SearchFields) error {
	f.Name, f.Provider, f.SearchModel, f.BaseURL = strings.TrimSpace(f.Name), strings.ToLower(strings.TrimSpace(f.Provider)), strings.TrimSpace(f.SearchModel), strings.TrimSpace(f.BaseURL)
	if f.Name == "" {
		return invalid("integration_name", "must not be blank")
	}
	if f.Provider == "" {
		return invalid("provider", "must not be blank")
	}
	m, ok := search.Model(f.Provider)
	if !ok {
		return invalid("provider", "must be one of brave, serper, tavily")
	}
	if f.SearchModel == "" {
		return invalid("search_model", "must not be blank")
	}
	if f.SearchModel != m.Name {
		return invalid("search_model", fmt.Sprintf("must be %q for provider %s", m.Name, f.Provider))
	}
	u, err := s.checkBaseURL(f.BaseURL)
	if err != nil {
		return err
	}
	f.BaseURL = u
	if f.APIKey != nil && strings.TrimSpace(*f.APIKey) == "" {
		return invalid("api_key", "must not be blank")
	}
	return nil
}

func (s *Service) searchClient(provider, baseURL, key string) (search.Client, error) {
	return search.New(search.Config{Provider: provider, APIKey: key, BaseURL: baseURL, HTTP: s.HTTP(), MaxRetries: s.MaxRetries, MaxBackoff: 10 * time.Second})
}

// testQuery is the search sent to validate a search integration.
const testQuery = "openprospect connectivity test"

func (s *Service) testSearch(ctx context.Context, f SearchFields, key string) error {
	c, err := s.searchClient(f.Provider, f.BaseURL, key)
	if err != nil {
		return invalid("provider", err.Error())
	}
	ctx, cancel := context.WithTimeout(ctx, s.testTimeout())
	defer cancel()
	if _, err := c.Search(ctx, testQuery, 1); err != nil {
		return fmt.Errorf("%w: %s", ErrTestFailed, strings.ReplaceAll(err.Error(), key, secrets.Mask))
	}
	return nil
}

// CreateSearch validates with a test search, then stores.
func (s *Service) CreateSearch(ctx context.Context, orgID string, f SearchFields) (store.Integration, error) {
	if f.APIKey == nil {
		return store.Integration{}, invalid("api_key", "is required")
	}
	if err := s.checkSearch(&f); err != nil {
		return store.Integration{}, err
	}
	if err := s.testSearch(ctx, f, *f.APIKey); err != nil {
		return store.Integration{}, err
	}
	m, _ := search.Model(f.Provider)
	in := store.Integration{ID: uuid.NewString(), OrgID: orgID, Kind: store.IntegrationSearch, Name: f.Name,
		Provider: f.Provider, Model: f.SearchModel, BaseURL: f.BaseURL, CostPerQuery: m.CostPerQuery}
	var err error
	if in.SealedKey, err = s.Box.Seal(*f.APIKey, in.ID); err != nil {
		return in, fmt.Errorf("seal key: %w", err)
	}
	return s.Store.CreateIntegration(ctx, in)
}

// UpdateSearch replaces a search integration's fields; changing provider,
// search_model or base_url requires a new key and re-validates, as does a
// new key.
func (s *Service) UpdateSearch(ctx context.Context, orgID, id string, f SearchFields) (store.Integration, error) {
	cur, err := s.Store.GetIntegration(ctx, orgID, store.IntegrationSearch, id)
	if err != nil {
		return cur, err
	}
	if err := s.checkSearch(&f); err != nil {
		return cur, err
	}
	changed := f.Provider != cur.Provider || f.SearchModel != cur.Model || f.BaseURL != cur.BaseURL
	if changed && f.APIKey == nil {
		return cur, invalid("api_key", "is required when provider, search_model or base_url change")
	}
	if f.APIKey != nil {
		if err := s.testSearch(ctx, f, *f.APIKey); err != nil {
			return cur, err
		}
		if cur.SealedKey, err = s.Box.Seal(*f.APIKey, cur.ID); err != nil {
			return cur, fmt.Errorf("seal key: %w", err)
		}
	}
	m, _ := search.Model(f.Provider)
	cur.Name, cur.Provider, cur.Model, cur.BaseURL, cur.CostPerQuery = f.Name, f.Provider, f.SearchModel, f.BaseURL, m.CostPerQuery
	return s.Store.UpdateIntegration(ctx, cur)
}

// Resolve returns integration id of kind, or the default when id is "";
// ErrNoIntegration when there is none.
func (s *Service) Resolve(ctx context.Context, orgID, kind, id string) (store.Integration, error) {
	if id != "" {
		return s.Store.GetIntegration(ctx, orgID, kind, id)
	}
	in, err := s.Store.DefaultIntegration(ctx, orgID, kind)
	if errors.Is(err, store.ErrNotFound) {
		return in, fmt.Errorf("no %s integration given and no default set: %w", kind, ErrNoIntegration)
	}
	return in, err
}

// LLM returns a client of integration id (the default when "").
func (s *Service) LLM(ctx context.Context, orgID, id string, requestTimeout time.Duration) (llm.Client, store.Integration, error) {
	in, err := s.Resolve(ctx, orgID, store.IntegrationLLM, id)
	if err != nil {
		return nil, in, err
	}
	key, err := s.Box.Open(in.SealedKey, in.ID)
	if err != nil {
		return nil, in, fmt.Errorf("open key of integration %s: %w", in.ID, err)
	}
	c, err := llm.New(llm.Config{Provider: in.Provider, APIKey: key, Model: in.Model, BaseURL: in.BaseURL, HTTP: s.HTTP(),
		MaxRetries: s.MaxRetries, RequestTimeout: requestTimeout})
	return c, in, err
}

// Search returns a client of search integration id (the default when "").
func (s *Service) Search(ctx context.Context, orgID, id string) (search.Client, store.Integration, error) {
	in, err := s.Resolve(ctx, orgID, store.IntegrationSearch, id)
	if err != nil {
		return nil, in, err
	}
	key, err := s.Box.Open(in.SealedKey, in.ID)
	if err != nil {
		return nil, in, fmt.Errorf("open key of integration %s: %w", in.ID, err)
	}
	c, err := s.searchClient(in.Provider, in.BaseURL, key)
	return c, in, err
}

// LLMModels lists the models an integration's key can use.
func (s *Service) LLMModels(ctx context.Context, orgID, id string) ([]llm.Model, store.Integration, error) {
	c, in, err := s.LLM(ctx, orgID, id, 0)
	if err != nil {
		return nil, in, err
	}
	ms, err := c.Models(ctx)
	return ms, in, err
}

// MarkDeprecated records that an LLM integration's model is no longer
// offered (the provider answered "model not found" to a call).
func (s *Service) MarkDeprecated(ctx context.Context, orgID, id string) error {
	in, err := s.Store.GetIntegration(ctx, orgID, store.IntegrationLLM, id)
	if err != nil || in.ModelDeprecated {
		return err
	}
	in.ModelDeprecated = true
	_, err = s.Store.UpdateIntegration(ctx, in)
	return err
}
