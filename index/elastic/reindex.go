package elastic

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/elastic/go-elasticsearch/v8/esapi"
)

// ErrReindexDiverged reports that the new generation does not hold the same
// number of documents as the live one (writes arrived during the copy); the
// alias is left where it was.
var ErrReindexDiverged = errors.New("re-indexed copy differs from the live index")

// ReindexResult describes a completed re-index.
type ReindexResult struct {
	From, To  string // concrete indices: the previous and the new generation
	Documents int
}

// reindexPoll is the pause between checks of a running re-index task.
var reindexPoll = 2 * time.Second

// Reindex builds the next generation of the companies index from the
// current template (New installs it, so a new mappings version takes effect
// here), copies every document into it with the _reindex API, checks the
// document counts agree, and moves the alias to it in one atomic _aliases
// call. Searches and gets keep being served from the old generation until
// the swap. The old index is kept for rollback; delete it when satisfied.
//
// Writes made while the copy runs land in the old generation and are not
// copied: stop ingestion first. Should one slip through, the counts differ
// and Reindex fails with ErrReindexDiverged without swapping. Vectors are
// copied as they are, so the vector dimension cannot change this way.
func (e *Engine) Reindex(ctx context.Context) (ReindexResult, error) {
	return e.reindex(ctx, e.companies())
}

// ReindexContacts does for the contact index what Reindex does for the
// companies: a new generation from the current contacts template, a copy,
// a count check and an atomic alias swap. Stop contact and company
// ingestion first (a company write updates its contacts' employer fields).
func (e *Engine) ReindexContacts(ctx context.Context) (ReindexResult, error) {
	return e.reindex(ctx, e.contacts())
}

func (e *Engine) reindex(ctx context.Context, kind indexKind) (ReindexResult, error) {
	alias := kind.alias
	from, err := e.liveIndexOf(ctx, alias)
	if err != nil {
		return ReindexResult{}, err
	}
	if from == "" {
		return ReindexResult{}, fmt.Errorf("elasticsearch: alias %s is missing", alias)
	}
	gen, ok := generationOf(alias, from)
	if !ok {
		return ReindexResult{}, fmt.Errorf("elasticsearch: live index %s is not named %s-v<N>", from, alias)
	}
	to := generationIndex(alias, gen+1)
	res := ReindexResult{From: from, To: to}
	if err := e.installTemplateOf(ctx, kind); err != nil {
		return res, err
	}
	if err := e.call(ctx, "create index "+to, esapi.IndicesCreateRequest{Index: to}, nil); err != nil {
		if isType(err, "resource_already_exists_exception") {
			return res, fmt.Errorf("elasticsearch: %s already exists (left by an earlier re-index?); delete it and retry: %w", to, err)
		}
		return res, err
	}
	if err := e.copyIndex(ctx, from, to); err != nil {
		return res, err
	}
	if err := e.call(ctx, "refresh "+to, esapi.IndicesRefreshRequest{Index: []string{to}}, nil); err != nil {
		return res, err
	}
	if err := e.call(ctx, "refresh "+from, esapi.IndicesRefreshRequest{Index: []string{from}}, nil); err != nil {
		return res, err
	}
	nFrom, err := e.countIndex(ctx, from)
	if err != nil {
		return res, err
	}
	nTo, err := e.countIndex(ctx, to)
	if err != nil {
		return res, err
	}
	if nFrom != nTo {
		return res, fmt.Errorf("elasticsearch: %w: %s has %d documents, %s %d; alias not moved", ErrReindexDiverged, from, nFrom, to, nTo)
	}
	res.Documents = nTo
	if err := e.updateAliases(ctx, swapAlias(alias, from, to)); err != nil {
		return res, fmt.Errorf("elasticsearch: move alias %s to %s: %w", alias, to, err)
	}
	e.noteLiveIndex(ctx, alias, to)
	return res, nil
}

type reindexBody struct {
	Source struct {
		Index string `json:"index"`
	} `json:"source"`
	Dest struct {
		Index  string `json:"index"`
		OpType string `json:"op_type"`
	} `json:"dest"`
}

// copyIndex runs _reindex as a task and polls it, so a copy of millions of
// documents outlives no HTTP timeout; cancelling ctx cancels the task.
func (e *Engine) copyIndex(ctx context.Context, from, to string) error {
	var body reindexBody
	body.Source.Index = from
	body.Dest.Index = to
	body.Dest.OpType = "create"
	b, _ := json.Marshal(body)
	no := false
	var started struct {
		Task string `json:"task"`
	}
	req := esapi.ReindexRequest{Body: bytes.NewReader(b), WaitForCompletion: &no, Slices: "auto"}
	if err := e.call(ctx, "reindex "+from+" into "+to, req, &started); err != nil {
		return err
	}
	if started.Task == "" {
		return fmt.Errorf("elasticsearch reindex: no task id in the answer")
	}
	for {
		var st struct {
			Completed bool        `json:"completed"`
			Error     *errorCause `json:"error"`
			Response  struct {
				Total    int               `json:"total"`
				Created  int               `json:"created"`
				Failures []json.RawMessage `json:"failures"`
			} `json:"response"`
		}
		if err := e.call(ctx, "reindex task "+started.Task, esapi.TasksGetRequest{TaskID: started.Task}, &st); err != nil {
			return err
		}
		if st.Completed {
			switch {
			case st.Error != nil:
				return fmt.Errorf("elasticsearch reindex %s: %s", from, st.Error)
			case len(st.Response.Failures) > 0:
				return fmt.Errorf("elasticsearch reindex %s: %d failures, first %s", from, len(st.Response.Failures), st.Response.Failures[0])
			}
			return nil
		}
		select {
		case <-ctx.Done():
			cctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			_ = e.call(cctx, "cancel reindex", esapi.TasksCancelRequest{TaskID: started.Task}, nil)
			cancel()
			return ctx.Err()
		case <-time.After(reindexPoll):
		}
	}
}

func (e *Engine) countIndex(ctx context.Context, name string) (int, error) {
	var res struct {
		Count int `json:"count"`
	}
	if err := e.call(ctx, "count "+name, esapi.CountRequest{Index: []string{name}}, &res); err != nil {
		return 0, err
	}
	return res.Count, nil
}
