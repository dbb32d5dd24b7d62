// Package account owns the rules of paid access: plans (price per 1,000
// records, credit quota per period, rate-limit multiplier), billing
// responses through the state store's credit ledger, per-key and
// per-organization rate limits, and self-service signup. The API, the MCP
// server and jobs call it; persistence stays in store/.
package account

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/openprospect/prospectd/store"
)

// PlanConfig is what a plan buys.
type PlanConfig struct {
	// PricePer1K is the price of 1,000 billed records in USD.
	PricePer1K float64 `json:"price_per_1k_usd"`
	// Credits is the number of records billable per period (a calendar
	// month, UTC); one record costs one credit.
	Credits int `json:"credits_per_period"`
	// RateMultiplier scales the base rate limits.
	RateMultiplier float64 `json:"rate_multiplier"`
}

// Plans maps each plan to its configuration.
type Plans map[store.Plan]PlanConfig

// DefaultPlans are the built-in plans; LoadPlans overrides them.
func DefaultPlans() Plans {
	return Plans{
		store.PlanNone:    {PricePer1K: 0, Credits: 0, RateMultiplier: 1},
		store.PlanStarter: {PricePer1K: 20, Credits: 10_000, RateMultiplier: 1},
		store.PlanTeam:    {PricePer1K: 12, Credits: 100_000, RateMultiplier: 4},
	}
}

// LoadPlans reads a JSON object of plan name -> PlanConfig over the
// defaults: {"starter": {"credits_per_period": 50000, ...}}. Fields left
// out keep their default.
func LoadPlans(path string) (Plans, error) {
	plans := DefaultPlans()
	if path == "" {
		return plans, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("plans file: %w", err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("plans file %s: %w", path, err)
	}
	for name, body := range raw {
		p, err := store.ParsePlan(name)
		if err != nil {
			return nil, fmt.Errorf("plans file %s: %w", path, err)
		}
		cfg := plans[p]
		if err := json.Unmarshal(body, &cfg); err != nil {
			return nil, fmt.Errorf("plans file %s: plan %s: %w", path, name, err)
		}
		if cfg.Credits < 0 || cfg.PricePer1K < 0 || cfg.RateMultiplier <= 0 {
			return nil, fmt.Errorf("plans file %s: plan %s: credits and price must be >= 0 and rate_multiplier > 0", path, name)
		}
		plans[p] = cfg
	}
	return plans, nil
}

// rank orders plans: none < starter < team.
func rank(p store.Plan) int {
	switch p {
	case store.PlanStarter:
		return 1
	case store.PlanTeam:
		return 2
	}
	return 0
}

// ErrPlan is wrapped by PlanError.
var ErrPlan = errors.New("plan does not include this endpoint")

// PlanError is a request from an organization whose plan is below the
// endpoint's tier.
type PlanError struct {
	Need, Have store.Plan
}

func (e *PlanError) Error() string {
	if e.Have == store.PlanNone {
		return fmt.Sprintf("this endpoint needs a paid plan (%s or higher); the organization has no plan", e.Need)
	}
	return fmt.Sprintf("this endpoint needs the %s plan or higher; the organization is on %s", e.Need, e.Have)
}

func (e *PlanError) Unwrap() error { return ErrPlan }

// Require checks that org's plan is at least need. Every data endpoint
// needs at least Starter (the spec: all data endpoints need a paid
// account); endpoints labelled Team need Team.
func Require(org store.Org, need store.Plan) error {
	if rank(org.Plan) < rank(need) || org.Plan == store.PlanNone {
		return &PlanError{Need: need, Have: org.Plan}
	}
	return nil
}

// Period returns the billing period containing t: the calendar month, UTC.
func Period(t time.Time) (start, end time.Time) {
	t = t.UTC()
	start = time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
	return start, start.AddDate(0, 1, 0)
}
