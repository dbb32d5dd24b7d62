package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
)

// estimate is the most a request can spend.
type estimate struct {
	Records int    // records it can bill at most (one credit each)
	Rule    string // how the server bills it
}

// usageAnswer is the part of GET /v1/usage an estimate prices with.
type usageAnswer struct {
	Plan        string  `json:"plan"`
	PricePer1K  float64 `json:"price_per_1k_usd"`
	CreditsLeft int     `json:"credits_left"`
}

// printEstimate prints an estimate with the plan's price and the credits
// left (GET /v1/usage, which spends nothing; without it, credits only).
func (a *app) printEstimate(ctx context.Context, c *client, e estimate) {
	fmt.Fprintf(a.stdout, "estimated credits: at most %d (%s)\n", e.Records, e.Rule)
	res, err := c.do(ctx, http.MethodGet, "/v1/usage", nil, "", nil)
	if err != nil {
		fmt.Fprintf(a.stdout, "price: unknown (%v)\n", err)
		return
	}
	var u usageAnswer
	if json.Unmarshal(res.body, &u) != nil {
		return
	}
	fmt.Fprintf(a.stdout, "price: at most $%.2f on plan %s ($%.2f per 1,000 records); %d credits left\n",
		float64(e.Records)*u.PricePer1K/1000, u.Plan, u.PricePer1K, u.CreditsLeft)
}
