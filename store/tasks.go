package store

import "time"

// Task statuses. A task is created in_progress and ends completed, failed
// or cancelled; cancelling is a cancel request not yet seen by its worker.
const (
	TaskInProgress = "in_progress"
	TaskCompleted  = "completed"
	TaskFailed     = "failed"
	TaskCancelling = "cancelling"
	TaskCancelled  = "cancelled"
)

// Task is a persisted asynchronous task (segment, bulk match, research…).
// Workers take tasks with ClaimTask, which leases the task to one worker
// until the lease expires: a crashed worker's task is claimed again once
// its lease runs out, and only the current lease owner may report
// progress, complete or fail it, once.
type Task struct {
	ID, OrgID, Kind string
	Status          string // TaskInProgress, TaskCompleted, TaskFailed, TaskCancelling, TaskCancelled
	Progress        int    // 0-100
	Input           []byte // JSON
	Result          []byte // JSON, set when completed
	Error           string // set when failed
	Attempts        int    // claims so far
	CreatedAt       time.Time
	UpdatedAt       time.Time
	FinishedAt      *time.Time
}

// Finished reports whether the task reached a terminal status.
func (t Task) Finished() bool {
	switch t.Status {
	case TaskCompleted, TaskFailed, TaskCancelled:
		return true
	}
	return false
}

// ClampProgress bounds a progress value to 0-100.
func ClampProgress(p int) int { return min(100, max(0, p)) }
