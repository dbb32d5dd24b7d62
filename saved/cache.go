package saved

import (
	"context"
	"fmt"
	"strings"
	"sync"
)

// DefaultCacheItems bounds the lists kept in memory (domains plus persona
// ids over all cached queries): about 20 lists at the caps, a few hundred
// MB at most.
const DefaultCacheItems = 5_000_000

// listCache keeps the lists of recently used saved queries. A query's
// domains and persona ids never change after creation (PATCH changes only
// the name and tags), so a cached list is current as long as the query
// exists; Lists checks that with a small read on every use, so a query
// deleted by another process is gone at once.
type listCache struct {
	mu    sync.Mutex
	max   int
	size  int
	m     map[string]cachedLists
	order []string // oldest first
}

type cachedLists struct {
	domains  []string
	personas []int64
}

func (c *listCache) get(key string) (cachedLists, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	l, ok := c.m[key]
	return l, ok
}

func (c *listCache) put(key string, l cachedLists) {
	n := len(l.domains) + len(l.personas)
	c.mu.Lock()
	defer c.mu.Unlock()
	if n > c.max {
		return
	}
	if c.m == nil {
		c.m = map[string]cachedLists{}
	}
	if _, ok := c.m[key]; ok {
		return
	}
	for c.size+n > c.max && len(c.order) > 0 {
		old := c.order[0]
		c.order = c.order[1:]
		c.size -= len(c.m[old].domains) + len(c.m[old].personas)
		delete(c.m, old)
	}
	c.m[key] = l
	c.order = append(c.order, key)
	c.size += n
}

func (c *listCache) drop(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if l, ok := c.m[key]; ok {
		c.size -= len(l.domains) + len(l.personas)
		delete(c.m, key)
		for i, k := range c.order {
			if k == key {
				c.order = append(c.order[:i], c.order[i+1:]...)
				break
			}
		}
	}
}

// Lists returns a query of the caller's organization with its domains
// and persona ids (not its tags), from memory when it was read recently.
// Callers must not modify the lists.
func (s *Service) Lists(ctx context.Context, c Caller, id string) (Query, error) {
	id = strings.TrimSpace(id)
	key := c.OrgID + "/" + id
	q, err := s.Store.SavedQueryInfo(ctx, c.OrgID, id)
	if err != nil {
		s.cache.drop(key)
		return Query{}, fmt.Errorf("saved query %s: %w", id, err)
	}
	if l, ok := s.cache.get(key); ok {
		q.Domains, q.PersonaIDs = l.domains, l.personas
		return q, nil
	}
	if q, err = s.Store.SavedQuery(ctx, c.OrgID, id); err != nil {
		return Query{}, fmt.Errorf("saved query %s: %w", id, err)
	}
	s.cache.put(key, cachedLists{domains: q.Domains, personas: q.PersonaIDs})
	return q, nil
}
