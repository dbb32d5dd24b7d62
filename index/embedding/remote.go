package embedding

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/openai/openai-go"
	"github.com/openai/openai-go/option"

	"github.com/openprospect/prospectd/netguard"
)

// ErrProvider: the embedding provider failed or answered something that
// is not a usable embedding (after the client's retries).
var ErrProvider = errors.New("embedding provider failed")

// RemoteKeyEnv is the environment variable holding the provider's API
// key. The key is never a flag (it would show in ps and --help), never
// stored with the index, and never logged.
const RemoteKeyEnv = "PROSPECT_EMBEDDINGS_API_KEY"

// remoteMagic starts the serialized form of a Remote: a JSON document of
// its RemoteConfig without the key.
const remoteMagic = "PRSPRMT1"

// RemoteConfig is an OpenAI-compatible embeddings endpoint.
type RemoteConfig struct {
	// BaseURL is the API base: the client posts to BaseURL + "/embeddings"
	// (for example http://10.0.0.5:8080/v1 for a self-hosted server).
	BaseURL string `json:"base_url"`
	// Model is the model name sent with every request.
	Model string `json:"model"`
	// Dim is the vector length. 0 asks the provider once (a probe
	// embedding) when the client is made.
	Dim int `json:"dim"`
	// SendDimensions sends Dim as the request's "dimensions" (models that
	// can shorten their vectors); off by default, since many self-hosted
	// servers refuse the parameter.
	SendDimensions bool `json:"send_dimensions,omitempty"`
	// AllowPrivate lets the client reach loopback and private addresses
	// (a self-hosted server is usually on the operator's network).
	AllowPrivate bool `json:"allow_private,omitempty"`
	// BatchSize is the inputs per request; 0 means 64.
	BatchSize int `json:"batch_size,omitempty"`
	// MaxRetries is the retries of a request answered 408, 409, 429 or 5xx
	// or not answered (exponential backoff from 0.5 s, honouring
	// Retry-After); 0 means 4.
	MaxRetries int `json:"max_retries,omitempty"`
	// Timeout bounds one request; 0 means 60 s.
	Timeout time.Duration `json:"timeout,omitempty"`

	// APIKey is sent as a bearer token; never serialized.
	APIKey string `json:"-"`
}

// Remote embeds through an OpenAI-compatible /embeddings endpoint. It is
// stored with the index like the built-in models (its model name,
// dimension and base URL; not its key), so every process embeds queries
// with the same model, and a refit can switch an index to it or from it.
// Safe for concurrent use.
type Remote struct {
	cfg      RemoteConfig
	id       string
	client   openai.Client
	encoded  []byte
	fallback []float32
}

var _ BatchEmbedder = (*Remote)(nil)

// maxRemoteInputBytes bounds the text of one input: far below the 8,192
// tokens embedding models accept, and the profile's start says most.
const maxRemoteInputBytes = 6000

var modelIDChars = regexp.MustCompile(`[^a-z0-9._-]+`)

// NewRemote checks cfg and returns its client. Connections go through
// netguard: refused to loopback and private addresses unless
// cfg.AllowPrivate.
func NewRemote(ctx context.Context, cfg RemoteConfig) (*Remote, error) {
	if cfg.Model == "" {
		return nil, fmt.Errorf("%w: embeddings model is required", ErrInvalidOptions)
	}
	if cfg.Dim < 0 || cfg.Dim > 8192 {
		return nil, fmt.Errorf("%w: embeddings dimension %d is outside 1-8192", ErrInvalidOptions, cfg.Dim)
	}
	u, err := netguard.ValidateURL(cfg.BaseURL, cfg.AllowPrivate)
	if err != nil {
		return nil, fmt.Errorf("%w: embeddings URL: %w", ErrInvalidOptions, err)
	}
	cfg.BaseURL = strings.TrimSuffix(u.String(), "/")
	if cfg.BatchSize <= 0 {
		cfg.BatchSize = 64
	}
	if cfg.MaxRetries <= 0 {
		cfg.MaxRetries = 4
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 60 * time.Second
	}
	r := &Remote{cfg: cfg}
	r.client = openai.NewClient(
		option.WithBaseURL(cfg.BaseURL+"/"),
		option.WithAPIKey(cfg.APIKey),
		option.WithHTTPClient(netguard.NewClient(netguard.Options{AllowPrivate: cfg.AllowPrivate, Timeout: cfg.Timeout})),
		option.WithMaxRetries(cfg.MaxRetries),
		option.WithRequestTimeout(cfg.Timeout),
	)
	if r.cfg.Dim == 0 {
		vs, err := r.embed(ctx, []string{"dimension probe"}, 0)
		if err != nil {
			return nil, fmt.Errorf("ask the provider for its dimension: %w", err)
		}
		r.cfg.Dim = len(vs[0])
	}
	stored := r.cfg
	stored.BatchSize, stored.MaxRetries, stored.Timeout = 0, 0, 0
	js, err := json.Marshal(stored)
	if err != nil {
		return nil, err
	}
	r.encoded = append([]byte(remoteMagic), js...)
	// The id names the vector space: the model and its dimension. The
	// URL is where it is served and may move.
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%d", r.cfg.Model, r.cfg.Dim)))
	name := modelIDChars.ReplaceAllString(strings.ToLower(r.cfg.Model), "-")
	if len(name) > 40 {
		name = name[:40]
	}
	r.id = fmt.Sprintf("openai-compatible-%s-%d-%s", name, r.cfg.Dim, hex.EncodeToString(sum[:4]))
	r.fallback = make([]float32, r.cfg.Dim)
	for i := range r.fallback {
		r.fallback[i] = float32(1 / math.Sqrt(float64(r.cfg.Dim)))
	}
	return r, nil
}

// loadRemote decodes a stored Remote; the key comes from RemoteKeyEnv.
func loadRemote(b []byte) (*Remote, error) {
	var cfg RemoteConfig
	dec := json.NewDecoder(bytes.NewReader(b[len(remoteMagic):]))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cfg); err != nil {
		return nil, fmt.Errorf("%w: remote embedder: %v", ErrCorruptModel, err)
	}
	if cfg.Dim <= 0 {
		return nil, fmt.Errorf("%w: remote embedder without a dimension", ErrCorruptModel)
	}
	cfg.APIKey = os.Getenv(RemoteKeyEnv)
	return NewRemote(context.Background(), cfg)
}

// ID implements Embedder: "openai-compatible-<model>-<dim>-<hash>".
func (r *Remote) ID() string { return r.id }

// Dim implements Embedder.
func (r *Remote) Dim() int { return r.cfg.Dim }

// Config returns the client's configuration without its key.
func (r *Remote) Config() RemoteConfig {
	c := r.cfg
	c.APIKey = ""
	return c
}

// MarshalBinary returns the bytes stored with the index: the
// configuration without the key.
func (r *Remote) MarshalBinary() ([]byte, error) { return bytes.Clone(r.encoded), nil }

// Embed implements Embedder for callers that cannot handle an error: a
// failed call embeds to the fallback direction. Loads and refits use
// EmbedDocs, which returns the error.
func (r *Remote) Embed(d Doc) []float32 {
	vs, err := r.EmbedDocs(context.Background(), []Doc{d})
	if err != nil {
		return append([]float32(nil), r.fallback...)
	}
	return vs[0]
}

// EmbedText implements Embedder; see Embed. Queries use EmbedQuery.
func (r *Remote) EmbedText(s string) []float32 {
	vs, err := r.EmbedTexts(context.Background(), []string{s})
	if err != nil {
		return append([]float32(nil), r.fallback...)
	}
	return vs[0]
}

// EmbedDocs implements BatchEmbedder.
func (r *Remote) EmbedDocs(ctx context.Context, docs []Doc) ([][]float32, error) {
	texts := make([]string, len(docs))
	for i, d := range docs {
		texts[i] = RemoteText(d)
	}
	return r.EmbedTexts(ctx, texts)
}

// EmbedTexts implements BatchEmbedder, BatchSize inputs a request.
func (r *Remote) EmbedTexts(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for lo := 0; lo < len(texts); lo += r.cfg.BatchSize {
		vs, err := r.embed(ctx, texts[lo:min(lo+r.cfg.BatchSize, len(texts))], r.cfg.Dim)
		if err != nil {
			return nil, err
		}
		out = append(out, vs...)
	}
	return out, nil
}

// embed sends one request and checks the answer: one vector per input,
// each of dim values (any length when dim is 0), finite; returned unit
// length (not every server normalizes).
func (r *Remote) embed(ctx context.Context, texts []string, dim int) ([][]float32, error) {
	in := make([]string, len(texts))
	for i, t := range texts {
		t = strings.ToValidUTF8(t, "")
		if len(t) > maxRemoteInputBytes {
			t = strings.ToValidUTF8(t[:maxRemoteInputBytes], "")
		}
		if strings.TrimSpace(t) == "" {
			t = "-" // the API refuses empty input
		}
		in[i] = t
	}
	p := openai.EmbeddingNewParams{
		Model:          r.cfg.Model,
		Input:          openai.EmbeddingNewParamsInputUnion{OfArrayOfStrings: in},
		EncodingFormat: openai.EmbeddingNewParamsEncodingFormatFloat,
	}
	if r.cfg.SendDimensions && dim > 0 {
		p.Dimensions = openai.Int(int64(dim))
	}
	resp, err := r.client.Embeddings.New(ctx, p)
	if err != nil {
		var apiErr *openai.Error
		if errors.As(err, &apiErr) {
			// The SDK's message carries the request dump; status and
			// the provider's message are enough, and hold no key.
			return nil, fmt.Errorf("%w: %s answered %d: %s", ErrProvider, r.cfg.BaseURL, apiErr.StatusCode, apiErr.Message)
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("%w: %s: %v", ErrProvider, r.cfg.BaseURL, err)
	}
	if len(resp.Data) != len(in) {
		return nil, fmt.Errorf("%w: %d embeddings for %d inputs", ErrProvider, len(resp.Data), len(in))
	}
	out := make([][]float32, len(in))
	for _, d := range resp.Data {
		i := int(d.Index)
		if i < 0 || i >= len(in) || out[i] != nil {
			return nil, fmt.Errorf("%w: embedding index %d out of range or repeated", ErrProvider, d.Index)
		}
		if len(d.Embedding) == 0 || (dim > 0 && len(d.Embedding) != dim) {
			return nil, fmt.Errorf("%w: embedding of %d values, the index has %d (model %s)", ErrProvider, len(d.Embedding), dim, r.cfg.Model)
		}
		v := make([]float32, len(d.Embedding))
		var sq float64
		for k, x := range d.Embedding {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, fmt.Errorf("%w: embedding %d holds %v", ErrProvider, i, x)
			}
			v[k] = float32(x)
			sq += x * x
		}
		if sq == 0 {
			copy(v, r.fallback)
		} else {
			inv := 1 / math.Sqrt(sq)
			for k := range v {
				v[k] = float32(float64(v[k]) * inv)
			}
		}
		out[i] = v
	}
	return out, nil
}

// RemoteText is the text a provider embeds for a document: the fields in
// the order that says most about a company within a model's input limit,
// labelled so the model reads industries and keywords as such.
func RemoteText(d Doc) string {
	var b strings.Builder
	add := func(label, s string) {
		s = strings.TrimSpace(s)
		if s == "" {
			return
		}
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		if label != "" {
			b.WriteString(label)
			b.WriteString(": ")
		}
		b.WriteString(s)
	}
	add("", d.Name)
	add("Industries", strings.Join(d.Industries, ", "))
	add("Keywords", strings.Join(d.Keywords, ", "))
	add("", d.Description)
	add("", d.SiteText)
	return b.String()
}
