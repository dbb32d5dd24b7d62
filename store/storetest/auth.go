package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/openprospect/prospectd/store"
)

func testLogins(t *testing.T, s store.Store) {
	ctx := context.Background()
	o, _ := s.CreateOrg(ctx, "login-org", store.PlanStarter)
	u, err := s.CreateUser(ctx, o.ID, "pat@login.test", store.RoleAdmin)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.UserByID(ctx, u.ID)
	if err != nil || got.Email != u.Email || got.OrgID != o.ID || got.Role != store.RoleAdmin {
		t.Fatalf("UserByID: %+v %v", got, err)
	}
	if _, err := s.UserByID(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown user: %v", err)
	}
	if _, err := s.PasswordHash(ctx, u.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("no password yet: %v", err)
	}
	for _, h := range []string{"$argon2id$one", "$argon2id$two"} {
		if err := s.SetPassword(ctx, u.ID, h); err != nil {
			t.Fatal(err)
		}
		if got, err := s.PasswordHash(ctx, u.ID); err != nil || got != h {
			t.Errorf("PasswordHash %q %v, want %q", got, err, h)
		}
	}
	if err := s.SetPassword(ctx, "nope", "x"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("password of unknown user: %v", err)
	}

	now := time.Now().UTC().Truncate(time.Microsecond)
	ws := store.WebSession{IDHash: store.HashSecret("cookie"), UserID: u.ID, CSRF: "csrf", CreatedAt: now, ExpiresAt: now.Add(time.Hour)}
	if err := s.CreateWebSession(ctx, ws); err != nil {
		t.Fatal(err)
	}
	got2, err := s.WebSession(ctx, ws.IDHash, now)
	if err != nil || got2.UserID != u.ID || got2.CSRF != "csrf" || !got2.ExpiresAt.Equal(ws.ExpiresAt) {
		t.Errorf("WebSession: %+v %v", got2, err)
	}
	if _, err := s.WebSession(ctx, ws.IDHash, now.Add(2*time.Hour)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("expired session: %v", err)
	}
	if err := s.DeleteUserWebSessions(ctx, u.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.WebSession(ctx, ws.IDHash, now); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("session after DeleteUserWebSessions: %v", err)
	}
	ws.IDHash = store.HashSecret("cookie2")
	_ = s.CreateWebSession(ctx, ws)
	if err := s.DeleteWebSession(ctx, ws.IDHash); err != nil {
		t.Fatal(err)
	}
	if _, err := s.WebSession(ctx, ws.IDHash, now); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("deleted session: %v", err)
	}
}

func testOAuth(t *testing.T, s store.Store) {
	ctx := context.Background()
	o, _ := s.CreateOrg(ctx, "oauth-org", store.PlanStarter)
	u, _ := s.CreateUser(ctx, o.ID, "kim@oauth.test", store.RoleAdmin)
	now := time.Now().UTC().Truncate(time.Microsecond)
	c := store.OAuthClient{ID: "client-1", Name: "Agent", RedirectURIs: []string{"http://127.0.0.1/cb", "https://a.test/cb"},
		Scopes: []string{"offline_access"}, AuthMethod: "none", CreatedAt: now}
	if err := s.CreateOAuthClient(ctx, c); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateOAuthClient(ctx, c); !errors.Is(err, store.ErrConflict) {
		t.Errorf("duplicate client: %v", err)
	}
	got, err := s.OAuthClientByID(ctx, c.ID)
	if err != nil || got.Name != "Agent" || len(got.RedirectURIs) != 2 || got.RedirectURIs[1] != "https://a.test/cb" || got.Scopes[0] != "offline_access" || got.AuthMethod != "none" {
		t.Errorf("client: %+v %v", got, err)
	}
	if _, err := s.OAuthClientByID(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown client: %v", err)
	}

	tok := func(kind, sig, req string, exp time.Duration) store.OAuthToken {
		return store.OAuthToken{Kind: kind, Signature: sig, RequestID: req, ClientID: c.ID, UserID: u.ID, Active: true,
			Data: []byte(`{"x":1}`), ExpiresAt: now.Add(exp)}
	}
	for _, tk := range []store.OAuthToken{
		tok(store.OAuthAccess, "a1", "r1", time.Hour), tok(store.OAuthRefresh, "f1", "r1", 24*time.Hour),
		tok(store.OAuthAccess, "a2", "r2", time.Hour), tok(store.OAuthCode, "c1", "r3", -time.Hour),
	} {
		if err := s.SaveOAuthToken(ctx, tk); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SaveOAuthToken(ctx, tok(store.OAuthAccess, "a1", "r1", time.Hour)); !errors.Is(err, store.ErrConflict) {
		t.Errorf("duplicate signature: %v", err)
	}
	if err := s.SaveOAuthToken(ctx, store.OAuthToken{Kind: store.OAuthAccess, Signature: "x", RequestID: "r", ClientID: "nope", UserID: u.ID, Data: []byte("{}"), ExpiresAt: now}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("token of unknown client: %v", err)
	}
	a, err := s.OAuthTokenBySignature(ctx, store.OAuthAccess, "a1")
	if err != nil || !a.Active || a.RequestID != "r1" || string(a.Data) != `{"x":1}` || !a.ExpiresAt.Equal(now.Add(time.Hour)) {
		t.Errorf("token: %+v %v", a, err)
	}
	if _, err := s.OAuthTokenBySignature(ctx, store.OAuthRefresh, "a1"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("token of another kind: %v", err)
	}
	grants, err := s.ActiveOAuthGrants(ctx, u.ID, now)
	if err != nil || len(grants) != 2 || grants[0].ClientName != "Agent" {
		t.Errorf("grants: %+v %v", grants, err)
	}
	if err := s.DeactivateOAuthToken(ctx, store.OAuthAccess, "a2"); err != nil {
		t.Fatal(err)
	}
	if a, _ := s.OAuthTokenBySignature(ctx, store.OAuthAccess, "a2"); a.Active {
		t.Error("deactivated token still active")
	}
	if err := s.DeactivateOAuthRequest(ctx, store.OAuthRefresh, "r1"); err != nil {
		t.Fatal(err)
	}
	if f, _ := s.OAuthTokenBySignature(ctx, store.OAuthRefresh, "f1"); f.Active {
		t.Error("revoked grant's refresh token still active")
	}
	if a, _ := s.OAuthTokenBySignature(ctx, store.OAuthAccess, "a1"); !a.Active {
		t.Error("revoking refresh tokens touched the access token")
	}
	if err := s.DeleteOAuthToken(ctx, store.OAuthAccess, "a1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.OAuthTokenBySignature(ctx, store.OAuthAccess, "a1"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("deleted token: %v", err)
	}
	if err := s.PurgeOAuthTokens(ctx, now); err != nil {
		t.Fatal(err)
	}
	if _, err := s.OAuthTokenBySignature(ctx, store.OAuthCode, "c1"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("expired code after purge: %v", err)
	}
	if _, err := s.OAuthTokenBySignature(ctx, store.OAuthRefresh, "f1"); err != nil {
		t.Errorf("unexpired token purged: %v", err)
	}
}
