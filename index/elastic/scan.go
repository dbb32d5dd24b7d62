package elastic

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/elastic/go-elasticsearch/v8/esapi"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/record"
)

var _ index.CompanyScanner = (*Engine)(nil)

// scanPage is how many companies one page of a scan reads.
var scanPage = 5000

// scanFields are the _source fields a scan reads.
var scanFields = []string{"domain", "name", "status.status", "score", "address.country", "address.state", "address.city", "address.zip", "phones"}

// scanBody is one page of a company scan: every company, sorted by domain
// (a keyword, unique: a complete search_after order), only scanFields.
type scanBody struct {
	Query          json.RawMessage   `json:"query"`
	Size           int               `json:"size"`
	Sort           []sortClause      `json:"sort"`
	Source         map[string]any    `json:"_source"`
	TrackTotalHits bool              `json:"track_total_hits"`
	SearchAfter    []json.RawMessage `json:"search_after,omitempty"`
}

func buildScanPage(size int, after []json.RawMessage) scanBody {
	return scanBody{
		Query: json.RawMessage(`{"match_all":{}}`), Size: size,
		Sort:   []sortClause{{Field: "domain", Order: "asc"}},
		Source: map[string]any{"includes": scanFields}, SearchAfter: after,
	}
}

type scanResponse struct {
	TimedOut bool      `json:"timed_out"`
	Shards   shardInfo `json:"_shards"`
	Hits     struct {
		Hits []struct {
			ID     string            `json:"_id"`
			Sort   []json.RawMessage `json:"sort"`
			Source struct {
				Domain  string         `json:"domain"`
				Name    string         `json:"name"`
				Status  record.Status  `json:"status"`
				Score   int            `json:"score"`
				Address record.Address `json:"address"`
				Phones  []string       `json:"phones"`
			} `json:"_source"`
		} `json:"hits"`
	} `json:"hits"`
}

// ScanCompanies implements index.CompanyScanner: pages of scanPage
// companies in domain order with search_after. Each page is a separate
// search, so writes during a scan may or may not be seen.
func (e *Engine) ScanCompanies(ctx context.Context, fn func(index.CompanyKey) error) error {
	var after []json.RawMessage
	for {
		b, err := json.Marshal(buildScanPage(scanPage, after))
		if err != nil {
			return fmt.Errorf("elasticsearch scan: %w", err)
		}
		var r scanResponse
		if err := e.call(ctx, "scan "+e.alias, esapi.SearchRequest{Index: []string{e.alias}, Body: bytes.NewReader(b)}, &r); err != nil {
			return err
		}
		if r.TimedOut {
			return fmt.Errorf("elasticsearch scan %s: timed out with partial results", e.alias)
		}
		if err := r.Shards.check("scan"); err != nil {
			return err
		}
		for _, h := range r.Hits.Hits {
			s := &h.Source
			if s.Domain == "" {
				s.Domain = h.ID
			}
			if err := fn(index.CompanyKey{
				Domain: s.Domain, Name: s.Name, Country: s.Address.Country, State: s.Address.State,
				City: s.Address.City, Zip: s.Address.Zip, Phones: s.Phones, Score: s.Score,
				Closed: s.Status.Status == record.StatusClosed,
			}); err != nil {
				return err
			}
		}
		if len(r.Hits.Hits) < scanPage {
			return nil
		}
		last := r.Hits.Hits[len(r.Hits.Hits)-1]
		if len(last.Sort) == 0 {
			return fmt.Errorf("elasticsearch scan: sorted hit %s has no sort values", last.ID)
		}
		after = last.Sort
	}
}
