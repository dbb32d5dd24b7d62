package refresh

import (
	"context"
	"sync"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/openprospect/prospectd/store"
)

// Schedule fires the configured sources' schedules until ctx ends (times
// in UTC). Every process sharing the store runs the schedules; at each
// firing one of them claims it in the store and submits the run, and none
// does while an earlier run of the source is still queued or running (a
// slow run is not piled up behind).
func (s *Service) Schedule(ctx context.Context) (wait func()) {
	var wg sync.WaitGroup
	for _, sc := range s.Config.Sources {
		if sc.Schedule == "" {
			continue
		}
		sched, err := cron.ParseStandard(sc.Schedule)
		if err != nil { // checked by ParseConfig
			s.Log.Error().Err(err).Str("source", sc.Name).Msg("refresh schedule")
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.fireLoop(ctx, sc.Name, sched)
		}()
	}
	return wg.Wait
}

func (s *Service) fireLoop(ctx context.Context, name string, sched cron.Schedule) {
	log := s.Log.With().Str("source", name).Logger()
	for {
		at := sched.Next(time.Now().UTC())
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Until(at)):
		}
		won, err := s.State.ClaimRefreshFire(ctx, name, at)
		if err != nil {
			log.Error().Err(err).Msg("claim refresh firing")
			continue
		}
		if !won {
			continue // another process submitted it
		}
		busy, err := s.busy(ctx, name)
		if err != nil {
			log.Error().Err(err).Msg("look up earlier refresh runs")
			continue
		}
		if busy {
			log.Info().Msg("scheduled refresh skipped: the previous run of this source has not finished")
			continue
		}
		r, err := s.Submit(ctx, name, TriggerSchedule)
		if err != nil {
			log.Error().Err(err).Msg("submit scheduled refresh")
			continue
		}
		log.Info().Str("task", r.TaskID).Time("fired_at", at).Msg("scheduled refresh submitted")
	}
}

// busy reports whether a run of the source is still queued or running,
// by its task (a run record alone can outlive a task given up).
func (s *Service) busy(ctx context.Context, name string) (bool, error) {
	runs, err := s.State.RefreshRuns(ctx, name, 5)
	if err != nil {
		return false, err
	}
	org, err := s.systemOrg(ctx)
	if err != nil {
		return false, err
	}
	for _, r := range runs {
		switch r.Status {
		case store.RefreshCompleted, store.RefreshFailed:
			continue
		}
		t, err := s.State.GetTask(ctx, org, r.TaskID)
		if err != nil {
			continue
		}
		if t.Status == store.TaskInProgress || t.Status == store.TaskCancelling {
			return true, nil
		}
	}
	return false, nil
}
