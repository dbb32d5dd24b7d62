package api

import (
	"context"
	"errors"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/openprospect/prospectd/store"
)

// submit queues a task of kind for the caller's organization and answers
// 202 with its id.
func (s *Server) submit(ctx context.Context, p store.Principal, kind string, input any) (*taskAcceptedOutput, error) {
	if s.deps.Tasks == nil {
		return nil, s.internal(ctx, "submit "+kind, errors.New("no task runner (Deps.Tasks)"))
	}
	t, err := s.deps.Tasks.Submit(ctx, p.Org.ID, kind, input)
	if err != nil {
		return nil, s.internal(ctx, "submit "+kind, err)
	}
	return &taskAcceptedOutput{Status: http.StatusAccepted, Body: TaskAccepted{TaskID: t.ID, Status: t.Status}}, nil
}

// registerTaskStatus registers GET path reporting tasks of kind.
func (s *Server) registerTaskStatus(id, path, tag, summary, description, kind string) {
	huma.Register(s.api, huma.Operation{
		OperationID: id,
		Method:      http.MethodGet,
		Path:        path,
		Summary:     summary,
		Description: description,
		Tags:        []string{tag},
		Security:    authRequired,
		Errors:      []int{http.StatusUnauthorized, http.StatusNotFound},
		Responses:   s.taskStatusResponses(id),
	}, func(ctx context.Context, in *taskStatusInput) (*taskStatusOutput, error) {
		return s.taskStatus(ctx, in.TaskID, kind)
	})
}
