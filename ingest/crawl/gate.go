package crawl

import (
	"context"
	"sync"
	"time"
)

// gate lets one request at a time reach a host, and spaces the requests
// to a host by its delay. Hosts nobody waits for are forgotten once their
// delay has passed, so the map holds the hosts being crawled, not every
// host of the run.
type gate struct {
	mu    sync.Mutex
	hosts map[string]*hostSlot
	sweep int // map size that triggers the next sweep
}

type hostSlot struct {
	turn  chan struct{} // holds a token while a request is under way
	next  time.Time     // earliest start of the next request
	users int           // holders and waiters
}

func newGate() *gate { return &gate{hosts: map[string]*hostSlot{}, sweep: 1024} }

// acquire waits for host's turn and its delay; release must follow.
func (g *gate) acquire(ctx context.Context, host string) (*hostSlot, error) {
	g.mu.Lock()
	s := g.hosts[host]
	if s == nil {
		if len(g.hosts) >= g.sweep {
			now := time.Now()
			for h, o := range g.hosts {
				if o.users == 0 && now.After(o.next) {
					delete(g.hosts, h)
				}
			}
			g.sweep = max(1024, 2*len(g.hosts))
		}
		s = &hostSlot{turn: make(chan struct{}, 1)}
		g.hosts[host] = s
	}
	s.users++
	g.mu.Unlock()
	select {
	case s.turn <- struct{}{}:
	case <-ctx.Done():
		g.leave(s)
		return nil, ctx.Err()
	}
	g.mu.Lock()
	wait := time.Until(s.next)
	g.mu.Unlock()
	if wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			g.release(s, 0)
			return nil, ctx.Err()
		}
	}
	return s, nil
}

// release ends a request to the slot's host; the next may start after delay.
func (g *gate) release(s *hostSlot, delay time.Duration) {
	g.mu.Lock()
	if n := time.Now().Add(delay); n.After(s.next) {
		s.next = n
	}
	g.mu.Unlock()
	<-s.turn
	g.leave(s)
}

func (g *gate) leave(s *hostSlot) {
	g.mu.Lock()
	s.users--
	g.mu.Unlock()
}
