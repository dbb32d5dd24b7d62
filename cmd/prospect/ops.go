package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// reservedFlags are the global flags; an operation's field of the same
// name gets a body- prefix (--body-api-key on the provider configs), as
// does a body field named like a query parameter (form- for multipart
// fields: bulkmatch takes name_column in the query and the form).
var reservedFlags = map[string]bool{"api-key": true, "base-url": true, "output": true, "wait": true,
	"body": true, "dry-run": true, "timeout": true, "retries": true, "help": true, "poll-interval": true}

// flagName is the command-line spelling of an API name.
func flagName(name string) string { return strings.ReplaceAll(name, "_", "-") }

// field is one value an operation takes: a parameter or a body field.
type field struct {
	name     string // API name
	flag     string
	in       string // query, path, header, body, form, file
	kind     string // JSON type
	itemKind string
	required bool
}

// opFields lists the flags of op in a stable order.
func opFields(s *spec, op *operation) (fields []field, bodyType string) {
	used := map[string]bool{}
	add := func(f field) {
		f.flag = flagName(f.name)
		if reservedFlags[f.flag] || used[f.flag] {
			prefix := "body-"
			if f.in == "form" || f.in == "file" {
				prefix = "form-"
			}
			f.flag = prefix + f.flag
		}
		if used[f.flag] {
			return
		}
		used[f.flag] = true
		fields = append(fields, f)
	}
	for _, p := range op.Parameters {
		if p.In == "header" {
			continue
		}
		add(field{name: p.Name, in: p.In, kind: s.kind(p.Schema), itemKind: s.itemKind(p.Schema), required: p.Required})
	}
	if op.RequestBody == nil {
		return fields, ""
	}
	for _, ct := range []string{"application/json", "multipart/form-data"} {
		c, ok := op.RequestBody.Content[ct]
		if !ok {
			continue
		}
		bodyType = ct
		sc := s.resolve(c.Schema)
		if sc == nil {
			break
		}
		names := make([]string, 0, len(sc.Properties))
		for n := range sc.Properties {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			p := s.resolve(sc.Properties[n])
			in := "body"
			if ct == "multipart/form-data" {
				in = "form"
				if p != nil && (p.Format == "binary" || p.Format == "base64") {
					in = "file"
				}
			}
			add(field{name: n, in: in, kind: s.kind(p), itemKind: s.itemKind(p)})
		}
		break
	}
	if bodyType == "" {
		for ct := range op.RequestBody.Content {
			bodyType = ct
		}
	}
	return fields, bodyType
}

// defineFlags declares fields on fs. Booleans are bool flags; everything
// else is text the server validates (a typed flag would only move the
// error message away from the server's, which names the rule).
func defineFlags(fs *pflag.FlagSet, fields []field) {
	for _, f := range fields {
		usage := fmt.Sprintf("%s %s (%s)", f.in, f.name, f.kind)
		if f.required {
			usage += ", required"
		}
		switch {
		case f.in == "file":
			fs.String(f.flag, "", fmt.Sprintf("file to upload as form field %s", f.name))
		case f.kind == "boolean":
			fs.Bool(f.flag, false, usage)
		case f.kind == "array":
			fs.StringArray(f.flag, nil, usage+"; repeat the flag for more items")
		default:
			fs.String(f.flag, "", usage)
		}
	}
}

// request is an operation call ready to send.
type request struct {
	method, path string
	query        url.Values
	contentType  string
	body         []byte
	// op is the operation id and args its parameters and JSON body
	// fields by name (what POST /v1/estimate takes); multipart is true
	// for a file upload, which has no estimate.
	op        string
	args      map[string]any
	multipart bool
}

func encodeQuery(q map[string][]string) string { return url.Values(q).Encode() }

// jsonValue converts a flag's text to the field's JSON type.
func jsonValue(kind, text, name string) (any, error) {
	switch kind {
	case "integer":
		n, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return nil, withCode(exitUsage, fmt.Errorf("--%s: %q is not an integer", name, text))
		}
		return n, nil
	case "number":
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return nil, withCode(exitUsage, fmt.Errorf("--%s: %q is not a number", name, text))
		}
		return f, nil
	case "boolean":
		b, err := strconv.ParseBool(text)
		if err != nil {
			return nil, withCode(exitUsage, fmt.Errorf("--%s: %q is not true or false", name, text))
		}
		return b, nil
	case "object", "array":
		var v any
		if err := json.Unmarshal([]byte(text), &v); err != nil {
			return nil, withCode(exitUsage, fmt.Errorf("--%s: not JSON: %w", name, err))
		}
		return v, nil
	}
	return text, nil
}

// readArg reads @file (or @- for stdin) or returns the text itself.
func readArg(v string, stdin io.Reader) ([]byte, error) {
	if v == "@-" {
		return io.ReadAll(stdin)
	}
	if strings.HasPrefix(v, "@") {
		b, err := os.ReadFile(v[1:])
		if err != nil {
			return nil, withCode(exitUsage, fmt.Errorf("read %s: %w", v[1:], err))
		}
		return b, nil
	}
	return []byte(v), nil
}

// buildRequest turns the flags of an operation's command into a request.
func buildRequest(op *operation, fields []field, bodyType string, fs *pflag.FlagSet, args []string, stdin io.Reader) (*request, error) {
	r := &request{method: op.Method, path: op.Path, query: url.Values{}, op: op.ID, args: map[string]any{}}
	var pathFields []field
	for _, f := range fields {
		if f.in == "path" {
			pathFields = append(pathFields, f)
		}
	}
	if len(args) > len(pathFields) {
		return nil, withCode(exitUsage, fmt.Errorf("%s takes at most %d positional arguments (%s), got %d", op.ID, len(pathFields), flagList(pathFields), len(args)))
	}
	body := map[string]any{}
	if v, _ := fs.GetString("body"); v != "" {
		b, err := readArg(v, stdin)
		if err != nil {
			return nil, err
		}
		if bodyType != "application/json" {
			if bodyType == "" {
				return nil, withCode(exitUsage, fmt.Errorf("%s takes no request body", op.ID))
			}
			return nil, withCode(exitUsage, fmt.Errorf("--body: %s takes %s; use the field flags and --file", op.ID, bodyType))
		}
		if err := json.Unmarshal(b, &body); err != nil {
			return nil, withCode(exitUsage, fmt.Errorf("--body: not a JSON object: %w", err))
		}
	}
	var mbuf bytes.Buffer
	mw := multipart.NewWriter(&mbuf)
	pathIdx := 0
	for _, f := range fields {
		changed := fs.Changed(f.flag)
		if f.in == "path" && !changed && pathIdx < len(args) {
			_ = fs.Set(f.flag, args[pathIdx])
			changed = true
		}
		if f.in == "path" {
			pathIdx++
		}
		if !changed {
			if f.required && f.in != "body" {
				return nil, withCode(exitUsage, fmt.Errorf("--%s is required", f.flag))
			}
			continue
		}
		var texts []string
		switch {
		case f.in == "file":
			v, _ := fs.GetString(f.flag)
			texts = []string{v}
		case f.kind == "boolean":
			v, _ := fs.GetBool(f.flag)
			texts = []string{strconv.FormatBool(v)}
		case f.kind == "array":
			texts, _ = fs.GetStringArray(f.flag)
		default:
			v, _ := fs.GetString(f.flag)
			texts = []string{v}
		}
		switch f.in {
		case "path":
			r.path = strings.ReplaceAll(r.path, "{"+f.name+"}", url.PathEscape(texts[0]))
			r.args[f.name] = texts[0]
		case "query":
			r.query[f.name] = append(r.query[f.name], texts...)
			if f.kind == "array" {
				r.args[f.name] = r.query[f.name]
			} else {
				r.args[f.name] = texts[0]
			}
		case "form":
			for _, t := range texts {
				if err := mw.WriteField(f.name, t); err != nil {
					return nil, fmt.Errorf("write form: %w", err)
				}
			}
		case "file":
			if err := attachFile(mw, f.name, texts[0], stdin); err != nil {
				return nil, err
			}
		case "body":
			if f.kind == "array" {
				items := make([]any, 0, len(texts))
				for _, t := range texts {
					v, err := jsonValue(f.itemKind, t, f.flag)
					if err != nil {
						return nil, err
					}
					items = append(items, v)
				}
				body[f.name] = items
				continue
			}
			v, err := jsonValue(f.kind, texts[0], f.flag)
			if err != nil {
				return nil, err
			}
			body[f.name] = v
		}
	}
	switch bodyType {
	case "application/json":
		for k, v := range body {
			r.args[k] = v
		}
		b, err := json.Marshal(body)
		if err != nil {
			return nil, fmt.Errorf("encode body: %w", err)
		}
		r.body, r.contentType = b, bodyType
	case "multipart/form-data":
		if err := mw.Close(); err != nil {
			return nil, fmt.Errorf("write form: %w", err)
		}
		r.body, r.contentType, r.multipart = mbuf.Bytes(), mw.FormDataContentType(), true
	}
	return r, nil
}

func attachFile(mw *multipart.Writer, name, path string, stdin io.Reader) error {
	var rd io.Reader
	filename := filepath.Base(path)
	if path == "-" {
		rd, filename = stdin, "stdin.csv"
	} else {
		f, err := os.Open(path)
		if err != nil {
			return withCode(exitUsage, fmt.Errorf("--%s: %w", flagName(name), err))
		}
		defer f.Close()
		rd = f
	}
	w, err := mw.CreateFormFile(name, filename)
	if err != nil {
		return fmt.Errorf("write form: %w", err)
	}
	if _, err := io.Copy(w, rd); err != nil {
		return withCode(exitUsage, fmt.Errorf("read %s: %w", path, err))
	}
	return nil
}

func flagList(fs []field) string {
	var s []string
	for _, f := range fs {
		s = append(s, strings.ToUpper(f.flag))
	}
	return strings.Join(s, " ")
}

// aliases are short names: get-bizdata is also bizdata, get-usage usage.
func aliases(id string) []string {
	if a, ok := strings.CutPrefix(id, "get-"); ok {
		return []string{a}
	}
	return nil
}

// opCommand builds the command of one operation.
func (a *app) opCommand(op *operation) *cobra.Command {
	fields, bodyType := opFields(a.spec, op)
	var pathFields []field
	for _, f := range fields {
		if f.in == "path" {
			pathFields = append(pathFields, f)
		}
	}
	use := op.ID
	if len(pathFields) > 0 {
		use += " [" + flagList(pathFields) + "]"
	}
	long := op.Summary
	if op.Description != "" {
		long += "\n\n" + op.Description
	}
	long += fmt.Sprintf("\n\n%s %s", op.Method, op.Path)
	cmd := &cobra.Command{
		Use:     use,
		Aliases: aliases(op.ID),
		Short:   op.Summary,
		Long:    long,
		Args:    cobra.MaximumNArgs(len(pathFields)),
		RunE: func(cmd *cobra.Command, args []string) error {
			req, err := buildRequest(op, fields, bodyType, cmd.Flags(), args, a.stdin)
			if err != nil {
				return err
			}
			return a.call(cmd, op, req)
		},
	}
	if len(op.Tags) > 0 {
		cmd.GroupID = op.Tags[0]
	}
	defineFlags(cmd.Flags(), fields)
	if bodyType == "application/json" {
		cmd.Flags().String("body", "", "JSON request body: inline, @file.json or @- for stdin; field flags override its fields")
	}
	if _, ok := a.waiters[op.ID]; ok {
		cmd.Flags().Bool("wait", false, "wait for the task to finish, with progress on stderr, and print its final status")
	} else if a.statusRoute(op) {
		cmd.Flags().Bool("wait", false, "poll until the task ends, with progress on stderr, and print its final status")
	}
	return cmd
}
