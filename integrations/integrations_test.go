package integrations_test

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/openprospect/prospectd/integrations"
	"github.com/openprospect/prospectd/providers/llm"
	"github.com/openprospect/prospectd/providers/llm/llmfake"
	"github.com/openprospect/prospectd/secrets"
	"github.com/openprospect/prospectd/store"
	"github.com/openprospect/prospectd/store/sqlite"
)

const key = "sk-rotate-0123456789abcdef"

// Rotating the sealing key: a service holding the new key and the old one
// still uses integrations sealed under the old key, and re-seals a row
// under the new key when it is saved.
func TestKeyRotation(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	org, _ := st.CreateOrg(ctx, "acme", store.PlanStarter)
	fake := llmfake.Start(key)
	defer fake.Close()
	k1, k2 := bytes.Repeat([]byte{1}, 32), bytes.Repeat([]byte{2}, 32)
	oldBox, _ := secrets.New(k1)
	svc := &integrations.Service{Store: st, Box: oldBox, AllowPrivate: true}
	k := key
	in, err := svc.CreateLLM(ctx, org.ID, integrations.LLMFields{Name: "main", Provider: llm.OpenAI, Model: "gpt-4o-mini", BaseURL: fake.URL + "/v1/", APIKey: &k})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains([]byte(in.SealedKey), []byte(key)) {
		t.Fatal("key stored in the clear")
	}

	rotated, _ := secrets.New(k2, k1)
	svc2 := &integrations.Service{Store: st, Box: rotated, AllowPrivate: true}
	c, got, err := svc2.LLM(ctx, org.ID, "", 0)
	if err != nil || got.ID != in.ID {
		t.Fatalf("default via the rotated box: %v", err)
	}
	if _, err := c.Complete(ctx, llm.Request{Prompt: "x"}); err != nil {
		t.Fatalf("call with the old-sealed key: %v", err)
	}
	if !rotated.NeedsRotation(got.SealedKey) {
		t.Fatal("old value not flagged")
	}
	// Saving (rename, key kept) re-seals under the new key.
	up, err := svc2.UpdateLLM(ctx, org.ID, in.ID, integrations.LLMFields{Name: "renamed", Provider: llm.OpenAI, Model: "gpt-4o-mini", BaseURL: fake.URL + "/v1/"})
	if err != nil || rotated.NeedsRotation(up.SealedKey) {
		t.Fatalf("update: %v (still old key: %v)", err, rotated.NeedsRotation(up.SealedKey))
	}
	newOnly, _ := secrets.New(k2)
	svc3 := &integrations.Service{Store: st, Box: newOnly, AllowPrivate: true}
	if _, _, err := svc3.LLM(ctx, org.ID, in.ID, 0); err != nil {
		t.Fatalf("after dropping the old key: %v", err)
	}

	// No integration of a kind and no default: ErrNoIntegration.
	if _, _, err := svc3.Search(ctx, org.ID, ""); !errors.Is(err, integrations.ErrNoIntegration) {
		t.Fatalf("no search integration: %v", err)
	}
}
