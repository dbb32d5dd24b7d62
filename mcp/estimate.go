package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/openprospect/prospectd/store"
)

// ErrNoEstimate: no spending tool serves the operation (it spends no
// credits, or its REST input is a file the tools take as a JSON list).
// Its NoEstimate method lets the REST route tell it apart without
// importing this package.
var ErrNoEstimate error = noEstimate{}

type noEstimate struct{}

func (noEstimate) Error() string    { return "no estimate for this operation" }
func (noEstimate) NoEstimate() bool { return true }

// GetStatus makes a refusal an HTTP status error for the REST estimate
// route (huma.StatusError); its JSON is already a problem document.
func (e *toolError) GetStatus() int { return e.Status }

// EstimateOperation is the most a call of the REST operation op would
// spend, by the rule the tool serving op confirms spending with, priced
// at the plan's rate: the REST dry run (POST /v1/estimate) and the tools
// share one rule. args are the tool's arguments (the operation's query
// parameters and JSON body fields). Nothing is billed.
func (s *Server) EstimateOperation(ctx context.Context, p store.Principal, op string, arguments json.RawMessage) (Estimate, error) {
	var t *tool
	for _, c := range s.tools {
		if c.op == op && c.estimate != nil {
			t = c
		}
	}
	if t == nil {
		return Estimate{}, fmt.Errorf("%w %q", ErrNoEstimate, op)
	}
	caller := Caller{Principal: p, Grant: "estimate"}
	if err := paid(caller); err != nil {
		return Estimate{}, err
	}
	a := args{}
	if len(arguments) > 0 && string(arguments) != "null" {
		if err := json.Unmarshal(arguments, &a); err != nil {
			return Estimate{}, refuse(http.StatusUnprocessableEntity, "arguments: must be a JSON object")
		}
	}
	raw, err := json.Marshal(a)
	if err != nil {
		return Estimate{}, err
	}
	est, err := t.estimate(ctx, &call{caller: caller, args: a, raw: raw, srv: s})
	if err != nil {
		return Estimate{}, err
	}
	u, err := s.cfg.Biller.Usage(ctx, p.Org)
	if err != nil {
		return Estimate{}, fmt.Errorf("usage: %w", err)
	}
	est.PriceUSD = float64(est.Credits) * u.Config.PricePer1K / 1000
	est.CreditsLeft = u.CreditsLeft
	return est, nil
}
