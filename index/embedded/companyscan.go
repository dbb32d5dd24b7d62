package embedded

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/cockroachdb/pebble"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/record"
)

var _ index.CompanyScanner = (*Engine)(nil)

// keyFields is the part of a stored profile a scan decodes.
type keyFields struct {
	Domain  string         `json:"domain"`
	Name    string         `json:"name"`
	Status  record.Status  `json:"status"`
	Score   int            `json:"score"`
	Address record.Address `json:"address"`
	Phones  []string       `json:"phones"`
}

// profileTail is the key that follows the scanned fields in a profile as
// encoding/json writes a record.Company (struct field order): everything
// from it on (emails, descriptions, keywords, site text) is not decoded.
// Inside a JSON string a quote is escaped, so the sequence only occurs as
// a key.
var profileTail = []byte(`,"public_emails":`)

// ScanCompanies implements index.CompanyScanner by iterating the profiles
// in the store (domain order). Upserts buffered by a bulk load are first
// written to the store.
func (e *Engine) ScanCompanies(ctx context.Context, fn func(index.CompanyKey) error) error {
	e.writeMu.Lock()
	if e.closed {
		e.writeMu.Unlock()
		return fmt.Errorf("scan companies: %w: engine closed", index.ErrInvalid)
	}
	if e.bulk != nil {
		if err := e.bulk.drain(); err != nil {
			e.writeMu.Unlock()
			return fmt.Errorf("scan companies: write buffered upserts: %w", err)
		}
	}
	snap := e.db.NewSnapshot()
	e.writeMu.Unlock()
	defer snap.Close()

	// Three stages on their own goroutines — read and cut the profiles,
	// decode them, hand them to fn — so a scan of a large index uses more
	// than one core (reading decompresses blocks; decoding is JSON).
	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	raws := make(chan rawKeys, 4)
	keys := make(chan []index.CompanyKey, 4)
	errc := make(chan error, 2)
	go func() {
		defer close(raws)
		errc <- e.readKeys(pctx, snap, raws)
	}()
	go func() {
		defer close(keys)
		errc <- decodeKeys(pctx, raws, keys)
	}()
	var fnErr error
	for batch := range keys {
		for _, k := range batch {
			if fnErr = fn(k); fnErr != nil {
				break
			}
		}
		if fnErr != nil {
			break
		}
	}
	cancel()
	for range keys { // let the stages see the cancel and end
	}
	errs := [2]error{<-errc, <-errc}
	switch {
	case fnErr != nil:
		return fnErr
	case ctx.Err() != nil:
		return ctx.Err()
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// rawKeys is a batch of cut profiles: buf[ends[i-1]:ends[i]] is profile i.
type rawKeys struct {
	buf  []byte
	ends []int
}

const scanBatch = 1024

// readKeys reads the profiles of snap in domain order, cut before their
// texts, in batches.
func (e *Engine) readKeys(ctx context.Context, snap *pebble.Snapshot, out chan<- rawKeys) error {
	it, err := snap.NewIter(&pebble.IterOptions{LowerBound: []byte(prefixProfile), UpperBound: []byte("p0")})
	if err != nil {
		return fmt.Errorf("scan companies: %w", err)
	}
	defer it.Close()
	b := rawKeys{buf: make([]byte, 0, 256*scanBatch)}
	send := func() bool {
		select {
		case out <- b:
			b = rawKeys{buf: make([]byte, 0, 256*scanBatch)}
			return true
		case <-ctx.Done():
			return false
		}
	}
	for it.First(); it.Valid(); it.Next() {
		v := it.Value()
		if i := bytes.Index(v, profileTail); i > 0 {
			b.buf = append(append(b.buf, v[:i]...), '}')
		} else {
			b.buf = append(b.buf, v...)
		}
		b.ends = append(b.ends, len(b.buf))
		if len(b.ends) == scanBatch && !send() {
			return nil
		}
	}
	if err := it.Error(); err != nil {
		return fmt.Errorf("scan companies: %w", err)
	}
	if len(b.ends) > 0 {
		send()
	}
	return nil
}

// decodeKeys decodes batches of cut profiles.
func decodeKeys(ctx context.Context, in <-chan rawKeys, out chan<- []index.CompanyKey) error {
	for b := range in {
		batch := make([]index.CompanyKey, len(b.ends))
		start := 0
		for i, end := range b.ends {
			var k keyFields
			if err := json.Unmarshal(b.buf[start:end], &k); err != nil {
				return fmt.Errorf("scan companies: decode profile %.80q: %w", b.buf[start:end], err)
			}
			start = end
			batch[i] = index.CompanyKey{
				Domain: k.Domain, Name: k.Name, Country: k.Address.Country, State: k.Address.State,
				City: k.Address.City, Zip: k.Address.Zip, Phones: k.Phones, Score: k.Score,
				Closed: k.Status.Status == record.StatusClosed,
			}
		}
		select {
		case out <- batch:
		case <-ctx.Done():
			return nil
		}
	}
	return nil
}

var _ index.Generational = (*Engine)(nil)
