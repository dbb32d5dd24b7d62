package elastic

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/elastic/go-elasticsearch/v8/esapi"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/record"
)

// The contact index: <prefix>-contacts, an alias over a versioned index
// made from mappings/contacts-v<N>.json, _id = persona id. Each document is
// the record (employer firmographics included) with derived filter fields
// and the vector (contactquery.go).
//
// Ranking and grouping. SearchContacts asks Elasticsearch for a ranked
// window of ids and domains only, groups it in Go with the embedded
// engine's algorithm (groupContacts), then fetches the kept contacts with
// _mget. Grouping in Go rather than with collapse + inner_hits keeps the
// reference's exact semantics: Offset skips ranked contacts before
// grouping, PerCompany 0 means no cap (inner_hits cannot be unbounded),
// Limit counts contacts across companies in rank order, and ties break by
// persona id. The window is sized from the caps and widened when the
// grouping needs deeper contacts: a kNN search re-runs with a larger k (up
// to 10,000, Elasticsearch's bound, past which the grouping works on the
// best 10,000), a filter-mode search pages on with search_after (up to
// maxContactScan contacts).
var _ index.ContactEngine = (*Engine)(nil)

// ContactsAlias returns the alias of the contact index.
func (e *Engine) ContactsAlias() string { return e.contactsAlias }

func personaKey(id int64) string { return strconv.FormatInt(id, 10) }

// UpsertContacts implements index.ContactEngine: bulk index actions with
// _id = persona id (the last of several documents with one id wins).
// Documents without a positive persona id, with a vector of the wrong
// dimension or that do not encode (non-finite values) are refused here;
// the cluster's refusals come back one by one. DocError.Domain holds the
// persona id.
func (e *Engine) UpsertContacts(ctx context.Context, docs []index.ContactDoc) ([]index.DocError, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	last := make(map[int64]int, len(docs))
	for i := range docs {
		last[docs[i].Contact.PersonaID] = i
	}
	var failed []index.DocError
	ops := make([]bulkOp, 0, len(docs))
	for i := range docs {
		d := docs[i]
		id := d.Contact.PersonaID
		key := personaKey(id)
		switch {
		case id <= 0:
			failed = append(failed, index.DocError{Domain: key, Reason: "persona_id must be a positive integer"})
			continue
		case last[id] != i:
			continue
		case len(d.Vector) != e.dim:
			failed = append(failed, index.DocError{Domain: key, Reason: fmt.Sprintf("%v: vector has %d dimensions, index has %d", index.ErrVectorMismatch, len(d.Vector), e.dim)})
			continue
		}
		body, err := json.Marshal(newContactDoc(d))
		if err != nil {
			failed = append(failed, index.DocError{Domain: key, Reason: "encode document: " + err.Error()})
			continue
		}
		ops = append(ops, bulkOp{id: key, body: body})
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
	results, err := e.runBulk(ctx, e.contactsAlias, "index", ops)
	if err != nil {
		return failed, err
	}
	ok := map[string]bool{}
	for _, r := range results {
		if r.reason != "" || r.status > 201 {
			failed = append(failed, index.DocError{Domain: r.id, Reason: r.reason})
			continue
		}
		ok[r.id] = true
	}
	var written []record.Contact
	for i := range docs {
		if id := docs[i].Contact.PersonaID; ok[personaKey(id)] && last[id] == i {
			written = append(written, docs[i].Contact)
		}
	}
	e.dualWriteContacts(ctx, written)
	return failed, nil
}

// DeleteContacts implements index.ContactEngine with bulk deletes.
func (e *Engine) DeleteContacts(ctx context.Context, ids []int64) (int, error) {
	seen := make(map[int64]bool, len(ids))
	ops := make([]bulkOp, 0, len(ids))
	for _, id := range ids {
		if id <= 0 || seen[id] {
			continue // never stored
		}
		seen[id] = true
		ops = append(ops, bulkOp{id: personaKey(id)})
	}
	if len(ops) == 0 {
		return 0, nil
	}
	n, err := e.bulkDelete(ctx, e.contactsAlias, "delete contacts", ops)
	keys := make([]string, len(ops))
	for i := range ops {
		keys[i] = ops[i].id
	}
	e.dualDelete(ctx, true, keys)
	return n, err
}

func personaKeys(ids []int64) []string {
	keys := make([]string, 0, len(ids))
	for _, id := range ids {
		if id > 0 {
			keys = append(keys, personaKey(id))
		}
	}
	return keys
}

// GetContacts implements index.ContactEngine (real-time _mget, input
// order, missing ids skipped).
func (e *Engine) GetContacts(ctx context.Context, ids []int64) ([]record.Contact, error) {
	return getDocs[record.Contact](ctx, e, e.contactsAlias, personaKeys(ids), "contact")
}

// ContactVectors implements index.ContactEngine; vectors are read from
// _source, where they are kept as written.
func (e *Engine) ContactVectors(ctx context.Context, ids []int64) (map[int64][]float32, error) {
	out := make(map[int64][]float32, len(ids))
	err := e.mget(ctx, e.contactsAlias, personaKeys(ids), []string{vectorField}, nil, func(id string, src json.RawMessage) error {
		var d struct {
			Vector []float32 `json:"vector"`
		}
		if err := json.Unmarshal(src, &d); err != nil {
			return fmt.Errorf("elasticsearch: decode vector of contact %s: %w", id, err)
		}
		pid, err := strconv.ParseInt(id, 10, 64)
		if err != nil {
			return fmt.Errorf("elasticsearch: contact id %q is not a persona id", id)
		}
		out[pid] = d.Vector
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// CountContacts implements index.ContactEngine with _count.
func (e *Engine) CountContacts(ctx context.Context, f index.Filter) (int, error) {
	q, err := translateContact(f)
	if err != nil {
		return 0, err
	}
	return e.count(ctx, e.contactsAlias, "count contacts", countBody{Query: q})
}

type contactSearchResponse struct {
	TimedOut bool      `json:"timed_out"`
	Shards   shardInfo `json:"_shards"`
	Hits     struct {
		Total struct {
			Value int `json:"value"`
		} `json:"total"`
		Hits []struct {
			ID     string   `json:"_id"`
			Score  *float64 `json:"_score"`
			Fields struct {
				Domain []string `json:"domain"`
			} `json:"fields"`
			Sort []json.RawMessage `json:"sort"`
		} `json:"hits"`
	} `json:"hits"`
	Aggregations struct {
		Companies struct {
			Value int `json:"value"`
		} `json:"companies"`
	} `json:"aggregations"`
}

func (e *Engine) searchContactsRaw(ctx context.Context, body contactSearchBody) (contactSearchResponse, error) {
	var res contactSearchResponse
	b, err := json.Marshal(body)
	if err != nil {
		return res, err
	}
	if err := e.call(ctx, "search "+e.contactsAlias, esapi.SearchRequest{Index: []string{e.contactsAlias}, Body: bytes.NewReader(b)}, &res); err != nil {
		return res, err
	}
	if res.TimedOut {
		return res, fmt.Errorf("elasticsearch search %s: timed out with partial results", e.contactsAlias)
	}
	return res, res.Shards.check("search contacts")
}

// ranked decodes the hits of a ranking response.
func (r *contactSearchResponse) ranked(knn bool) ([]rankedContact, error) {
	out := make([]rankedContact, 0, len(r.Hits.Hits))
	for _, h := range r.Hits.Hits {
		id, err := strconv.ParseInt(h.ID, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("elasticsearch: contact id %q is not a persona id", h.ID)
		}
		rc := rankedContact{id: id}
		if len(h.Fields.Domain) > 0 {
			rc.domain = h.Fields.Domain[0]
		}
		if knn {
			if h.Score == nil {
				return nil, fmt.Errorf("elasticsearch: kNN hit %s has no score", h.ID)
			}
			rc.score = *h.Score
		}
		out = append(out, rc)
	}
	if knn {
		sortByScore(out)
	}
	return out, nil
}

// SearchContacts implements index.ContactEngine; see the top of this file
// for the ranking and grouping.
//
// Total is the number of matching contacts (exact in filter mode; with a
// vector, the kNN matches above MinSimilarity, approximate like every kNN
// total and saturating at 10,000). Companies is a cardinality aggregation
// on domain over the same matches: exact in practice up to 40,000
// companies, approximate (HyperLogLog++) above. Limit 0 means the
// 10,000-contact window; a larger Limit is refused with ErrUnsupported.
func (e *Engine) SearchContacts(ctx context.Context, s index.ContactSearch) (index.ContactResult, error) {
	var res index.ContactResult
	s, err := normalizeContactSearch(s, e.dim)
	if err != nil {
		return res, err
	}
	q, err := translateContact(s.Filter)
	if err != nil {
		return res, err
	}
	var picked []rankedContact
	if s.Vector == nil {
		picked, res.Total, res.Companies, err = e.rankByFilter(ctx, s, q)
	} else {
		picked, res.Total, res.Companies, err = e.rankByVector(ctx, s, q)
	}
	if err != nil {
		return index.ContactResult{}, err
	}
	if s.Ranked != nil {
		s.Ranked(index.RankedDomains(picked, func(c rankedContact) string { return c.domain }))
	}
	if res.Hits, err = e.hydrate(ctx, picked, s); err != nil {
		return index.ContactResult{}, err
	}
	return res, nil
}

// rankByFilter pages through the filter-mode order with search_after until
// the grouping is final (or maxContactScan contacts were read).
func (e *Engine) rankByFilter(ctx context.Context, s index.ContactSearch, q esQuery) (picked []rankedContact, total, companies int, err error) {
	size := contactWindow(s)
	var ranked []rankedContact
	var after []json.RawMessage
	for {
		r, err := e.searchContactsRaw(ctx, buildContactFilterPage(q, size, after))
		if err != nil {
			return nil, 0, 0, err
		}
		if after == nil {
			total, companies = r.Hits.Total.Value, r.Aggregations.Companies.Value
		}
		page, err := r.ranked(false)
		if err != nil {
			return nil, 0, 0, err
		}
		ranked = append(ranked, page...)
		complete := len(page) < size || len(ranked) >= total
		var final bool
		picked, final = groupContacts(ranked, s, complete)
		if final || len(ranked) >= maxContactScan {
			return picked, total, companies, nil
		}
		last := r.Hits.Hits[len(r.Hits.Hits)-1]
		if len(last.Sort) == 0 {
			return nil, 0, 0, fmt.Errorf("elasticsearch: sorted hit %s has no sort values", last.ID)
		}
		after = last.Sort
		size = min(maxWindow, 4*size, maxContactScan-len(ranked))
	}
}

// rankByVector runs the kNN ranking with a k that grows until the grouping
// is final or k reaches 10,000.
func (e *Engine) rankByVector(ctx context.Context, s index.ContactSearch, q esQuery) (picked []rankedContact, total, companies int, err error) {
	for k := contactWindow(s); ; k = min(maxWindow, 4*k) {
		body := buildContactKnn(s, q, k, k)
		body.Rescore = e.rescore(body.Knn, e.contactsAlias)
		r, err := e.searchContactsRaw(ctx, body)
		if err != nil {
			return nil, 0, 0, err
		}
		ranked, err := r.ranked(true)
		if err != nil {
			return nil, 0, 0, err
		}
		complete := len(ranked) < k
		var final bool
		picked, final = groupContacts(ranked, s, complete)
		if !final && k < maxWindow {
			continue
		}
		total, companies = r.Hits.Total.Value, r.Aggregations.Companies.Value
		if !complete && k < maxWindow {
			// The k were all filled: count as wide as Elasticsearch allows.
			w, err := e.searchContactsRaw(ctx, buildContactKnn(s, q, maxWindow, 1))
			if err != nil {
				return nil, 0, 0, err
			}
			total, companies = w.Hits.Total.Value, w.Aggregations.Companies.Value
		}
		return picked, total, companies, nil
	}
}

// hydrate fetches the picked contacts (real-time _mget), keeping their
// order; contacts deleted since the ranking are skipped.
func (e *Engine) hydrate(ctx context.Context, picked []rankedContact, s index.ContactSearch) ([]index.ContactHit, error) {
	if len(picked) == 0 {
		return nil, nil
	}
	ids := make([]string, len(picked))
	for i, p := range picked {
		ids[i] = personaKey(p.id)
	}
	var excludes []string
	if !s.WithVectors {
		excludes = []string{vectorField}
	}
	src := make(map[string]json.RawMessage, len(picked))
	if err := e.mget(ctx, e.contactsAlias, ids, nil, excludes, func(id string, b json.RawMessage) error {
		src[id] = b
		return nil
	}); err != nil {
		return nil, err
	}
	hits := make([]index.ContactHit, 0, len(picked))
	for i, p := range picked {
		b, ok := src[ids[i]]
		if !ok {
			continue
		}
		var d struct {
			record.Contact
			Vector []float32 `json:"vector"`
		}
		if err := json.Unmarshal(b, &d); err != nil {
			return nil, fmt.Errorf("elasticsearch: decode contact %s: %w", ids[i], err)
		}
		h := index.ContactHit{Contact: d.Contact}
		if s.WithVectors {
			h.Vector = d.Vector
		}
		if s.Vector != nil {
			h.Similarity = cosineFromScore(p.score)
		}
		hits = append(hits, h)
	}
	return hits, nil
}

// refreshEmployers copies the firmographics of companies just written onto
// the contacts at their domains (_update_by_query, one painless script
// with each domain's fields as params; conflicts proceed, as a contact
// rewritten meanwhile carries its own copy). Like every _update_by_query
// it sees the contacts searchable when it starts: a contact written less
// than a refresh interval earlier keeps the employer fields it was written
// with. A missing contact index is a no-op.
func (e *Engine) refreshEmployers(ctx context.Context, companies []record.Company) error {
	return e.refreshEmployersIn(ctx, e.contactsAlias, companies)
}

// refreshEmployersIn is refreshEmployers on the contacts behind target.
func (e *Engine) refreshEmployersIn(ctx context.Context, target string, companies []record.Company) error {
	yes := true
	for start := 0; start < len(companies); start += employerBatch {
		body := buildEmployerRefresh(companies[start:min(start+employerBatch, len(companies))])
		if len(body.Query.Terms.Values) == 0 {
			continue
		}
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		var res struct {
			TimedOut bool              `json:"timed_out"`
			Total    int               `json:"total"`
			Updated  int               `json:"updated"`
			Failures []json.RawMessage `json:"failures"`
		}
		req := esapi.UpdateByQueryRequest{Index: []string{target}, Body: bytes.NewReader(b), Conflicts: "proceed", WaitForCompletion: &yes}
		err = e.call(ctx, "update employers in "+target, req, &res)
		if isType(err, "index_not_found_exception") {
			return nil
		}
		if err != nil {
			return err
		}
		switch {
		case len(res.Failures) > 0:
			return fmt.Errorf("elasticsearch update employers: %d failures, first %s", len(res.Failures), res.Failures[0])
		case res.TimedOut:
			return fmt.Errorf("elasticsearch update employers: timed out after %d of %d contacts", res.Updated, res.Total)
		}
	}
	return nil
}
