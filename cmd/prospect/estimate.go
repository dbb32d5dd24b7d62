package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// serverEstimate is POST /v1/estimate's answer.
type serverEstimate struct {
	Records       int     `json:"records"`
	Credits       int     `json:"credits"`
	PriceUSD      float64 `json:"price_usd"`
	CreditsLeft   int     `json:"credits_left"`
	ProviderCalls int     `json:"provider_calls"`
	Note          string  `json:"note"`
}

// printServerEstimate asks the server what req would cost at most, by
// the rule its spending confirmations quote (the searches run; nothing
// is returned or billed), and prints it. The CLI keeps no billing rules
// of its own: an operation the server has no estimate for says so.
func (a *app) printServerEstimate(ctx context.Context, c *client, req *request) {
	if req.multipart {
		fmt.Fprintln(a.stdout, "estimated credits: none before the upload (file operations are billed per matched row as the task runs)")
		return
	}
	body, _ := json.Marshal(map[string]any{"operation": req.op, "arguments": req.args})
	res, err := c.do(ctx, http.MethodPost, "/v1/estimate", nil, "application/json", body)
	if err != nil {
		if res != nil && res.status == http.StatusUnprocessableEntity && strings.Contains(string(res.body), "has no estimate") {
			fmt.Fprintf(a.stdout, "estimated credits: none known (%s spends no credits or has no estimate)\n", req.op)
			return
		}
		fmt.Fprintf(a.stdout, "estimated credits: unavailable (%v)\n", err)
		return
	}
	var e serverEstimate
	if err := json.Unmarshal(res.body, &e); err != nil {
		fmt.Fprintf(a.stdout, "estimated credits: unreadable answer (%v)\n", err)
		return
	}
	fmt.Fprintf(a.stdout, "estimated credits: at most %d for %d records, $%.2f at the plan's price; %d credits left\n",
		e.Credits, e.Records, e.PriceUSD, e.CreditsLeft)
	if e.ProviderCalls > 0 {
		fmt.Fprintf(a.stdout, "model calls on your own provider keys: %d\n", e.ProviderCalls)
	}
	if e.Note != "" {
		fmt.Fprintf(a.stdout, "note: %s\n", e.Note)
	}
}
