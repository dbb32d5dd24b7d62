package ingest

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/embedding"
	"github.com/openprospect/prospectd/record"
	"github.com/openprospect/prospectd/record/domain"
)

// Stats counts a load's records.
type Stats struct {
	Read, Indexed, Rejected int
}

// Loader normalizes, embeds and writes records into an engine.
type Loader struct {
	Engine index.Engine
	// Embedder embeds records; nil means the one stored with the index, or,
	// for an index without one, an embedder fitted on the first FitSample
	// valid records of this load.
	Embedder  embedding.Embedder
	FitSample int // default 20,000
	BatchSize int // default 1,000
	Workers   int // default runtime.NumCPU()
	// Rejects receives one CSV line per refused record: row, domain, reason.
	Rejects io.Writer
	// Progress is called about ten times a second and once at the end.
	Progress func(Stats)
}

type item struct {
	row int
	c   record.Company
}

// Load reads src to the end. Records of the same domain are applied in file
// order, so the last one wins. On a fatal error (reader, engine, context)
// it returns the counts so far with the error: what was written stays
// written and a rerun is safe, since writes are upserts.
func (l *Loader) Load(ctx context.Context, src Source) (Stats, error) {
	fitN, batch, workers := l.FitSample, l.BatchSize, l.Workers
	if fitN <= 0 {
		fitN = 20000
	}
	if batch <= 0 {
		batch = 1000
	}
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	var read, indexed, rejected atomic.Int64
	snapshot := func() Stats {
		return Stats{Read: int(read.Load()), Indexed: int(indexed.Load()), Rejected: int(rejected.Load())}
	}
	var rejMu sync.Mutex
	var rejW *csv.Writer
	if l.Rejects != nil {
		rejW = csv.NewWriter(l.Rejects)
		rejMu.Lock()
		rejW.Write([]string{"row", "domain", "reason"})
		rejMu.Unlock()
	}
	reject := func(row int, dom, reason string) {
		rejected.Add(1)
		if rejW == nil {
			return
		}
		rejMu.Lock()
		rejW.Write([]string{strconv.Itoa(row), dom, reason})
		rejMu.Unlock()
	}
	defer func() {
		if rejW != nil {
			rejMu.Lock()
			rejW.Flush()
			rejMu.Unlock()
		}
	}()
	if l.Progress != nil {
		done := make(chan struct{})
		defer func() { close(done); l.Progress(snapshot()) }()
		go func() {
			t := time.NewTicker(100 * time.Millisecond)
			defer t.Stop()
			for {
				select {
				case <-done:
					return
				case <-t.C:
					l.Progress(snapshot())
				}
			}
		}()
	}

	// next reads the next record, recording row errors; ok is false at the
	// end of the input.
	next := func() (it item, ok bool, err error) {
		for {
			if err := ctx.Err(); err != nil {
				return it, false, err
			}
			c, row, err := src.Next()
			if errors.Is(err, io.EOF) {
				return it, false, nil
			}
			var re *RowError
			if errors.As(err, &re) {
				read.Add(1)
				reject(re.Row, re.Domain, re.Reason)
				continue
			}
			if err != nil {
				return it, false, err
			}
			read.Add(1)
			return item{row: row, c: c}, true, nil
		}
	}

	emb := l.Embedder
	var pending []item
	if emb == nil {
		e, err := OpenEmbedder(ctx, l.Engine)
		switch {
		case err == nil:
			emb = e
		case errors.Is(err, index.ErrNotFound):
			// A new index: fit on the first records of this load.
			var docs []embedding.Doc
			for len(pending) < fitN {
				it, ok, err := next()
				if err != nil {
					return snapshot(), err
				}
				if !ok {
					break
				}
				if err := Normalize(&it.c); err != nil {
					reject(it.row, it.c.Domain, err.Error())
					continue
				}
				pending = append(pending, it)
				docs = append(docs, embedding.DocOf(it.c))
			}
			if len(docs) == 0 {
				return snapshot(), nil
			}
			m, err := embedding.Fit(docs, embedding.Options{})
			if err != nil {
				return snapshot(), fmt.Errorf("fit embedder: %w", err)
			}
			model, _ := m.MarshalBinary()
			if err := l.Engine.SetMeta(ctx, index.Meta{EmbedderID: m.ID(), Dimension: m.Dim(), Model: model}); err != nil {
				return snapshot(), fmt.Errorf("store embedder: %w", err)
			}
			emb = m
		default:
			return snapshot(), err
		}
	}

	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	queues := make([]chan item, workers)
	var wg sync.WaitGroup
	for w := range queues {
		queues[w] = make(chan item, 4*batch)
		wg.Add(1)
		go func(in <-chan item) {
			defer wg.Done()
			docs := make([]index.CompanyDoc, 0, batch)
			rows := make(map[string]int, batch)
			flush := func() {
				if len(docs) == 0 {
					return
				}
				failed, err := l.Engine.UpsertCompanies(ctx, docs)
				if err != nil {
					cancel(fmt.Errorf("write batch: %w", err))
					docs = docs[:0]
					return
				}
				for _, f := range failed {
					reject(rows[f.Domain], f.Domain, f.Reason)
				}
				indexed.Add(int64(len(docs) - len(failed)))
				docs = docs[:0]
				clear(rows)
			}
			for it := range in {
				if ctx.Err() != nil {
					continue // drain
				}
				if err := Normalize(&it.c); err != nil {
					reject(it.row, it.c.Domain, err.Error())
					continue
				}
				if _, dup := rows[it.c.Domain]; dup {
					// Keep file order within a batch: write what we have
					// so the later row lands after the earlier one.
					flush()
				}
				rows[it.c.Domain] = it.row
				docs = append(docs, index.CompanyDoc{Company: it.c, Vector: emb.Embed(embedding.DocOf(it.c))})
				if len(docs) == batch {
					flush()
				}
			}
			if ctx.Err() == nil {
				flush()
			}
		}(queues[w])
	}
	// Records of one domain always go to the same worker, so they are
	// written in file order.
	route := func(it item) {
		key := it.c.Domain
		if d, err := domain.Normalize(key); err == nil {
			key = d
		}
		h := fnv.New32a()
		h.Write([]byte(key))
		select {
		case queues[int(h.Sum32())%workers] <- it:
		case <-ctx.Done():
		}
	}
	var readErr error
	for _, it := range pending {
		route(it)
	}
	pending = nil
	for ctx.Err() == nil {
		it, ok, err := next()
		if err != nil {
			readErr = err
			break
		}
		if !ok {
			break
		}
		route(it)
	}
	for _, q := range queues {
		close(q)
	}
	wg.Wait()
	if cause := context.Cause(ctx); cause != nil && readErr == nil {
		readErr = cause
	}
	return snapshot(), readErr
}

// OpenEmbedder returns the embedder stored with the index, index.ErrNotFound
// when the index has none yet, and an error when the stored model does not
// match its metadata (a different binary or a damaged index).
func OpenEmbedder(ctx context.Context, eng index.Engine) (embedding.Embedder, error) {
	meta, err := eng.Meta(ctx)
	if err != nil {
		return nil, err
	}
	m, err := embedding.Load(meta.Model)
	if err != nil {
		return nil, fmt.Errorf("index embedder %s: %w", meta.EmbedderID, err)
	}
	if m.ID() != meta.EmbedderID || m.Dim() != meta.Dimension {
		return nil, fmt.Errorf("index was built with embedder %s (%d dims) but its stored model is %s (%d dims): re-index",
			meta.EmbedderID, meta.Dimension, m.ID(), m.Dim())
	}
	return m, nil
}
