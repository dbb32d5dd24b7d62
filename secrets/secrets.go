// Package secrets seals secrets for storage (integration API keys, CRM
// tokens, webhook signing secrets): AES-256-GCM with
// a random nonce per value, under a 32-byte key that comes from
// configuration or from a key file the service generates with 0600
// permissions. Sealed values carry the key's id, so keys can be rotated:
// a Box opens values sealed under any of its keys and seals with the
// primary one (see docs/decisions.md, "Research and integrations").
package secrets

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ErrUnknownKey: the value was sealed under a key this Box does not hold.
var ErrUnknownKey = errors.New("sealed with an unknown key")

// Mask is what a secret looks like in every response.
const Mask = "*****"

// Box seals and opens secrets.
type Box struct {
	primary string
	aeads   map[string]cipher.AEAD
}

// KeyID is a short fingerprint naming a key in sealed values.
func KeyID(key []byte) string {
	sum := sha256.Sum256(key)
	return hex.EncodeToString(sum[:4])
}

// New returns a Box sealing with primary and opening values sealed under
// primary or any of old (keys being rotated out). Keys are 32 bytes.
func New(primary []byte, old ...[]byte) (*Box, error) {
	b := &Box{aeads: map[string]cipher.AEAD{}}
	for i, k := range append([][]byte{primary}, old...) {
		if len(k) != 32 {
			return nil, fmt.Errorf("secrets: key %d is %d bytes, want 32", i, len(k))
		}
		block, err := aes.NewCipher(k)
		if err != nil {
			return nil, fmt.Errorf("secrets: %w", err)
		}
		aead, err := cipher.NewGCM(block)
		if err != nil {
			return nil, fmt.Errorf("secrets: %w", err)
		}
		id := KeyID(k)
		if i == 0 {
			b.primary = id
		}
		b.aeads[id] = aead
	}
	return b, nil
}

// ParseKey decodes a key given in configuration: 64 hex digits or
// standard base64 of 32 bytes.
func ParseKey(s string) ([]byte, error) {
	s = strings.TrimSpace(s)
	if k, err := hex.DecodeString(s); err == nil && len(k) == 32 {
		return k, nil
	}
	if k, err := base64.StdEncoding.DecodeString(s); err == nil && len(k) == 32 {
		return k, nil
	}
	return nil, errors.New("secrets: key must be 32 bytes as 64 hex digits or base64")
}

// LoadOrCreateKeyFile reads the key in path, or creates the file with a
// fresh random key (mode 0600, directory 0700) when it does not exist. A
// key file readable by group or others is refused.
func LoadOrCreateKeyFile(path string) ([]byte, error) {
	if fi, err := os.Stat(path); err == nil {
		if fi.Mode().Perm()&0o077 != 0 {
			return nil, fmt.Errorf("secrets: key file %s has mode %v: want 0600", path, fi.Mode().Perm())
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("secrets: read key file: %w", err)
		}
		return ParseKey(string(b))
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("secrets: key file: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("secrets: key dir: %w", err)
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("secrets: generate key: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("secrets: create key file: %w", err)
	}
	if _, err := f.WriteString(hex.EncodeToString(key) + "\n"); err != nil {
		f.Close()
		return nil, fmt.Errorf("secrets: write key file: %w", err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("secrets: write key file: %w", err)
	}
	return key, nil
}

// Seal encrypts plain; the result is "v1:<key id>:<base64 nonce|ciphertext>".
// aad binds the value to its row (the integration id), so a sealed key
// copied to another row does not open.
func (b *Box) Seal(plain, aad string) (string, error) {
	aead := b.aeads[b.primary]
	nonce := make([]byte, aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("secrets: nonce: %w", err)
	}
	out := aead.Seal(nonce, nonce, []byte(plain), []byte(aad))
	return "v1:" + b.primary + ":" + base64.RawStdEncoding.EncodeToString(out), nil
}

// Open decrypts a value made by Seal with the same aad.
func (b *Box) Open(sealed, aad string) (string, error) {
	parts := strings.SplitN(sealed, ":", 3)
	if len(parts) != 3 || parts[0] != "v1" {
		return "", errors.New("secrets: not a sealed value")
	}
	aead, ok := b.aeads[parts[1]]
	if !ok {
		return "", fmt.Errorf("secrets: key %s: %w", parts[1], ErrUnknownKey)
	}
	raw, err := base64.RawStdEncoding.DecodeString(parts[2])
	if err != nil || len(raw) < aead.NonceSize() {
		return "", errors.New("secrets: corrupt sealed value")
	}
	plain, err := aead.Open(nil, raw[:aead.NonceSize()], raw[aead.NonceSize():], []byte(aad))
	if err != nil {
		return "", errors.New("secrets: sealed value does not open (tampered, or bound to another row)")
	}
	return string(plain), nil
}

// IsSealed reports whether s has the form Seal gives (a value stored
// before sealing, such as a "whsec_" webhook secret, does not).
func IsSealed(s string) bool { return strings.HasPrefix(s, "v1:") }

// NeedsRotation reports whether sealed was made under a key other than the
// primary one (re-seal it to finish a rotation).
func (b *Box) NeedsRotation(sealed string) bool {
	parts := strings.SplitN(sealed, ":", 3)
	return len(parts) != 3 || parts[1] != b.primary
}
