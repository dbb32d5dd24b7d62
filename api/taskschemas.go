package api

import (
	"maps"
	"net/http"
	"reflect"
	"strconv"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/openprospect/prospectd/crm"
)

// taskResults are the types of `results` of each task status operation,
// by operation id, so the document (and generated clients) type a
// completed task's results instead of declaring them as any value.
var taskResults = map[string]struct {
	typ reflect.Type
	doc string
}{
	"segment-status":           {reflect.TypeFor[SegmentResults](), "Company profiles with segment fields"},
	"bulkmatch-status":         {reflect.TypeFor[[]map[string]any](), "One row per input row: `input:<column>` keys, the matched profile's fields, `match_confidence` and `match_error`"},
	"contact-match-status":     {reflect.TypeFor[[]ContactMatchResult](), "One entry per query, in order"},
	"contact-match-statusbulk": {reflect.TypeFor[[]ContactMatchResult](), "One entry per query, in order"},
	"crm-suppress-status":      {reflect.TypeFor[crm.SnapshotResult](), "The saved exclusion list now in force and what the snapshot read"},
}

// taskStatusResponses declares the 200 body of task status operation id:
// TaskStatusBody with `results` of the task's result type.
func (s *Server) taskStatusResponses(id string) map[string]*huma.Response {
	out := map[string]*huma.Response{}
	res, ok := taskResults[id]
	if !ok {
		return out
	}
	reg := s.api.OpenAPI().Components.Schemas
	base := reg.Schema(reflect.TypeFor[TaskStatusBody](), false, "TaskStatusBody")
	body := *base
	body.Properties = maps.Clone(base.Properties)
	results := reg.Schema(res.typ, true, "")
	body.Properties["results"] = &huma.Schema{Description: res.doc + "; present when the task completed", AllOf: []*huma.Schema{results}}
	name := ""
	for _, part := range strings.FieldsFunc(id, func(r rune) bool { return r == '-' }) {
		name += strings.ToUpper(part[:1]) + part[1:]
	}
	name += "Body"
	reg.Map()[name] = &body
	out[strconv.Itoa(http.StatusOK)] = &huma.Response{Description: "The task's status",
		Content: map[string]*huma.MediaType{"application/json": {Schema: &huma.Schema{Ref: "#/components/schemas/" + name}}}}
	return out
}
