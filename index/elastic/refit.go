package elastic

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/elastic/go-elasticsearch/v8/esapi"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/record"
)

var _ index.Refitter = (*Engine)(nil)

// A refit builds the next generation of both indices (<alias>-v<N+1>,
// from the current templates) behind temporary write aliases
// (<alias>-refit), fills them with every document re-embedded, and moves
// both read aliases in one _aliases call; the metadata head then names
// the new model (its chunks were written first). A marker document in the
// meta index records the refit, so a process that died mid-way is
// finished (aliases moved) or rolled back (not moved) by the next refit.
// One refit runs at a time per cluster. The old generations are deleted after the swap: their vectors
// belong to a retired embedder.
const refitMarkerID = "refit"

type refitMarker struct {
	Kind          string    `json:"kind"`
	Head          metaHead  `json:"head"` // the head to write after the swap
	FromCompanies string    `json:"from_companies"`
	ToCompanies   string    `json:"to_companies"`
	FromContacts  string    `json:"from_contacts"`
	ToContacts    string    `json:"to_contacts"`
	Started       time.Time `json:"started"`
}

// refitState is this process's refit under way (guarded by refitMu):
// writes made through this Engine meanwhile go to the new generation
// too, embedded with the new embedder.
type refitState struct {
	r       index.Refit
	ctx     context.Context
	deleted map[string]bool // company ids and "c:"+persona ids deleted meanwhile
	err     error
	n       int // writes embedded meanwhile
}

func (e *Engine) refitAlias(alias string) string { return alias + "-refit" }

// Refit implements index.Refitter. The vector dimension is the companies
// mapping's: an embedder of another dimension needs a new index prefix.
// Writes made by other processes during the refit are caught by a count
// check before the swap (ErrReindexDiverged: nothing moves, retry).
func (e *Engine) Refit(ctx context.Context, r index.Refit) (index.RefitResult, error) {
	var res index.RefitResult
	if r.Meta.EmbedderID == "" || r.Companies == nil || r.Contacts == nil {
		return res, fmt.Errorf("refit: %w: embedder id and both embedding functions are required", index.ErrInvalid)
	}
	if r.Meta.Dimension != e.dim {
		return res, fmt.Errorf("refit: %w: Elasticsearch indices here hold %d-dim vectors, the new embedder makes %d (use a new index prefix and re-ingest)",
			index.ErrUnsupported, e.dim, r.Meta.Dimension)
	}
	if r.BatchSize <= 0 {
		r.BatchSize = 256
	}
	e.refitMu.Lock()
	if e.refit != nil {
		e.refitMu.Unlock()
		return res, index.ErrRefitRunning
	}
	st := &refitState{r: r, ctx: ctx, deleted: map[string]bool{}}
	e.refit = st
	e.refitMu.Unlock()
	done := false
	var mk refitMarker
	defer func() {
		e.refitMu.Lock()
		e.refit = nil
		e.refitMu.Unlock()
		if !done && mk.ToCompanies != "" {
			cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
			defer cancel()
			// An alias move that failed on the way back may still have
			// happened: settle by where the alias points.
			_ = e.settleRefit(cctx, mk)
		}
	}()

	if err := e.RecoverRefit(ctx); err != nil {
		return res, err
	}
	head, err := e.metaHead(ctx)
	if err != nil {
		return res, fmt.Errorf("refit: %w", err)
	}
	res.From, res.To = head.EmbedderID, r.Meta.EmbedderID
	mk = refitMarker{Kind: "refit", Started: time.Now().UTC()}
	for _, k := range []struct {
		alias    string
		from, to *string
	}{{e.alias, &mk.FromCompanies, &mk.ToCompanies}, {e.contactsAlias, &mk.FromContacts, &mk.ToContacts}} {
		live, err := e.liveIndexOf(ctx, k.alias)
		if err != nil {
			return res, err
		}
		gen, ok := generationOf(k.alias, live)
		if !ok {
			return res, fmt.Errorf("elasticsearch: live index %q is not named %s-v<N>", live, k.alias)
		}
		*k.from, *k.to = live, generationIndex(k.alias, gen+1)
	}
	if mk.Head, err = e.putModelChunks(ctx, r.Meta); err != nil {
		return res, err
	}
	if err := e.putMeta(ctx, refitMarkerID, mk); err != nil {
		return res, err
	}
	for _, k := range []struct{ alias, to string }{{e.alias, mk.ToCompanies}, {e.contactsAlias, mk.ToContacts}} {
		if err := e.deleteIndex(ctx, k.to); err != nil {
			return res, err
		}
		body, _ := json.Marshal(createWithAlias{Aliases: map[string]struct{}{e.refitAlias(k.alias): {}}})
		if err := e.call(ctx, "create index "+k.to, esapi.IndicesCreateRequest{Index: k.to, Body: bytes.NewReader(body)}, nil); err != nil {
			return res, err
		}
	}

	total := 0
	for _, from := range []string{mk.FromCompanies, mk.FromContacts} {
		n, err := e.countIndex(ctx, from)
		if err != nil {
			return res, err
		}
		total += n
	}
	doneN := 0
	progress := func(n int) {
		doneN += n
		if r.Progress != nil {
			r.Progress(doneN, total)
		}
	}
	if err := e.refitCompanies(ctx, st, mk.FromCompanies, progress); err != nil {
		return res, err
	}
	if err := e.refitContacts(ctx, st, mk.FromContacts, progress); err != nil {
		return res, err
	}

	// The swap: in-process writers wait (refitMu) from the count check to
	// the aliases' move.
	e.refitMu.Lock()
	defer e.refitMu.Unlock()
	if st.err != nil {
		return res, fmt.Errorf("%w: %w", index.ErrRefitAborted, st.err)
	}
	pairs := [][2]string{{mk.FromCompanies, mk.ToCompanies}, {mk.FromContacts, mk.ToContacts}}
	counts := make([]int, 2)
	for i, p := range pairs {
		if err := e.call(ctx, "refresh "+p[0]+", "+p[1], esapi.IndicesRefreshRequest{Index: []string{p[0], p[1]}}, nil); err != nil {
			return res, err
		}
		nFrom, err := e.countIndex(ctx, p[0])
		if err != nil {
			return res, err
		}
		nTo, err := e.countIndex(ctx, p[1])
		if err != nil {
			return res, err
		}
		if nFrom != nTo {
			return res, fmt.Errorf("elasticsearch refit: %w: %s has %d documents, %s %d (writes from another process?); aliases not moved",
				ErrReindexDiverged, p[0], nFrom, p[1], nTo)
		}
		counts[i] = nTo
	}
	if err := e.updateAliases(ctx, refitSwap(e.alias, e.contactsAlias, mk)); err != nil {
		return res, fmt.Errorf("elasticsearch: move aliases to %s, %s: %w", mk.ToCompanies, mk.ToContacts, err)
	}
	done = true
	e.noteLiveIndex(ctx, e.alias, mk.ToCompanies)
	e.noteLiveIndex(ctx, e.contactsAlias, mk.ToContacts)
	// The aliases have moved: from here on the refit completes, now or
	// by RecoverRefit.
	if err := e.finishRefit(context.WithoutCancel(ctx), mk); err != nil {
		return res, fmt.Errorf("refit swapped; finishing (retried by the next refit or start): %w", err)
	}
	res.Companies, res.Contacts, res.Concurrent = counts[0], counts[1], st.n
	return res, nil
}

// refitSwap moves both read aliases to the new generations and drops the
// temporary write aliases, in one atomic request.
func refitSwap(companies, contacts string, mk refitMarker) aliasActions {
	yes := true
	return aliasActions{Actions: []aliasAction{
		{Remove: &aliasRef{Index: mk.FromCompanies, Alias: companies, MustExist: &yes}},
		{Add: &aliasRef{Index: mk.ToCompanies, Alias: companies}},
		{Remove: &aliasRef{Index: mk.ToCompanies, Alias: companies + "-refit", MustExist: &yes}},
		{Remove: &aliasRef{Index: mk.FromContacts, Alias: contacts, MustExist: &yes}},
		{Add: &aliasRef{Index: mk.ToContacts, Alias: contacts}},
		{Remove: &aliasRef{Index: mk.ToContacts, Alias: contacts + "-refit", MustExist: &yes}},
	}}
}

// RecoverRefit completes or rolls back a refit a process left behind
// (its marker): completed when the aliases had moved, else rolled back.
// Every refit runs it before it starts.
func (e *Engine) RecoverRefit(ctx context.Context) error {
	var doc struct {
		Found  bool        `json:"found"`
		Source refitMarker `json:"_source"`
	}
	err := e.call(ctx, "get refit marker", esapi.GetRequest{Index: e.metaIndex, DocumentID: refitMarkerID}, &doc)
	if isStatus(err, 404) && !isType(err, "index_not_found_exception") {
		return nil
	}
	if err != nil {
		return err
	}
	if !doc.Found {
		return nil
	}
	return e.settleRefit(ctx, doc.Source)
}

// settleRefit finishes a refit whose aliases moved and rolls back one
// whose aliases did not.
func (e *Engine) settleRefit(ctx context.Context, mk refitMarker) error {
	live, err := e.liveIndexOf(ctx, e.alias)
	if err != nil {
		return err
	}
	if live == mk.ToCompanies {
		return e.finishRefit(ctx, mk)
	}
	return e.rollBackRefit(ctx, mk)
}

// finishRefit writes the new head, drops the marker, the old generations
// and the previous model's chunks. Every step is idempotent.
func (e *Engine) finishRefit(ctx context.Context, mk refitMarker) error {
	old, err := e.metaHead(ctx)
	if err != nil && !errors.Is(err, index.ErrNotFound) {
		return err
	}
	if old.Generation != mk.Head.Generation {
		if err := e.putMeta(ctx, metaHeadID, mk.Head); err != nil {
			return err
		}
		e.forgetEmbedderID()
		if err := e.deleteChunks(ctx, old); err != nil {
			return err
		}
	}
	if err := e.deleteMetaDoc(ctx, refitMarkerID); err != nil {
		return err
	}
	return errors.Join(e.deleteIndex(ctx, mk.FromCompanies), e.deleteIndex(ctx, mk.FromContacts))
}

// rollBackRefit removes what an unfinished refit built; the live indices
// and the head were never touched.
func (e *Engine) rollBackRefit(ctx context.Context, mk refitMarker) error {
	return errors.Join(
		e.deleteIndex(ctx, mk.ToCompanies),
		e.deleteIndex(ctx, mk.ToContacts),
		e.deleteChunks(ctx, mk.Head),
		e.deleteMetaDoc(ctx, refitMarkerID),
	)
}

func (e *Engine) deleteIndex(ctx context.Context, name string) error {
	if name == "" {
		return nil
	}
	err := e.call(ctx, "delete index "+name, esapi.IndicesDeleteRequest{Index: []string{name}}, nil)
	if isStatus(err, 404) {
		return nil
	}
	return err
}

func (e *Engine) deleteMetaDoc(ctx context.Context, id string) error {
	err := e.call(ctx, "delete metadata "+id, esapi.DeleteRequest{Index: e.metaIndex, DocumentID: id}, nil)
	if isStatus(err, 404) {
		return nil
	}
	return err
}

// sourceScanBody is one page of a refit's scan: every document of one
// index in id-field order, without the vector.
type sourceScanBody struct {
	Query          json.RawMessage   `json:"query"`
	Size           int               `json:"size"`
	Sort           []sortClause      `json:"sort"`
	Source         map[string]any    `json:"_source"`
	TrackTotalHits bool              `json:"track_total_hits"`
	SearchAfter    []json.RawMessage `json:"search_after,omitempty"`
}

func buildSourceScan(field string, size int, after []json.RawMessage) sourceScanBody {
	return sourceScanBody{Query: json.RawMessage(`{"match_all":{}}`), Size: size,
		Sort: []sortClause{{Field: field, Order: "asc"}}, Source: map[string]any{"excludes": []string{vectorField}}, SearchAfter: after}
}

// refitScanPage is the documents one page of a refit's scan reads.
var refitScanPage = 1000

// scanSources pages through a concrete index in field order, handing
// each page's sources to fn.
func (e *Engine) scanSources(ctx context.Context, name, field string, fn func(srcs []json.RawMessage) error) error {
	var after []json.RawMessage
	for {
		b, _ := json.Marshal(buildSourceScan(field, refitScanPage, after))
		var r struct {
			TimedOut bool      `json:"timed_out"`
			Shards   shardInfo `json:"_shards"`
			Hits     struct {
				Hits []struct {
					ID     string            `json:"_id"`
					Sort   []json.RawMessage `json:"sort"`
					Source json.RawMessage   `json:"_source"`
				} `json:"hits"`
			} `json:"hits"`
		}
		if err := e.call(ctx, "refit scan "+name, esapi.SearchRequest{Index: []string{name}, Body: bytes.NewReader(b)}, &r); err != nil {
			return err
		}
		if r.TimedOut {
			return fmt.Errorf("elasticsearch refit scan %s: timed out", name)
		}
		if err := r.Shards.check("refit scan"); err != nil {
			return err
		}
		srcs := make([]json.RawMessage, len(r.Hits.Hits))
		for i, h := range r.Hits.Hits {
			srcs[i] = h.Source
		}
		if len(srcs) > 0 {
			if err := fn(srcs); err != nil {
				return err
			}
		}
		if len(r.Hits.Hits) < refitScanPage {
			return nil
		}
		last := r.Hits.Hits[len(r.Hits.Hits)-1]
		if len(last.Sort) == 0 {
			return fmt.Errorf("elasticsearch refit scan: hit %s has no sort values", last.ID)
		}
		after = last.Sort
	}
}

func (e *Engine) refitCompanies(ctx context.Context, st *refitState, from string, progress func(int)) error {
	return refitAll(ctx, e, st, from, progress, refitting[record.Company]{
		what: "companies", sortField: "domain", alias: e.refitAlias(e.alias), embed: st.r.Companies,
		doc: func(c record.Company, v []float32) (string, any) {
			return c.Domain, newCompanyDoc(index.CompanyDoc{Company: c, Vector: v})
		},
	})
}

func (e *Engine) refitContacts(ctx context.Context, st *refitState, from string, progress func(int)) error {
	return refitAll(ctx, e, st, from, progress, refitting[record.Contact]{
		what: "contacts", sortField: "persona_id", alias: e.refitAlias(e.contactsAlias), embed: st.r.Contacts,
		doc: func(c record.Contact, v []float32) (string, any) {
			return "c:" + personaKey(c.PersonaID), newContactDoc(index.ContactDoc{Contact: c, Vector: v})
		},
	})
}

// refitting says how one kind of document is re-embedded: scanned in
// sortField order, embedded by embed, written to alias as doc makes it.
type refitting[T any] struct {
	what, sortField, alias string
	embed                  func(context.Context, []T) ([][]float32, error)
	doc                    func(T, []float32) (id string, doc any)
}

// refitAll re-embeds every document of one kind from from on, in batches,
// into the refit's new index.
func refitAll[T any](ctx context.Context, e *Engine, st *refitState, from string, progress func(int), r refitting[T]) error {
	return e.scanSources(ctx, from, r.sortField, func(srcs []json.RawMessage) error {
		for lo := 0; lo < len(srcs); lo += st.r.BatchSize {
			page := srcs[lo:min(lo+st.r.BatchSize, len(srcs))]
			recs := make([]T, len(page))
			for i, s := range page {
				if err := json.Unmarshal(s, &recs[i]); err != nil {
					return fmt.Errorf("elasticsearch refit: decode %s: %w", r.what, err)
				}
			}
			vecs, err := r.embed(ctx, recs)
			if err == nil {
				err = checkRefitVectors(vecs, len(recs), e.dim)
			}
			if err != nil {
				return fmt.Errorf("refit: embed %s: %w", r.what, err)
			}
			if err := e.createRefitted(ctx, st, r.alias, func(i int) (string, any) {
				return r.doc(recs[i], vecs[i])
			}, len(recs)); err != nil {
				return err
			}
			progress(len(recs))
		}
		return nil
	})
}

// createRefitted writes re-embedded documents into the new generation
// with the create action: a document a writer put there meanwhile (newer)
// is kept, one deleted meanwhile is not brought back.
func (e *Engine) createRefitted(ctx context.Context, st *refitState, target string, doc func(i int) (key string, body any), n int) error {
	e.refitMu.Lock()
	defer e.refitMu.Unlock()
	if st.err != nil {
		return fmt.Errorf("%w: %w", index.ErrRefitAborted, st.err)
	}
	ops := make([]bulkOp, 0, n)
	for i := range n {
		key, body := doc(i)
		if st.deleted[key] {
			continue
		}
		b, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("elasticsearch refit: encode %s: %w", key, err)
		}
		id, _ := cutContactKey(key)
		ops = append(ops, bulkOp{id: id, body: b})
	}
	if len(ops) == 0 {
		return nil
	}
	results, err := e.runBulk(ctx, target, "create", ops)
	if err != nil {
		return err
	}
	for _, r := range results {
		if r.status == 409 {
			continue // written meanwhile by this process: newer
		}
		if r.reason != "" || r.status > 201 {
			return fmt.Errorf("elasticsearch refit: %s refused: %s", r.id, r.reason)
		}
	}
	return nil
}

func cutContactKey(key string) (string, bool) {
	if len(key) > 2 && key[:2] == "c:" {
		return key[2:], true
	}
	return key, false
}

func checkRefitVectors(vecs [][]float32, n, dim int) error {
	if len(vecs) != n {
		return fmt.Errorf("embedder returned %d vectors for %d records", len(vecs), n)
	}
	for _, v := range vecs {
		if len(v) != dim {
			return fmt.Errorf("%w: embedder returned %d dimensions, the index has %d", index.ErrVectorMismatch, len(v), dim)
		}
	}
	return nil
}

// refitting returns this process's refit under way, nil when none.
func (e *Engine) refitting() *refitState {
	e.refitMu.Lock()
	defer e.refitMu.Unlock()
	return e.refit
}

// dualWriteCompanies writes companies just written to the live index into
// the new generation too, embedded with the new embedder. A failure
// aborts the refit, never the write.
func (e *Engine) dualWriteCompanies(ctx context.Context, cs []record.Company) {
	st := e.refitting()
	if st == nil || len(cs) == 0 {
		return
	}
	vecs, err := st.r.Companies(st.ctx, cs)
	if err == nil {
		err = checkRefitVectors(vecs, len(cs), e.dim)
	}
	ops := make([]bulkOp, 0, len(cs))
	for i := range cs {
		if err != nil {
			break
		}
		var b []byte
		if b, err = json.Marshal(newCompanyDoc(index.CompanyDoc{Company: cs[i], Vector: vecs[i]})); err == nil {
			ops = append(ops, bulkOp{id: cs[i].Domain, body: b})
		}
	}
	if err == nil {
		err = e.dualBulk(ctx, e.refitAlias(e.alias), ops)
	}
	if err == nil {
		// The new generation's contacts carry employer copies too.
		err = e.refreshEmployersIn(ctx, e.refitAlias(e.contactsAlias), cs)
	}
	e.refitMu.Lock()
	defer e.refitMu.Unlock()
	if err != nil && st.err == nil {
		st.err = fmt.Errorf("write %d companies into the new generation: %w", len(cs), err)
	}
	st.n += len(ops)
}

func (e *Engine) dualWriteContacts(ctx context.Context, cs []record.Contact) {
	st := e.refitting()
	if st == nil || len(cs) == 0 {
		return
	}
	vecs, err := st.r.Contacts(st.ctx, cs)
	if err == nil {
		err = checkRefitVectors(vecs, len(cs), e.dim)
	}
	ops := make([]bulkOp, 0, len(cs))
	for i := range cs {
		if err != nil {
			break
		}
		var b []byte
		if b, err = json.Marshal(newContactDoc(index.ContactDoc{Contact: cs[i], Vector: vecs[i]})); err == nil {
			ops = append(ops, bulkOp{id: personaKey(cs[i].PersonaID), body: b})
		}
	}
	if err == nil {
		err = e.dualBulk(ctx, e.refitAlias(e.contactsAlias), ops)
	}
	e.refitMu.Lock()
	defer e.refitMu.Unlock()
	if err != nil && st.err == nil {
		st.err = fmt.Errorf("write %d contacts into the new generation: %w", len(cs), err)
	}
	st.n += len(ops)
}

func (e *Engine) dualBulk(ctx context.Context, target string, ops []bulkOp) error {
	if len(ops) == 0 {
		return nil
	}
	results, err := e.runBulk(ctx, target, "index", ops)
	if err != nil {
		return err
	}
	for _, r := range results {
		if r.reason != "" || r.status > 201 {
			return fmt.Errorf("%s refused: %s", r.id, r.reason)
		}
	}
	return nil
}

// dualDelete removes deleted documents from the new generation and keeps
// the refit's scan from writing them back.
func (e *Engine) dualDelete(ctx context.Context, contacts bool, ids []string) {
	e.refitMu.Lock()
	defer e.refitMu.Unlock()
	st := e.refit
	if st == nil || len(ids) == 0 {
		return
	}
	target := e.refitAlias(e.alias)
	if contacts {
		target = e.refitAlias(e.contactsAlias)
	}
	ops := make([]bulkOp, len(ids))
	for i, id := range ids {
		key := id
		if contacts {
			key = "c:" + id
		}
		st.deleted[key] = true
		ops[i] = bulkOp{id: id}
	}
	if _, err := e.runBulk(ctx, target, "delete", ops); err != nil && st.err == nil {
		st.err = fmt.Errorf("delete %d documents from the new generation: %w", len(ids), err)
	}
}

// embedderIDTTL is how long EmbedderID trusts the head it read last.
const embedderIDTTL = 2 * time.Second

type embedderIDCache struct {
	mu sync.Mutex
	id string
	at time.Time
}

// EmbedderID names the embedder of the served vectors, read from the
// metadata head at most every embedderIDTTL: query/ drops its cached
// embedder when it changes (a refit by this or another process).
func (e *Engine) EmbedderID() string {
	c := &e.embID
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.at.IsZero() && time.Since(c.at) < embedderIDTTL {
		return c.id
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if h, err := e.metaHead(ctx); err == nil {
		c.id, c.at = h.EmbedderID, time.Now()
	}
	return c.id
}

func (e *Engine) forgetEmbedderID() {
	e.embID.mu.Lock()
	e.embID.at = time.Time{}
	e.embID.mu.Unlock()
}

// checkWriteEmbedder refuses a write whose vectors name another embedder
// than the index's head.
func (e *Engine) checkWriteEmbedder(ctx context.Context, ids func(yield func(string) bool)) error {
	want := ""
	for id := range ids {
		if id != "" {
			want = id
			break
		}
	}
	if want == "" {
		return nil
	}
	h, err := e.metaHead(ctx)
	if errors.Is(err, index.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	for id := range ids {
		if id != "" && id != h.EmbedderID {
			return fmt.Errorf("write: %w: vectors of %s, the index serves %s", index.ErrEmbedderChanged, id, h.EmbedderID)
		}
	}
	return nil
}
