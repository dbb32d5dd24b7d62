package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/openprospect/prospectd/store"
)

// noEstimate is an estimator's error for an operation it has no rule for
// (mcp.ErrNoEstimate).
type noEstimate interface{ NoEstimate() bool }

// EstimateBody is POST /v1/estimate.
type EstimateBody struct {
	Operation string         `json:"operation" minLength:"1" maxLength:"100" doc:"Operation id of a spending operation: discover, get-bizdata, contacts-discover, contacts-lookup, contacts-match, contacts-bulk-match, match, email-find, email-verify, email-find-batch, gen-process, gen-process-personas, validate-icp, contacts-discover-generate and the single-record lookups"`
	Arguments map[string]any `json:"arguments,omitempty" doc:"The call's query parameters and JSON body fields by name, as the operation takes them (arrays as JSON arrays)"`
}

// EstimateAnswer is the most a call would spend.
type EstimateAnswer struct {
	Operation     string  `json:"operation"`
	Records       int     `json:"records" doc:"Most billable records the call returns"`
	Credits       int     `json:"credits" doc:"Most credits it costs; records paid for in the last 90 days are free, so the bill may be lower"`
	PriceUSD      float64 `json:"price_usd" doc:"Credits at the plan's price per 1,000 records"`
	CreditsLeft   int     `json:"credits_left" doc:"Credits left this period"`
	ProviderCalls int     `json:"provider_calls" doc:"Model calls on the organization's own provider keys (their fees, not credits)"`
	Note          string  `json:"note,omitempty"`
}

type estimateInput struct{ Body EstimateBody }
type estimateOutput struct{ Body EstimateAnswer }

// SetEstimator serves POST /v1/estimate with the tool server's estimate
// rules (mcp.Server.EstimateOperation, wired by toolwire): the answer is
// what the tool's spending confirmation would quote. Call it before
// serving; without it the route answers 503.
func (s *Server) SetEstimator(estimate func(ctx context.Context, p store.Principal, op string, args json.RawMessage) (any, error)) {
	s.estimator = estimate
}

func (s *Server) registerEstimate() {
	huma.Register(s.api, huma.Operation{
		OperationID: "estimate",
		Method:      http.MethodPost,
		Path:        "/v1/estimate",
		Summary:     "Estimate the credits of a call",
		Description: "The most credits a call of a spending operation would cost, priced at the plan's rate, without running or billing it: the searches run, nothing is returned or billed. The rule is the one the tool server's spending confirmation quotes. Operations that take a file (segment, bulkmatch, append) have no estimate here. An extension; the spec has no estimate route.",
		Tags:        []string{"Account"},
		Security:    authRequired,
		Errors:      []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusUnprocessableEntity, http.StatusTooManyRequests, http.StatusServiceUnavailable},
	}, func(ctx context.Context, in *estimateInput) (*estimateOutput, error) {
		p, err := s.paid(ctx, store.PlanStarter)
		if err != nil {
			return nil, err
		}
		if s.estimator == nil {
			return nil, huma.Error503ServiceUnavailable("estimates are not served by this server (no tool server mounted)")
		}
		args, _ := json.Marshal(in.Body.Arguments)
		est, err := s.estimator(ctx, p, in.Body.Operation, args)
		var se huma.StatusError
		var ne noEstimate
		switch {
		case errors.As(err, &ne) && ne.NoEstimate():
			return nil, huma.Error422UnprocessableEntity(fmt.Sprintf("operation: %q has no estimate (it spends no credits, is unknown, or takes a file)", in.Body.Operation))
		case errors.As(err, &se):
			return nil, se
		case err != nil:
			return nil, s.internal(ctx, "estimate", err)
		}
		var out EstimateAnswer
		b, _ := json.Marshal(est)
		if err := json.Unmarshal(b, &out); err != nil {
			return nil, s.internal(ctx, "estimate", err)
		}
		out.Operation = in.Body.Operation
		return &estimateOutput{Body: out}, nil
	})
}
