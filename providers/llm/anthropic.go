package llm

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
)

type anthropicClient struct {
	cfg Config
	c   anthropic.Client
}

func newAnthropic(cfg Config) *anthropicClient {
	opts := []option.RequestOption{
		option.WithAPIKey(cfg.APIKey),
		option.WithHTTPClient(cfg.HTTP),
		option.WithMaxRetries(cfg.retries()),
	}
	if cfg.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(cfg.BaseURL))
	}
	if cfg.RequestTimeout > 0 {
		opts = append(opts, option.WithRequestTimeout(cfg.RequestTimeout))
	}
	return &anthropicClient{cfg: cfg, c: anthropic.NewClient(opts...)}
}

// searchUses is the web search tool's max_uses per depth.
var searchUses = map[string]int64{"low": 1, "medium": 3, "high": 5}

func (a *anthropicClient) Complete(ctx context.Context, req Request) (Response, error) {
	maxTokens := int64(req.MaxTokens)
	if maxTokens <= 0 {
		maxTokens = 1024
	}
	p := anthropic.MessageNewParams{
		Model:     anthropic.Model(a.cfg.Model),
		MaxTokens: maxTokens,
		Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(req.Prompt))},
	}
	system := req.System
	if req.Schema != nil {
		system += schemaInstruction(req.Schema)
	}
	if system != "" {
		p.System = []anthropic.TextBlockParam{{Text: system}}
	}
	if req.WebSearch {
		uses, ok := searchUses[req.SearchContextSize]
		if !ok {
			uses = 1
		}
		p.Tools = []anthropic.ToolUnionParam{{OfWebSearchTool20250305: &anthropic.WebSearchTool20250305Param{MaxUses: anthropic.Int(uses)}}}
	}
	msg, err := a.c.Messages.New(ctx, p)
	if err != nil {
		return Response{}, a.err(err)
	}
	var text strings.Builder
	for _, b := range msg.Content {
		if b.Type == "text" {
			text.WriteString(b.Text)
		}
	}
	out := Response{Text: text.String()}
	if msg.JSON.Usage.Valid() {
		out.PromptTokens, out.CompletionTokens, out.TokensReported = msg.Usage.InputTokens, msg.Usage.OutputTokens, true
		out.SearchCalls = int(msg.Usage.ServerToolUse.WebSearchRequests)
	}
	return out, nil
}

func (a *anthropicClient) Models(ctx context.Context) ([]Model, error) {
	var out []Model
	iter := a.c.Models.ListAutoPaging(ctx, anthropic.ModelListParams{})
	for iter.Next() {
		m := iter.Current()
		out = append(out, Model{Name: m.ID, SupportsWebSearch: SupportsWebSearch(Anthropic, m.ID)})
	}
	if err := iter.Err(); err != nil {
		return nil, a.err(err)
	}
	return out, nil
}

func (a *anthropicClient) err(err error) error {
	var ae *anthropic.Error
	if errors.As(err, &ae) {
		var body struct {
			Error struct{ Message string } `json:"error"`
		}
		_ = json.Unmarshal([]byte(ae.RawJSON()), &body)
		msg := body.Error.Message
		if msg == "" {
			msg = "no message"
		}
		return apiError(Anthropic, ae.StatusCode, msg, a.cfg.APIKey)
	}
	return transportError(Anthropic, err, a.cfg.APIKey)
}

// schemaInstruction asks for JSON of schema where the provider cannot
// enforce it.
func schemaInstruction(schema map[string]any) string {
	b, _ := json.Marshal(schema)
	return "\n\nAnswer with one JSON object only, no prose and no code fences, matching this JSON schema: " + string(b)
}
