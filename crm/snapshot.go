package crm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/record/domain"
	"github.com/openprospect/prospectd/saved"
	"github.com/openprospect/prospectd/store"
)

// KindSnapshot is the task kind of a suppression snapshot.
const KindSnapshot = "crm_snapshot"

// SnapshotInput is a snapshot task's input.
type SnapshotInput struct {
	Provider string `json:"provider"`
	Kind     string `json:"kind"`
	// UserID owns the saved list (who asked for the snapshot).
	UserID string `json:"user_id"`
}

// SnapshotResult is a finished snapshot.
type SnapshotResult struct {
	Provider string `json:"provider"`
	Kind     string `json:"kind"`
	// QueryID is the saved exclusion list now in force.
	QueryID string `json:"query_id"`
	// Domains / PersonaIDs are the list's sizes; Skipped counts CRM
	// records whose website is not a domain or whose email matched no
	// indexed contact.
	Domains    int  `json:"domain_count"`
	PersonaIDs int  `json:"persona_id_count"`
	Skipped    int  `json:"skipped"`
	Pages      int  `json:"pages"`
	Truncated  bool `json:"truncated"`
	// RateLimitWaits counts the provider's rate-limit answers waited out.
	RateLimitWaits int `json:"rate_limit_waits"`
}

// Snapshotter is the snapshot task body.
type Snapshotter struct {
	Service *Service
	// Contacts resolves CRM contact emails (the contacts kind).
	Contacts index.ContactSearcher
	// Limits caps the saved list (saved.DefaultLimits when zero).
	Limits saved.Limits
	// MaxWait caps one wait for a provider's rate limit (a daily cap
	// answered with a day's Retry-After is retried hourly); time.Hour when 0.
	MaxWait time.Duration
	// Sleep waits (tests shorten it); a context-aware timer when nil.
	Sleep func(ctx context.Context, d time.Duration) error
}

// maxCursorResets bounds restarts from the first page when a provider
// forgets a stored cursor.
const maxCursorResets = 3

// maxTransient bounds retries of one page after provider errors (5xx,
// network) before the snapshot fails.
const maxTransient = 5

// Run pages through the CRM from the task's checkpoint (so a snapshot
// interrupted by a restart resumes where it stopped), stores each page's
// domains or persona ids with the next cursor, and when the last page is
// in, saves the exclusion list and makes it the connection's list of that
// kind in one transaction: the previous list stays in force until then.
func (s *Snapshotter) Run(ctx context.Context, t store.Task, in SnapshotInput, progress func(int)) (res SnapshotResult, err error) {
	res = SnapshotResult{Provider: in.Provider, Kind: in.Kind}
	defer func() {
		// A failure the runner will record (not a stop, whose task resumes
		// from the checkpoint) leaves nothing to resume: drop the items.
		if err != nil && ctx.Err() == nil {
			if rerr := s.Service.store.ResetCRMCheckpoint(context.WithoutCancel(ctx), t.ID); rerr != nil {
				s.Service.cfg.Log.Error().Err(rerr).Str("task", t.ID).Msg("crm snapshot: drop checkpoint")
			}
		}
	}()
	kind, err := ValidKind(in.Kind)
	if err != nil {
		return res, err
	}
	st := s.Service.store
	conn, err := st.CRMConnection(ctx, t.OrgID, in.Provider)
	if err != nil {
		return res, fmt.Errorf("snapshot: %w", err)
	}
	cl, err := s.Service.client(ctx, conn)
	if err != nil {
		return res, fmt.Errorf("snapshot: %w", err)
	}
	cp, err := st.CRMCheckpoint(ctx, t.ID)
	if err != nil {
		return res, fmt.Errorf("snapshot checkpoint: %w", err)
	}
	if cp.Pages > 0 {
		s.Service.cfg.Log.Info().Str("task", t.ID).Int("pages", cp.Pages).Int("items", cp.Items).Msg("crm snapshot resumes from its checkpoint")
	}
	resets, transient := 0, 0
	for !cp.Done {
		p, err := cl.page(ctx, kind, cp.Cursor, pageSize)
		var rl *RateLimitError
		switch {
		case errors.As(err, &rl):
			res.RateLimitWaits++
			wait := rl.RetryAfter
			if max := s.maxWait(); wait > max {
				wait = max
			}
			s.Service.cfg.Log.Info().Str("task", t.ID).Str("provider", in.Provider).Bool("daily", rl.Daily).Dur("wait", wait).Msg("crm rate limit: waiting")
			if err := s.sleep(ctx, wait); err != nil {
				return res, err
			}
			continue
		case errors.Is(err, errCursorExpired) && resets < maxCursorResets:
			resets++
			if err := st.ResetCRMCheckpoint(ctx, t.ID); err != nil {
				return res, fmt.Errorf("snapshot: reset checkpoint: %w", err)
			}
			cp = Checkpoint{}
			continue
		case err != nil && !errors.Is(err, ErrNeedsReauth) && ctx.Err() == nil && transient < maxTransient:
			// A provider outage or a dropped connection: the same page
			// again after a growing pause.
			transient++
			s.Service.cfg.Log.Warn().Err(err).Str("task", t.ID).Int("attempt", transient).Msg("crm snapshot: page failed, retrying")
			if err := s.sleep(ctx, time.Duration(transient)*2*time.Second); err != nil {
				return res, err
			}
			continue
		case err != nil:
			return res, fmt.Errorf("snapshot page %d: %w", cp.Pages+1, err)
		}
		transient = 0
		items, skipped, err := s.resolve(ctx, kind, p.items)
		if err != nil {
			return res, err
		}
		res.Skipped += skipped
		if err := st.SaveCRMPage(ctx, t.ID, p.next, p.done, items); err != nil {
			return res, fmt.Errorf("snapshot: save page: %w", err)
		}
		cp.Pages++
		cp.Cursor, cp.Done = p.next, p.done
		// The total is unknown up front: progress approaches 95 and the
		// save makes it 100.
		progress(95 - 95*10/(10+cp.Pages))
	}
	res.Pages = cp.Pages
	items, err := st.CRMItems(ctx, t.ID)
	if err != nil {
		return res, fmt.Errorf("snapshot items: %w", err)
	}
	q, err := s.query(t, in, kind, items, &res)
	if err != nil {
		return res, err
	}
	q, err = st.FinishCRMSnapshot(ctx, t.ID, in.Provider, kind, q)
	if err != nil {
		return res, fmt.Errorf("snapshot: save list: %w", err)
	}
	res.QueryID = q.ID
	s.Service.cfg.Log.Info().Str("task", t.ID).Str("org", t.OrgID).Str("provider", in.Provider).Str("kind", kind).
		Str("query_id", q.ID).Int("domains", res.Domains).Int("persona_ids", res.PersonaIDs).Msg("crm snapshot saved")
	return res, nil
}

func (s *Snapshotter) maxWait() time.Duration {
	if s.MaxWait > 0 {
		return s.MaxWait
	}
	return time.Hour
}

func (s *Snapshotter) sleep(ctx context.Context, d time.Duration) error {
	if s.Sleep != nil {
		return s.Sleep(ctx, d)
	}
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-tm.C:
		return nil
	}
}

// resolve turns a page's raw values into list items: root domains of
// company websites, or the persona ids of indexed contacts with the CRM
// contacts' emails. Values that do not resolve are skipped and counted.
func (s *Snapshotter) resolve(ctx context.Context, kind string, raw []string) ([]string, int, error) {
	if kind == KindCompanies {
		out := make([]string, 0, len(raw))
		skipped := 0
		for _, v := range raw {
			d, err := domain.Normalize(v)
			if err != nil {
				skipped++
				continue
			}
			out = append(out, d)
		}
		return out, skipped, nil
	}
	if s.Contacts == nil {
		return nil, 0, errors.New("snapshot: no contact index to resolve emails against")
	}
	emails := make([]string, 0, len(raw))
	seen := map[string]bool{}
	for _, e := range raw {
		e = strings.ToLower(strings.TrimSpace(e))
		if strings.Contains(e, "@") && !seen[e] {
			seen[e] = true
			emails = append(emails, e)
		}
	}
	if len(emails) == 0 {
		return nil, len(raw), nil
	}
	r, err := s.Contacts.SearchContacts(ctx, index.ContactSearch{
		Filter: index.Terms{Field: index.ContactEmailField, Values: emails}, Limit: 10 * len(emails), MinSimilarity: -2})
	if err != nil {
		return nil, 0, fmt.Errorf("snapshot: resolve emails: %w", err)
	}
	out := make([]string, 0, len(r.Hits))
	found := map[string]bool{}
	for _, h := range r.Hits {
		out = append(out, strconv.FormatInt(h.Contact.PersonaID, 10))
		found[strings.ToLower(h.Contact.Email)] = true
	}
	skipped := len(raw) - len(emails)
	for _, e := range emails {
		if !found[e] {
			skipped++
		}
	}
	return out, skipped, nil
}

// query builds the saved exclusion list of a snapshot.
func (s *Snapshotter) query(t store.Task, in SnapshotInput, kind string, items []string, res *SnapshotResult) (saved.Query, error) {
	lim := s.Limits
	if lim.MaxDomains == 0 {
		lim = saved.DefaultLimits()
	}
	params, _ := json.Marshal(map[string]any{"crm_provider": in.Provider, "kind": kind, "task_id": t.ID})
	q := saved.Query{OrgID: t.OrgID, UserID: in.UserID, Name: ListName(in.Provider, kind), Action: saved.ActionExclusion,
		Tags: []string{"crm", "crm-" + in.Provider}, Params: params}
	if kind == KindCompanies {
		if len(items) > lim.MaxDomains {
			items, res.Truncated = items[:lim.MaxDomains], true
		}
		q.Domains = items
	} else {
		for _, it := range items {
			id, err := strconv.ParseInt(it, 10, 64)
			if err != nil {
				return q, fmt.Errorf("snapshot: stored persona id %q: %w", it, err)
			}
			q.PersonaIDs = append(q.PersonaIDs, id)
		}
		if len(q.PersonaIDs) > lim.MaxPersonaIDs {
			q.PersonaIDs, res.Truncated = q.PersonaIDs[:lim.MaxPersonaIDs], true
		}
	}
	q.DomainCount, q.PersonaIDCount = len(q.Domains), len(q.PersonaIDs)
	res.Domains, res.PersonaIDs = q.DomainCount, q.PersonaIDCount
	return q, nil
}

// ListName is the name of a provider's snapshot list of kind.
func ListName(provider, kind string) string {
	return "CRM suppression: " + provider + " " + kind
}
