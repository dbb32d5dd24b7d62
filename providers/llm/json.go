package llm

import (
	"encoding/json"
	"errors"
	"strings"
)

// ErrNotJSON: a model's answer held no JSON object.
var ErrNotJSON = errors.New("answer is not a JSON object")

// ParseObject reads the JSON object in a model's answer, tolerating what
// models wrap it in when structured outputs are not enforced: code fences,
// a sentence before or after, trailing commas are not repaired.
func ParseObject(text string) (map[string]any, error) {
	s := strings.TrimSpace(text)
	if i := strings.Index(s, "```"); i >= 0 {
		rest := s[i+3:]
		if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
			rest = rest[nl+1:]
		}
		if j := strings.Index(rest, "```"); j >= 0 {
			s = strings.TrimSpace(rest[:j])
		}
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(s), &out); err == nil && out != nil {
		return out, nil
	}
	start := strings.IndexByte(s, '{')
	if start < 0 {
		return nil, ErrNotJSON
	}
	dec := json.NewDecoder(strings.NewReader(s[start:]))
	if err := dec.Decode(&out); err != nil || out == nil {
		return nil, ErrNotJSON
	}
	return out, nil
}
