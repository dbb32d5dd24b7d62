package api

import (
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/openprospect/prospectd/query"
)

// rawQuery captures the whole query string: discovery and contact search
// parse and validate their parameters in query/ from a query.ParamTable
// (repeated arrays, comma rules, unknown names rejected), which Huma's
// per-field binding cannot express. The same table declares the
// parameters in the document (queryParams).
type rawQuery struct {
	values url.Values
}

func (r *rawQuery) Resolve(ctx huma.Context) []error {
	u := ctx.URL()
	v, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return []error{&huma.ErrorDetail{Location: "query", Message: "malformed query string: " + err.Error()}}
	}
	r.values = v
	return nil
}

// queryParams declares a parameter table as query parameters.
func (s *Server) queryParams(t query.ParamTable) []*huma.Param {
	out := make([]*huma.Param, 0, len(t))
	for _, p := range t {
		explode := p.Array
		out = append(out, &huma.Param{Name: p.Name, In: "query", Description: paramDoc(p, false), Schema: s.paramSchema(p, false),
			Explode: &explode, Deprecated: p.Deprecated})
	}
	return out
}

// bodySchema declares a parameter table as the properties of a JSON
// object; unknown properties are refused. An array parameter also takes a
// single item, as query.ParseContactBody does.
func (s *Server) bodySchema(t query.ParamTable, description string) *huma.Schema {
	b := &huma.Schema{Type: huma.TypeObject, Description: description, Properties: map[string]*huma.Schema{},
		AdditionalProperties: false}
	for _, p := range t {
		b.Properties[p.Name] = s.paramSchema(p, true)
	}
	return b
}

// enumSchema registers the values of an enum parameter as a named schema
// (filter_industry and negate_filter_industry share "FilterIndustry"), so
// generated clients get one type per vocabulary.
func (s *Server) enumSchema(p query.Param) *huma.Schema {
	name := ""
	for _, part := range strings.Split(strings.TrimPrefix(p.Name, "negate_"), "_") {
		name += strings.ToUpper(part[:1]) + part[1:]
	}
	e := &huma.Schema{Type: huma.TypeString}
	for _, v := range p.Enum {
		e.Enum = append(e.Enum, v)
	}
	schemas := s.api.OpenAPI().Components.Schemas.Map()
	if old, ok := schemas[name]; ok && !slices.Equal(old.Enum, e.Enum) {
		panic("api: two enum parameters named " + name + " declare different values")
	}
	schemas[name] = e
	return &huma.Schema{Ref: "#/components/schemas/" + name}
}

// paramDoc is the parameter's description with how several values are
// given, in a query string or in a body.
func paramDoc(p query.Param, body bool) string {
	switch {
	case !p.Array:
		return p.Doc
	case body && p.Commas:
		return p.Doc + " An array, a single value, or values separated by commas."
	case body:
		return p.Doc + " An array or a single value."
	case p.Commas:
		return p.Doc + " Repeat the parameter or separate values with commas."
	}
	return p.Doc + " Repeat the parameter for several values."
}

// paramSchema is the schema of one declared parameter; in a body an
// array parameter is one item or an array of them.
func (s *Server) paramSchema(p query.Param, body bool) *huma.Schema {
	item := &huma.Schema{Type: string(p.Type)}
	switch {
	case len(p.Enum) > 0:
		item = s.enumSchema(p)
	case p.Type == query.String:
		if p.MinLen > 0 {
			item.MinLength = ptr(p.MinLen)
		}
		if p.MaxLen > 0 {
			item.MaxLength = ptr(p.MaxLen)
		}
	case p.Type == query.Integer:
		item.Minimum = ptr(float64(p.Min))
		if p.Bounded() {
			item.Maximum = ptr(float64(p.Max))
		}
		item.Format = "int64"
	}
	if !p.Array && item.Ref != "" {
		return &huma.Schema{Description: paramDoc(p, body), Default: p.Default, AllOf: []*huma.Schema{item}}
	}
	if !p.Array {
		item.Description = paramDoc(p, body)
		item.Default = p.Default
		item.Deprecated = p.Deprecated
		return item
	}
	arr := &huma.Schema{Type: huma.TypeArray, Items: item}
	if p.MaxItems > 0 {
		arr.MaxItems = ptr(p.MaxItems)
	}
	if !body {
		return arr
	}
	return &huma.Schema{Description: paramDoc(p, body), Deprecated: p.Deprecated, OneOf: []*huma.Schema{item, arr}}
}

func ptr[T any](v T) *T { return &v }

// queryError turns a query.Error into a problem document whose detail
// names every parameter and rule; loc is where the parameters came from
// ("query" or "body").
func queryError(err error, loc string) error {
	var qe *query.Error
	if !errors.As(err, &qe) {
		return huma.Error422UnprocessableEntity(err.Error())
	}
	details := make([]error, len(qe.Params))
	for i, p := range qe.Params {
		l := loc + "." + p.Param
		if p.Param == loc {
			l = loc // the whole body
		}
		d := &huma.ErrorDetail{Location: l, Message: p.Rule}
		if p.Value != "" {
			d.Value = p.Value
		}
		details[i] = d
	}
	msg := "invalid parameters"
	if qe.Status == http.StatusNotFound {
		msg = "not found"
	}
	return huma.NewError(qe.Status, msg, details...)
}
