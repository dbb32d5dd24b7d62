package mcp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/prospecting"
)

// runTools start and steer managed prospecting runs; none when no
// prospecting service (or no task runner for it) is configured, as the
// REST routes. Starting plans only (free); approving is what spends, so
// approve_prospecting_run is the tool that quotes the plan's estimate and
// runs on its confirmation token.
func (s *Server) runTools() []*tool {
	if s.cfg.Prospecting == nil || s.cfg.Prospecting.Tasks == nil {
		return nil
	}
	return []*tool{
		{name: "start_prospecting_run", title: "Start a managed prospecting run", op: "prospecting-start",
			extra: map[string]any{"idempotency_key": map[string]any{"type": "string", "maxLength": prospecting.MaxIdemKeyChars,
				"description": "The same key and arguments return the same run; omitted, the key is derived from the arguments, so repeating an identical call returns the run it started"}},
			description: "Starts planning a run from a plain-words brief (free: nothing is spent before approval). Returns run_id with status drafting; poll get_prospecting_run until proposed, show the plan and its estimate, then approve_prospecting_run. With dry_run=true returns the plan and estimate without creating a run. One queued or running run per user (403 otherwise).",
			run:         s.startRun},
		{name: "get_prospecting_run", title: "Prospecting run status", op: "prospecting-get", readOnly: true,
			description: "A run's status (drafting, proposed, queued, running, paused, completed, failed), plan with estimate, progress counts, spend, the checkpoint a paused run waits at, stop_reason and results_query_id once ended, and every chat message. Free.",
			run:         s.getRun},
		{name: "approve_prospecting_run", title: "Approve a prospecting plan", op: "prospecting-approve",
			description: "Approves the proposed plan at plan_version and queues the run, which then bills the records it finds (up to the plan's max_spend_usd). Answers first with the plan's estimate and a confirmation_token. A stale plan_version or a plan not ready is 409.",
			estimate:    s.estimateApprove, run: s.approveRun},
		{name: "get_prospecting_messages", title: "Prospecting run messages", op: "prospecting-messages", readOnly: true,
			description: "A run's chat messages with seq above messages_after, oldest first (plan cards, progress, checkpoint questions, replies). Free.",
			run:         s.runMessages},
		{name: "reply_prospecting_checkpoint", title: "Reply to a run's checkpoint", op: "prospecting-reply",
			description: "Answers the checkpoint a paused run waits at (contacts_review or top_up): continue resumes it (at top_up, with new spending limits if given), stop ends it keeping the results found. 409 when the run is not paused.",
			run:         s.replyRun},
	}
}

// RunMessage is one chat message of a run (the REST body).
type RunMessage struct {
	Seq       int64     `json:"seq"`
	CreatedAt time.Time `json:"created_at"`
	prospecting.MessageBody
}

// RunView is a run as the run tools return it (the REST body of GET
// /v1/prospecting/runs/{run_id}).
type RunView struct {
	RunID         string                `json:"run_id"`
	Status        string                `json:"status"`
	DryRun        bool                  `json:"dry_run,omitempty"`
	PipelinePhase *string               `json:"pipeline_phase"`
	StopReason    *string               `json:"stop_reason"`
	Checkpoint    *string               `json:"checkpoint"`
	PlanVersion   int                   `json:"plan_version"`
	Plan          *prospecting.Plan     `json:"plan"`
	Brief         string                `json:"brief"`
	Round         int                   `json:"round"`
	Counts        prospecting.Counts    `json:"counts"`
	SpentUSD      float64               `json:"spent_usd"`
	ProviderCost  float64               `json:"provider_cost_usd"`
	ResultsID     *string               `json:"results_query_id"`
	Error         string                `json:"error,omitempty"`
	WebhookSecret string                `json:"webhook_secret,omitempty"`
	CreatedAt     time.Time             `json:"created_at"`
	UpdatedAt     time.Time             `json:"updated_at"`
	Messages      []RunMessage          `json:"messages"`
	approved      *prospecting.Estimate // set by approve: what the session cap counts
}

// credits is what an approval counts against the session cap: the run
// bills as it goes, after the call returns, so the cap counts the
// confirmed estimate.
func (v RunView) credits() int {
	if v.approved == nil {
		return 0
	}
	return v.approved.Records
}

func runMessages(ms []prospecting.Message) ([]RunMessage, error) {
	out := make([]RunMessage, 0, len(ms))
	for _, m := range ms {
		var b prospecting.MessageBody
		if err := json.Unmarshal(m.Body, &b); err != nil {
			return nil, fmt.Errorf("decode run message %d: %w", m.Seq, err)
		}
		out = append(out, RunMessage{Seq: m.Seq, CreatedAt: m.CreatedAt, MessageBody: b})
	}
	return out, nil
}

func (s *Server) runView(ctx context.Context, r prospecting.Run) (RunView, error) {
	ms, err := s.cfg.Prospecting.Messages(ctx, r.OrgID, r.ID, 0)
	if err != nil {
		return RunView{}, runError(err)
	}
	d := r.Data
	v := RunView{RunID: r.ID, Status: r.Status, PipelinePhase: optionalID(d.Phase), StopReason: optionalID(d.StopReason),
		Checkpoint: optionalID(d.Checkpoint), PlanVersion: d.PlanVersion, Plan: d.Plan, Brief: d.Request.Brief, Round: d.Progress.Round,
		Counts: d.Progress.Count(), ProviderCost: d.Costs.AI() + d.Costs.Search(), ResultsID: optionalID(d.ResultsQueryID),
		Error: d.Error, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}
	if d.Plan != nil {
		v.SpentUSD = float64(v.Counts.Records) * d.Plan.PricePerRecordUSD
	}
	v.Messages, err = runMessages(ms)
	return v, err
}

// runError maps the service's errors to the REST statuses.
func runError(err error) error {
	var fe *prospecting.FieldError
	switch {
	case errors.As(err, &fe):
		return refuse(http.StatusUnprocessableEntity, "%s", fe.Error())
	case errors.Is(err, prospecting.ErrNotFound):
		return refuse(http.StatusNotFound, "run_id: no prospecting run with that id for this organization")
	case errors.Is(err, prospecting.ErrBusy), errors.Is(err, account.ErrPlan):
		return refuse(http.StatusForbidden, "%s", err.Error())
	case errors.Is(err, account.ErrNoCredits):
		return refuse(http.StatusPaymentRequired, "%s", err.Error())
	case errors.Is(err, prospecting.ErrConflict):
		return refuse(http.StatusConflict, "%s", err.Error())
	}
	return err
}

func runActor(c *call) prospecting.Actor {
	p := c.caller.Principal
	return prospecting.Actor{Org: p.Org, UserID: p.User.ID}
}

func (s *Server) startRun(ctx context.Context, c *call) (any, error) {
	if err := paid(c.caller); err != nil {
		return nil, err
	}
	var a struct {
		prospecting.Request
		DryRun         bool   `json:"dry_run"`
		IdempotencyKey string `json:"idempotency_key"`
	}
	if err := decode(c, &a); err != nil {
		return nil, err
	}
	svc := s.cfg.Prospecting
	if a.DryRun {
		p, err := svc.DryRun(ctx, runActor(c), a.Request)
		if err != nil {
			return nil, runError(err)
		}
		return RunView{Status: "dry_run", DryRun: true, Plan: p, Brief: a.Brief, Messages: []RunMessage{}}, nil
	}
	key := a.IdempotencyKey
	if key == "" {
		// An agent retrying the same call gets the run it started, not a
		// second one (the grant keeps two people's calls apart).
		h := sha256.Sum256([]byte(c.caller.Grant + "\x00" + string(c.raw)))
		key = "mcp-" + hex.EncodeToString(h[:16])
	}
	r, created, err := svc.Start(ctx, runActor(c), key, a.Request)
	if err != nil {
		return nil, runError(err)
	}
	v, err := s.runView(ctx, r)
	if created {
		// Shown once, as in the REST answer.
		v.WebhookSecret = r.Secret
	}
	return v, err
}

type runIDArgs struct {
	RunID string `json:"run_id"`
}

func (s *Server) getRun(ctx context.Context, c *call) (any, error) {
	if err := paid(c.caller); err != nil {
		return nil, err
	}
	var a runIDArgs
	if err := decode(c, &a); err != nil {
		return nil, err
	}
	r, err := s.cfg.Prospecting.Get(ctx, c.caller.Principal.Org.ID, a.RunID)
	if err != nil {
		return nil, runError(err)
	}
	return s.runView(ctx, r)
}

type approveArgs struct {
	RunID        string    `json:"run_id"`
	PlanVersion  int       `json:"plan_version"`
	Checkpoints  *string   `json:"checkpoints"`
	SeedSegments *[]string `json:"seed_segments"`
	Segment      *bool     `json:"segment"`
}

// estimateApprove quotes the plan the approval names: its records at the
// plan's price, and its model calls on the customer's own keys. A run not
// waiting at that plan version runs at once, so the service answers
// (409, or the no-op repeat of an approval).
func (s *Server) estimateApprove(ctx context.Context, c *call) (Estimate, error) {
	var a approveArgs
	if err := decode(c, &a); err != nil {
		return Estimate{}, err
	}
	r, err := s.cfg.Prospecting.Get(ctx, c.caller.Principal.Org.ID, a.RunID)
	if err != nil {
		return Estimate{}, runError(err)
	}
	p := r.Data.Plan
	if r.Status != prospecting.StatusProposed || p == nil || r.Data.PlanVersion != a.PlanVersion {
		return Estimate{}, nil
	}
	note := fmt.Sprintf("the plan's estimate: %d records at $%.4f each ($%.2f)", p.Estimate.Records, p.PricePerRecordUSD, p.Estimate.RecordsCostUSD)
	if p.Estimate.AICostUSD > 0 {
		note += fmt.Sprintf(", about $%.2f on your own AI keys", p.Estimate.AICostUSD)
	}
	if p.MaxSpendUSD > 0 {
		note += fmt.Sprintf("; the run stops at max_spend_usd $%.2f", p.MaxSpendUSD)
	}
	return Estimate{Records: p.Estimate.Records, Credits: p.Estimate.Records, ProviderCalls: p.Estimate.BilledCalls, Note: note}, nil
}

func (s *Server) approveRun(ctx context.Context, c *call) (any, error) {
	if err := paid(c.caller); err != nil {
		return nil, err
	}
	var a approveArgs
	if err := decode(c, &a); err != nil {
		return nil, err
	}
	svc := s.cfg.Prospecting
	before, err := svc.Get(ctx, c.caller.Principal.Org.ID, a.RunID)
	if err != nil {
		return nil, runError(err)
	}
	r, err := svc.Approve(ctx, runActor(c), a.RunID, prospecting.ApproveRequest{PlanVersion: a.PlanVersion, Checkpoints: a.Checkpoints,
		SeedSegments: a.SeedSegments, Segment: a.Segment})
	if err != nil {
		return nil, runError(err)
	}
	v, err := s.runView(ctx, r)
	if err == nil && before.Status == prospecting.StatusProposed && before.Data.Plan != nil {
		v.approved = &before.Data.Plan.Estimate
	}
	return v, err
}

// RunMessages is get_prospecting_messages' answer.
type RunMessages struct {
	Messages []RunMessage `json:"messages"`
}

func (s *Server) runMessages(ctx context.Context, c *call) (any, error) {
	if err := paid(c.caller); err != nil {
		return nil, err
	}
	var a struct {
		RunID         string `json:"run_id"`
		MessagesAfter int64  `json:"messages_after"`
	}
	if err := decode(c, &a); err != nil {
		return nil, err
	}
	if a.MessagesAfter < 0 {
		return nil, refuse(http.StatusUnprocessableEntity, "messages_after: must be >= 0")
	}
	ms, err := s.cfg.Prospecting.Messages(ctx, c.caller.Principal.Org.ID, a.RunID, a.MessagesAfter)
	if err != nil {
		return nil, runError(err)
	}
	out := RunMessages{}
	out.Messages, err = runMessages(ms)
	return out, err
}

func (s *Server) replyRun(ctx context.Context, c *call) (any, error) {
	if err := paid(c.caller); err != nil {
		return nil, err
	}
	var a struct {
		RunID               string   `json:"run_id"`
		Checkpoint          string   `json:"checkpoint"`
		Action              string   `json:"action"`
		MaxSpendUSD         *float64 `json:"max_spend_usd"`
		MaxProviderSpendUSD *float64 `json:"max_provider_spend_usd"`
		Text                string   `json:"text"`
	}
	if err := decode(c, &a); err != nil {
		return nil, err
	}
	r, err := s.cfg.Prospecting.Reply(ctx, runActor(c), a.RunID, prospecting.ReplyRequest{Checkpoint: a.Checkpoint, Action: a.Action,
		MaxSpendUSD: a.MaxSpendUSD, MaxProviderSpendUSD: a.MaxProviderSpendUSD, Text: a.Text})
	if err != nil {
		return nil, runError(err)
	}
	return s.runView(ctx, r)
}
