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
	"unicode/utf8"
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

// params reads url.Values with the conventions of its ParamTable: arrays
// are repeated parameters (some also comma-separated), scalars may appear
// once, limits and defaults come from the table, and every parameter not
// in the table is unknown. Problems accumulate in errs so one response
// names all of them.
type params struct {
	v     url.Values
	table map[string]Param
	errs  []ParamError
}

func newParams(v url.Values, t ParamTable) *params { return &params{v: v, table: t.index()} }

// spec returns the declaration of name. A parser reading a parameter its
// table does not declare is a programming error the tests catch.
func (p *params) spec(name string) Param {
	s, ok := p.table[name]
	if !ok {
		panic("query: parameter " + name + " is not declared in its table")
	}
	return s
}

func (p *params) fail(name, value, format string, args ...any) {
	p.errs = append(p.errs, ParamError{Param: name, Rule: fmt.Sprintf(format, args...), Value: value})
}

// err returns the accumulated problems, unknown parameters first.
func (p *params) err() error {
	var unknown []string
	for k := range p.v {
		if _, ok := p.table[k]; !ok {
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
	p.spec(name)
	vals, ok := p.v[name]
	if !ok {
		return "", false
	}
	if len(vals) > 1 {
		p.fail(name, "", "given %d times; it takes one value", len(vals))
	}
	return strings.TrimSpace(vals[0]), true
}

// text reads a free-text scalar within the declared length; an empty
// value counts as omitted.
func (p *params) text(name string) string {
	sp := p.spec(name)
	s, _ := p.scalar(name)
	if s == "" {
		return ""
	}
	if n := utf8.RuneCountInString(s); n < sp.MinLen || sp.MaxLen > 0 && n > sp.MaxLen {
		p.fail(name, "", "must be %d-%d characters, got %d", sp.MinLen, sp.MaxLen, n)
		return ""
	}
	return s
}

// integer reads an integer within the declared bounds; the default when
// absent.
func (p *params) integer(name string) (int, bool) {
	sp := p.spec(name)
	def, _ := sp.Default.(int)
	s, ok := p.scalar(name)
	if !ok || s == "" {
		return def, false
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		p.fail(name, s, "must be an integer %s", boundsDoc(sp))
		return def, false
	}
	if n < sp.Min || sp.Bounded() && n > sp.Max {
		p.fail(name, s, "must be %s", boundsDoc(sp))
		return def, false
	}
	return n, true
}

func boundsDoc(sp Param) string {
	if sp.Bounded() {
		return fmt.Sprintf("between %d and %d", sp.Min, sp.Max)
	}
	return fmt.Sprintf("of at least %d", sp.Min)
}

// boolean reads true/false (also 1/0, yes/no); the default when absent.
func (p *params) boolean(name string) bool {
	def, _ := p.spec(name).Default.(bool)
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

// list reads an array parameter: repeated, and split on commas when the
// table says its values cannot contain one. Blank items are dropped,
// duplicates removed, order kept; more than the declared items fail.
func (p *params) list(name string) []string {
	sp := p.spec(name)
	var out []string
	for _, v := range p.v[name] {
		items := []string{v}
		if sp.Commas {
			items = strings.Split(v, ",")
		}
		for _, it := range items {
			it = strings.TrimSpace(it)
			if it != "" && !slices.Contains(out, it) {
				out = append(out, it)
			}
		}
	}
	if sp.MaxItems > 0 && len(out) > sp.MaxItems {
		p.fail(name, "", "at most %d values, got %d", sp.MaxItems, len(out))
		return out[:sp.MaxItems]
	}
	return out
}
