package embedding_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/embedding"
	"github.com/openprospect/prospectd/index/embedding/embedfake"
)

func newRemote(t *testing.T, f *embedfake.Server, key string, dim int) *embedding.Remote {
	t.Helper()
	r, err := embedding.NewRemote(context.Background(), embedding.RemoteConfig{BaseURL: f.URL + "/v1", Model: "nomic-embed-text", Dim: dim,
		AllowPrivate: true, APIKey: key, BatchSize: 64})
	if err != nil {
		t.Fatalf("NewRemote: %v", err)
	}
	return r
}

func cos64(a []float32, b []float64) float64 {
	var d, na, nb float64
	for i := range a {
		d += float64(a[i]) * b[i]
		na += float64(a[i]) * float64(a[i])
		nb += b[i] * b[i]
	}
	return d / math.Sqrt(na*nb)
}

func TestRemoteEmbeds(t *testing.T) {
	f := embedfake.Start("sk-test-secret", 48)
	defer f.Close()
	r := newRemote(t, f, "sk-test-secret", 0)
	if r.Dim() != 48 || !strings.HasPrefix(r.ID(), "openai-compatible-nomic-embed-text-48-") {
		t.Fatalf("probed embedder: id %s dim %d", r.ID(), r.Dim())
	}
	probe := f.Calls()
	texts := make([]string, 150)
	for i := range texts {
		texts[i] = fmt.Sprintf("cloud security for banks number %d", i)
	}
	vs, err := r.EmbedTexts(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Calls() - probe; got != 3 {
		t.Fatalf("150 texts in %d requests, want 3 of at most 64", got)
	}
	for i, v := range vs {
		want, _ := embedfake.Vector(texts[i], 48)
		if len(v) != 48 || cos64(v, want) < 0.9999 {
			t.Fatalf("vector %d differs from the provider's", i)
		}
	}
	if auth := f.Authorizations(); auth[len(auth)-1] != "Bearer sk-test-secret" || !slices.Contains(f.Models(), "nomic-embed-text") {
		t.Fatalf("request: auth %q, models %v", auth[len(auth)-1], f.Models())
	}
	// Documents are embedded as labelled text.
	d := embedding.Doc{Name: "Acme", Description: "Builds rockets.", Industries: []string{"AEROSPACE"}, Keywords: []string{"rockets"}}
	if got := embedding.RemoteText(d); got != "Acme\nIndustries: AEROSPACE\nKeywords: rockets\nBuilds rockets." {
		t.Fatalf("RemoteText = %q", got)
	}
	dv, err := embedding.EmbedDocs(context.Background(), r, []embedding.Doc{d})
	if want, _ := embedfake.Vector(embedding.RemoteText(d), 48); err != nil || cos64(dv[0], want) < 0.9999 {
		t.Fatalf("EmbedDocs: %v", err)
	}
}

func TestRemoteRefusals(t *testing.T) {
	f := embedfake.Start("sk-right", 16)
	defer f.Close()
	ctx := context.Background()
	tests := []struct {
		name string
		cfg  embedding.RemoteConfig
		want error
	}{
		{"loopback without the operator's flag", embedding.RemoteConfig{BaseURL: f.URL, Model: "m", Dim: 16}, embedding.ErrInvalidOptions},
		{"no model", embedding.RemoteConfig{BaseURL: f.URL, Dim: 16, AllowPrivate: true}, embedding.ErrInvalidOptions},
		{"not http", embedding.RemoteConfig{BaseURL: "file:///etc/passwd", Model: "m", Dim: 16, AllowPrivate: true}, embedding.ErrInvalidOptions},
		{"wrong key at the probe", embedding.RemoteConfig{BaseURL: f.URL, Model: "m", AllowPrivate: true, APIKey: "sk-wrong-secret"}, embedding.ErrProvider},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := embedding.NewRemote(ctx, tc.cfg)
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if err != nil && strings.Contains(err.Error(), "secret") {
				t.Fatalf("error shows the key: %v", err)
			}
		})
	}
	r := newRemote(t, f, "sk-right", 16)
	f.Script = func(int) embedfake.Reply { return embedfake.Reply{Dim: 12} }
	if _, err := r.EmbedTexts(ctx, []string{"x"}); !errors.Is(err, embedding.ErrProvider) {
		t.Fatalf("wrong dimension: err = %v", err)
	}
	// The index's vectors never mix with a fallback: a query fails.
	if _, err := embedding.EmbedQuery(ctx, r, "x"); !errors.Is(err, embedding.ErrProvider) {
		t.Fatalf("EmbedQuery on a failing provider: err = %v", err)
	}
}

func TestRemoteRetries(t *testing.T) {
	f := embedfake.Start("", 16)
	defer f.Close()
	r := newRemote(t, f, "", 16)
	tests := []struct {
		name    string
		script  func(call int) embedfake.Reply
		calls   int64
		wantErr bool
	}{
		{"429 with Retry-After", func(call int) embedfake.Reply {
			if call == 1 {
				return embedfake.Reply{Status: 429, RetryAfter: "0"}
			}
			return embedfake.Reply{}
		}, 2, false},
		{"500 then 503", func(call int) embedfake.Reply {
			if call <= 2 {
				return embedfake.Reply{Status: 500 + 3*(call-1), RetryAfter: "0"}
			}
			return embedfake.Reply{}
		}, 3, false},
		{"429 every time", func(int) embedfake.Reply { return embedfake.Reply{Status: 429, RetryAfter: "0"} }, 5, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base := f.Calls()
			calls := 0
			f.Script = func(int) embedfake.Reply { calls++; return tc.script(calls) }
			_, err := r.EmbedTexts(context.Background(), []string{"a b"})
			if (err != nil) != tc.wantErr || f.Calls()-base != tc.calls {
				t.Fatalf("err %v after %d calls, want error %v after %d", err, f.Calls()-base, tc.wantErr, tc.calls)
			}
		})
	}
}

type metaOnly struct{ m index.Meta }

func (m metaOnly) Meta(context.Context) (index.Meta, error) { return m.m, nil }

// TestRemoteStoredWithIndex: the index keeps the model, dimension and
// URL, never the key; a process opening it reads the key from the
// environment and embeds queries with the same model.
func TestRemoteStoredWithIndex(t *testing.T) {
	f := embedfake.Start("sk-stored-secret", 32)
	defer f.Close()
	r := newRemote(t, f, "sk-stored-secret", 32)
	model, _ := r.MarshalBinary()
	if strings.Contains(string(model), "secret") {
		t.Fatalf("stored model holds the key: %s", model)
	}
	t.Setenv(embedding.RemoteKeyEnv, "sk-stored-secret")
	emb, err := embedding.Open(context.Background(), metaOnly{index.Meta{EmbedderID: r.ID(), Dimension: 32, Model: model}})
	if err != nil || emb.ID() != r.ID() {
		t.Fatalf("Open: %v", err)
	}
	v, err := embedding.EmbedQuery(context.Background(), emb, "managed cloud security")
	want, _ := embedfake.Vector("managed cloud security", 32)
	if err != nil || cos64(v, want) < 0.9999 {
		t.Fatalf("query through the stored embedder: %v", err)
	}
}

// TestRemoteQueryLatency measures the query-time embedding of an ICP
// text through the client against the loopback fake.
func TestRemoteQueryLatency(t *testing.T) {
	f := embedfake.Start("k", 768)
	defer f.Close()
	r := newRemote(t, f, "k", 768)
	ctx := context.Background()
	const n = 200
	took := make([]time.Duration, n)
	for i := range took {
		start := time.Now()
		if _, err := embedding.EmbedQuery(ctx, r, "B2B payment software for mid-size European retailers"); err != nil {
			t.Fatal(err)
		}
		took[i] = time.Since(start)
	}
	slices.Sort(took)
	t.Logf("query embedding through the client, 768 dims, loopback fake: p50 %s, p95 %s, p99 %s", took[n/2], took[n*95/100], took[n*99/100])
}
