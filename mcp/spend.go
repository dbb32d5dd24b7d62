package mcp

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ConfirmationTTL is how long an estimate's confirmation token is good.
const ConfirmationTTL = 10 * time.Minute

// confirmationToken binds an estimate to the tool, the exact arguments,
// the caller (organization, user and grant) and the estimated credits,
// until it expires: "ct1.<expiry unix>.<credits>.<HMAC-SHA256>".
func (s *Server) confirmationToken(toolName string, c *call, credits int) (string, time.Time) {
	exp := s.cfg.Now().Add(ConfirmationTTL).Truncate(time.Second)
	head := "ct1." + strconv.FormatInt(exp.Unix(), 10) + "." + strconv.Itoa(credits)
	return head + "." + s.mac(head, toolName, c), exp
}

func (s *Server) mac(head, toolName string, c *call) string {
	m := hmac.New(sha256.New, s.cfg.Secret)
	p := c.caller.Principal
	// Length-prefixed fields: no two different inputs share a message.
	for _, f := range []string{head, toolName, p.Org.ID, p.User.ID, c.caller.Grant, string(c.raw)} {
		fmt.Fprintf(m, "%d:%s;", len(f), f)
	}
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// checkConfirmation verifies a token for this call and returns the
// credits its estimate named.
func (s *Server) checkConfirmation(token, toolName string, c *call) (int, error) {
	parts := strings.Split(token, ".")
	bad := refuse(http.StatusUnprocessableEntity, "confirmation_token: not a token this server issued for this tool, these exact arguments and this caller; call without it for a new estimate")
	if len(parts) != 4 || parts[0] != "ct1" {
		return 0, bad
	}
	head := strings.Join(parts[:3], ".")
	if !hmac.Equal([]byte(parts[3]), []byte(s.mac(head, toolName, c))) {
		return 0, bad
	}
	exp, err1 := strconv.ParseInt(parts[1], 10, 64)
	credits, err2 := strconv.Atoi(parts[2])
	if err1 != nil || err2 != nil {
		return 0, bad
	}
	if s.cfg.Now().After(time.Unix(exp, 0)) {
		return 0, refuse(http.StatusUnprocessableEntity, "confirmation_token: expired (tokens last %s); call without it for a new estimate", ConfirmationTTL)
	}
	return credits, nil
}

// spending tracks the credits confirmed calls of each grant spent in the
// current window, against the per-session cap. It lives in the process:
// behind a balancer each process enforces the cap on its share.
type spending struct {
	mu     sync.Mutex
	cap    int
	window time.Duration
	now    func() time.Time
	grants map[string]*spent
}

type spent struct {
	since    time.Time
	credits  int // billed
	reserved int // confirmed calls running
}

func newSpending(cap int, window time.Duration, now func() time.Time) *spending {
	return &spending{cap: cap, window: window, now: now, grants: map[string]*spent{}}
}

func (sp *spending) entry(grant string) *spent {
	now := sp.now()
	e := sp.grants[grant]
	if e == nil || now.Sub(e.since) > sp.window && e.reserved == 0 {
		e = &spent{since: now}
		sp.grants[grant] = e
	}
	return e
}

func (sp *spending) refusal(e *spent, credits int) error {
	return refuse(http.StatusForbidden, "spending cap: this authorization may spend %d credits per session through the tool server; %d spent or running, this call needs up to %d. Ask the person to continue in a new session or raise the cap",
		sp.cap, e.credits+e.reserved, credits)
}

// check reports whether a call of credits fits the cap now.
func (sp *spending) check(grant string, credits int) error {
	if sp.cap <= 0 {
		return nil
	}
	sp.mu.Lock()
	defer sp.mu.Unlock()
	e := sp.entry(grant)
	if e.credits+e.reserved+credits > sp.cap {
		return sp.refusal(e, credits)
	}
	return nil
}

// reserve holds credits for a running call; release records what it
// actually billed.
func (sp *spending) reserve(grant string, credits int) (release func(billed int), err error) {
	if sp.cap <= 0 {
		return func(int) {}, nil
	}
	sp.mu.Lock()
	defer sp.mu.Unlock()
	e := sp.entry(grant)
	if e.credits+e.reserved+credits > sp.cap {
		return nil, sp.refusal(e, credits)
	}
	e.reserved += credits
	return func(billed int) {
		sp.mu.Lock()
		defer sp.mu.Unlock()
		e.reserved -= credits
		e.credits += billed
	}, nil
}
