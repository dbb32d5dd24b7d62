// Package prospecting runs managed prospecting: a brief becomes a plan
// (quantities, limits, engines, estimate), the plan is approved, and the
// run works through its phases — companies (discovery and ICP checks),
// then people (contact search, contact research, email finding) — with
// checkpoints, spending limits and stop reasons, composing the services of
// query/, research/, email/ and saved/.
//
// A run is a persisted state machine: its whole progress is one document
// in the store (Store), advanced one step at a time by a task body (Runner)
// that the jobs runner drives. Every step is idempotent — ICP checks and
// contact research keep each record as it finishes (research records), the
// ledger never bills a record twice, email lookups are found again by
// their batch — so a server killed at any point resumes the run where it
// was without repeating billed work.
package prospecting
