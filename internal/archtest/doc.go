// Package archtest holds the tests that enforce the layout's import rules
// (docs/decisions.md, "Layout"): nothing below api/ imports api/, query/
// does not reach ingest/, and task bodies live below api/, wired by jobs/.
// It has no code of its own; `go test ./internal/archtest` runs the rules.
package archtest
