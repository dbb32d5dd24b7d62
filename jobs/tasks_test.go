package jobs

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/openprospect/prospectd/ingest/crawl"
	"github.com/openprospect/prospectd/namematch"
	"github.com/openprospect/prospectd/query"
	"github.com/openprospect/prospectd/store"
)

// TestHandleRunsAFunc: a capability's Func gets its task, its input decoded
// from JSON and a progress reporter; its result is kept, its error fails
// the task, and a malformed input fails it before the body runs.
func TestHandleRunsAFunc(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	r := newRunner(e.st, 1, time.Second)
	type in struct {
		Words []string `json:"words"`
	}
	type out struct {
		Org   string `json:"org"`
		Count int    `json:"count"`
	}
	var progressed atomic.Bool
	handle(r, "count", Func[in, out](func(ctx context.Context, t store.Task, in in, progress func(int)) (out, error) {
		progress(50)
		progressed.Store(true)
		if len(in.Words) == 0 {
			return out{}, errors.New("no words")
		}
		return out{Org: t.OrgID, Count: len(in.Words)}, nil
	}))
	start(t, r)
	for _, tc := range []struct {
		input  any
		status string
		result string
		errMsg string
		ran    bool
	}{
		{input: in{Words: []string{"a", "b"}}, status: store.TaskCompleted, result: `{"org":"` + e.org.ID + `","count":2}`, ran: true},
		{input: in{}, status: store.TaskFailed, errMsg: "no words", ran: true},
		{input: map[string]any{"words": 3}, status: store.TaskFailed, errMsg: "decode input"},
	} {
		progressed.Store(false)
		task, err := r.Submit(ctx, e.org.ID, "count", tc.input)
		if err != nil {
			t.Fatal(err)
		}
		got := wait(t, e.st, e.org.ID, task.ID, "finished", finished)
		if got.Status != tc.status || string(got.Result) != tc.result || tc.errMsg != "" && !strings.Contains(got.Error, tc.errMsg) || progressed.Load() != tc.ran {
			t.Errorf("input %v: %+v (result %s), ran %v", tc.input, got, got.Result, progressed.Load())
		}
	}
}

// TestNewWiresEveryKind: the runner New builds accepts every task kind the
// API submits.
func TestNewWiresEveryKind(t *testing.T) {
	e := newEnv(t)
	r := New(Config{State: e.st})
	want := []string{namematch.KindBulkMatch, query.KindContactMatch, query.KindSegment}
	if got := r.registered(); !reflect.DeepEqual(got, want) {
		t.Fatalf("kinds %v, want %v", got, want)
	}
}

// TestNewWiresCrawl: with a crawler configured, New runs crawl tasks too.
func TestNewWiresCrawl(t *testing.T) {
	e := newEnv(t)
	r := New(Config{State: e.st, Crawl: &crawl.Task{}})
	if got := r.registered(); !slices.Contains(got, crawl.Kind) {
		t.Fatalf("kinds %v lack %s", got, crawl.Kind)
	}
}
