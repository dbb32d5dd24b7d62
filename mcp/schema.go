package mcp

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/danielgtaylor/huma/v2"
)

// operationSchema is the input schema of a REST operation as a tool's
// JSON Schema: its query and path parameters and its JSON body's
// properties as one object. It reads the OpenAPI document the routes are
// served from, so a parameter declared for the route appears here with
// the same type, limits and text.
func operationSchema(doc *huma.OpenAPI, id string) (map[string]any, error) {
	if doc == nil {
		return nil, fmt.Errorf("no OpenAPI document for operation %s", id)
	}
	var op *huma.Operation
	for _, item := range doc.Paths {
		for _, o := range []*huma.Operation{item.Get, item.Post, item.Put, item.Patch, item.Delete} {
			if o != nil && o.OperationID == id {
				op = o
			}
		}
	}
	if op == nil {
		return nil, fmt.Errorf("no operation %s in the OpenAPI document", id)
	}
	var components map[string]any
	if doc.Components != nil && doc.Components.Schemas != nil {
		if err := remarshal(doc.Components.Schemas.Map(), &components); err != nil {
			return nil, err
		}
	}
	props := map[string]any{}
	var required []string
	open := false
	for _, p := range op.Parameters {
		if p == nil || (p.In != "query" && p.In != "path") || p.Schema == nil {
			continue
		}
		var ps map[string]any
		if err := remarshal(p.Schema, &ps); err != nil {
			return nil, err
		}
		ps = resolve(ps, components, 0).(map[string]any)
		if p.Description != "" {
			ps["description"] = p.Description
		}
		props[p.Name] = ps
		if p.Required {
			required = append(required, p.Name)
		}
	}
	if rb := op.RequestBody; rb != nil {
		if mt := rb.Content["application/json"]; mt != nil && mt.Schema != nil {
			var bs map[string]any
			if err := remarshal(mt.Schema, &bs); err != nil {
				return nil, err
			}
			bs = resolve(bs, components, 0).(map[string]any)
			if bp, ok := bs["properties"].(map[string]any); ok {
				for k, v := range bp {
					if k != "$schema" {
						props[k] = v
					}
				}
			}
			if req, ok := bs["required"].([]any); ok {
				for _, r := range req {
					if s, ok := r.(string); ok {
						required = append(required, s)
					}
				}
			}
			if ap, ok := bs["additionalProperties"]; ok && ap != false {
				open = true
			}
		}
	}
	out := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		out["required"] = required
	}
	// An operation that parses its own input (it rejects unknown names
	// itself) declares an open body; say so rather than refuse fields.
	if !open {
		out["additionalProperties"] = false
	}
	if op.Description != "" && open {
		out["description"] = op.Description
	}
	return out, nil
}

// resolve inlines "#/components/schemas/X" references; depth bounds a
// recursive type (never present in this API, refused if one appears).
func resolve(v any, components map[string]any, depth int) any {
	switch x := v.(type) {
	case map[string]any:
		if ref, ok := x["$ref"].(string); ok && depth < 8 {
			name := strings.TrimPrefix(ref, "#/components/schemas/")
			if c, ok := components[name]; ok {
				return resolve(c, components, depth+1)
			}
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			if k == "$schema" {
				continue
			}
			out[k] = resolve(e, components, depth)
		}
		if p, ok := out["properties"].(map[string]any); ok {
			delete(p, "$schema")
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = resolve(e, components, depth)
		}
		return out
	}
	return v
}

func remarshal(in, out any) error {
	b, err := json.Marshal(in)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}
