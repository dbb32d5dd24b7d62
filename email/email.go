// Package email finds and verifies work email addresses, as one pipeline
// of small stages that each keep their evidence: name normalization and
// candidate ranking (the domain's known pattern first, then the common
// ones), MX lookup (email/dnsmx), an SMTP probe of a random local part and
// every candidate on one connection (email/smtpprobe), and a verdict —
// found only when exactly one candidate is accepted by a server that
// refuses made-up mailboxes.
//
// The Service around the Finder keeps the jobs durable in the state store
// (store.EmailStore), runs them as tasks of the jobs runner, caches
// results per address and catch-all status per domain, rechecks
// greylisted lookups after the server's delay, and bills found addresses.
package email

import (
	"time"

	"github.com/openprospect/prospectd/email/smtpprobe"
)

// Kinds of lookup.
const (
	KindFind   = "find"
	KindVerify = "verify"
)

// Result statuses (the spec's list).
const (
	StatusFound           = "found"
	StatusNotFound        = "not_found"
	StatusCatchAll        = "catch_all"
	StatusCatchAllPattern = "catch_all_pattern"
	StatusUndeliverable   = "undeliverable"
	StatusInconclusive    = "inconclusive"
	StatusAmbiguous       = "ambiguous"
	StatusError           = "error"
	StatusTimeout         = "timeout"
	StatusGreylisted      = "greylisted"
	StatusRateLimited     = "rate_limited"
)

// Evidence methods.
const (
	MethodDNS           = "dns"
	MethodSMTP          = "smtp"
	MethodCatchAllProbe = "catch-all probe"
	MethodCatchAllCache = "catch-all cache"
	MethodPattern       = "pattern"
)

// Request is one lookup.
type Request struct {
	FirstName    string `json:"first_name,omitempty"`
	LastName     string `json:"last_name,omitempty"`
	Domain       string `json:"domain,omitempty"`
	KnownPattern string `json:"known_pattern,omitempty"`
	// Email is the address to check for kind verify.
	Email string `json:"email,omitempty"`
	// Escalate tries twice as many candidates (a batch's round escalate).
	Escalate bool `json:"escalate,omitempty"`
}

// Result is a lookup's outcome: the spec's email job result plus evidence.
type Result struct {
	FirstName  string  `json:"first_name"`
	LastName   string  `json:"last_name"`
	Domain     string  `json:"domain"`
	Email      string  `json:"email,omitempty"` // the address checked (verify)
	Status     string  `json:"status"`
	Result     *Found  `json:"result"`
	IsCatchAll bool    `json:"is_catch_all"`
	Provider   *string `json:"provider"`
	Attempts   int     `json:"attempts"`
	DurationMs int64   `json:"duration_ms"`
	// RetryAt is when a greylisted lookup is rechecked.
	RetryAt *time.Time `json:"retry_at,omitempty"`
	// Withheld says why a found address is not shown: "no_credits" when
	// the account's credits did not cover it (it was not billed).
	Withheld string `json:"withheld,omitempty"`
	// DeliveryConfirmed: a customer reported mail to the address delivered.
	DeliveryConfirmed bool `json:"delivery_confirmed,omitempty"`
	// Cached results carry their age.
	Cached     bool      `json:"cached,omitempty"`
	AgeSeconds *int64    `json:"age_seconds,omitempty"`
	Evidence   *Evidence `json:"evidence,omitempty"`
}

// Found is the address a lookup settled on.
type Found struct {
	Email    string `json:"email"`
	Pattern  string `json:"pattern"`
	Tier     int    `json:"tier"`
	SMTPCode int    `json:"smtp_code"`
	Valid    bool   `json:"valid"`
}

// Evidence is what the verdict rests on.
type Evidence struct {
	Method            string    `json:"method"`
	CheckedAt         time.Time `json:"checked_at"`
	MX                []string  `json:"mx,omitempty"`
	ImplicitMX        bool      `json:"implicit_mx,omitempty"`
	MXHost            string    `json:"mx_host,omitempty"`
	TLS               bool      `json:"tls,omitempty"`
	PatternSource     string    `json:"pattern_source,omitempty"` // known_pattern, measured (contact index and delivery reports), common
	PatternConfidence float64   `json:"pattern_confidence,omitempty"`
	// CatchAllProbe is the reply to a made-up local part.
	CatchAllProbe *smtpprobe.Reply  `json:"catch_all_probe,omitempty"`
	Candidates    []CandidateReply  `json:"candidates,omitempty"`
	Steps         []smtpprobe.Reply `json:"steps,omitempty"`
	Error         string            `json:"error,omitempty"`
}

// CandidateReply is a candidate with the server's answer.
type CandidateReply struct {
	Candidate
	Code     int    `json:"code"`
	Enhanced string `json:"enhanced,omitempty"`
	Text     string `json:"text,omitempty"`
}
