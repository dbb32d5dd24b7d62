package main

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// openapiDoc is the document the server serves at /v1/openapi.json, with
// every capability wired (research, integrations). The commands are built
// from it, so a route added to the server reaches the CLI by refreshing
// this file: go test ./cmd/prospect -run TestLiveServer -update-openapi.
//
//go:embed openapi.json
var openapiDoc []byte

type schema struct {
	Ref         string             `json:"$ref"`
	Type        any                `json:"type"`
	Format      string             `json:"format"`
	Description string             `json:"description"`
	Items       *schema            `json:"items"`
	Properties  map[string]*schema `json:"properties"`
	Required    []string           `json:"required"`
	OneOf       []*schema          `json:"oneOf"`
	AllOf       []*schema          `json:"allOf"`
	Enum        []any              `json:"enum"`
}

type parameter struct {
	Name        string  `json:"name"`
	In          string  `json:"in"`
	Required    bool    `json:"required"`
	Description string  `json:"description"`
	Schema      *schema `json:"schema"`
}

type operation struct {
	ID          string      `json:"operationId"`
	Summary     string      `json:"summary"`
	Description string      `json:"description"`
	Tags        []string    `json:"tags"`
	Parameters  []parameter `json:"parameters"`
	RequestBody *struct {
		Required bool `json:"required"`
		Content  map[string]struct {
			Schema *schema `json:"schema"`
		} `json:"content"`
	} `json:"requestBody"`

	Method string `json:"-"`
	Path   string `json:"-"`
}

type spec struct {
	Paths      map[string]map[string]json.RawMessage `json:"paths"`
	Components struct {
		Schemas map[string]*schema `json:"schemas"`
	} `json:"components"`
}

var httpMethods = map[string]bool{"get": true, "post": true, "put": true, "patch": true, "delete": true}

// parseSpec returns the document's operations sorted by id.
func parseSpec(b []byte) (*spec, []*operation, error) {
	var s spec
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, nil, fmt.Errorf("parse openapi document: %w", err)
	}
	var ops []*operation
	for path, item := range s.Paths {
		for method, raw := range item {
			if !httpMethods[method] {
				continue
			}
			op := &operation{}
			if err := json.Unmarshal(raw, op); err != nil {
				return nil, nil, fmt.Errorf("parse operation %s %s: %w", method, path, err)
			}
			if op.ID == "" {
				return nil, nil, fmt.Errorf("operation %s %s has no operationId", method, path)
			}
			op.Method, op.Path = strings.ToUpper(method), path
			ops = append(ops, op)
		}
	}
	sort.Slice(ops, func(i, j int) bool { return ops[i].ID < ops[j].ID })
	return &s, ops, nil
}

// resolve follows a $ref and a single allOf wrapper.
func (s *spec) resolve(sc *schema) *schema {
	for i := 0; sc != nil && i < 10; i++ {
		switch {
		case sc.Ref != "":
			sc = s.Components.Schemas[strings.TrimPrefix(sc.Ref, "#/components/schemas/")]
		case len(sc.AllOf) == 1 && sc.Type == nil:
			sc = sc.AllOf[0]
		default:
			return sc
		}
	}
	return sc
}

// kind is the JSON type a value of sc takes on the command line: an
// item-or-array oneOf is an array (the flag repeats).
func (s *spec) kind(sc *schema) string {
	sc = s.resolve(sc)
	if sc == nil {
		return "string"
	}
	for _, o := range sc.OneOf {
		if s.kind(o) == "array" {
			return "array"
		}
	}
	if len(sc.OneOf) > 0 {
		return s.kind(sc.OneOf[0])
	}
	switch t := sc.Type.(type) {
	case string:
		return t
	case []any:
		for _, x := range t {
			if x != "null" {
				return fmt.Sprint(x)
			}
		}
	}
	if sc.Properties != nil {
		return "object"
	}
	return "string"
}

// itemKind is the JSON type of an array's items.
func (s *spec) itemKind(sc *schema) string {
	sc = s.resolve(sc)
	if sc == nil {
		return "string"
	}
	for _, o := range sc.OneOf {
		if s.kind(o) == "array" {
			return s.itemKind(o)
		}
	}
	if sc.Items != nil {
		return s.kind(sc.Items)
	}
	return "string"
}
