// Package crmfake is a loopback CRM the tests run against: one server per
// provider speaking HubSpot's, Pipedrive's or Salesforce's wire format —
// the OAuth 2.0 authorize redirect and token endpoint (code exchange and
// refresh, revoked tokens refused in the provider's shape) and the object
// listings the snapshots read, with their real paging (HubSpot CRM v3
// `after` cursors, Pipedrive start/limit with more_items_in_collection,
// Salesforce SOQL query with nextRecordsUrl), errors (HubSpot 401
// categories, Salesforce INVALID_SESSION_ID) and rate limits (HubSpot 429
// with its policy headers, Pipedrive 429 with x-ratelimit headers,
// Salesforce REQUEST_LIMIT_EXCEEDED).
package crmfake

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Providers.
const (
	HubSpot    = "hubspot"
	Pipedrive  = "pipedrive"
	Salesforce = "salesforce"
)

// Client credentials the fake accepts.
const (
	ClientID     = "fake-client-id"
	ClientSecret = "fake-client-secret"
)

// Server is one provider's fake.
type Server struct {
	Provider string
	*httptest.Server

	mu        sync.Mutex
	companies []string          // websites
	contacts  []string          // emails
	codes     map[string]string // code -> redirect_uri
	access    map[string]time.Time
	refresh   map[string]bool

	// AccessTTL is the expires_in of issued access tokens (0: none, as
	// Salesforce); set before use.
	AccessTTL time.Duration
	// RateLimitEvery answers every Nth listing request with the
	// provider's 429 (0: never); RetryAfterSeconds is what it announces.
	RateLimitEvery    int
	RetryAfterSeconds int
	// DailyCapAfter refuses listing requests after this many with the
	// provider's daily-cap answer (0: never) until ResetDaily.
	DailyCapAfter int
	// PageDelay slows every listing request.
	PageDelay time.Duration
	// RotateRefresh issues a new refresh token on each refresh (Pipedrive
	// does; HubSpot and Salesforce keep the one issued with the code).
	RotateRefresh bool

	listings, rateLimited, refreshes, exchanges, revocations int
	failNext                                                 int
}

// FailNext answers the next n listing requests with a 503 (an outage).
func (s *Server) FailNext(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failNext = n
}

// New starts a provider's fake on a loopback port; Close it.
func New(provider string) *Server {
	s := &Server{Provider: provider, codes: map[string]string{}, access: map[string]time.Time{}, refresh: map[string]bool{},
		RetryAfterSeconds: 1}
	switch provider {
	case HubSpot:
		s.AccessTTL = 30 * time.Minute
	case Pipedrive:
		s.AccessTTL = time.Hour
		s.RotateRefresh = true
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /authorize", s.authorize)
	switch provider {
	case HubSpot:
		mux.HandleFunc("POST /oauth/2026-03/token", s.token)
		mux.HandleFunc("POST /oauth/2026-03/token/revoke", s.revoke)
		mux.HandleFunc("GET /crm/v3/objects/{object}", s.hubspotList)
	case Pipedrive:
		mux.HandleFunc("POST /oauth/token", s.token)
		mux.HandleFunc("POST /oauth/revoke", s.revoke)
		mux.HandleFunc("GET /api/v1/{object}", s.pipedriveList)
	case Salesforce:
		mux.HandleFunc("POST /services/oauth2/token", s.token)
		mux.HandleFunc("POST /services/oauth2/revoke", s.revoke)
		mux.HandleFunc("GET /services/data/{version}/query", s.salesforceQuery)
		mux.HandleFunc("GET /services/data/{version}/query/{locator}", s.salesforceQuery)
	default:
		panic("crmfake: unknown provider " + provider)
	}
	s.Server = httptest.NewUnstartedServer(mux)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(fmt.Sprintf("crmfake: listen: %v", err))
	}
	s.Server.Listener = l
	s.Server.Start()
	return s
}

// AuthURL, TokenURL and APIBase are the addresses to configure.
func (s *Server) AuthURL() string { return s.URL + "/authorize" }

// TokenURL is the token endpoint.
func (s *Server) TokenURL() string {
	switch s.Provider {
	case HubSpot:
		return s.URL + "/oauth/2026-03/token"
	case Pipedrive:
		return s.URL + "/oauth/token"
	}
	return s.URL + "/services/oauth2/token"
}

// APIBase is the API address (also announced by the token answer for
// Salesforce and Pipedrive).
func (s *Server) APIBase() string { return s.URL }

// SetCompanies replaces the companies' websites.
func (s *Server) SetCompanies(websites []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.companies = append([]string(nil), websites...)
}

// SetContacts replaces the contacts' emails.
func (s *Server) SetContacts(emails []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.contacts = append([]string(nil), emails...)
}

// ExpireAccess makes every issued access token invalid (a session timeout
// or an expiry the client did not see coming); refresh tokens still work.
func (s *Server) ExpireAccess() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.access = map[string]time.Time{}
}

// Revoke makes every access and refresh token invalid (the user removed
// the app in the CRM).
func (s *Server) Revoke() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.access = map[string]time.Time{}
	s.refresh = map[string]bool{}
}

// ResetDaily lifts the daily cap.
func (s *Server) ResetDaily() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.listings = 0
}

// Stats are counters of what the fake served.
type Stats struct {
	Listings, RateLimited, Refreshes, Exchanges int
	// Revocations counts the refresh tokens revoked by the client.
	Revocations int
}

// Stats returns the counters.
func (s *Server) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return Stats{Listings: s.listings, RateLimited: s.rateLimited, Refreshes: s.refreshes, Exchanges: s.exchanges, Revocations: s.revocations}
}

// Tokens returns every live access and refresh token (tests scan
// responses and logs for them).
func (s *Server) Tokens() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for t := range s.access {
		out = append(out, t)
	}
	for t := range s.refresh {
		out = append(out, t)
	}
	return out
}

func random(prefix string) string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}

// authorize plays the consenting user: it redirects back at once with a
// code.
func (s *Server) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	redirect := q.Get("redirect_uri")
	if q.Get("client_id") != ClientID || redirect == "" || q.Get("response_type") != "code" {
		http.Error(w, "bad authorize request", http.StatusBadRequest)
		return
	}
	code := random("code_")
	s.mu.Lock()
	s.codes[code] = redirect
	s.mu.Unlock()
	u, err := url.Parse(redirect)
	if err != nil {
		http.Error(w, "bad redirect_uri", http.StatusBadRequest)
		return
	}
	v := u.Query()
	v.Set("code", code)
	v.Set("state", q.Get("state"))
	u.RawQuery = v.Encode()
	http.Redirect(w, r, u.String(), http.StatusFound)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// tokenError answers a refused grant in the provider's shape.
func (s *Server) tokenError(w http.ResponseWriter, msg string) {
	switch s.Provider {
	case HubSpot:
		writeJSON(w, http.StatusBadRequest, map[string]string{"status": "BAD_REFRESH_TOKEN", "message": msg, "correlationId": random("")})
	default:
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant", "error_description": msg})
	}
}

func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, "bad form", http.StatusBadRequest)
		return
	}
	id, secret, basic := r.BasicAuth()
	if !basic {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	if id != ClientID || secret != ClientSecret {
		writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_client", "error_description": "unknown client"})
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var refresh string
	switch r.PostForm.Get("grant_type") {
	case "authorization_code":
		code := r.PostForm.Get("code")
		redirect, ok := s.codes[code]
		delete(s.codes, code)
		if !ok || redirect != r.PostForm.Get("redirect_uri") {
			s.tokenError(w, "authorization code unknown, used, or issued for another redirect_uri")
			return
		}
		refresh = random(s.Provider + "_rt_")
		s.refresh[refresh] = true
		s.exchanges++
	case "refresh_token":
		refresh = r.PostForm.Get("refresh_token")
		if !s.refresh[refresh] {
			s.tokenError(w, "refresh token is invalid, expired or revoked")
			return
		}
		if s.RotateRefresh {
			delete(s.refresh, refresh)
			refresh = random(s.Provider + "_rt_")
			s.refresh[refresh] = true
		}
		s.refreshes++
	default:
		s.tokenError(w, "unsupported grant_type")
		return
	}
	access := random(s.Provider + "_at_")
	exp := time.Time{}
	if s.AccessTTL > 0 {
		exp = time.Now().Add(s.AccessTTL)
	}
	s.access[access] = exp
	out := map[string]any{"access_token": access, "refresh_token": refresh, "token_type": "bearer"}
	if s.AccessTTL > 0 {
		out["expires_in"] = int(s.AccessTTL.Seconds())
	}
	switch s.Provider {
	case Salesforce:
		out["instance_url"] = s.URL
		out["id"] = s.URL + "/id/00Dxx0000001gPLEAY/005xx000001SwiUAAS"
		out["issued_at"] = strconv.FormatInt(time.Now().UnixMilli(), 10)
		out["signature"] = random("")
		out["scope"] = "api refresh_token"
	case Pipedrive:
		out["api_domain"] = s.URL
		out["scope"] = "base,contacts:read"
	}
	writeJSON(w, http.StatusOK, out)
}

// revoke is the token revocation endpoint: HubSpot takes the client's
// credentials in the form, Pipedrive in HTTP Basic, Salesforce none.
// Revoking a refresh token ends it; as at HubSpot, access tokens already
// issued stay valid until they expire. An unknown token is a success
// (RFC 7009, section 2.2) except at Salesforce, which answers 400.
func (s *Server) revoke(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, "bad form", http.StatusBadRequest)
		return
	}
	switch s.Provider {
	case HubSpot:
		if r.PostForm.Get("client_id") != ClientID || r.PostForm.Get("client_secret") != ClientSecret {
			writeJSON(w, http.StatusBadRequest, map[string]string{"status": "error", "message": "client_id or client_secret invalid", "category": "VALIDATION_ERROR"})
			return
		}
	case Pipedrive:
		if id, secret, ok := r.BasicAuth(); !ok || id != ClientID || secret != ClientSecret {
			writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_client"})
			return
		}
	}
	token := r.PostForm.Get("token")
	s.mu.Lock()
	known := s.refresh[token]
	delete(s.refresh, token)
	if known {
		s.revocations++
	}
	s.mu.Unlock()
	switch {
	case !known && s.Provider == Salesforce:
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "unsupported_token_type", "error_description": "this token type is not supported"})
	case s.Provider == HubSpot:
		w.WriteHeader(http.StatusNoContent)
	default:
		w.WriteHeader(http.StatusOK)
	}
}

// gate checks the bearer token and the rate limits of a listing request;
// it answers and returns false when refused.
func (s *Server) gate(w http.ResponseWriter, r *http.Request) bool {
	if s.PageDelay > 0 {
		time.Sleep(s.PageDelay)
	}
	tok := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	s.mu.Lock()
	if s.failNext > 0 {
		s.failNext--
		s.mu.Unlock()
		http.Error(w, "upstream unavailable", http.StatusServiceUnavailable)
		return false
	}
	exp, ok := s.access[tok]
	valid := ok && (exp.IsZero() || time.Now().Before(exp))
	var limited, daily bool
	if valid {
		s.listings++
		daily = s.DailyCapAfter > 0 && s.listings > s.DailyCapAfter
		limited = !daily && s.RateLimitEvery > 0 && s.listings%s.RateLimitEvery == 0
		if limited || daily {
			s.rateLimited++
		}
	}
	retry := s.RetryAfterSeconds
	s.mu.Unlock()
	switch {
	case !valid:
		s.unauthorized(w)
		return false
	case daily:
		s.dailyCap(w)
		return false
	case limited:
		s.rateLimit(w, retry)
		return false
	}
	return true
}

func (s *Server) unauthorized(w http.ResponseWriter) {
	switch s.Provider {
	case HubSpot:
		writeJSON(w, http.StatusUnauthorized, map[string]string{"status": "error", "category": "EXPIRED_AUTHENTICATION",
			"message": "The OAuth token used to make this call expired", "correlationId": random("")})
	case Pipedrive:
		writeJSON(w, http.StatusUnauthorized, map[string]any{"success": false, "error": "unauthorized access", "errorCode": 401})
	case Salesforce:
		w.Header().Set("WWW-Authenticate", `Token`)
		writeJSON(w, http.StatusUnauthorized, []map[string]string{{"message": "Session expired or invalid", "errorCode": "INVALID_SESSION_ID"}})
	}
}

func (s *Server) rateLimit(w http.ResponseWriter, retry int) {
	switch s.Provider {
	case HubSpot:
		h := w.Header()
		h.Set("X-HubSpot-RateLimit-Max", "100")
		h.Set("X-HubSpot-RateLimit-Remaining", "0")
		h.Set("X-HubSpot-RateLimit-Interval-Milliseconds", strconv.Itoa(retry*1000))
		h.Set("X-HubSpot-RateLimit-Daily", "250000")
		h.Set("X-HubSpot-RateLimit-Daily-Remaining", "200000")
		writeJSON(w, http.StatusTooManyRequests, map[string]string{"status": "error", "message": "You have reached your ten_secondly_rolling limit.",
			"errorType": "RATE_LIMIT", "correlationId": random(""), "policyName": "TEN_SECONDLY_ROLLING"})
	case Pipedrive:
		h := w.Header()
		h.Set("X-RateLimit-Limit", "80")
		h.Set("X-RateLimit-Remaining", "0")
		h.Set("X-RateLimit-Reset", strconv.Itoa(retry))
		h.Set("Retry-After", strconv.Itoa(retry))
		writeJSON(w, http.StatusTooManyRequests, map[string]any{"success": false, "error": "Request over limit", "errorCode": 429})
	case Salesforce:
		w.Header().Set("Retry-After", strconv.Itoa(retry))
		writeJSON(w, http.StatusTooManyRequests, []map[string]string{{"message": "Too many requests", "errorCode": "REQUEST_LIMIT_EXCEEDED_CONCURRENT"}})
	}
}

func (s *Server) dailyCap(w http.ResponseWriter) {
	switch s.Provider {
	case HubSpot:
		w.Header().Set("X-HubSpot-RateLimit-Daily", "250000")
		w.Header().Set("X-HubSpot-RateLimit-Daily-Remaining", "0")
		writeJSON(w, http.StatusTooManyRequests, map[string]string{"status": "error", "message": "You have reached your daily limit.",
			"errorType": "RATE_LIMIT", "correlationId": random(""), "policyName": "DAILY"})
	case Pipedrive:
		w.Header().Set("X-Daily-Requests-Left", "0")
		w.Header().Set("Retry-After", "1")
		writeJSON(w, http.StatusTooManyRequests, map[string]any{"success": false, "error": "Daily request limit reached", "errorCode": 429})
	case Salesforce:
		writeJSON(w, http.StatusForbidden, []map[string]string{{"message": "TotalRequests Limit exceeded.", "errorCode": "REQUEST_LIMIT_EXCEEDED"}})
	}
}

func (s *Server) list(object string) ([]string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch object {
	case "companies", "organizations", "Account":
		return s.companies, true
	case "contacts", "persons", "Contact":
		return s.contacts, true
	}
	return nil, false
}

func (s *Server) hubspotList(w http.ResponseWriter, r *http.Request) {
	if !s.gate(w, r) {
		return
	}
	object := r.PathValue("object")
	items, ok := s.list(object)
	if !ok {
		writeJSON(w, http.StatusNotFound, map[string]string{"status": "error", "message": "Unable to infer object type from: " + object, "category": "OBJECT_NOT_FOUND"})
		return
	}
	q := r.URL.Query()
	limit, err := strconv.Atoi(q.Get("limit"))
	if err != nil || limit < 1 || limit > 100 {
		limit = 10 // HubSpot's default page
	}
	start := 0
	if a := q.Get("after"); a != "" {
		if start, err = strconv.Atoi(a); err != nil || start < 0 {
			writeJSON(w, http.StatusBadRequest, map[string]string{"status": "error", "message": "Invalid input: after", "category": "VALIDATION_ERROR"})
			return
		}
	}
	end := min(start+limit, len(items))
	results := []map[string]any{}
	for i := start; i < end; i++ {
		props := map[string]any{"hs_object_id": strconv.Itoa(i + 1)}
		if object == "companies" {
			props["website"] = items[i]
			props["domain"] = nil
		} else {
			props["email"] = items[i]
		}
		results = append(results, map[string]any{"id": strconv.Itoa(i + 1), "properties": props, "archived": false,
			"createdAt": "2024-01-02T03:04:05.000Z", "updatedAt": "2024-01-02T03:04:05.000Z"})
	}
	out := map[string]any{"results": results}
	if end < len(items) {
		next := strconv.Itoa(end)
		out["paging"] = map[string]any{"next": map[string]string{"after": next,
			"link": s.URL + "/crm/v3/objects/" + object + "?after=" + next}}
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) pipedriveList(w http.ResponseWriter, r *http.Request) {
	if !s.gate(w, r) {
		return
	}
	object := r.PathValue("object")
	items, ok := s.list(object)
	if !ok {
		writeJSON(w, http.StatusNotFound, map[string]any{"success": false, "error": "Unknown method .", "errorCode": 404})
		return
	}
	q := r.URL.Query()
	start, _ := strconv.Atoi(q.Get("start"))
	limit, err := strconv.Atoi(q.Get("limit"))
	if err != nil || limit < 1 || limit > 500 {
		limit = 100
	}
	start = max(start, 0)
	end := min(start+limit, len(items))
	data := []map[string]any{}
	for i := start; i < end; i++ {
		row := map[string]any{"id": i + 1, "name": fmt.Sprintf("record %d", i+1)}
		if object == "organizations" {
			row["website"] = items[i]
		} else {
			row["email"] = []map[string]any{{"label": "work", "value": items[i], "primary": true}}
		}
		data = append(data, row)
	}
	pg := map[string]any{"start": start, "limit": limit, "more_items_in_collection": end < len(items)}
	if end < len(items) {
		pg["next_start"] = end
	}
	var body any = data
	if len(data) == 0 {
		body = nil // Pipedrive answers data: null for an empty page
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "data": body, "additional_data": map[string]any{"pagination": pg}})
}

// salesforceQuery serves the first batch of a SOQL query and the batches
// its nextRecordsUrl points at.
func (s *Server) salesforceQuery(w http.ResponseWriter, r *http.Request) {
	if !s.gate(w, r) {
		return
	}
	version := r.PathValue("version")
	object, start := "", 0
	if loc := r.PathValue("locator"); loc != "" {
		// A locator names the object and the offset: <object>-<offset>.
		obj, off, ok := strings.Cut(loc, "-")
		n, err := strconv.Atoi(off)
		if !ok || err != nil || n < 0 {
			writeJSON(w, http.StatusBadRequest, []map[string]string{{"message": "invalid query locator", "errorCode": "INVALID_QUERY_LOCATOR"}})
			return
		}
		object, start = obj, n
	} else {
		soql := r.URL.Query().Get("q")
		_, after, ok := strings.Cut(strings.ToUpper(soql), " FROM ")
		if !ok {
			writeJSON(w, http.StatusBadRequest, []map[string]string{{"message": "unexpected token", "errorCode": "MALFORMED_QUERY"}})
			return
		}
		switch strings.Fields(after)[0] {
		case "ACCOUNT":
			object = "Account"
		case "CONTACT":
			object = "Contact"
		}
	}
	items, ok := s.list(object)
	if !ok {
		writeJSON(w, http.StatusBadRequest, []map[string]string{{"message": "sObject type is not supported", "errorCode": "INVALID_TYPE"}})
		return
	}
	batch := 2000
	if v := r.Header.Get("Sforce-Query-Options"); strings.HasPrefix(v, "batchSize=") {
		if n, err := strconv.Atoi(strings.TrimPrefix(v, "batchSize=")); err == nil {
			batch = min(max(n, 200), 2000)
		}
	}
	end := min(start+batch, len(items))
	records := []map[string]any{}
	for i := start; i < end; i++ {
		id := fmt.Sprintf("001xx%010d", i)
		rec := map[string]any{"attributes": map[string]string{"type": object, "url": "/services/data/" + version + "/sobjects/" + object + "/" + id}, "Id": id}
		if object == "Account" {
			rec["Website"] = items[i]
		} else {
			rec["Email"] = items[i]
		}
		records = append(records, rec)
	}
	out := map[string]any{"totalSize": len(items), "done": end >= len(items), "records": records}
	if end < len(items) {
		out["nextRecordsUrl"] = fmt.Sprintf("/services/data/%s/query/%s-%d", version, object, end)
	}
	writeJSON(w, http.StatusOK, out)
}
