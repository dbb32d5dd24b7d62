package ingest

import (
	"context"
	"encoding"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/embedding"
	"github.com/openprospect/prospectd/record"
)

// ErrEmbedderMismatch is embedding.ErrMismatch, kept under the loader's
// name for callers that branch on it.
var ErrEmbedderMismatch = embedding.ErrMismatch

// Stats counts the rows of a load. Read counts the rows read (blank rows
// excluded); once a load has finished, Read = Indexed + Rejected.
type Stats struct {
	Read, Indexed, Rejected int
	// Dropped counts the invalid optional fields dropped from records that
	// were kept (each listed in the rejects file).
	Dropped int
	// Skipped counts the valid rows Loader.Screen left out.
	Skipped int
}

// Defaults of the Loader's settings.
const (
	DefaultFitSample = 20000
	DefaultBatchSize = 1000
	// DefaultMinFit is the smallest first load the loader fits an embedder
	// on; a smaller first load is embedded by the hashing embedder, which
	// needs no fitting. Below about a thousand records the terms a fit can
	// learn (those in at least two records) are too few for every later
	// load to be embedded with them, while hashing reads any word.
	DefaultMinFit = 1000
)

// Loader normalizes, embeds and writes records into an engine.
//
// Writes are upserts keyed by the normalized root domain, so loading a file
// twice gives the same index. Within a load the last row of a domain wins:
// rows of one domain are written in file order. Rows are read in order,
// decoded (JSON lines), normalized and embedded by Workers goroutines, and
// written in batches of BatchSize by up to Workers concurrent writes; two
// batches sharing a domain are never written at the same time.
type Loader struct {
	Engine Target
	// Embedder embeds records. nil means the embedder stored with the index
	// (OpenEmbedder) or, for an index without one, an embedder fitted on the
	// first FitSample valid records of this load and stored with the index.
	// A non-nil Embedder must match the index's stored embedder, if any.
	// A first load that ends with fewer than min(MinFit, FitSample) valid
	// records, or whose records share too few terms to fit on, gets the
	// hashing embedder (embedding.Hashing) instead of a fitted one.
	Embedder embedding.Embedder
	// FitOptions configure the fit of a new index's embedder (label
	// directions: embedding.Options.LabelDims); the zero value fits with
	// embedding's defaults.
	FitOptions embedding.Options
	FitSample  int // default DefaultFitSample
	MinFit     int // default DefaultMinFit
	BatchSize  int // default DefaultBatchSize
	Workers    int // default runtime.NumCPU()
	// Rejects receives a CSV header and one line per refused row: row,
	// domain (as found in the row), reason. Rows refused by the reader or
	// by Normalize come in row order; rows the engine refuses follow their
	// batch's write.
	Rejects io.Writer
	// Progress is called every 100 ms while loading and once at the end,
	// never concurrently.
	Progress func(Stats)
	// Screen, when set, sees the valid rows of each chunk after
	// normalization and before embedding, from several goroutines at once.
	// It may complete a record in place (from what the index holds) and
	// returns which rows to write; the others are neither embedded nor
	// written. A refresh skips the companies equal to the index's this way:
	// embedding is most of a load's CPU, and most rows of a refresh have
	// not changed. A skipped row whose domain an earlier row of the load
	// also had is written after all, so the file's last row of a domain
	// still wins.
	Screen func(ctx context.Context, cs []*record.Company) (write []bool, err error)
}

// Target is the part of an engine a company load writes: the companies
// and the embedder metadata stored with them.
type Target interface {
	index.CompanyWriter
	index.MetaReader
	index.MetaWriter
}

// Load reads src to its end and returns the counts. A bad row is counted as
// rejected and the load goes on. A fatal error (ctx cancelled, the engine
// failing a batch, the source failing, an embedder that cannot be fitted or
// does not match) ends the load: Load waits for the writes under way and
// returns the counts so far with the error. What was written stays valid,
// and running the load again is safe. Load does not close src.
func (l *Loader) Load(ctx context.Context, src Source) (Stats, error) {
	if l.Engine == nil {
		return Stats{}, errors.New("ingest: Loader.Engine is nil")
	}
	p := newPipeline(ctx, l)
	defer p.cancel(nil)

	stopProgress := p.startProgress()
	err := p.run(src)
	stopProgress()
	st := p.stats()
	if l.Progress != nil {
		l.Progress(st)
	}
	return st, err
}

// pipeline is the state of one Load.
type pipeline struct {
	l                *Loader
	ctx              context.Context
	cancel           context.CancelCauseFunc
	fitN, batchSize  int
	minFit           int
	workers, writers int
	read, indexed    atomic.Int64
	rejected         atomic.Int64
	dropped          atomic.Int64
	skipped          atomic.Int64
	emb              atomic.Pointer[embedderRef]
	rejMu            sync.Mutex
	rej              *csv.Writer
	free             chan *chunk // recycled chunks; also bounds the rows in flight
	work, processed  chan *chunk
	written          chan *batch
	readErr          error // set by the reader before it closes work
	fatalMu          sync.Mutex
	fatal            error
	fitBuf           []item // valid rows held until the embedder is fitted
	cur              *batch
	inflight         []*batch
	pendingChunks    map[int]*chunk
	nextSeq          int
	lines            lineSource // non-nil when the source's lines are decoded by the workers
	drops            fieldDropper
	loadSeen         map[string]struct{} // domains of the rows consumed so far, with a Screen
}

type embedderRef struct{ embedding.Embedder }

// fieldDropper is a source that can leave out a field it cannot read
// instead of refusing the row (a table source; JSON lines are lenient
// through lineSource.decodeLine).
type fieldDropper interface {
	// dropFields makes the source lenient.
	dropFields()
	// dropped returns the reasons of the fields left out of the row Next
	// returned last, valid until the following call.
	dropped() []string
}

// loadFinisher is an engine with work to do once a load has written its
// rows (the embedded engine compacts what a bulk load wrote).
type loadFinisher interface {
	FinishLoad(ctx context.Context) error
}

// chunk is a run of consecutive rows passed between the stages.
type chunk struct {
	seq   int
	items []item
	arena []byte // undecoded lines of the items
}

// item is one row. A JSON line arrives undecoded (arena[lo:hi]); reason is
// set when the row is refused.
type item struct {
	row    int
	lo, hi int
	c      record.Company
	vec    []float32
	reason string
	skip   bool // left out by Loader.Screen
	// dropped lists the optional fields normalization dropped, with why
	// (nil for nearly every row).
	dropped []string
}

// batch is one UpsertCompanies call; rows and index map its documents back
// to their rows.
type batch struct {
	docs  []index.CompanyDoc
	rows  []int
	index map[string]int // domain -> position in docs
}

const (
	chunkRows  = 256
	chunkBytes = 1 << 20
)

func newPipeline(ctx context.Context, l *Loader) *pipeline {
	p := &pipeline{l: l, fitN: l.FitSample, minFit: l.MinFit, batchSize: l.BatchSize, workers: l.Workers}
	if p.fitN <= 0 {
		p.fitN = DefaultFitSample
	}
	if p.minFit <= 0 {
		p.minFit = DefaultMinFit
	}
	p.minFit = min(p.minFit, p.fitN)
	if p.batchSize <= 0 {
		p.batchSize = DefaultBatchSize
	}
	if p.workers <= 0 {
		p.workers = runtime.NumCPU()
	}
	p.writers = p.workers
	p.ctx, p.cancel = context.WithCancelCause(ctx)
	if l.Rejects != nil {
		p.rej = csv.NewWriter(l.Rejects)
		p.rej.Write([]string{"row", "domain", "reason"})
	}
	inFlight := 4 * p.workers
	p.free = make(chan *chunk, inFlight)
	for range inFlight {
		p.free <- &chunk{items: make([]item, 0, chunkRows)}
	}
	p.work = make(chan *chunk, inFlight)
	p.processed = make(chan *chunk, inFlight)
	p.written = make(chan *batch, p.writers)
	p.pendingChunks = map[int]*chunk{}
	if l.Screen != nil {
		p.loadSeen = map[string]struct{}{}
	}
	p.cur = p.newBatch()
	return p
}

func (p *pipeline) stats() Stats {
	return Stats{Read: int(p.read.Load()), Indexed: int(p.indexed.Load()), Rejected: int(p.rejected.Load()), Dropped: int(p.dropped.Load()), Skipped: int(p.skipped.Load())}
}

func (p *pipeline) startProgress() (stop func()) {
	if p.l.Progress == nil {
		return func() {}
	}
	done := make(chan struct{})
	exited := make(chan struct{})
	go func() {
		defer close(exited)
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				p.l.Progress(p.stats())
			}
		}
	}()
	return func() { close(done); <-exited }
}

// fail records the first fatal error and stops the pipeline.
func (p *pipeline) fail(err error) {
	p.fatalMu.Lock()
	if p.fatal == nil {
		p.fatal = err
	}
	p.fatalMu.Unlock()
	p.cancel(err)
}

func (p *pipeline) err() error {
	p.fatalMu.Lock()
	defer p.fatalMu.Unlock()
	if p.fatal != nil {
		return p.fatal
	}
	if err := context.Cause(p.ctx); err != nil {
		return err
	}
	return nil
}

func (p *pipeline) reject(row int, domain, reason string) {
	p.rejected.Add(1)
	if p.rej == nil {
		return
	}
	p.rejMu.Lock()
	err := p.rej.Write([]string{strconv.Itoa(row), domain, reason})
	p.rejMu.Unlock()
	if err != nil {
		p.fail(fmt.Errorf("write rejects: %w", err))
	}
}

// warn writes a field dropped from a kept record to the rejects file.
func (p *pipeline) warn(row int, domain string, reasons []string) {
	p.dropped.Add(int64(len(reasons)))
	if p.rej == nil {
		return
	}
	p.rejMu.Lock()
	var err error
	for _, r := range reasons {
		if err = p.rej.Write([]string{strconv.Itoa(row), domain, "dropped " + r + " (record kept)"}); err != nil {
			break
		}
	}
	p.rejMu.Unlock()
	if err != nil {
		p.fail(fmt.Errorf("write rejects: %w", err))
	}
}

func (p *pipeline) run(src Source) error {
	if err := p.openEmbedder(); err != nil {
		return err
	}
	inner := src
	if u, ok := src.(interface{ unwrap() Source }); ok {
		inner = u.unwrap()
	}
	p.lines, _ = inner.(lineSource)
	p.drops, _ = inner.(fieldDropper)
	if p.drops != nil {
		p.drops.dropFields()
	}

	go p.readRows(src)
	var wg sync.WaitGroup
	for range p.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.process()
		}()
	}
	go func() {
		wg.Wait()
		close(p.processed)
	}()

	p.sequence()
	// Rows read before a read error are written too; the error is
	// returned below.
	if p.ctx.Err() == nil {
		if p.emb.Load() == nil {
			p.fit() // the file was smaller than the fit sample
		}
		p.dispatch()
	}
	for len(p.inflight) > 0 {
		p.complete(<-p.written)
	}
	if p.rej != nil {
		p.rejMu.Lock()
		p.rej.Flush()
		err := p.rej.Error()
		p.rejMu.Unlock()
		if err != nil {
			p.fail(fmt.Errorf("write rejects: %w", err))
		}
	}
	if err := p.err(); err != nil {
		return err
	}
	if f, ok := p.l.Engine.(loadFinisher); ok {
		if err := f.FinishLoad(p.ctx); err != nil {
			return fmt.Errorf("finish load: %w", err)
		}
	}
	if p.readErr != nil {
		return p.readErr
	}
	return nil
}

// openEmbedder sets the embedder of the load, or leaves it unset for the
// sequencer to fit one.
func (p *pipeline) openEmbedder() error {
	ctx, eng := p.ctx, p.l.Engine
	if emb := p.l.Embedder; emb != nil {
		meta, err := eng.Meta(ctx)
		switch {
		case errors.Is(err, index.ErrNotFound):
			if err := eng.SetMeta(ctx, metaOf(emb)); err != nil {
				return fmt.Errorf("store embedder with the index: %w", err)
			}
		case err != nil:
			return fmt.Errorf("read index metadata: %w", err)
		case meta.EmbedderID != emb.ID() || meta.Dimension != emb.Dim():
			return fmt.Errorf("%w: index was built with embedder %s (%d dimensions), this load has %s (%d dimensions): re-index",
				ErrEmbedderMismatch, meta.EmbedderID, meta.Dimension, emb.ID(), emb.Dim())
		}
		p.emb.Store(&embedderRef{emb})
		return nil
	}
	emb, err := embedding.Open(ctx, eng)
	switch {
	case err == nil:
		p.emb.Store(&embedderRef{emb})
	case errors.Is(err, index.ErrNotFound):
		// A new index: the sequencer fits an embedder on the first rows.
	default:
		return err
	}
	return nil
}

func metaOf(emb embedding.Embedder) index.Meta {
	m := index.Meta{EmbedderID: emb.ID(), Dimension: emb.Dim()}
	if bm, ok := emb.(encoding.BinaryMarshaler); ok {
		if b, err := bm.MarshalBinary(); err == nil {
			m.Model = b
		}
	}
	return m
}

// readRows reads the source into chunks, in order.
func (p *pipeline) readRows(src Source) {
	defer close(p.work)
	for seq := 0; ; seq++ {
		var ch *chunk
		select {
		case ch = <-p.free:
		case <-p.ctx.Done():
			return
		}
		ch.seq = seq
		end := p.fill(ch, src)
		p.read.Add(int64(len(ch.items)))
		if len(ch.items) > 0 {
			select {
			case p.work <- ch:
			case <-p.ctx.Done():
				return
			}
		}
		if end {
			return
		}
	}
}

// fill reads rows into ch until it is full; end reports the end of the
// source (or a fatal read error, kept in p.readErr).
func (p *pipeline) fill(ch *chunk, src Source) (end bool) {
	for len(ch.items) < chunkRows && len(ch.arena) < chunkBytes {
		var it item
		var err error
		if p.lines != nil {
			var line []byte
			line, it.row, err = p.lines.nextLine()
			if err == nil {
				it.lo = len(ch.arena)
				ch.arena = append(ch.arena, line...)
				it.hi = len(ch.arena)
			}
		} else {
			it.c, it.row, err = src.Next()
			if p.drops != nil && err == nil {
				if d := p.drops.dropped(); len(d) > 0 {
					it.dropped = slices.Clone(d)
				}
			}
		}
		var re *RowError
		switch {
		case err == nil:
		case errors.Is(err, io.EOF):
			return true
		case errors.As(err, &re):
			it.c.Domain, it.reason = re.Domain, re.Reason
		default:
			p.readErr = err
			return true
		}
		ch.items = append(ch.items, it)
	}
	return false
}

// process decodes, normalizes and (once there is an embedder) embeds the
// rows of each chunk.
func (p *pipeline) process() {
	n := newNormalizer()
	n.lenient = true
	for ch := range p.work {
		if p.ctx.Err() != nil {
			continue // stopping: let the reader's sends through
		}
		ref := p.emb.Load()
		var batcher embedding.BatchEmbedder
		remote := false
		if ref != nil {
			batcher, remote = ref.Embedder.(embedding.BatchEmbedder)
		}
		for i := range ch.items {
			it := &ch.items[i]
			if it.reason != "" {
				continue
			}
			// Fields the reader, the decoder or the normalizer drop.
			n.dropped = append(n.dropped[:0], it.dropped...)
			if it.hi > it.lo {
				if err := p.lines.decodeLine(ch.arena[it.lo:it.hi], &it.c, &n.dropped); err != nil {
					it.reason = err.Error()
					continue
				}
			}
			if err := n.normalize(&it.c); err != nil {
				it.reason = err.Error()
				continue
			}
			if len(n.dropped) > 0 {
				it.dropped = slices.Clone(n.dropped)
			}
		}
		p.screen(ch)
		for i := range ch.items {
			if it := &ch.items[i]; ref != nil && !remote && it.reason == "" && !it.skip {
				it.vec = ref.Embed(embedding.DocOf(it.c))
			}
		}
		if remote {
			// A provider embeds the chunk in a few requests, and its
			// failure stops the load rather than index a fallback.
			p.embedRemote(batcher, ch)
		}
		p.processed <- ch
	}
}

// screen runs the Loader's Screen over the valid rows of a chunk and
// marks the rows it leaves out.
func (p *pipeline) screen(ch *chunk) {
	if p.l.Screen == nil {
		return
	}
	var cs []*record.Company
	var at []int
	for i := range ch.items {
		if ch.items[i].reason == "" {
			cs = append(cs, &ch.items[i].c)
			at = append(at, i)
		}
	}
	if len(cs) == 0 {
		return
	}
	write, err := p.l.Screen(p.ctx, cs)
	if err != nil {
		p.fail(fmt.Errorf("screen rows %d-%d: %w", ch.items[at[0]].row, ch.items[at[len(at)-1]].row, err))
		return
	}
	for k, i := range at {
		ch.items[i].skip = k < len(write) && !write[k]
	}
}

// embedRemote embeds the valid rows of a chunk through a provider's
// batch call; a failure fails the load (the rows are not written).
func (p *pipeline) embedRemote(b embedding.BatchEmbedder, ch *chunk) {
	var docs []embedding.Doc
	var at []int
	for i := range ch.items {
		if ch.items[i].reason == "" && !ch.items[i].skip {
			docs = append(docs, embedding.DocOf(ch.items[i].c))
			at = append(at, i)
		}
	}
	if len(docs) == 0 {
		return
	}
	vecs, err := b.EmbedDocs(p.ctx, docs)
	if err != nil {
		p.fail(fmt.Errorf("embed rows %d-%d: %w", ch.items[at[0]].row, ch.items[at[len(at)-1]].row, err))
		return
	}
	for k, i := range at {
		ch.items[i].vec = vecs[k]
	}
}

// sequence takes processed chunks back into row order and feeds their rows
// to the batches.
func (p *pipeline) sequence() {
	for ch := range p.processed {
		if p.ctx.Err() != nil {
			continue
		}
		p.pendingChunks[ch.seq] = ch
		for {
			next, ok := p.pendingChunks[p.nextSeq]
			if !ok {
				break
			}
			delete(p.pendingChunks, p.nextSeq)
			p.nextSeq++
			p.consume(next)
		}
	}
}

func (p *pipeline) consume(ch *chunk) {
	for i := range ch.items {
		it := &ch.items[i]
		switch {
		case p.ctx.Err() != nil:
		case it.reason != "":
			p.reject(it.row, it.c.Domain, it.reason)
		case p.screened(it):
			p.skipped.Add(1)
		case p.emb.Load() == nil:
			if len(it.dropped) > 0 {
				p.warn(it.row, it.c.Domain, it.dropped)
			}
			p.fitBuf = append(p.fitBuf, *it)
			if len(p.fitBuf) >= p.fitN {
				p.fit()
			}
		default:
			if len(it.dropped) > 0 {
				p.warn(it.row, it.c.Domain, it.dropped)
			}
			p.add(it.row, it.c, it.vec)
		}
	}
	clear(ch.items) // drop the records, keep the capacity
	ch.items, ch.arena = ch.items[:0], ch.arena[:0]
	p.free <- ch
}

// screened reports whether a row stays out of the load: Screen skipped it
// and no earlier row of the load had its domain. A skipped row after such
// a row is written (and embedded by add) so the last row of a domain wins.
func (p *pipeline) screened(it *item) bool {
	if p.loadSeen == nil {
		return false
	}
	_, dup := p.loadSeen[it.c.Domain]
	p.loadSeen[it.c.Domain] = struct{}{}
	if !it.skip || dup {
		return false
	}
	if len(it.dropped) > 0 {
		p.warn(it.row, it.c.Domain, it.dropped)
	}
	return true
}

// fit learns the embedder from the rows held so far, stores it with the
// index, and sends those rows on.
func (p *pipeline) fit() {
	docs := make([]embedding.Doc, len(p.fitBuf))
	for i := range p.fitBuf {
		docs[i] = embedding.DocOf(p.fitBuf[i].c)
	}
	if len(docs) == 0 {
		return // nothing valid to load
	}
	m, err := p.firstEmbedder(docs)
	if err != nil {
		p.fail(err)
		return
	}
	meta := metaOf(m)
	// The refit rule (index/refit) compares the index's growth with it.
	meta.FitRecords = len(docs)
	if err := p.l.Engine.SetMeta(p.ctx, meta); err != nil {
		p.fail(fmt.Errorf("store embedder with the index: %w", err))
		return
	}
	p.emb.Store(&embedderRef{m})
	p.parallel(len(p.fitBuf), func(i int) {
		p.fitBuf[i].vec = m.Embed(docs[i])
	})
	for i := range p.fitBuf {
		p.add(p.fitBuf[i].row, p.fitBuf[i].c, p.fitBuf[i].vec)
	}
	p.fitBuf = nil
}

// firstEmbedder returns the embedder of a new index: fitted on docs when
// there are enough of them, the hashing embedder otherwise (so a first load
// of one company is searchable too). A refit once the corpus has grown is
// not done by the loader: the index keeps the embedder it started with.
func (p *pipeline) firstEmbedder(docs []embedding.Doc) (embedding.Embedder, error) {
	if len(docs) >= p.minFit {
		m, err := embedding.Fit(docs, p.l.FitOptions)
		if err == nil {
			return m, nil
		}
		if !errors.Is(err, embedding.ErrTooFewDocs) {
			return nil, fmt.Errorf("fit the embedder of this new index on the first %d valid records: %w", len(docs), err)
		}
		// Records without enough text in common: hashing reads them all.
	}
	h, err := embedding.NewHashing(0)
	if err != nil {
		return nil, fmt.Errorf("build the hashing embedder: %w", err)
	}
	return h, nil
}

// parallel runs f(0..n-1) on the workers.
func (p *pipeline) parallel(n int, f func(int)) {
	var wg sync.WaitGroup
	var next atomic.Int64
	for range p.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				f(i)
			}
		}()
	}
	wg.Wait()
}

func (p *pipeline) newBatch() *batch {
	return &batch{
		docs:  make([]index.CompanyDoc, 0, p.batchSize),
		rows:  make([]int, 0, p.batchSize),
		index: make(map[string]int, p.batchSize),
	}
}

// add appends a valid row to the current batch. A second row of a domain
// already in the batch first sends the batch, so the rows of a domain are
// written in file order.
func (p *pipeline) add(row int, c record.Company, vec []float32) {
	if p.ctx.Err() != nil {
		return
	}
	if vec == nil { // processed while the embedder was being fitted
		vec = p.emb.Load().Embed(embedding.DocOf(c))
	}
	if _, dup := p.cur.index[c.Domain]; dup {
		p.dispatch()
	}
	b := p.cur
	b.index[c.Domain] = len(b.docs)
	// The embedder's id lets the engine refuse the batch should a refit
	// have switched the index to another embedder meanwhile.
	b.docs = append(b.docs, index.CompanyDoc{Company: c, Vector: vec, EmbedderID: p.emb.Load().ID()})
	b.rows = append(b.rows, row)
	if len(b.docs) >= p.batchSize {
		p.dispatch()
	}
}

// dispatch starts the write of the current batch once a writer is free and
// no write under way holds one of its domains.
func (p *pipeline) dispatch() {
	b := p.cur
	if len(b.docs) == 0 || p.ctx.Err() != nil {
		return
	}
	p.cur = p.newBatch()
	for len(p.inflight) >= p.writers || p.conflicts(b) {
		p.complete(<-p.written)
	}
	p.inflight = append(p.inflight, b)
	go p.write(b)
}

func (p *pipeline) conflicts(b *batch) bool {
	for _, w := range p.inflight {
		small, large := b.index, w.index
		if len(small) > len(large) {
			small, large = large, small
		}
		for d := range small {
			if _, ok := large[d]; ok {
				return true
			}
		}
	}
	return false
}

func (p *pipeline) write(b *batch) {
	failed, err := p.l.Engine.UpsertCompanies(p.ctx, b.docs)
	switch {
	case err != nil && p.ctx.Err() != nil:
		// Stopped by an earlier failure or by the caller: that is the error.
	case err != nil:
		first, last := b.rows[0], b.rows[len(b.rows)-1]
		p.fail(fmt.Errorf("write rows %d-%d: %w", first, last, err))
	default:
		for _, f := range failed {
			row := 0
			if i, ok := b.index[f.Domain]; ok {
				row = b.rows[i]
			}
			p.reject(row, f.Domain, f.Reason)
		}
		p.indexed.Add(int64(len(b.docs) - len(failed)))
	}
	p.written <- b
}

// complete retires a finished write.
func (p *pipeline) complete(b *batch) {
	p.inflight = slices.DeleteFunc(p.inflight, func(w *batch) bool { return w == b })
}
