package crm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"golang.org/x/oauth2"
)

// ProviderConfig is how this server reaches one provider: its OAuth
// application and addresses. Empty addresses take the provider's public
// ones (DefaultProviderConfig); tests and sandboxes point them elsewhere.
type ProviderConfig struct {
	ClientID, ClientSecret string
	AuthURL, TokenURL      string
	// APIBase is the API's address when the token answer names none
	// (Salesforce's instance_url and Pipedrive's api_domain win).
	APIBase string
	Scopes  []string
}

// DefaultProviderConfig returns a provider's public endpoints and the
// read scopes a snapshot needs.
func DefaultProviderConfig(provider string) ProviderConfig {
	switch provider {
	case HubSpot:
		return ProviderConfig{AuthURL: "https://app.hubspot.com/oauth/authorize", TokenURL: "https://api.hubapi.com/oauth/2026-03/token",
			APIBase: "https://api.hubapi.com", Scopes: []string{"oauth", "crm.objects.companies.read", "crm.objects.contacts.read"}}
	case Pipedrive:
		// Pipedrive's scopes are chosen on the app in its marketplace
		// manager; the authorize request carries none.
		return ProviderConfig{AuthURL: "https://oauth.pipedrive.com/oauth/authorize", TokenURL: "https://oauth.pipedrive.com/oauth/token",
			APIBase: "https://api.pipedrive.com"}
	case Salesforce:
		return ProviderConfig{AuthURL: "https://login.salesforce.com/services/oauth2/authorize", TokenURL: "https://login.salesforce.com/services/oauth2/token",
			Scopes: []string{"api", "refresh_token"}}
	}
	return ProviderConfig{}
}

// withDefaults fills the empty addresses of c with the provider's.
func (c ProviderConfig) withDefaults(provider string) ProviderConfig {
	d := DefaultProviderConfig(provider)
	if c.AuthURL == "" {
		c.AuthURL = d.AuthURL
	}
	if c.TokenURL == "" {
		c.TokenURL = d.TokenURL
	}
	if c.APIBase == "" {
		c.APIBase = d.APIBase
	}
	if c.Scopes == nil {
		c.Scopes = d.Scopes
	}
	return c
}

// revokeURL is the provider's token revocation endpoint (RFC 7009 style),
// beside its token endpoint so that a sandbox's token URL brings its own:
// HubSpot's is the token URL + "/revoke" (/oauth/2026-03/token/revoke),
// Pipedrive's /oauth/revoke and Salesforce's /services/oauth2/revoke.
func (c ProviderConfig) revokeURL(provider string) string {
	if provider == HubSpot {
		return c.TokenURL + "/revoke"
	}
	return strings.TrimSuffix(c.TokenURL, "/token") + "/revoke"
}

// oauthConfig is the provider's OAuth 2.0 configuration for redirect.
func (c ProviderConfig) oauthConfig(provider, redirect string) *oauth2.Config {
	style := oauth2.AuthStyleInParams
	if provider == Pipedrive {
		style = oauth2.AuthStyleInHeader // Pipedrive asks for HTTP Basic
	}
	return &oauth2.Config{ClientID: c.ClientID, ClientSecret: c.ClientSecret, RedirectURL: redirect, Scopes: c.Scopes,
		Endpoint: oauth2.Endpoint{AuthURL: c.AuthURL, TokenURL: c.TokenURL, AuthStyle: style}}
}

// RateLimitError is a provider's refusal for rate: wait RetryAfter and
// try again. Daily is set for a daily (or rolling 24-hour) cap.
type RateLimitError struct {
	Provider   string
	RetryAfter time.Duration
	Daily      bool
	Detail     string
}

func (e *RateLimitError) Error() string {
	cap := "rate limit"
	if e.Daily {
		cap = "daily API cap"
	}
	return fmt.Sprintf("%s %s reached (%s); retry in %s", e.Provider, cap, e.Detail, e.RetryAfter)
}

// authError is a 401 from an API call: the access token is expired,
// invalid or revoked.
type authError struct {
	provider, code string
}

func (e *authError) Error() string {
	return fmt.Sprintf("%s refused the access token (%s)", e.provider, e.code)
}

// errCursorExpired: the provider no longer knows a stored cursor
// (Salesforce query locators expire); the snapshot starts over.
var errCursorExpired = errors.New("the CRM's paging cursor expired")

// page is one page of a CRM listing: raw websites (companies) or email
// addresses (contacts), and where the next page starts.
type page struct {
	items []string
	next  string
	done  bool
}

// pageSize is what a snapshot asks for per request: every provider's
// maximum or more (HubSpot 100, Pipedrive 500, Salesforce 2,000).
const pageSize = 100

// salesforceVersion is the REST API version called.
const salesforceVersion = "v59.0"

// fetchPage reads one page of kind from provider at base with hc (which
// carries the access token).
func fetchPage(ctx context.Context, hc *http.Client, provider, base, kind, cursor string, limit int) (page, error) {
	base = strings.TrimRight(base, "/")
	switch provider {
	case HubSpot:
		return hubspotPage(ctx, hc, base, kind, cursor, limit)
	case Pipedrive:
		return pipedrivePage(ctx, hc, base, kind, cursor, limit)
	case Salesforce:
		return salesforcePage(ctx, hc, base, kind, cursor, limit)
	}
	return page{}, fmt.Errorf("%w: %q", ErrUnknownProvider, provider)
}

// getJSON GETs u and decodes a 200 answer into out; other answers become
// the provider's typed errors.
func getJSON(ctx context.Context, hc *http.Client, provider, u string, header http.Header, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return fmt.Errorf("%s request: %w", provider, err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	req.Header.Set("Accept", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return fmt.Errorf("%s request: %w", provider, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 32<<20))
	if err != nil {
		return fmt.Errorf("%s read answer: %w", provider, err)
	}
	if resp.StatusCode != http.StatusOK {
		return classify(provider, resp, body)
	}
	if err := json.Unmarshal(body, out); err != nil {
		return fmt.Errorf("%w: %s answer is not the expected JSON: %v", ErrProvider, provider, err)
	}
	return nil
}

// classify turns a provider's non-200 answer into a typed error. Provider
// messages are cut short and never carry tokens (the providers do not
// echo them).
func classify(provider string, resp *http.Response, body []byte) error {
	h := resp.Header
	retry := retryAfter(h.Get("Retry-After"))
	switch provider {
	case HubSpot:
		var e struct {
			Message, Category, ErrorType, PolicyName string
		}
		_ = json.Unmarshal(body, &e)
		switch resp.StatusCode {
		case http.StatusTooManyRequests:
			daily := e.PolicyName == "DAILY" || h.Get("X-HubSpot-RateLimit-Daily-Remaining") == "0"
			if retry == 0 {
				if ms, err := strconv.Atoi(h.Get("X-HubSpot-RateLimit-Interval-Milliseconds")); err == nil && ms > 0 && !daily {
					retry = time.Duration(ms) * time.Millisecond
				}
			}
			return &RateLimitError{Provider: provider, RetryAfter: orDefault(retry, daily), Daily: daily, Detail: "policy " + strings.ToLower(orText(e.PolicyName, "unknown"))}
		case http.StatusUnauthorized:
			return &authError{provider: provider, code: orText(e.Category, "INVALID_AUTHENTICATION")}
		}
		return fmt.Errorf("%w: %s answered %d %s", ErrProvider, provider, resp.StatusCode, short(e.Message))
	case Pipedrive:
		var e struct {
			Error     string `json:"error"`
			ErrorCode int    `json:"errorCode"`
		}
		_ = json.Unmarshal(body, &e)
		switch resp.StatusCode {
		case http.StatusTooManyRequests:
			daily := h.Get("X-Daily-Requests-Left") == "0"
			if retry == 0 {
				if s, err := strconv.Atoi(h.Get("X-RateLimit-Reset")); err == nil && s > 0 {
					retry = time.Duration(s) * time.Second
				}
			}
			return &RateLimitError{Provider: provider, RetryAfter: orDefault(retry, daily), Daily: daily, Detail: short(e.Error)}
		case http.StatusUnauthorized:
			return &authError{provider: provider, code: orText(short(e.Error), "unauthorized")}
		}
		return fmt.Errorf("%w: %s answered %d %s", ErrProvider, provider, resp.StatusCode, short(e.Error))
	case Salesforce:
		var es []struct{ Message, ErrorCode string }
		_ = json.Unmarshal(body, &es)
		var e struct{ Message, ErrorCode string }
		if len(es) > 0 {
			e = es[0]
		}
		switch {
		case resp.StatusCode == http.StatusUnauthorized:
			return &authError{provider: provider, code: orText(e.ErrorCode, "INVALID_SESSION_ID")}
		case e.ErrorCode == "REQUEST_LIMIT_EXCEEDED":
			// The org's rolling 24-hour API allowance.
			return &RateLimitError{Provider: provider, RetryAfter: orDefault(retry, true), Daily: true, Detail: short(e.Message)}
		case resp.StatusCode == http.StatusTooManyRequests:
			return &RateLimitError{Provider: provider, RetryAfter: orDefault(retry, false), Detail: short(e.Message)}
		case e.ErrorCode == "INVALID_QUERY_LOCATOR":
			return errCursorExpired
		}
		return fmt.Errorf("%w: %s answered %d %s %s", ErrProvider, provider, resp.StatusCode, e.ErrorCode, short(e.Message))
	}
	return fmt.Errorf("%w: %s answered %d", ErrProvider, provider, resp.StatusCode)
}

// Waits when a provider says nothing: a short one for a burst limit, an
// hour for a daily cap (the snapshot keeps its place meanwhile).
const (
	DefaultBurstWait = 10 * time.Second
	DefaultDailyWait = time.Hour
)

func orDefault(d time.Duration, daily bool) time.Duration {
	switch {
	case d > 0:
		return d
	case daily:
		return DefaultDailyWait
	}
	return DefaultBurstWait
}

// retryAfter reads a Retry-After header: delay seconds or an HTTP date.
func retryAfter(v string) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		// A day at most: a longer (or infinite) value would overflow.
		return time.Duration(min(s, 86400) * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := time.Until(t); d > 0 {
			return d
		}
	}
	return 0
}

func orText(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func short(s string) string {
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > 200 {
		return string(r[:200]) + "…"
	}
	return s
}

func hubspotPage(ctx context.Context, hc *http.Client, base, kind, cursor string, limit int) (page, error) {
	object, prop := "companies", "domain,website"
	if kind == KindContacts {
		object, prop = "contacts", "email"
	}
	q := url.Values{"limit": {strconv.Itoa(min(limit, 100))}, "properties": {prop}, "archived": {"false"}}
	if cursor != "" {
		q.Set("after", cursor)
	}
	var out struct {
		Results []struct {
			ID         string            `json:"id"`
			Properties map[string]string `json:"properties"`
		} `json:"results"`
		Paging *struct {
			Next *struct {
				After string `json:"after"`
			} `json:"next"`
		} `json:"paging"`
	}
	if err := getJSON(ctx, hc, HubSpot, base+"/crm/v3/objects/"+object+"?"+q.Encode(), nil, &out); err != nil {
		return page{}, err
	}
	var p page
	for _, r := range out.Results {
		if kind == KindContacts {
			p.items = appendNonEmpty(p.items, r.Properties["email"])
			continue
		}
		// The domain property is HubSpot's own normalization of the
		// website; either one names the company.
		if d := r.Properties["domain"]; d != "" {
			p.items = append(p.items, d)
		} else {
			p.items = appendNonEmpty(p.items, r.Properties["website"])
		}
	}
	if out.Paging != nil && out.Paging.Next != nil && out.Paging.Next.After != "" {
		p.next = out.Paging.Next.After
	} else {
		p.done = true
	}
	return p, nil
}

func pipedrivePage(ctx context.Context, hc *http.Client, base, kind, cursor string, limit int) (page, error) {
	object := "organizations"
	if kind == KindContacts {
		object = "persons"
	}
	start := 0
	if cursor != "" {
		n, err := strconv.Atoi(cursor)
		if err != nil || n < 0 {
			return page{}, errCursorExpired
		}
		start = n
	}
	q := url.Values{"start": {strconv.Itoa(start)}, "limit": {strconv.Itoa(limit)}}
	var out struct {
		Success bool `json:"success"`
		Data    []struct {
			Website string `json:"website"`
			Email   []struct {
				Value   string `json:"value"`
				Primary bool   `json:"primary"`
			} `json:"email"`
		} `json:"data"`
		AdditionalData struct {
			Pagination struct {
				MoreItems bool `json:"more_items_in_collection"`
				NextStart int  `json:"next_start"`
			} `json:"pagination"`
		} `json:"additional_data"`
	}
	if err := getJSON(ctx, hc, Pipedrive, base+"/api/v1/"+object+"?"+q.Encode(), nil, &out); err != nil {
		return page{}, err
	}
	var p page
	for _, r := range out.Data {
		if kind == KindContacts {
			for _, e := range r.Email {
				p.items = appendNonEmpty(p.items, e.Value)
			}
			continue
		}
		p.items = appendNonEmpty(p.items, r.Website)
	}
	if pg := out.AdditionalData.Pagination; pg.MoreItems {
		p.next = strconv.Itoa(pg.NextStart)
	} else {
		p.done = true
	}
	return p, nil
}

func salesforcePage(ctx context.Context, hc *http.Client, base, kind, cursor string, limit int) (page, error) {
	u := base + cursor
	if cursor == "" {
		soql := "SELECT Id, Website FROM Account WHERE Website != null"
		if kind == KindContacts {
			soql = "SELECT Id, Email FROM Contact WHERE Email != null"
		}
		u = base + "/services/data/" + salesforceVersion + "/query?q=" + url.QueryEscape(soql)
	} else if !strings.HasPrefix(cursor, "/services/data/") {
		return page{}, errCursorExpired
	}
	var out struct {
		Done           bool   `json:"done"`
		NextRecordsURL string `json:"nextRecordsUrl"`
		Records        []struct {
			Website string `json:"Website"`
			Email   string `json:"Email"`
		} `json:"records"`
	}
	h := http.Header{"Sforce-Query-Options": {"batchSize=" + strconv.Itoa(max(limit, 200))}}
	if err := getJSON(ctx, hc, Salesforce, u, h, &out); err != nil {
		return page{}, err
	}
	var p page
	for _, r := range out.Records {
		if kind == KindContacts {
			p.items = appendNonEmpty(p.items, r.Email)
		} else {
			p.items = appendNonEmpty(p.items, r.Website)
		}
	}
	if out.Done || out.NextRecordsURL == "" {
		p.done = true
	} else {
		p.next = out.NextRecordsURL
	}
	return p, nil
}

func appendNonEmpty(items []string, v string) []string {
	if v = strings.TrimSpace(v); v != "" {
		items = append(items, v)
	}
	return items
}
