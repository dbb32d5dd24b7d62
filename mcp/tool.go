package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/query"
)

// tool is one tool of the catalog. Adding a capability is one of these in
// catalog(): its REST operation (or input type), whether it only reads,
// how to estimate what it spends, and the call.
type tool struct {
	name, title, description string
	// op is the REST operation whose declared input (query parameters and
	// JSON body) is the tool's input schema.
	op string
	// input, when op is empty, is a value whose Go type gives the schema.
	input any
	// extra are properties the tool takes besides its REST operation's
	// query and body (what REST reads from a header).
	extra map[string]any
	// readOnly tools change nothing and spend nothing.
	readOnly bool
	// destructive tools delete what the caller stored.
	destructive bool
	// estimate, when set, makes the tool spend credits: a call without a
	// valid confirmation token answers with the estimate instead of
	// running.
	estimate func(ctx context.Context, c *call) (Estimate, error)
	run      func(ctx context.Context, c *call) (any, error)
}

// call is one tool call.
type call struct {
	caller Caller
	args   args
	raw    json.RawMessage // the arguments without confirmation_token
	req    *sdk.CallToolRequest
	srv    *Server
}

// Estimate is what a spending call would cost.
type Estimate struct {
	// Records is the most billable records the call returns; Credits the
	// most credits it costs (records retrieved in the last 90 days are
	// free, so the bill may be lower).
	Records     int     `json:"records"`
	Credits     int     `json:"credits"`
	PriceUSD    float64 `json:"price_usd" jsonschema:"Credits at the plan's price per 1,000 records"`
	CreditsLeft int     `json:"credits_left" jsonschema:"Credits left this period before the call"`
	// ProviderCalls are model calls on the customer's own provider keys
	// (their money, not credits); a call with any is confirmed first too.
	ProviderCalls int    `json:"provider_calls,omitempty"`
	Note          string `json:"note,omitempty"`
}

// confirmationArg is the argument carrying a confirmation token.
const confirmationArg = "confirmation_token"

func (s *Server) add(t *tool) error {
	schema, err := s.inputSchema(t)
	if err != nil {
		return fmt.Errorf("mcp: tool %s: %w", t.name, err)
	}
	if len(t.extra) > 0 {
		props, _ := schema["properties"].(map[string]any)
		if props == nil {
			props = map[string]any{}
			schema["properties"] = props
		}
		for k, v := range t.extra {
			props[k] = v
		}
	}
	if t.estimate != nil {
		props, _ := schema["properties"].(map[string]any)
		if props == nil {
			props = map[string]any{}
			schema["properties"] = props
		}
		props[confirmationArg] = map[string]any{"type": "string",
			"description": "The token an estimate of this tool returned; call again with the same arguments and this token to run the call and pay for it."}
	}
	no := false
	ann := &sdk.ToolAnnotations{Title: t.title, ReadOnlyHint: t.readOnly, OpenWorldHint: &no}
	if !t.readOnly {
		destructive := t.destructive
		ann.DestructiveHint = &destructive
		ann.IdempotentHint = false
	} else {
		ann.IdempotentHint = true
	}
	s.tools = append(s.tools, t)
	s.srv.AddTool(&sdk.Tool{Name: t.name, Title: t.title, Description: t.description, InputSchema: schema, Annotations: ann},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			out, err := s.serve(ctx, t, req)
			if err != nil {
				return errorResult(err, s), nil
			}
			return result(out)
		})
	return nil
}

// inputSchema is the tool's input schema: the REST operation's declared
// input, else the schema of its input type.
func (s *Server) inputSchema(t *tool) (map[string]any, error) {
	if t.op != "" {
		return operationSchema(s.cfg.OpenAPI, t.op)
	}
	if t.input == nil {
		return map[string]any{"type": "object", "properties": map[string]any{}, "additionalProperties": false}, nil
	}
	js, err := jsonschema.ForType(reflect.TypeOf(t.input), &jsonschema.ForOptions{})
	if err != nil {
		return nil, err
	}
	var m map[string]any
	b, err := json.Marshal(js)
	if err != nil {
		return nil, err
	}
	return m, json.Unmarshal(b, &m)
}

func (s *Server) serve(ctx context.Context, t *tool, req *sdk.CallToolRequest) (any, error) {
	caller, ok := callerOf(req.Extra.TokenInfo)
	if !ok {
		// The bearer middleware runs before every call; this is a wiring
		// fault, not a client's.
		return nil, errors.New("no authenticated caller")
	}
	a := args{}
	if len(req.Params.Arguments) > 0 && string(req.Params.Arguments) != "null" {
		if err := json.Unmarshal(req.Params.Arguments, &a); err != nil {
			return nil, refuse(http.StatusUnprocessableEntity, "arguments: must be a JSON object")
		}
	}
	token, err := a.str(confirmationArg)
	if err != nil {
		return nil, err
	}
	delete(a, confirmationArg)
	raw, err := json.Marshal(a) // map keys sorted: one canonical form
	if err != nil {
		return nil, err
	}
	c := &call{caller: caller, args: a, raw: raw, req: req, srv: s}
	if t.estimate == nil {
		return t.run(ctx, c)
	}
	if err := paid(caller); err != nil {
		return nil, err
	}
	if token == "" {
		est, err := t.estimate(ctx, c)
		if err != nil {
			return nil, err
		}
		if est.Credits > 0 || est.ProviderCalls > 0 {
			return s.offer(ctx, t, c, est)
		}
		// Nothing to pay for (no match, or a free variant): run at once.
		return t.run(ctx, c)
	}
	credits, err := s.checkConfirmation(token, t.name, c)
	if err != nil {
		return nil, err
	}
	release, err := s.spend.reserve(caller.Grant, credits)
	if err != nil {
		return nil, err
	}
	out, err := t.run(ctx, c)
	billed := 0
	if b, ok := out.(interface{ credits() int }); ok && err == nil {
		billed = b.credits()
	}
	release(billed)
	return out, err
}

// EstimateResult answers a spending call made without a confirmation
// token.
type EstimateResult struct {
	Status            string   `json:"status" jsonschema:"confirmation_required"`
	Tool              string   `json:"tool"`
	Estimate          Estimate `json:"estimate"`
	ConfirmationToken string   `json:"confirmation_token"`
	ExpiresAt         string   `json:"expires_at"`
	Message           string   `json:"message"`
}

func (s *Server) offer(ctx context.Context, t *tool, c *call, est Estimate) (any, error) {
	u, err := s.cfg.Biller.Usage(ctx, c.caller.Principal.Org)
	if err != nil {
		return nil, fmt.Errorf("usage: %w", err)
	}
	est.PriceUSD = float64(est.Credits) * u.Config.PricePer1K / 1000
	est.CreditsLeft = u.CreditsLeft
	if err := s.spend.check(c.caller.Grant, est.Credits); err != nil {
		return nil, err
	}
	token, exp := s.confirmationToken(t.name, c, est.Credits)
	msg := fmt.Sprintf("This call would bill up to %d credits (about $%.2f; %d left this period)", est.Credits, est.PriceUSD, est.CreditsLeft)
	if est.ProviderCalls > 0 {
		msg += fmt.Sprintf(" and make %d model calls billed by your LLM provider to your own keys", est.ProviderCalls)
	}
	return EstimateResult{Status: "confirmation_required", Tool: t.name, Estimate: est, ConfirmationToken: token,
		ExpiresAt: exp.UTC().Format("2006-01-02T15:04:05Z"),
		Message:   msg + fmt.Sprintf(". Ask the person to approve, then call %s again with the same arguments and confirmation_token.", t.name)}, nil
}

func result(out any) (*sdk.CallToolResult, error) {
	b, err := json.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("encode result: %w", err)
	}
	res := &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(b)}}}
	if len(b) > 0 && b[0] == '{' {
		res.StructuredContent = json.RawMessage(b)
	}
	return res, nil
}

// errorResult reports a refused or failed call as a tool error (not a
// protocol error), so the agent sees the detail and can correct the call.
func errorResult(err error, s *Server) *sdk.CallToolResult {
	var te *toolError
	switch {
	case errors.As(err, &te):
	case errors.Is(err, account.ErrNoCredits):
		te = refuse(http.StatusPaymentRequired, "no credits left this period; records retrieved in the last 90 days stay free; see get_usage")
	case errors.Is(err, query.ErrNoEmbedder):
		te = refuse(http.StatusServiceUnavailable, "%v", err)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		te = refuse(499, "request canceled")
		te.Title = "Client Closed Request"
	default:
		s.cfg.Log.Error().Err(err).Msg("mcp tool call failed")
		te = refuse(http.StatusInternalServerError, "internal error")
	}
	b, _ := json.Marshal(te)
	text := fmt.Sprintf("%d %s: %s", te.Status, te.Title, te.Detail)
	for _, e := range te.Errors {
		text += fmt.Sprintf("\n- %s: %s", e.Location, e.Message)
	}
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: text}}, StructuredContent: json.RawMessage(b)}
}
