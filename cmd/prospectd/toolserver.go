package main

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/openprospect/prospectd/internal/privatefs"
	"github.com/openprospect/prospectd/internal/toolwire"
)

// toolServerFlags configure the tool server, its authorization server and
// the web app.
type toolServerFlags struct {
	secret     *string
	mcpKeys    *bool
	spendCap   *int
	accessTTL  *time.Duration
	refreshTTL *time.Duration
}

func addToolServerFlags(fs *flagSet) toolServerFlags {
	return toolServerFlags{
		secret: fs.String("auth-secret", "PROSPECT_AUTH_SECRET", "", "secret (32+ characters) keying OAuth tokens and spending confirmations; the same for every process of a deployment. Empty: generated once into <data-dir>/auth-secret"),
		mcpKeys: fs.Bool("mcp-api-keys", "PROSPECT_MCP_API_KEYS", false,
			"also accept API keys as bearer tokens on the tool server (/v1/mcp); OAuth access tokens are always accepted"),
		spendCap:   fs.Int("mcp-spend-cap", "PROSPECT_MCP_SPEND_CAP", 1000, "most credits one authorization (OAuth grant or API key) may spend through the tool server in 24 hours, per process; 0 for no cap"),
		accessTTL:  fs.Duration("oauth-access-ttl", "PROSPECT_OAUTH_ACCESS_TTL", time.Hour, "lifetime of OAuth access tokens"),
		refreshTTL: fs.Duration("oauth-refresh-ttl", "PROSPECT_OAUTH_REFRESH_TTL", 30*24*time.Hour, "lifetime of OAuth refresh tokens (offline_access)"),
	}
}

// config completes the tool server's configuration from the flags.
func (f toolServerFlags) config(c toolwire.Config, dataDir string) (toolwire.Config, error) {
	secret, err := authSecret(*f.secret, dataDir)
	if err != nil {
		return c, err
	}
	c.Secret, c.MCPAPIKeys, c.SpendCap, c.AccessTTL, c.RefreshTTL = secret, *f.mcpKeys, *f.spendCap, *f.accessTTL, *f.refreshTTL
	return c, nil
}

// authSecret is the configured secret, or one generated once and kept in
// the data dir (mode 0600) for single-process deployments.
func authSecret(configured, dataDir string) ([]byte, error) {
	if configured != "" {
		if len(configured) < 32 {
			return nil, errors.New("--auth-secret: use at least 32 characters")
		}
		return []byte(configured), nil
	}
	path := filepath.Join(dataDir, "auth-secret")
	if b, err := os.ReadFile(path); err == nil {
		if s := strings.TrimSpace(string(b)); len(s) >= 32 {
			return []byte(s), nil
		}
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return nil, err
	}
	s := hex.EncodeToString(raw)
	if err := privatefs.MkdirAll(dataDir); err != nil {
		return nil, err
	}
	if err := os.WriteFile(path, []byte(s+"\n"), 0o600); err != nil {
		return nil, fmt.Errorf("save auth secret: %w", err)
	}
	return []byte(s), nil
}
