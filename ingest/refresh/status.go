package refresh

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/openprospect/prospectd/store"
)

// SourceStatus is a configured source with its latest runs.
type SourceStatus struct {
	Name     string `json:"name"`
	Kind     string `json:"kind"`
	Mode     string `json:"mode"`
	Schedule string `json:"schedule,omitempty"`
	// Location is the path, or the URL without credentials and query.
	Location string     `json:"location,omitempty"`
	NextRun  *time.Time `json:"next_run_at,omitempty"`
	Runs     []RunView  `json:"runs"`
}

// RunView is a run as the API and the CLI show it.
type RunView struct {
	TaskID     string     `json:"task_id"`
	Source     string     `json:"source"`
	Trigger    string     `json:"trigger"`
	Status     string     `json:"status"`
	Attempts   int        `json:"attempts"`
	Progress   int        `json:"progress"`
	Counts     RunCounts  `json:"counts"`
	Rejects    []Reject   `json:"rejects,omitempty"`
	Error      string     `json:"error,omitempty"`
	CreatedAt  time.Time  `json:"created_at"`
	StartedAt  *time.Time `json:"started_at,omitempty"`
	FinishedAt *time.Time `json:"finished_at,omitempty"`
}

// ViewOf decodes a stored run; withRejects keeps its rejects.
func ViewOf(r store.RefreshRun, withRejects bool) RunView {
	v := RunView{TaskID: r.TaskID, Source: r.Source, Trigger: r.Trigger, Status: r.Status, Attempts: r.Attempts, Progress: r.Progress,
		Error: r.Error, CreatedAt: r.CreatedAt, StartedAt: r.StartedAt, FinishedAt: r.FinishedAt}
	if r.Counts != nil {
		_ = json.Unmarshal(r.Counts, &v.Counts)
	}
	if withRejects && r.Rejects != nil {
		_ = json.Unmarshal(r.Rejects, &v.Rejects)
	}
	return v
}

// Operator reports whether an organization's user of role may see and
// run refreshes: admins of the configured operator organizations only
// (an organization made by public signup has an admin too).
func (s *Service) Operator(orgName string, role store.Role) bool {
	return role == store.RoleAdmin && slices.Contains(s.Config.OperatorOrgs, orgName)
}

// Status returns the configured sources (only name when given; with
// ErrUnknownSource when there is no such source) with their latest limit
// runs, newest first; rejects are included when one source is asked for.
func (s *Service) Status(ctx context.Context, name string, limit int) ([]SourceStatus, error) {
	var out []SourceStatus
	for _, sc := range s.Config.Sources {
		if name != "" && sc.Name != name {
			continue
		}
		st := SourceStatus{Name: sc.Name, Kind: sc.Kind, Mode: sc.Mode, Schedule: sc.Schedule, Location: location(sc), Runs: []RunView{}}
		if sc.Schedule != "" {
			if sched, err := cron.ParseStandard(sc.Schedule); err == nil {
				next := sched.Next(time.Now().UTC())
				st.NextRun = &next
			}
		}
		runs, err := s.State.RefreshRuns(ctx, sc.Name, limit)
		if err != nil {
			return nil, err
		}
		for _, r := range runs {
			st.Runs = append(st.Runs, ViewOf(r, name != ""))
		}
		out = append(out, st)
	}
	if name != "" && len(out) == 0 {
		return nil, fmt.Errorf("%w: %q", ErrUnknownSource, name)
	}
	return out, nil
}

func location(sc SourceConfig) string {
	if sc.URL == "" {
		return sc.Path
	}
	u, err := url.Parse(sc.URL)
	if err != nil {
		return ""
	}
	u.User, u.RawQuery, u.Fragment = nil, "", ""
	return u.String()
}
