package search

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"github.com/sony/gobreaker/v2"
)

// ErrCircuitOpen: the breaker is open and the search was not sent.
var ErrCircuitOpen = errors.New("search provider circuit breaker open")

// Breaker wraps a Client with a circuit breaker: after Failures
// consecutive failures it refuses searches for Cooldown, then lets one
// through to probe. Out-of-credit and auth errors trip it at once, since
// retrying them only burns time.
type Breaker struct {
	c     Client
	cb    *gobreaker.CircuitBreaker[[]Result]
	fatal atomic.Bool
}

// NewBreaker wraps c; failures 5 and cooldown 30 s when 0.
func NewBreaker(name string, c Client, failures uint32, cooldown time.Duration) *Breaker {
	if failures == 0 {
		failures = 5
	}
	if cooldown == 0 {
		cooldown = 30 * time.Second
	}
	b := &Breaker{c: c}
	b.cb = gobreaker.NewCircuitBreaker[[]Result](gobreaker.Settings{
		Name:    name,
		Timeout: cooldown,
		ReadyToTrip: func(c gobreaker.Counts) bool {
			return b.fatal.Swap(false) || c.ConsecutiveFailures >= failures
		},
		IsSuccessful: func(err error) bool {
			// A cancelled search says nothing about the provider.
			return err == nil || errors.Is(err, context.Canceled)
		},
	})
	return b
}

// Search implements Client.
func (b *Breaker) Search(ctx context.Context, q string, n int) ([]Result, error) {
	res, err := b.cb.Execute(func() ([]Result, error) {
		res, err := b.c.Search(ctx, q, n)
		if errors.Is(err, ErrOutOfCredits) || errors.Is(err, ErrAuth) {
			b.fatal.Store(true)
			return nil, err
		}
		return res, err
	})
	if errors.Is(err, gobreaker.ErrOpenState) || errors.Is(err, gobreaker.ErrTooManyRequests) {
		return nil, ErrCircuitOpen
	}
	return res, err
}

// Open reports whether the breaker is refusing searches.
func (b *Breaker) Open() bool { return b.cb.State() == gobreaker.StateOpen }
