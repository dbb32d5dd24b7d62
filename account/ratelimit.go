package account

import (
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/openprospect/prospectd/store"
)

// Limits are the base rate limits, before the plan's multiplier.
type Limits struct {
	KeyPerSecond float64 // sustained requests per second per API key
	KeyBurst     int
	OrgPerSecond float64 // sustained requests per second per organization, all keys
	OrgBurst     int
}

// DefaultLimits are the built-in base limits.
func DefaultLimits() Limits {
	return Limits{KeyPerSecond: 10, KeyBurst: 20, OrgPerSecond: 25, OrgBurst: 50}
}

// Limiter enforces per-key and per-organization token buckets in this
// process. Several processes each enforce the limits on their own share
// of the traffic (documented in docs/decisions.md).
type Limiter struct {
	Limits Limits
	Plans  Plans

	mu    sync.Mutex
	keys  map[string]*bucket
	orgs  map[string]*bucket
	sweep time.Time
}

type bucket struct {
	lim  *rate.Limiter
	mult float64
	used time.Time
}

// Allow takes one request for p at now. When refused, retryAfter is how
// long until a request would be allowed.
func (l *Limiter) Allow(p store.Principal, now time.Time) (ok bool, retryAfter time.Duration) {
	mult := l.Plans[p.Org.Plan].RateMultiplier
	if mult <= 0 {
		mult = 1
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.keys == nil {
		l.keys, l.orgs = map[string]*bucket{}, map[string]*bucket{}
	}
	if now.Sub(l.sweep) > 10*time.Minute {
		l.forget(now)
	}
	kb := l.get(l.keys, p.KeyID, l.Limits.KeyPerSecond, l.Limits.KeyBurst, mult, now)
	ob := l.get(l.orgs, p.Org.ID, l.Limits.OrgPerSecond, l.Limits.OrgBurst, mult, now)
	rk := kb.lim.ReserveN(now, 1)
	ro := ob.lim.ReserveN(now, 1)
	wait := max(rk.DelayFrom(now), ro.DelayFrom(now))
	if !rk.OK() || !ro.OK() || wait > 0 {
		rk.CancelAt(now)
		ro.CancelAt(now)
		return false, max(wait, time.Second)
	}
	return true, 0
}

func (l *Limiter) get(m map[string]*bucket, id string, perSec float64, burst int, mult float64, now time.Time) *bucket {
	b := m[id]
	if b == nil || b.mult != mult { // a plan change takes effect at once
		b = &bucket{lim: rate.NewLimiter(rate.Limit(perSec*mult), int(math.Ceil(float64(burst)*mult))), mult: mult}
		m[id] = b
	}
	b.used = now
	return b
}

// forget drops buckets idle long enough to be full again.
func (l *Limiter) forget(now time.Time) {
	for _, m := range []map[string]*bucket{l.keys, l.orgs} {
		for id, b := range m {
			if now.Sub(b.used) > 10*time.Minute {
				delete(m, id)
			}
		}
	}
	l.sweep = now
}
