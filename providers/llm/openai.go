package llm

import (
	"context"
	"errors"
	"strings"

	"github.com/openai/openai-go"
	"github.com/openai/openai-go/option"
	"github.com/openai/openai-go/responses"
	"github.com/openai/openai-go/shared"
)

type openAIClient struct {
	cfg Config
	c   openai.Client
}

func newOpenAI(cfg Config) *openAIClient {
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
	return &openAIClient{cfg: cfg, c: openai.NewClient(opts...)}
}

func (o *openAIClient) Complete(ctx context.Context, req Request) (Response, error) {
	if req.WebSearch && o.cfg.Provider == OpenAI && !searchPreview(strings.ToLower(o.cfg.Model)) {
		// Chat completions search only with the search-preview models;
		// the others search through the Responses API's tool.
		return o.respond(ctx, req)
	}
	var msgs []openai.ChatCompletionMessageParamUnion
	system := req.System
	if req.Schema != nil && o.cfg.Provider == Custom {
		// Not every OpenAI-compatible server enforces json_schema; the
		// prompt asks for it and the caller parses tolerantly.
		system += schemaInstruction(req.Schema)
	}
	if system != "" {
		msgs = append(msgs, openai.SystemMessage(system))
	}
	msgs = append(msgs, openai.UserMessage(req.Prompt))
	p := openai.ChatCompletionNewParams{Model: o.cfg.Model, Messages: msgs}
	if req.MaxTokens > 0 {
		p.MaxCompletionTokens = openai.Int(int64(req.MaxTokens))
	}
	if req.Schema != nil && o.cfg.Provider == OpenAI {
		name := req.SchemaName
		if name == "" {
			name = "answer"
		}
		p.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{
			JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{Name: name, Schema: req.Schema, Strict: openai.Bool(true)},
		}}
	}
	if req.WebSearch {
		size := req.SearchContextSize
		if size == "" {
			size = "low"
		}
		p.WebSearchOptions = openai.ChatCompletionNewParamsWebSearchOptions{SearchContextSize: size}
	}
	resp, err := o.c.Chat.Completions.New(ctx, p)
	if err != nil {
		return Response{}, o.err(err)
	}
	out := Response{}
	if len(resp.Choices) > 0 {
		out.Text = resp.Choices[0].Message.Content
		if req.WebSearch {
			// Chat completions run one search per answer with search
			// models; the citations it returns are its evidence.
			out.SearchCalls = 1
		}
	}
	if resp.JSON.Usage.Valid() {
		out.PromptTokens, out.CompletionTokens, out.TokensReported = resp.Usage.PromptTokens, resp.Usage.CompletionTokens, true
	}
	return out, nil
}

// respond answers through the Responses API with the web search tool.
func (o *openAIClient) respond(ctx context.Context, req Request) (Response, error) {
	size := req.SearchContextSize
	if size == "" {
		size = "low"
	}
	p := responses.ResponseNewParams{
		Model: o.cfg.Model,
		Input: responses.ResponseNewParamsInputUnion{OfString: openai.String(req.Prompt)},
		Tools: []responses.ToolUnionParam{{OfWebSearchPreview: &responses.WebSearchToolParam{
			Type: responses.WebSearchToolTypeWebSearchPreview, SearchContextSize: responses.WebSearchToolSearchContextSize(size)}}},
	}
	if req.System != "" {
		p.Instructions = openai.String(req.System)
	}
	if req.MaxTokens > 0 {
		p.MaxOutputTokens = openai.Int(int64(req.MaxTokens))
	}
	if req.Schema != nil {
		name := req.SchemaName
		if name == "" {
			name = "answer"
		}
		p.Text = responses.ResponseTextConfigParam{Format: responses.ResponseFormatTextConfigUnionParam{
			OfJSONSchema: &responses.ResponseFormatTextJSONSchemaConfigParam{Name: name, Schema: req.Schema, Strict: openai.Bool(true)}}}
	}
	resp, err := o.c.Responses.New(ctx, p)
	if err != nil {
		return Response{}, o.err(err)
	}
	out := Response{Text: resp.OutputText()}
	for _, item := range resp.Output {
		if item.Type == "web_search_call" {
			out.SearchCalls++
		}
	}
	if resp.JSON.Usage.Valid() {
		out.PromptTokens, out.CompletionTokens, out.TokensReported = resp.Usage.InputTokens, resp.Usage.OutputTokens, true
	}
	return out, nil
}

func (o *openAIClient) Models(ctx context.Context) ([]Model, error) {
	var out []Model
	iter := o.c.Models.ListAutoPaging(ctx)
	for iter.Next() {
		m := iter.Current()
		out = append(out, Model{Name: m.ID, SupportsWebSearch: SupportsWebSearch(o.cfg.Provider, m.ID)})
	}
	if err := iter.Err(); err != nil {
		return nil, o.err(err)
	}
	return out, nil
}

func (o *openAIClient) err(err error) error {
	var ae *openai.Error
	if errors.As(err, &ae) {
		msg := ae.Message
		if msg == "" {
			msg = "no message"
		}
		return apiError(o.cfg.Provider, ae.StatusCode, msg, o.cfg.APIKey)
	}
	return transportError(o.cfg.Provider, err, o.cfg.APIKey)
}
