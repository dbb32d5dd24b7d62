// Package query owns the request side of search: it turns the parameters of
// discovery and contact search into validated, engine-neutral requests
// (index.Filter trees and query vectors) and runs them against an
// index.Engine. The REST handlers, the MCP tools and the CLI all call it,
// so every rule about parameters (limits, defaults, region expansion,
// prompt extraction) lives here once.
package query

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// ErrNoEmbedder: the index has no embedder yet (nothing was loaded), so
// text and lookalike inputs cannot be turned into vectors.
var ErrNoEmbedder = errors.New("the index has no embedder yet: load companies first")

// ParamError is one rejected parameter and the rule it broke.
type ParamError struct {
	Param string `json:"param"`
	Rule  string `json:"rule"`
	Value string `json:"value,omitempty"`
}

// Error is a rejected request. Status is the HTTP status the spec gives
// the failure (422 for invalid parameters, 404 for an unknown saved
// query); Params lists every problem found, not only the first.
type Error struct {
	Status int
	Params []ParamError
}

func (e *Error) Error() string {
	parts := make([]string, len(e.Params))
	for i, p := range e.Params {
		parts[i] = p.Param + ": " + p.Rule
	}
	return strings.Join(parts, "; ")
}

// params reads url.Values with the spec's conventions: arrays are repeated
// parameters (some also comma-separated), scalars may appear once, and
// every parameter not read is unknown. Problems accumulate in errs so one
// response names all of them.
type params struct {
	v    url.Values
	used map[string]bool
	errs []ParamError
}

func newParams(v url.Values) *params { return &params{v: v, used: map[string]bool{}} }

func (p *params) fail(name, value, format string, args ...any) {
	p.errs = append(p.errs, ParamError{Param: name, Rule: fmt.Sprintf(format, args...), Value: value})
}

// err returns the accumulated problems, unknown parameters first.
func (p *params) err(known []string) error {
	var unknown []string
	for k := range p.v {
		if !slices.Contains(known, k) {
			unknown = append(unknown, k)
		}
	}
	slices.Sort(unknown)
	errs := make([]ParamError, 0, len(unknown)+len(p.errs))
	for _, k := range unknown {
		errs = append(errs, ParamError{Param: k, Rule: "unknown parameter (see /v1/openapi.json for the accepted ones)"})
	}
	errs = append(errs, p.errs...)
	if len(errs) == 0 {
		return nil
	}
	return &Error{Status: http.StatusUnprocessableEntity, Params: errs}
}

// scalar returns the one value of name ("" when absent) and whether it
// was given.
func (p *params) scalar(name string) (string, bool) {
	vals, ok := p.v[name]
	if !ok {
		return "", false
	}
	if len(vals) > 1 {
		p.fail(name, "", "given %d times; it takes one value", len(vals))
	}
	return strings.TrimSpace(vals[0]), true
}

// text reads a free-text scalar of minLen-maxLen characters; an empty
// value counts as omitted.
func (p *params) text(name string, minLen, maxLen int) string {
	s, _ := p.scalar(name)
	if s == "" {
		return ""
	}
	if n := len([]rune(s)); n < minLen || n > maxLen {
		p.fail(name, "", "must be %d-%d characters, got %d", minLen, maxLen, n)
		return ""
	}
	return s
}

// integer reads an integer within [lo, hi]; def when absent.
func (p *params) integer(name string, lo, hi, def int) (int, bool) {
	s, ok := p.scalar(name)
	if !ok || s == "" {
		return def, false
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		p.fail(name, s, "must be an integer between %d and %d", lo, hi)
		return def, false
	}
	if n < lo || n > hi {
		p.fail(name, s, "must be between %d and %d", lo, hi)
		return def, false
	}
	return n, true
}

// boolean reads true/false (also 1/0, yes/no); def when absent.
func (p *params) boolean(name string, def bool) bool {
	s, ok := p.scalar(name)
	if !ok || s == "" {
		return def
	}
	switch strings.ToLower(s) {
	case "true", "1", "yes", "on":
		return true
	case "false", "0", "no", "off":
		return false
	}
	p.fail(name, s, "must be true or false")
	return def
}

// list reads an array parameter: repeated, and split on commas when
// commas is set (values that cannot contain a comma). Blank items are
// dropped, duplicates removed, order kept; more than max items fail.
func (p *params) list(name string, commas bool, max int) []string {
	var out []string
	for _, v := range p.v[name] {
		items := []string{v}
		if commas {
			items = strings.Split(v, ",")
		}
		for _, it := range items {
			it = strings.TrimSpace(it)
			if it != "" && !slices.Contains(out, it) {
				out = append(out, it)
			}
		}
	}
	if max > 0 && len(out) > max {
		p.fail(name, "", "at most %d values, got %d", max, len(out))
		return out[:max]
	}
	return out
}
