package api

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/openprospect/prospectd/account"
)

// UsageBody is GET /v1/usage.
type UsageBody struct {
	Plan           string         `json:"plan" enum:"none,starter,team"`
	PricePer1K     float64        `json:"price_per_1k_usd" doc:"Price of 1,000 billed records on this plan"`
	RateMultiplier float64        `json:"rate_limit_multiplier"`
	PeriodStart    time.Time      `json:"period_start" doc:"Start of the billing period (calendar month, UTC)"`
	PeriodEnd      time.Time      `json:"period_end"`
	CreditsQuota   int            `json:"credits_quota" doc:"Credits per period (one billed record costs one credit)"`
	CreditsUsed    int            `json:"credits_used"`
	CreditsLeft    int            `json:"credits_left"`
	EstimatedCost  float64        `json:"estimated_cost_usd" doc:"Credits used this period at the plan's price"`
	RecordsBilled  map[string]int `json:"records_billed" doc:"Billed records this period by kind (company, contact, email, row)"`
	RecordsFree    map[string]int `json:"records_free" doc:"Records returned without charge this period (retrieved in the last 90 days) by kind"`
}

type usageOutput struct{ Body UsageBody }

// SignupBody is POST /v1/public/signup.
type SignupBody struct {
	Email     string `json:"email" maxLength:"254" doc:"Work email address; free-mail and disposable domains are refused"`
	FirstName string `json:"first_name" maxLength:"200"`
	LastName  string `json:"last_name" maxLength:"200"`
	Agent     string `json:"agent" maxLength:"200" doc:"Name of the calling agent or tool"`
}

type signupInput struct{ Body SignupBody }

// SignupResult never carries a credential.
type SignupResult struct {
	Status   string `json:"status" enum:"pending_confirmation,confirmed"`
	Email    string `json:"email"`
	NextStep string `json:"next_step" doc:"What to tell the person next"`
}

type signupOutput struct {
	Status int
	Body   SignupResult
}

type confirmInput struct {
	Token string `query:"token" required:"true" maxLength:"100" doc:"Token from the confirmation email"`
}

type confirmOutput struct{ Body SignupResult }

func (s *Server) registerAccount() {
	huma.Register(s.api, huma.Operation{
		OperationID: "get-usage",
		Method:      http.MethodGet,
		Path:        "/v1/usage",
		Summary:     "Plan and credit usage",
		Description: "The organization's plan, billing period, credits used and left, and records billed by kind. Not in the spec; the hosted service has it.",
		Tags:        []string{"Account"},
		Security:    authRequired,
		Errors:      []int{http.StatusUnauthorized, http.StatusTooManyRequests},
	}, func(ctx context.Context, _ *struct{}) (*usageOutput, error) {
		p, ok := PrincipalFrom(ctx)
		if !ok {
			return nil, huma.Error401Unauthorized("missing API key")
		}
		u, err := s.biller.Usage(ctx, p.Org)
		if err != nil {
			return nil, s.internal(ctx, "usage", err)
		}
		return &usageOutput{Body: UsageBody{
			Plan: string(u.Plan), PricePer1K: u.Config.PricePer1K, RateMultiplier: u.Config.RateMultiplier,
			PeriodStart: u.PeriodStart, PeriodEnd: u.PeriodEnd, CreditsQuota: u.Config.Credits,
			CreditsUsed: u.CreditsUsed, CreditsLeft: u.CreditsLeft, EstimatedCost: u.EstimatedCost,
			RecordsBilled: u.RecordsBilled, RecordsFree: u.RecordsFree,
		}}, nil
	})

	huma.Register(s.api, huma.Operation{
		OperationID:   "public-signup",
		Method:        http.MethodPost,
		Path:          "/v1/public/signup",
		MaxBodyBytes:  jsonBodyLimit,
		Summary:       "Request an account",
		Description:   "No authentication. Sends a confirmation email; no credential is ever returned. After confirming, an administrator issues the API key (`prospectd keys create --org <email> --email <email> --plan starter`).",
		Tags:          []string{"Service"},
		DefaultStatus: http.StatusAccepted,
		Errors:        []int{http.StatusConflict, http.StatusUnprocessableEntity, http.StatusServiceUnavailable},
	}, func(ctx context.Context, in *signupInput) (*signupOutput, error) {
		next, err := s.signups.Start(ctx, account.SignupRequest{Email: in.Body.Email, FirstName: in.Body.FirstName, LastName: in.Body.LastName, Agent: in.Body.Agent})
		switch {
		case errors.Is(err, account.ErrAccountExists):
			return nil, huma.Error409Conflict("an account with this email already exists; ask its administrator for a key")
		case errors.Is(err, account.ErrSignupInvalid), errors.Is(err, account.ErrFreeMail), errors.Is(err, account.ErrDisposable):
			return nil, huma.Error422UnprocessableEntity(err.Error())
		case errors.Is(err, account.ErrNoMailer):
			return nil, huma.Error503ServiceUnavailable(err.Error())
		case err != nil:
			return nil, s.internal(ctx, "signup", err)
		}
		return &signupOutput{Status: http.StatusAccepted, Body: SignupResult{Status: "pending_confirmation", Email: in.Body.Email, NextStep: next}}, nil
	})

	huma.Register(s.api, huma.Operation{
		OperationID: "public-signup-confirm",
		Method:      http.MethodGet,
		Path:        "/v1/public/signup/confirm",
		Summary:     "Confirm a signup",
		Description: "The link in the confirmation email. Creates the person's organization (no plan yet) and admin user. No credential is returned.",
		Tags:        []string{"Service"},
		Errors:      []int{http.StatusNotFound, http.StatusConflict},
	}, func(ctx context.Context, in *confirmInput) (*confirmOutput, error) {
		u, err := s.signups.Confirm(ctx, in.Token)
		switch {
		case errors.Is(err, account.ErrTokenNotFound):
			return nil, huma.Error404NotFound("token: unknown, already used or expired; sign up again for a new link")
		case errors.Is(err, account.ErrAccountExists):
			return nil, huma.Error409Conflict("an account with this email already exists")
		case err != nil:
			return nil, s.internal(ctx, "confirm signup", err)
		}
		return &confirmOutput{Body: SignupResult{Status: "confirmed", Email: u.Email,
			NextStep: "Your email is confirmed. An administrator of this service now picks your plan and issues your API key."}}, nil
	})
}
