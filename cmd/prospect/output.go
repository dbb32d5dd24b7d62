package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"text/tabwriter"
)

// rowKeys are the fields of an answer holding its rows, in preference order.
var rowKeys = []string{"results", "data", "companies", "contacts", "matches", "records", "items", "queries", "integrations", "providers", "models"}

// rows returns the list of records in an answer, or nil when it is one object.
func rows(v any) []any {
	switch t := v.(type) {
	case []any:
		return t
	case map[string]any:
		for _, k := range rowKeys {
			switch l := t[k].(type) {
			case []any:
				return l
			case map[string]any:
				// Results keyed by domain (contact discovery): one row each.
				keys := make([]string, 0, len(l))
				for key, v := range l {
					if _, ok := v.(map[string]any); !ok {
						return nil
					}
					keys = append(keys, key)
				}
				if len(keys) == 0 {
					return nil
				}
				sort.Strings(keys)
				out := make([]any, len(keys))
				for i, key := range keys {
					out[i] = l[key]
				}
				return out
			}
		}
	}
	return nil
}

// columns are the union of the rows' keys in first-seen order.
func columns(rs []any) []string {
	seen := map[string]bool{}
	var cols []string
	for _, r := range rs {
		m, ok := r.(map[string]any)
		if !ok {
			continue
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			if !seen[k] {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			seen[k] = true
			cols = append(cols, k)
		}
	}
	return cols
}

// cell is a value as text: scalars plain, the rest compact JSON.
func cell(v any) string {
	switch t := v.(type) {
	case nil:
		return ""
	case string:
		return t
	case float64, bool:
		return fmt.Sprint(t)
	case json.Number:
		return t.String()
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func decode(body []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// print writes an answer in the chosen format.
func (a *app) print(body []byte) error {
	format := a.output
	if format == "" {
		format = "json"
		if a.stdoutTTY {
			format = "table"
		}
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil
	}
	v, err := decode(body)
	if err != nil {
		// Not JSON (a CSV export, say): pass it through.
		_, err := a.stdout.Write(body)
		return err
	}
	switch format {
	case "json":
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(a.stdout, "%s\n", b)
		return err
	case "jsonl":
		items := rows(v)
		if items == nil {
			items = []any{v}
		}
		for _, it := range items {
			b, err := json.Marshal(it)
			if err != nil {
				return err
			}
			if _, err := fmt.Fprintf(a.stdout, "%s\n", b); err != nil {
				return err
			}
		}
		return nil
	case "csv":
		items := rows(v)
		if items == nil {
			items = []any{v}
		}
		cols := columns(items)
		w := csv.NewWriter(a.stdout)
		_ = w.Write(cols)
		for _, it := range items {
			m, _ := it.(map[string]any)
			rec := make([]string, len(cols))
			for i, c := range cols {
				rec[i] = cell(m[c])
			}
			_ = w.Write(rec)
		}
		w.Flush()
		return w.Error()
	case "table":
		return a.table(v)
	}
	return withCode(exitUsage, fmt.Errorf("--output: %q is not table, json, jsonl or csv", format))
}

func truncate(s string, n int) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

func (a *app) table(v any) error {
	tw := tabwriter.NewWriter(a.stdout, 0, 0, 2, ' ', 0)
	items := rows(v)
	if items == nil {
		m, ok := v.(map[string]any)
		if !ok {
			fmt.Fprintln(tw, cell(v))
			return tw.Flush()
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(tw, "%s\t%s\n", k, truncate(cell(m[k]), 100))
		}
		return tw.Flush()
	}
	if m, ok := v.(map[string]any); ok {
		// The answer's own fields (status, total) above its rows.
		keys := make([]string, 0, len(m))
		for k, x := range m {
			if _, isList := x.([]any); !isList {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(a.stdout, "%s: %s\n", k, truncate(cell(m[k]), 100))
		}
	}
	cols := columns(items)
	fmt.Fprintln(tw, strings.ToUpper(strings.Join(cols, "\t")))
	for _, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			fmt.Fprintln(tw, truncate(cell(it), 60))
			continue
		}
		cells := make([]string, len(cols))
		for i, c := range cols {
			cells[i] = truncate(cell(m[c]), 40)
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	return tw.Flush()
}
