package api

import (
	"encoding/json"
	"io"

	"github.com/danielgtaylor/huma/v2"
	gojson "github.com/goccy/go-json"
)

// jsonFormat is huma's JSON format (an encoding/json Encoder without HTML
// escaping) except for discovery's result page, which goccy/go-json writes:
// 100 profiles (~120 KB) took 1.3 ms with encoding/json and 0.37 ms with
// goccy on the same loaded machine, a cost of every discovery request that
// is not search (docs/benchmarks.md, "The HTTP ratio: what is not the
// engine"). The bytes are the same: TestDiscoverPageEncodingMatchesJSON
// holds goccy to encoding/json on every field of the page, so other bodies
// stay with encoding/json rather than widening what must be checked.
var jsonFormat = huma.Format{
	Marshal: func(w io.Writer, v any) error {
		if page, ok := v.([]DiscoveredCompany); ok {
			return encodePage(w, page)
		}
		return huma.DefaultJSONFormat.Marshal(w, v)
	},
	Unmarshal: json.Unmarshal,
}

// jsonFormats is huma's default format table with jsonFormat for JSON.
func jsonFormats() map[string]huma.Format {
	out := make(map[string]huma.Format, len(huma.DefaultFormats))
	for ct, f := range huma.DefaultFormats {
		out[ct] = f
	}
	out["application/json"] = jsonFormat
	out["json"] = jsonFormat
	return out
}

// encodePage writes page as encoding/json's Encoder with SetEscapeHTML(false)
// does, newline included (goccy's Encoder writes the value in one Write
// from a pooled buffer of its own).
func encodePage(w io.Writer, page []DiscoveredCompany) error {
	enc := gojson.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(page)
}
