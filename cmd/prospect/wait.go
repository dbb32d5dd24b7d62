package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// waiter says how to follow a task an operation starts: the id field of
// its answer and the status route to poll. TestWaitersCoverTasks fails
// when a POST operation answering a task, job or batch id is missing.
type waiter struct {
	idField    string
	statusPath string // {id} is replaced
}

var waiters = map[string]waiter{
	"bulkmatch":                  {"task_id", "/v1/bulkmatch/status/{id}"},
	"segment":                    {"task_id", "/v1/segment/status/{id}"},
	"contacts-bulk-match":        {"task_id", "/v1/bulkcontactmatch/status/{id}"},
	"gen-process":                {"task_id", "/v1/gen/status/{id}"},
	"gen-process-personas":       {"task_id", "/v1/gen/status/{id}"},
	"validate-icp":               {"task_id", "/v1/gen/status/{id}"},
	"contacts-discover-generate": {"task_id", "/v1/gen/status/{id}"},
	"email-find":                 {"job_id", "/v1/email/jobs/{id}"},
	"email-verify":               {"job_id", "/v1/email/jobs/{id}"},
	"email-find-batch":           {"batch_id", "/v1/email/batch/{id}/results"},
	"export-discover":            {"task_id", "/v1/exports/{id}"},
	"export-contacts":            {"task_id", "/v1/exports/{id}"},
}

// taskState is the part of a status answer the waiter reads.
type taskState struct {
	Status    string  `json:"status"`
	Progress  float64 `json:"progress"`
	Error     string  `json:"error"`
	Total     *int    `json:"total"`
	Completed int     `json:"completed"`
	Failed    int     `json:"failed"`
}

// done reports whether the task is over and whether it ended short.
func (s taskState) done() (over, partial bool) {
	if s.Total != nil { // an email batch
		return s.Completed+s.Failed >= *s.Total, s.Failed > 0
	}
	switch s.Status {
	case "completed":
		return true, false
	case "failed", "cancelled":
		return true, true
	}
	return false, false
}

func (s taskState) percent() float64 {
	if s.Total != nil && *s.Total > 0 {
		return 100 * float64(s.Completed+s.Failed) / float64(*s.Total)
	}
	if s.Status == "completed" {
		return 100
	}
	return s.Progress
}

// wait polls the status route of the task submitted answered and prints
// its final state.
func (a *app) wait(ctx context.Context, c *client, opID string, submitted *response) error {
	w := waiters[opID]
	var accepted map[string]any
	if err := json.Unmarshal(submitted.body, &accepted); err != nil {
		return fmt.Errorf("read %s answer: %w", opID, err)
	}
	id, _ := accepted[w.idField].(string)
	if id == "" {
		return fmt.Errorf("%s answer has no %s", opID, w.idField)
	}
	return a.follow(ctx, c, opID+" "+id, id, strings.ReplaceAll(w.statusPath, "{id}", id))
}

// statusRoute reports whether op is the status route of a task kind, so
// `prospect bulkmatch-status ID --wait` resumes waiting on a task.
func statusRoute(op *operation) bool {
	if op.Method != "GET" {
		return false
	}
	for _, w := range waiters {
		if trimParams(w.statusPath) == trimParams(op.Path) {
			return true
		}
	}
	return false
}

// trimParams drops the names of {name} segments: /a/{x}/b is /a/{}/b.
func trimParams(p string) string {
	var b strings.Builder
	depth := 0
	for _, r := range p {
		switch {
		case r == '{':
			depth++
			if depth == 1 {
				b.WriteString("{}")
			}
		case r == '}':
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// follow polls path until the task ends and prints its final state.
func (a *app) follow(ctx context.Context, c *client, label, id, path string) error {
	if a.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, a.timeout)
		defer cancel()
	}
	fmt.Fprintf(a.stderr, "%s: waiting (GET %s)\n", label, path)
	last := ""
	for {
		res, err := c.do(ctx, http.MethodGet, path, nil, "", nil)
		if err != nil {
			if ctx.Err() != nil {
				return a.waitTimeout(ctx, path, err)
			}
			return err
		}
		var st taskState
		if err := json.Unmarshal(res.body, &st); err != nil {
			return fmt.Errorf("read %s: %w", path, err)
		}
		over, partial := st.done()
		line := progressLine(st)
		if a.stderrTTY {
			fmt.Fprintf(a.stderr, "\r%s", line)
			if over {
				fmt.Fprintln(a.stderr)
			}
		} else if line != last {
			fmt.Fprintln(a.stderr, line)
		}
		last = line
		if over {
			if err := a.print(res.body); err != nil {
				return err
			}
			if partial {
				msg := fmt.Sprintf("task %s ended %s", id, st.Status)
				if st.Total != nil {
					msg = fmt.Sprintf("batch %s: %d of %d jobs failed", id, st.Failed, *st.Total)
				}
				if st.Error != "" {
					msg += ": " + st.Error
				}
				return withCode(exitPartial, errors.New(msg))
			}
			return nil
		}
		if err := c.sleep(ctx, a.pollInterval); err != nil {
			return a.waitTimeout(ctx, path, err)
		}
	}
}

func (a *app) waitTimeout(ctx context.Context, path string, err error) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("still running after --timeout %s; follow it with GET %s: %w", a.timeout, path, err)
	}
	return fmt.Errorf("stopped waiting; the task keeps running (GET %s): %w", path, err)
}

func progressLine(st taskState) string {
	const width = 30
	p := min(max(st.percent(), 0), 100)
	n := int(p * width / 100)
	status := st.Status
	if st.Total != nil {
		status = fmt.Sprintf("%d/%d done, %d failed", st.Completed+st.Failed, *st.Total, st.Failed)
	}
	return fmt.Sprintf("[%s%s] %3.0f%% %s", strings.Repeat("#", n), strings.Repeat(".", width-n), p, status)
}
