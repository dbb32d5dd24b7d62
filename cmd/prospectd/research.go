package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/openprospect/prospectd/research"
	"github.com/openprospect/prospectd/secrets"
)

// researchFlags are the serve flags of integrations and research.
type researchFlags struct {
	keyFile      *string
	allowPrivate *bool
}

func addResearchFlags(fs *flagSet) researchFlags {
	return researchFlags{
		keyFile: fs.String("secrets-key-file", "PROSPECT_SECRETS_KEY_FILE", "",
			"file holding the key that seals integration API keys, CRM tokens and webhook signing secrets (created with mode 0600 when missing; default DATA_DIR/secrets.key). "+
				"PROSPECT_SECRETS_KEY (64 hex digits) takes precedence; PROSPECT_SECRETS_OLD_KEYS (comma-separated) opens values sealed under rotated-out keys"),
		allowPrivate: fs.Bool("allow-private-provider-urls", "PROSPECT_ALLOW_PRIVATE_PROVIDER_URLS", false,
			"let integration base_url values and homepage fetches reach loopback and private addresses (self-hosted models); off by default"),
	}
}

// config builds the research configuration. Keys are read from the
// environment, never from flags, so they do not show in --help or ps.
func (r researchFlags) config(dataDir string) (research.Config, error) {
	var primary []byte
	var err error
	if v := os.Getenv("PROSPECT_SECRETS_KEY"); v != "" {
		if primary, err = secrets.ParseKey(v); err != nil {
			return research.Config{}, fmt.Errorf("PROSPECT_SECRETS_KEY: %w", err)
		}
	} else {
		path := *r.keyFile
		if path == "" {
			path = filepath.Join(dataDir, "secrets.key")
		}
		if primary, err = secrets.LoadOrCreateKeyFile(path); err != nil {
			return research.Config{}, err
		}
	}
	var old [][]byte
	for _, v := range strings.Split(os.Getenv("PROSPECT_SECRETS_OLD_KEYS"), ",") {
		if v = strings.TrimSpace(v); v == "" {
			continue
		}
		k, err := secrets.ParseKey(v)
		if err != nil {
			return research.Config{}, fmt.Errorf("PROSPECT_SECRETS_OLD_KEYS: %w", err)
		}
		old = append(old, k)
	}
	box, err := secrets.New(primary, old...)
	if err != nil {
		return research.Config{}, err
	}
	return research.Config{Secrets: box, AllowPrivate: *r.allowPrivate}, nil
}
