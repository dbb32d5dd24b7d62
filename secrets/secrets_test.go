package secrets

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSealOpenRotate(t *testing.T) {
	k1, k2 := bytes.Repeat([]byte{1}, 32), bytes.Repeat([]byte{2}, 32)
	old, err := New(k1)
	if err != nil {
		t.Fatal(err)
	}
	sealed, err := old.Seal("sk-live-123", "row-1")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(sealed, "sk-live") {
		t.Fatal("plaintext visible in sealed value")
	}
	if got, err := old.Open(sealed, "row-1"); err != nil || got != "sk-live-123" {
		t.Fatalf("Open = %q, %v", got, err)
	}
	if _, err := old.Open(sealed, "row-2"); err == nil {
		t.Fatal("opened under another row's aad")
	}
	rotated, _ := New(k2, k1)
	if !rotated.NeedsRotation(sealed) {
		t.Fatal("old value not flagged for rotation")
	}
	if got, err := rotated.Open(sealed, "row-1"); err != nil || got != "sk-live-123" {
		t.Fatalf("rotated Open = %q, %v", got, err)
	}
	resealed, _ := rotated.Seal("sk-live-123", "row-1")
	only2, _ := New(k2)
	if _, err := only2.Open(sealed, "row-1"); !errors.Is(err, ErrUnknownKey) {
		t.Fatalf("old key dropped: %v", err)
	}
	if got, err := only2.Open(resealed, "row-1"); err != nil || got != "sk-live-123" {
		t.Fatalf("resealed: %q %v", got, err)
	}
	if _, err := New([]byte("short")); err == nil {
		t.Fatal("short key accepted")
	}
}

func TestKeyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys", "secrets.key")
	k, err := LoadOrCreateKeyFile(path)
	if err != nil || len(k) != 32 {
		t.Fatalf("create: %v", err)
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", fi.Mode().Perm())
	}
	again, err := LoadOrCreateKeyFile(path)
	if err != nil || !bytes.Equal(k, again) {
		t.Fatalf("reload: %v", err)
	}
	os.Chmod(path, 0o644)
	if _, err := LoadOrCreateKeyFile(path); err == nil {
		t.Fatal("world-readable key file accepted")
	}
	if _, err := ParseKey(strings.Repeat("ab", 32)); err != nil {
		t.Fatal(err)
	}
	if _, err := ParseKey("nope"); err == nil {
		t.Fatal("bad key accepted")
	}
}
