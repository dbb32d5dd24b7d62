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

// decodeKey decodes the scanned fields of a stored profile, cutting the
// profile at profileTail when it is there (most of a profile's bytes are
// its texts) and decoding the whole value otherwise.
func decodeKey(v []byte, buf []byte) (keyFields, []byte, error) {
	var k keyFields
	if i := bytes.Index(v, profileTail); i > 0 {
		buf = append(append(buf[:0], v[:i]...), '}')
		if err := json.Unmarshal(buf, &k); err == nil {
			return k, buf, nil
		}
		k = keyFields{}
	}
	err := json.Unmarshal(v, &k)
	return k, buf, err
}

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

	it, err := snap.NewIter(&pebble.IterOptions{LowerBound: []byte(prefixProfile), UpperBound: []byte("p0")})
	if err != nil {
		return fmt.Errorf("scan companies: %w", err)
	}
	defer it.Close()
	var buf []byte
	n := 0
	for it.First(); it.Valid(); it.Next() {
		if n++; n%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		var k keyFields
		k, buf, err = decodeKey(it.Value(), buf)
		if err != nil {
			return fmt.Errorf("scan companies: decode profile %s: %w", it.Key()[len(prefixProfile):], err)
		}
		if err := fn(index.CompanyKey{
			Domain: k.Domain, Name: k.Name, Country: k.Address.Country, State: k.Address.State,
			City: k.Address.City, Zip: k.Address.Zip, Phones: k.Phones, Score: k.Score,
			Closed: k.Status.Status == record.StatusClosed,
		}); err != nil {
			return err
		}
	}
	if err := it.Error(); err != nil {
		return fmt.Errorf("scan companies: %w", err)
	}
	return nil
}

var _ index.Generational = (*Engine)(nil)
