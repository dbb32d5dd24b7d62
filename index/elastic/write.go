package elastic

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/elastic/go-elasticsearch/v8/esutil"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/record"
)

// companyDoc is the stored document: the profile's own JSON fields at the
// top level (so _source decodes straight back into record.Company), plus
// the fields derived for filtering and the vector.
type companyDoc struct {
	record.Company
	IndustryLabels []string  `json:"industries,omitempty"`
	KeywordTerms   []string  `json:"keyword_terms,omitempty"`
	Networks       []string  `json:"social_networks,omitempty"`
	HasRedirect    bool      `json:"has_redirect"`
	Vector         []float32 `json:"vector"`
}

func newCompanyDoc(d index.CompanyDoc) companyDoc {
	c := d.Company
	terms := make([]string, 0, len(c.Keywords))
	for k := range c.Keywords {
		terms = append(terms, k)
	}
	sort.Strings(terms)
	return companyDoc{
		Company:        c,
		IndustryLabels: c.Industries(),
		KeywordTerms:   terms,
		Networks:       c.SocialNetworks(),
		HasRedirect:    c.RedirectDomain != nil && *c.RedirectDomain != "",
		Vector:         d.Vector,
	}
}

// Bulk tuning. Requests stay near 5 MB (the size Elasticsearch digests
// best); a call's documents are spread over at most maxBulkWorkers parallel
// requests. Items the cluster rejects with 429 (its write queue is full) are
// retried, whole, up to bulkAttempts times with a growing pause.
const (
	flushBytes     = 5 << 20
	maxBulkWorkers = 4
	bulkAttempts   = 4
)

// bulkBackoff is the pause before retry n (1-based); a variable so tests
// need not sleep.
var bulkBackoff = func(n int) time.Duration { return time.Duration(n*n) * 250 * time.Millisecond }

type bulkOp struct {
	id   string
	body []byte // nil for delete
}

type bulkResult struct {
	id     string
	result string // "created", "updated", "deleted", "not_found", ...
	status int
	reason string // set for a failed item
}

// runBulk sends ops with one action to target (an alias) through an esutil.BulkIndexer and
// returns one result per op. err is set when a request as a whole failed
// (transport error, non-2xx answer, unreadable response) or the indexer's
// counters disagree with the results seen: then some items' fate is unknown.
func (e *Engine) runBulk(ctx context.Context, target, action string, ops []bulkOp) ([]bulkResult, error) {
	var out []bulkResult
	for attempt := 1; len(ops) > 0; attempt++ {
		res, err := e.bulkOnce(ctx, target, action, ops)
		if err != nil {
			return nil, err
		}
		var retry []bulkOp
		for i, r := range res {
			if r.status == 429 && attempt < bulkAttempts {
				retry = append(retry, ops[i])
				continue
			}
			out = append(out, r)
		}
		ops = retry
		if len(ops) > 0 {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(bulkBackoff(attempt)):
			}
		}
	}
	return out, nil
}

func (e *Engine) bulkOnce(ctx context.Context, target, action string, ops []bulkOp) ([]bulkResult, error) {
	size := 0
	for _, op := range ops {
		size += len(op.body) + len(op.id) + 32
	}
	var (
		mu       sync.Mutex
		batchErr error
		results  = make([]bulkResult, len(ops))
		seen     = make([]bool, len(ops))
	)
	fail := func(err error) {
		mu.Lock()
		if batchErr == nil {
			batchErr = err
		}
		mu.Unlock()
	}
	bi, err := esutil.NewBulkIndexer(esutil.BulkIndexerConfig{
		Client:     e.es,
		Index:      target,
		NumWorkers: min(maxBulkWorkers, 1+size/flushBytes),
		FlushBytes: flushBytes,
		// The alias must exist: without it a write would auto-create a
		// concrete index of that name with a guessed mapping.
		RequireAlias: true,
		// The workers flush with a background context; hand them ours so
		// cancelling the call cancels its requests.
		OnFlushStart: func(context.Context) context.Context { return ctx },
		OnError:      func(_ context.Context, err error) { fail(err) },
	})
	if err != nil {
		return nil, fmt.Errorf("elasticsearch bulk: %w", err)
	}
	for i, op := range ops {
		item := esutil.BulkIndexerItem{
			Action:     action,
			DocumentID: op.id,
			OnSuccess: func(_ context.Context, _ esutil.BulkIndexerItem, r esutil.BulkIndexerResponseItem) {
				mu.Lock()
				results[i], seen[i] = bulkResult{id: op.id, result: r.Result, status: r.Status}, true
				mu.Unlock()
			},
			OnFailure: func(_ context.Context, _ esutil.BulkIndexerItem, r esutil.BulkIndexerResponseItem, err error) {
				if err != nil {
					fail(err) // the request carrying this item failed
					return
				}
				mu.Lock()
				results[i], seen[i] = bulkResult{id: op.id, result: r.Result, status: r.Status, reason: itemReason(r)}, true
				mu.Unlock()
			},
		}
		if op.body != nil {
			item.Body = bytes.NewReader(op.body)
		}
		if err := bi.Add(ctx, item); err != nil {
			fail(err)
			break
		}
	}
	if err := bi.Close(ctx); err != nil {
		fail(err)
	}
	if batchErr != nil {
		return nil, fmt.Errorf("elasticsearch bulk %s of %d documents: %w", action, len(ops), batchErr)
	}
	st := bi.Stats()
	failed := 0
	for i := range results {
		if !seen[i] {
			return nil, fmt.Errorf("elasticsearch bulk %s: no result for document %q", action, ops[i].id)
		}
		if results[i].reason != "" || results[i].status > 201 {
			failed++
		}
	}
	if st.NumAdded != uint64(len(ops)) || st.NumFailed != uint64(failed) || st.NumFlushed+st.NumFailed != st.NumAdded {
		return nil, fmt.Errorf("elasticsearch bulk %s: indexer counted %d added, %d flushed, %d failed; results show %d of %d failed",
			action, st.NumAdded, st.NumFlushed, st.NumFailed, failed, len(ops))
	}
	return results, nil
}

// itemReason describes why the cluster refused one item.
func itemReason(r esutil.BulkIndexerResponseItem) string {
	switch {
	case r.Error.Type != "":
		c := errorCause{Type: r.Error.Type, Reason: r.Error.Reason}
		if r.Error.Cause.Type != "" || r.Error.Cause.Reason != "" {
			c.CausedBy = &errorCause{Type: r.Error.Cause.Type, Reason: r.Error.Cause.Reason}
		}
		return c.String()
	case r.Result != "":
		return fmt.Sprintf("status %d: %s", r.Status, r.Result)
	}
	return fmt.Sprintf("status %d", r.Status)
}

// UpsertCompanies implements index.Engine. Documents are checked and
// encoded here (empty domain, wrong vector dimension, non-finite values are
// refused without a round trip), then written with the bulk index action
// and _id = domain. Of several documents with one domain the last wins, as
// the bulk requests of one call may run in parallel and in any order.
// The contacts at the written domains then get the new firmographics
// (refreshEmployers, an _update_by_query on the contact index).
func (e *Engine) UpsertCompanies(ctx context.Context, docs []index.CompanyDoc) ([]index.DocError, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	last := make(map[string]int, len(docs))
	for i := range docs {
		last[docs[i].Company.Domain] = i
	}
	var failed []index.DocError
	ops := make([]bulkOp, 0, len(docs))
	for i := range docs {
		d := docs[i]
		domain := d.Company.Domain
		if last[domain] != i {
			continue
		}
		switch {
		case domain == "":
			failed = append(failed, index.DocError{Reason: "empty domain"})
			continue
		case len(domain) > 512:
			// _id is limited to 512 bytes.
			failed = append(failed, index.DocError{Domain: domain, Reason: "domain longer than 512 bytes"})
			continue
		case len(d.Vector) != e.dim:
			failed = append(failed, index.DocError{Domain: domain, Reason: fmt.Sprintf("%v: vector has %d dimensions, index has %d", index.ErrVectorMismatch, len(d.Vector), e.dim)})
			continue
		}
		body, err := json.Marshal(newCompanyDoc(d))
		if err != nil {
			failed = append(failed, index.DocError{Domain: domain, Reason: "encode document: " + err.Error()})
			continue
		}
		ops = append(ops, bulkOp{id: domain, body: body})
	}
	if len(ops) == 0 {
		return failed, nil
	}
	if err := e.checkWriteEmbedder(ctx, func(yield func(string) bool) {
		for i := range docs {
			if !yield(docs[i].EmbedderID) {
				return
			}
		}
	}); err != nil {
		return failed, err
	}
	results, err := e.runBulk(ctx, e.alias, "index", ops)
	if err != nil {
		return failed, err
	}
	written := make(map[string]bool, len(results))
	for _, r := range results {
		if r.reason != "" || r.status > 201 {
			failed = append(failed, index.DocError{Domain: r.id, Reason: r.reason})
			continue
		}
		written[r.id] = true
	}
	// Contacts carry copies of their employer's firmographics: refresh the
	// copies of the companies just written (contacts.go).
	employers := make([]record.Company, 0, len(written))
	for i := range docs {
		if d := docs[i].Company.Domain; written[d] && last[d] == i {
			employers = append(employers, docs[i].Company)
		}
	}
	if err := e.refreshEmployers(ctx, employers); err != nil {
		return failed, fmt.Errorf("companies written; refreshing their contacts: %w", err)
	}
	e.dualWriteCompanies(ctx, employers)
	return failed, nil
}

// ErrPartialDelete reports documents the cluster failed to delete; the
// count returned with it covers the deletions that did happen.
var ErrPartialDelete = errors.New("some documents were not deleted")

// DeleteCompanies implements index.Engine with bulk deletes; the "deleted"
// results are counted, "not_found" ones are the missing domains.
func (e *Engine) DeleteCompanies(ctx context.Context, domains []string) (int, error) {
	seen := make(map[string]bool, len(domains))
	ops := make([]bulkOp, 0, len(domains))
	for _, d := range domains {
		if d == "" || len(d) > 512 || seen[d] {
			continue // never stored
		}
		seen[d] = true
		ops = append(ops, bulkOp{id: d})
	}
	if len(ops) == 0 {
		return 0, nil
	}
	n, err := e.bulkDelete(ctx, e.alias, "delete", ops)
	ids := make([]string, len(ops))
	for i := range ops {
		ids[i] = ops[i].id
	}
	e.dualDelete(ctx, false, ids)
	return n, err
}

// bulkDelete deletes ops' ids from alias and returns how many existed;
// ids already gone are not errors. what names the call in errors.
func (e *Engine) bulkDelete(ctx context.Context, alias, what string, ops []bulkOp) (int, error) {
	results, err := e.runBulk(ctx, alias, "delete", ops)
	if err != nil {
		return 0, err
	}
	n := 0
	var errs []string
	for _, r := range results {
		switch {
		case r.result == "deleted" && r.reason == "":
			n++
		case r.result == "not_found" && r.status == 404:
		default:
			errs = append(errs, r.id+": "+r.reason)
		}
	}
	if len(errs) > 0 {
		return n, fmt.Errorf("elasticsearch %s: %w: %d of %d, first %s", what, ErrPartialDelete, len(errs), len(ops), errs[0])
	}
	return n, nil
}
