package email

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/openprospect/prospectd/store"
)

// Delivery outcomes a customer reports.
const (
	OutcomeBounced   = "bounced"
	OutcomeDelivered = "delivered"
)

// indexWeight is how many delivery reports the contact index's measured
// confidence counts as.
const indexWeight = 2.0

// FeedbackPatterns is the PatternSource the Finder uses: the contact
// index's measurement of a domain, moved by the delivery reports of its
// templates. A template's confidence is (indexWeight·c + delivered) /
// (indexWeight + delivered + bounced + [no index measure]), where c is the
// index's confidence when it measured that template, else 0; the best
// template wins.
type FeedbackPatterns struct {
	Store store.EmailStore
	Index PatternSource // may be nil
}

// EmailPattern implements PatternSource.
func (p *FeedbackPatterns) EmailPattern(ctx context.Context, domain string) (string, float64, error) {
	var tpl string
	var conf float64
	if p.Index != nil {
		t, c, err := p.Index.EmailPattern(ctx, domain)
		if err == nil && t != "" {
			if parsed, err := ParsePattern(t); err == nil {
				tpl, conf = parsed, c
			}
		}
	}
	fb, err := p.Store.ListEmailPatternFeedback(ctx, strings.ToLower(domain))
	if err != nil {
		return tpl, conf, nil // feedback is a refinement; the index still answers
	}
	scores := map[string]float64{}
	if tpl != "" {
		scores[tpl] = conf
	}
	for _, f := range fb {
		prior, weight := 0.0, 1.0
		if f.Template == tpl {
			prior, weight = indexWeight*conf, indexWeight
		}
		scores[f.Template] = (prior + float64(f.Delivered)) / (weight + float64(f.Delivered+f.Bounced))
	}
	best, bestScore := "", 0.0
	for t, s := range scores {
		if s > bestScore || s == bestScore && t < best {
			best, bestScore = t, s
		}
	}
	return best, math.Round(bestScore*100) / 100, nil
}

// FeedbackRequest is a delivery report.
type FeedbackRequest struct {
	Email     string `json:"email"`
	Outcome   string `json:"outcome"`
	FirstName string `json:"first_name,omitempty"`
	LastName  string `json:"last_name,omitempty"`
}

// FeedbackResult says what the report changed.
type FeedbackResult struct {
	Email   string `json:"email"`
	Domain  string `json:"domain"`
	Outcome string `json:"outcome"`
	// Pattern is the template the address follows, "" when it could not
	// be told (no cached lookup and no names given).
	Pattern string `json:"pattern"`
	// DomainPattern and DomainPatternConfidence are the domain's best
	// template after the report.
	DomainPattern           string  `json:"domain_pattern"`
	DomainPatternConfidence float64 `json:"domain_pattern_confidence"`
	// CachedResults counts the cached lookups of the address that were
	// dropped (bounced: the next lookup asks the server again) or marked
	// delivery_confirmed (delivered).
	CachedResults int `json:"cached_results"`
}

// addrKey indexes the cached find results that settled on an address.
func addrKey(addr string) string { return "addr:" + addr }

// rememberAddress notes that the cached find result under key settled on
// addr, so a delivery report for addr can reach it.
func (s *Service) rememberAddress(ctx context.Context, addr, key string) {
	var keys []string
	if e, err := s.Store.GetEmailCache(ctx, addrKey(addr)); err == nil {
		json.Unmarshal(e.Result, &keys)
	}
	for _, k := range keys {
		if k == key {
			return
		}
	}
	keys = append(keys, key)
	body, _ := json.Marshal(keys)
	if err := s.Store.PutEmailCache(ctx, store.EmailCacheEntry{Key: addrKey(addr), Result: body, CheckedAt: s.now()}); err != nil {
		s.Log.Warn().Err(err).Msg("index cached email result")
	}
}

// Feedback applies a delivery report: a bounce drops the cached results
// that gave the address (the next lookup asks the server again) and
// counts against the address's template at its domain; a delivery marks
// them delivery_confirmed and counts for the template.
func (s *Service) Feedback(ctx context.Context, fr FeedbackRequest) (FeedbackResult, error) {
	if fr.Outcome != OutcomeBounced && fr.Outcome != OutcomeDelivered {
		return FeedbackResult{}, bad("outcome", "want bounced or delivered")
	}
	req, err := Validate(KindVerify, Request{Email: fr.Email})
	if err != nil {
		return FeedbackResult{}, err
	}
	out := FeedbackResult{Email: req.Email, Domain: req.Domain, Outcome: fr.Outcome}
	local, _, _ := strings.Cut(req.Email, "@")
	keys := []string{cacheKey(KindVerify, req)}
	if e, err := s.Store.GetEmailCache(ctx, addrKey(req.Email)); err == nil {
		var ks []string
		json.Unmarshal(e.Result, &ks)
		keys = append(keys, ks...)
	}
	for _, k := range keys {
		e, err := s.Store.GetEmailCache(ctx, k)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return out, fmt.Errorf("email feedback: %w", err)
		}
		var r Result
		if json.Unmarshal(e.Result, &r) != nil || r.Result == nil || r.Result.Email != req.Email {
			continue
		}
		if out.Pattern == "" && r.Result.Pattern != "" {
			out.Pattern = r.Result.Pattern
		}
		out.CachedResults++
		if fr.Outcome == OutcomeBounced {
			if err := s.Store.DeleteEmailCache(ctx, k); err != nil {
				return out, fmt.Errorf("email feedback: %w", err)
			}
			continue
		}
		r.DeliveryConfirmed = true
		body, _ := json.Marshal(r)
		if err := s.Store.PutEmailCache(ctx, store.EmailCacheEntry{Key: k, Result: body, CheckedAt: e.CheckedAt}); err != nil {
			return out, fmt.Errorf("email feedback: %w", err)
		}
	}
	if out.Pattern == "" && fr.FirstName != "" && fr.LastName != "" {
		if n, ok := NormalizeName(fr.FirstName, fr.LastName); ok {
			for _, t := range Templates {
				if Apply(t, n.Firsts[0], n.Lasts[0]) == local {
					out.Pattern = t
					break
				}
			}
		}
	}
	if out.Pattern != "" {
		if err := s.Store.RecordEmailPatternFeedback(ctx, req.Domain, out.Pattern, fr.Outcome == OutcomeDelivered); err != nil {
			return out, fmt.Errorf("email feedback: %w", err)
		}
	}
	src := s.Finder.Patterns
	if src == nil {
		src = &FeedbackPatterns{Store: s.Store}
	}
	out.DomainPattern, out.DomainPatternConfidence, _ = src.EmailPattern(ctx, req.Domain)
	return out, nil
}
