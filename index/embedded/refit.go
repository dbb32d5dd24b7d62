package embedded

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/cockroachdb/pebble"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/record"
)

var _ index.Refitter = (*Engine)(nil)

// A refit stages the new generation's vectors beside the served ones:
// rv/<domain> (companies) and rw/<persona id> (contacts), binary16 like
// the entries. m/refit marks a refit under way; an open that finds it (a
// process killed mid-refit) drops the staged vectors and serves the
// previous generation. The swap is one Pebble batch: every entry
// rewritten with its staged vector, the new metadata and model, the
// staged keys and the marker removed. It commits whole or not at all.
const (
	prefixStagedCompany = "rv/"
	prefixStagedContact = "rw/"
	keyRefit            = "m/refit"
)

// refitState is the refit under way (guarded by writeMu).
type refitState struct {
	r   index.Refit
	ctx context.Context
	// touched: records written or deleted after the refit's scan began;
	// their staged vector (or its absence) is the writer's, which the scan
	// must not overwrite with the older profile's.
	touched        map[string]bool
	touchedContact map[int64]bool
	concurrent     int
	// err: a write arriving during the refit could not be embedded with
	// the new embedder. The write itself went through; the refit aborts.
	err error
}

type refitMarker struct {
	EmbedderID string    `json:"embedder_id"`
	Dimension  int       `json:"dimension"`
	Started    time.Time `json:"started"`
}

func stagedRange(prefix string) (lo, hi []byte) {
	lo = []byte(prefix)
	hi = append([]byte(prefix[:len(prefix)-1]), prefix[len(prefix)-1]+1)
	return lo, hi
}

// dropStaged removes the staged vectors and the marker of an interrupted
// refit, in one synced batch.
func (e *Engine) dropStaged() error {
	b := e.db.NewBatch()
	defer b.Close()
	for _, p := range []string{prefixStagedCompany, prefixStagedContact} {
		lo, hi := stagedRange(p)
		_ = b.DeleteRange(lo, hi, nil)
	}
	_ = b.Delete([]byte(keyRefit), nil)
	if err := e.commitOwn(b, pebble.Sync); err != nil {
		return fmt.Errorf("drop staged refit: %w", err)
	}
	return nil
}

// dropInterruptedRefit runs at open: the marker of a refit that never
// swapped means its staged vectors are garbage.
func (e *Engine) dropInterruptedRefit() error {
	_, closer, err := e.db.Get([]byte(keyRefit))
	if errors.Is(err, pebble.ErrNotFound) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read refit marker: %w", err)
	}
	closer.Close()
	return e.dropStaged()
}

// refitMarked reports whether the store holds the marker of a refit; an
// interrupted one's is gone after Open.
func (e *Engine) refitMarked() bool {
	_, closer, err := e.db.Get([]byte(keyRefit))
	if err != nil {
		return false
	}
	closer.Close()
	return true
}

// Refit implements index.Refitter. Searches and reads keep answering
// from the current vectors while the new ones are computed and staged;
// writes keep going too, each also embedded with the new embedder (under
// the write lock). The swap holds the write lock while it rewrites the
// entries (one batch: about 1.3 KB a company) and the read lock only to
// switch the in-memory vectors.
func (e *Engine) Refit(ctx context.Context, r index.Refit) (index.RefitResult, error) {
	var res index.RefitResult
	if r.Meta.Dimension <= 0 || r.Meta.EmbedderID == "" || r.Companies == nil || r.Contacts == nil {
		return res, fmt.Errorf("refit: %w: embedder id, dimension and both embedding functions are required", index.ErrInvalid)
	}
	if r.BatchSize <= 0 {
		r.BatchSize = 256
	}
	x, err := e.contactIdx()
	if err != nil {
		return res, err
	}
	st := &refitState{r: r, ctx: ctx, touched: map[string]bool{}, touchedContact: map[int64]bool{}}

	e.writeMu.Lock()
	switch {
	case e.closed:
		e.writeMu.Unlock()
		return res, errors.New("refit: index is closed")
	case e.refit != nil:
		e.writeMu.Unlock()
		return res, index.ErrRefitRunning
	case e.bulk != nil || e.loadOnly:
		e.writeMu.Unlock()
		return res, fmt.Errorf("refit: %w: the index is open for a bulk load; open it for serving", index.ErrUnsupported)
	}
	e.mu.RLock()
	var from string
	if e.meta != nil {
		from = e.meta.EmbedderID
	}
	total := int(e.live.GetCardinality())
	e.mu.RUnlock()
	if from == "" {
		e.writeMu.Unlock()
		return res, fmt.Errorf("refit: %w: the index has no embedder yet", index.ErrNotFound)
	}
	res.From, res.To = from, r.Meta.EmbedderID
	x.mu.RLock()
	total += int(x.live.GetCardinality())
	x.mu.RUnlock()
	if err := e.dropStaged(); err != nil {
		e.writeMu.Unlock()
		return res, err
	}
	mark, _ := json.Marshal(refitMarker{EmbedderID: r.Meta.EmbedderID, Dimension: r.Meta.Dimension, Started: time.Now().UTC()})
	e.snap.ownWrites.Store(true)
	if err := e.db.Set([]byte(keyRefit), mark, pebble.Sync); err != nil {
		e.writeMu.Unlock()
		return res, fmt.Errorf("refit: write marker: %w", err)
	}
	// Iterators made under the write lock see every record written before
	// the refit; every later write is in touched.
	snap := e.db.NewSnapshot()
	e.refit = st
	e.writeMu.Unlock()
	defer snap.Close()

	swapped := false
	defer func() {
		if swapped {
			return
		}
		e.writeMu.Lock()
		if e.refit == st {
			e.refit = nil
			if !e.closed {
				_ = e.dropStaged()
			}
		}
		e.writeMu.Unlock()
	}()

	done := 0
	progress := func(n int) {
		done += n
		if r.Progress != nil {
			r.Progress(done, total)
		}
	}
	if err := e.stageCompanies(ctx, snap, st, progress); err != nil {
		return res, err
	}
	if err := e.stageContacts(ctx, snap, st, progress); err != nil {
		return res, err
	}
	n, nc, err := e.swapGeneration(ctx, st, x)
	if err != nil {
		return res, err
	}
	swapped = true
	res.Companies, res.Contacts, res.Concurrent = n, nc, st.concurrent
	return res, nil
}

// checkVectors verifies an embedding call's answer.
func checkVectors(vecs [][]float32, n, dim int) error {
	if len(vecs) != n {
		return fmt.Errorf("embedder returned %d vectors for %d records", len(vecs), n)
	}
	for _, v := range vecs {
		if len(v) != dim {
			return fmt.Errorf("%w: embedder returned %d dimensions, its metadata says %d", index.ErrVectorMismatch, len(v), dim)
		}
	}
	return nil
}

// stageCompanies embeds every company of the snapshot and stages its
// vector, unless a write touched it since.
func (e *Engine) stageCompanies(ctx context.Context, snap *pebble.Snapshot, st *refitState, progress func(int)) error {
	return stageAll(ctx, e, snap, st, progress, staging[record.Company]{
		what: "companies", prefix: prefixProfile, embed: st.r.Companies,
		key: func(c record.Company) ([]byte, bool) {
			return []byte(prefixStagedCompany + c.Domain), st.touched[c.Domain]
		},
	})
}

// stageContacts does for contacts what stageCompanies does for companies.
func (e *Engine) stageContacts(ctx context.Context, snap *pebble.Snapshot, st *refitState, progress func(int)) error {
	return stageAll(ctx, e, snap, st, progress, staging[record.Contact]{
		what: "contacts", prefix: prefixContactProfile, embed: st.r.Contacts,
		key: func(c record.Contact) ([]byte, bool) {
			return contactKey(prefixStagedContact, c.PersonaID), st.touchedContact[c.PersonaID]
		},
	})
}

// staging says how one kind of record is staged: the profiles under
// prefix, embedded by embed, each vector stored under key unless a write
// touched the record since the snapshot (touched is read under the write
// lock, in stage).
type staging[T any] struct {
	what   string
	prefix string
	embed  func(context.Context, []T) ([][]float32, error)
	key    func(T) (key []byte, touched bool)
}

// stageAll embeds every record of the snapshot under s.prefix in batches
// and stages their vectors.
func stageAll[T any](ctx context.Context, e *Engine, snap *pebble.Snapshot, st *refitState, progress func(int), s staging[T]) error {
	lo, hi := stagedRange(s.prefix)
	it, err := snap.NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: hi})
	if err != nil {
		return fmt.Errorf("refit: scan %s: %w", s.what, err)
	}
	defer it.Close()
	var batch []T
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		vecs, err := s.embed(ctx, batch)
		if err == nil {
			err = checkVectors(vecs, len(batch), st.r.Meta.Dimension)
		}
		if err != nil {
			return fmt.Errorf("refit: embed %s: %w", s.what, err)
		}
		if err := e.stage(st, func(b *pebble.Batch) {
			var buf []byte
			for i := range batch {
				k, touched := s.key(batch[i])
				if touched {
					continue
				}
				buf = halfBytes(buf[:0], vecs[i])
				_ = b.Set(k, buf, nil)
			}
		}); err != nil {
			return err
		}
		progress(len(batch))
		batch = batch[:0]
		return nil
	}
	for it.First(); it.Valid(); it.Next() {
		var r T
		if err := json.Unmarshal(it.Value(), &r); err != nil {
			return fmt.Errorf("refit: decode %s record %q: %w", s.what, it.Key()[len(s.prefix):], err)
		}
		batch = append(batch, r)
		if len(batch) == st.r.BatchSize {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := it.Error(); err != nil {
		return fmt.Errorf("refit: scan %s: %w", s.what, err)
	}
	return flush()
}

// stage writes staged vectors under the write lock, so they are checked
// against touched atomically with the writes.
func (e *Engine) stage(st *refitState, fill func(b *pebble.Batch)) error {
	if err := st.ctx.Err(); err != nil {
		return fmt.Errorf("%w: %w", index.ErrRefitAborted, err)
	}
	e.writeMu.Lock()
	defer e.writeMu.Unlock()
	if err := e.refitUsable(st); err != nil {
		return err
	}
	b := e.db.NewBatch()
	defer b.Close()
	fill(b)
	// Staged vectors need no fsync: a crash drops them all anyway.
	if err := e.commitOwn(b, pebble.NoSync); err != nil {
		return fmt.Errorf("refit: stage vectors: %w", err)
	}
	return nil
}

// refitUsable reports why st can no longer complete. The caller holds
// writeMu.
func (e *Engine) refitUsable(st *refitState) error {
	switch {
	case e.closed:
		return fmt.Errorf("%w: index closed", index.ErrRefitAborted)
	case e.refit != st:
		return index.ErrRefitAborted
	case st.err != nil:
		return fmt.Errorf("%w: %w", index.ErrRefitAborted, st.err)
	}
	return nil
}

func halfBytes(dst []byte, v []float32) []byte {
	at := len(dst)
	dst = append(dst, make([]byte, 2*len(v))...)
	putHalfs(dst[at:], v)
	return dst
}

// swapGeneration rewrites every entry with its staged vector, stores the
// new metadata and switches the in-memory vectors, all while writes wait.
func (e *Engine) swapGeneration(ctx context.Context, st *refitState, x *contactIndex) (companies, contacts int, err error) {
	e.writeMu.Lock()
	defer e.writeMu.Unlock()
	if err := e.refitUsable(st); err != nil {
		return 0, 0, err
	}
	if err := ctx.Err(); err != nil {
		return 0, 0, fmt.Errorf("%w: %w", index.ErrRefitAborted, err)
	}
	dim := st.r.Meta.Dimension
	b := e.db.NewBatch()
	defer b.Close()

	// Companies: the entries and the staged vectors are both in domain
	// order, so one pass over each pairs them.
	e.mu.RLock()
	slots := e.domains.clone()
	nSlots := slots.slots()
	e.mu.RUnlock()
	chunks := make([][]int8, (nSlots+chunkDocs-1)/chunkDocs)
	signs := allocSigns(len(chunks), signWords(dim))
	scales := make([]float32, nSlots)
	for i := range chunks {
		chunks[i] = allocInt8(chunkDocs * dim)
	}
	vecAt := func(id uint32) ([]int8, *float32) {
		off := (int(id) % chunkDocs) * dim
		return chunks[int(id)/chunkDocs][off : off+dim : off+dim], &scales[id]
	}
	signAt := func(id uint32) []uint64 {
		w := signWords(dim)
		off := (int(id) % chunkDocs) * w
		return signs[int(id)/chunkDocs][off : off+w : off+w]
	}
	// The new vectors' file (flatfile.go), swapped in with the codes; the
	// final pass reads the store if it cannot be written.
	fb, ferr := newFlatBuilder(filepath.Join(e.dir, flatFile), dim)
	if ferr != nil {
		fb = nil
	}
	defer func() {
		if fb != nil {
			fb.abort()
		}
	}()
	var missing []string
	err = e.pairStaged(prefixEntry, prefixStagedCompany, dim, func(key []byte, val []byte, vec []float32) error {
		domain := string(key)
		if vec == nil {
			missing = append(missing, domain)
			return nil
		}
		return e.putCompanyEntry(b, domain, val, vec, slots, vecAt, signAt, fb)
	})
	if err != nil {
		return 0, 0, err
	}
	if len(missing) > 0 {
		// Written between the snapshot and a write that staged it (none
		// in practice): embedded here rather than left behind.
		cs, err := e.GetCompanies(ctx, missing)
		if err != nil {
			return 0, 0, err
		}
		vecs, err := st.r.Companies(ctx, cs)
		if err == nil {
			err = checkVectors(vecs, len(cs), dim)
		}
		if err != nil {
			return 0, 0, fmt.Errorf("%w: embed companies: %w", index.ErrRefitAborted, err)
		}
		for i := range cs {
			val, ok, err := e.stored(prefixEntry, cs[i].Domain)
			if err != nil {
				return 0, 0, err
			}
			if ok {
				if err := e.putCompanyEntry(b, cs[i].Domain, val, vecs[i], slots, vecAt, signAt, fb); err != nil {
					return 0, 0, err
				}
			}
		}
	}
	companies = slots.len()

	// Contacts. writeMu is held: no write moves a contact while the
	// entries are paired with their ids (idOf: the contacts loaded at open
	// are found in the sorted persona column, the later ones in x.ids).
	x.mu.RLock()
	nc := len(x.persona)
	x.mu.RUnlock()
	contacts = 0
	cslot := func(pid int64) (uint32, bool) {
		x.mu.RLock()
		defer x.mu.RUnlock()
		id, ok := x.idOf(pid)
		if ok {
			contacts++
		}
		return id, ok
	}
	cvecs := make([][]int8, (nc+chunkDocs-1)/chunkDocs)
	for i := range cvecs {
		cvecs[i] = make([]int8, chunkDocs*dim)
	}
	cscale := make([]float32, nc)
	var missingContacts []int64
	err = e.pairStaged(prefixContactEntry, prefixStagedContact, dim, func(key []byte, val []byte, vec []float32) error {
		if len(key) != 8 {
			return nil
		}
		pid := int64(binary.BigEndian.Uint64(key))
		if vec == nil {
			missingContacts = append(missingContacts, pid)
			return nil
		}
		return putContactEntry(b, pid, val, vec, cslot, cvecs, cscale, dim)
	})
	if err != nil {
		return 0, 0, err
	}
	if len(missingContacts) > 0 {
		cs, err := e.GetContacts(ctx, missingContacts)
		if err != nil {
			return 0, 0, err
		}
		vecs, err := st.r.Contacts(ctx, cs)
		if err == nil {
			err = checkVectors(vecs, len(cs), dim)
		}
		if err != nil {
			return 0, 0, fmt.Errorf("%w: embed contacts: %w", index.ErrRefitAborted, err)
		}
		for i := range cs {
			v, closer, err := e.db.Get(contactKey(prefixContactEntry, cs[i].PersonaID))
			if errors.Is(err, pebble.ErrNotFound) {
				continue
			}
			if err != nil {
				return 0, 0, fmt.Errorf("refit: read contact %d: %w", cs[i].PersonaID, err)
			}
			val := bytes.Clone(v)
			closer.Close()
			if err := putContactEntry(b, cs[i].PersonaID, val, vecs[i], cslot, cvecs, cscale, dim); err != nil {
				return 0, 0, err
			}
		}
	}

	meta := st.r.Meta
	meta.Model = bytes.Clone(meta.Model)
	head, err := json.Marshal(index.Meta{EmbedderID: meta.EmbedderID, Dimension: meta.Dimension, FitRecords: meta.FitRecords})
	if err != nil {
		return 0, 0, err
	}
	_ = b.Set([]byte(keyMeta), head, nil)
	if len(meta.Model) > 0 {
		_ = b.Set([]byte(keyModel), meta.Model, nil)
	} else {
		_ = b.Delete([]byte(keyModel), nil)
	}
	for _, p := range []string{prefixStagedCompany, prefixStagedContact} {
		lo, hi := stagedRange(p)
		_ = b.DeleteRange(lo, hi, nil)
	}
	_ = b.Delete([]byte(keyRefit), nil)
	if testHookBeforeSwap != nil {
		testHookBeforeSwap()
	}
	e.snapMarkDirty()
	e.flat.markDirty()
	if err := b.Commit(pebble.Sync); err != nil {
		return 0, 0, fmt.Errorf("refit: swap generation: %w", err)
	}
	var flat *flatVectors
	if fb != nil {
		flat, _ = fb.finish(meta.EmbedderID, nSlots) // renames over the old file
		fb = nil
	}
	old := e.flat

	// The store has switched; the in-memory index follows in one step
	// under the read locks' writers.
	e.mu.Lock()
	e.chunks, e.signs, e.scales, e.dim, e.meta = chunks, signs, scales, dim, &meta
	e.signSpare = nil
	if flat != nil {
		flat.ordered = old != nil && old.ordered
	}
	e.flat = flat
	e.rangeCache = nil
	e.dropSignCopies()
	// The ANN index was built from the old vectors: queries take the
	// screen until the builder has trained and filled a new one.
	e.annInvalidate()
	e.mu.Unlock()
	if old != nil {
		old.f.Close()
		if flat == nil {
			os.Remove(old.path) // the old vectors: not to be trusted at open
		}
	}
	e.annWake()
	// writeMu is held: the slots do not change.
	csigns := sketchSlots(cvecs, dim, x.signAt, x.signN)
	x.mu.Lock()
	x.vecs, x.signs, x.signSpare, x.scale, x.dim = cvecs, csigns, nil, cscale, dim
	x.dropSets()
	x.mu.Unlock()
	e.refit = nil
	e.generation.Add(1)
	return companies, contacts, nil
}

// testHookBeforeSwap runs just before the swap's commit (tests kill the
// process there).
var testHookBeforeSwap func()

// pairStaged walks the entries under prefix and the staged vectors under
// staged together (both in key order), calling fn with each entry's key
// (without prefix), value and staged vector (nil when none was staged).
func (e *Engine) pairStaged(prefix, staged string, dim int, fn func(key, val []byte, vec []float32) error) error {
	lo, hi := stagedRange(prefix)
	it, err := e.db.NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: hi})
	if err != nil {
		return fmt.Errorf("refit: scan entries: %w", err)
	}
	defer it.Close()
	slo, shi := stagedRange(staged)
	sit, err := e.db.NewIter(&pebble.IterOptions{LowerBound: slo, UpperBound: shi})
	if err != nil {
		return fmt.Errorf("refit: scan staged vectors: %w", err)
	}
	defer sit.Close()
	sit.First()
	for it.First(); it.Valid(); it.Next() {
		key := it.Key()[len(prefix):]
		for sit.Valid() && bytes.Compare(sit.Key()[len(staged):], key) < 0 {
			sit.Next()
		}
		var vec []float32
		if sit.Valid() && bytes.Equal(sit.Key()[len(staged):], key) {
			if len(sit.Value()) != 2*dim {
				return fmt.Errorf("refit: staged vector of %s has %d bytes, want %d", key, len(sit.Value()), 2*dim)
			}
			vec = make([]float32, dim)
			getHalfs(vec, sit.Value())
		}
		if err := fn(bytes.Clone(key), bytes.Clone(it.Value()), vec); err != nil {
			return err
		}
	}
	if err := errors.Join(it.Error(), sit.Error()); err != nil {
		return fmt.Errorf("refit: scan entries: %w", err)
	}
	return nil
}

func (e *Engine) putCompanyEntry(b *pebble.Batch, domain string, val []byte, vec []float32, slots *domainTable,
	vecAt func(uint32) ([]int8, *float32), signAt func(uint32) []uint64, fb *flatBuilder) error {
	var en entry
	if err := en.unmarshal(val); err != nil {
		return fmt.Errorf("refit: entry of %s: %w", domain, err)
	}
	en.setVector(vec)
	_ = b.Set([]byte(prefixEntry+domain), en.marshal(nil), nil)
	if id, ok := slots.lookup(domain); ok {
		v, scale := vecAt(id)
		copy(v, en.codes)
		*scale = en.scale
		en.sketch(signAt(id))
		if fb != nil {
			fb.add(id, en.halfBytes(make([]byte, 2*len(vec))))
		}
	}
	return nil
}

func putContactEntry(b *pebble.Batch, pid int64, val []byte, vec []float32, slot func(int64) (uint32, bool), vecs [][]int8, scale []float32, dim int) error {
	var en cEntry
	if err := en.unmarshal(val, nil); err != nil {
		return fmt.Errorf("refit: contact %d: %w", pid, err)
	}
	en.scale, en.vec = quantize(vec)
	_ = b.Set(contactKey(prefixContactEntry, pid), en.marshal(nil), nil)
	if id, ok := slot(pid); ok {
		copy(vecs[int(id)/chunkDocs][(int(id)%chunkDocs)*dim:], en.vec)
		scale[id] = en.scale
	}
	return nil
}

// stageCompanyWrites embeds companies being written during a refit with the new
// embedder and adds their staged vectors to the write's batch. A failure
// aborts the refit, never the write. The caller holds writeMu.
func (e *Engine) stageCompanyWrites(b *pebble.Batch, cs []record.Company) {
	st := e.refit
	if st == nil || st.err != nil || len(cs) == 0 {
		return
	}
	for _, c := range cs {
		st.touched[c.Domain] = true
	}
	vecs, err := st.r.Companies(st.ctx, cs)
	if err == nil {
		err = checkVectors(vecs, len(cs), st.r.Meta.Dimension)
	}
	if err != nil {
		st.err = fmt.Errorf("embed %d companies written during the refit: %w", len(cs), err)
		return
	}
	var buf []byte
	for i := range cs {
		buf = halfBytes(buf[:0], vecs[i])
		_ = b.Set([]byte(prefixStagedCompany+cs[i].Domain), buf, nil)
	}
	st.concurrent += len(cs)
}

// stageContactWrites is stageCompanyWrites for contacts.
func (e *Engine) stageContactWrites(b *pebble.Batch, cs []record.Contact) {
	st := e.refit
	if st == nil || st.err != nil || len(cs) == 0 {
		return
	}
	for _, c := range cs {
		st.touchedContact[c.PersonaID] = true
	}
	vecs, err := st.r.Contacts(st.ctx, cs)
	if err == nil {
		err = checkVectors(vecs, len(cs), st.r.Meta.Dimension)
	}
	if err != nil {
		st.err = fmt.Errorf("embed %d contacts written during the refit: %w", len(cs), err)
		return
	}
	var buf []byte
	for i := range cs {
		buf = halfBytes(buf[:0], vecs[i])
		_ = b.Set(contactKey(prefixStagedContact, cs[i].PersonaID), buf, nil)
	}
	st.concurrent += len(cs)
}

// unstageCompanyDeletes drops the staged vectors of deleted records. The caller
// holds writeMu.
func (e *Engine) unstageCompanyDeletes(b *pebble.Batch, domains []string) {
	if e.refit == nil {
		return
	}
	for _, d := range domains {
		e.refit.touched[d] = true
		_ = b.Delete([]byte(prefixStagedCompany+d), nil)
	}
}

func (e *Engine) unstageContactDeletes(b *pebble.Batch, ids []int64) {
	if e.refit == nil {
		return
	}
	for _, pid := range ids {
		e.refit.touchedContact[pid] = true
		_ = b.Delete(contactKey(prefixStagedContact, pid), nil)
	}
}

func docEmbedders(docs []index.CompanyDoc) func(yield func(string) bool) {
	return func(yield func(string) bool) {
		for i := range docs {
			if !yield(docs[i].EmbedderID) {
				return
			}
		}
	}
}

func contactEmbedders(docs []index.ContactDoc) func(yield func(string) bool) {
	return func(yield func(string) bool) {
		for i := range docs {
			if !yield(docs[i].EmbedderID) {
				return
			}
		}
	}
}

// checkEmbedderLocked refuses a write whose vectors name another embedder
// than the index's. The caller holds writeMu (which the swap holds too).
func (e *Engine) checkEmbedderLocked(ids func(yield func(string) bool)) error {
	e.mu.RLock()
	cur := ""
	if e.meta != nil {
		cur = e.meta.EmbedderID
	}
	e.mu.RUnlock()
	for id := range ids {
		if id != "" && id != cur {
			return fmt.Errorf("write: %w: vectors of %s, the index serves %s", index.ErrEmbedderChanged, id, cur)
		}
	}
	return nil
}

// EmbedderID names the embedder of the served vectors ("" for a new
// index): a cheap check for a caller caching the embedder (query/), which
// a refit switches.
func (e *Engine) EmbedderID() string {
	e.mu.RLock()
	defer e.mu.RUnlock()
	if e.meta == nil {
		return ""
	}
	return e.meta.EmbedderID
}
