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

// mgetBatch bounds the ids of one _mget, so a 10,000-domain lookup is a
// series of responses of bounded size rather than one huge one.
const mgetBatch = 1000

type mgetResponse struct {
	Docs []struct {
		ID     string          `json:"_id"`
		Found  bool            `json:"found"`
		Source json.RawMessage `json:"_source"`
		Error  *errorCause     `json:"error"`
	} `json:"docs"`
}

// mget fetches documents by id (real-time: unrefreshed writes included),
// calling fn for each one found, in input order.
func (e *Engine) mget(ctx context.Context, index string, ids []string, includes, excludes []string, fn func(id string, src json.RawMessage) error) error {
	clean := make([]string, 0, len(ids))
	for _, id := range ids {
		if id != "" && len(id) <= 512 { // anything else cannot be stored
			clean = append(clean, id)
		}
	}
	for start := 0; start < len(clean); start += mgetBatch {
		batch := clean[start:min(start+mgetBatch, len(clean))]
		body, err := json.Marshal(struct {
			IDs []string `json:"ids"`
		}{batch})
		if err != nil {
			return err
		}
		var res mgetResponse
		req := esapi.MgetRequest{Index: index, Body: bytes.NewReader(body), SourceIncludes: includes, SourceExcludes: excludes}
		if err := e.call(ctx, "mget "+index, req, &res); err != nil {
			return err
		}
		if len(res.Docs) != len(batch) {
			return fmt.Errorf("elasticsearch mget %s: %d documents answered for %d ids", index, len(res.Docs), len(batch))
		}
		for _, d := range res.Docs {
			if d.Error != nil {
				return fmt.Errorf("elasticsearch mget %s: document %q: %s", index, d.ID, d.Error)
			}
			if !d.Found {
				continue
			}
			if err := fn(d.ID, d.Source); err != nil {
				return err
			}
		}
	}
	return nil
}

// GetCompanies implements index.Engine.
func (e *Engine) GetCompanies(ctx context.Context, domains []string) ([]record.Company, error) {
	return getDocs[record.Company](ctx, e, e.alias, domains, "company")
}

// getDocs reads the documents of keys from alias in real time (_mget),
// without their vectors, in input order, skipping missing ones.
func getDocs[T any](ctx context.Context, e *Engine, alias string, keys []string, kind string) ([]T, error) {
	out := make([]T, 0, len(keys))
	err := e.mget(ctx, alias, keys, nil, []string{vectorField}, func(id string, src json.RawMessage) error {
		var v T
		if err := json.Unmarshal(src, &v); err != nil {
			return fmt.Errorf("elasticsearch: decode %s %s: %w", kind, id, err)
		}
		out = append(out, v)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// CompanyVectors implements index.Engine; vectors are read from _source,
// where they are kept exactly as written.
func (e *Engine) CompanyVectors(ctx context.Context, domains []string) (map[string][]float32, error) {
	out := make(map[string][]float32, len(domains))
	err := e.mget(ctx, e.alias, domains, []string{vectorField}, nil, func(id string, src json.RawMessage) error {
		var d struct {
			Vector []float32 `json:"vector"`
		}
		if err := json.Unmarshal(src, &d); err != nil {
			return fmt.Errorf("elasticsearch: decode vector of %s: %w", id, err)
		}
		out[id] = d.Vector
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// CountCompanies implements index.Engine.
func (e *Engine) CountCompanies(ctx context.Context, f index.Filter) (int, error) {
	body, err := buildCount(f)
	if err != nil {
		return 0, err
	}
	return e.count(ctx, e.alias, "count", body)
}

// count runs a _count request with body against alias; what names it in
// shard-failure errors.
func (e *Engine) count(ctx context.Context, alias, what string, body any) (int, error) {
	b, err := json.Marshal(body)
	if err != nil {
		return 0, err
	}
	var res struct {
		Count  int       `json:"count"`
		Shards shardInfo `json:"_shards"`
	}
	if err := e.call(ctx, "count "+alias, esapi.CountRequest{Index: []string{alias}, Body: bytes.NewReader(b)}, &res); err != nil {
		return 0, err
	}
	if err := res.Shards.check(what); err != nil {
		return 0, err
	}
	return res.Count, nil
}

type shardInfo struct {
	Total      int `json:"total"`
	Successful int `json:"successful"`
	Failed     int `json:"failed"`
}

// check refuses partial answers: a count or page missing a shard's
// documents would be silently wrong.
func (s shardInfo) check(what string) error {
	if s.Failed > 0 {
		return fmt.Errorf("elasticsearch %s: %d of %d shards failed", what, s.Failed, s.Total)
	}
	return nil
}

type searchResponse struct {
	TimedOut bool      `json:"timed_out"`
	Shards   shardInfo `json:"_shards"`
	Hits     struct {
		Total struct {
			Value int `json:"value"`
		} `json:"total"`
		Hits []struct {
			ID     string          `json:"_id"`
			Score  *float64        `json:"_score"`
			Source json.RawMessage `json:"_source"`
		} `json:"hits"`
	} `json:"hits"`
}

func (e *Engine) search(ctx context.Context, body searchBody) (searchResponse, error) {
	var res searchResponse
	b, err := json.Marshal(body)
	if err != nil {
		return res, err
	}
	if err := e.call(ctx, "search "+e.alias, esapi.SearchRequest{Index: []string{e.alias}, Body: bytes.NewReader(b)}, &res); err != nil {
		return res, err
	}
	if res.TimedOut {
		return res, fmt.Errorf("elasticsearch search %s: timed out with partial results", e.alias)
	}
	return res, res.Shards.check("search")
}

// SearchCompanies implements index.Engine.
//
// Without a vector it is one filtered search sorted by score desc, domain
// asc, with an exact total.
//
// With a vector it is a top-level kNN search for k = Offset+Limit
// neighbours (num_candidates per numCandidates) pre-filtered by the
// translated filter, with similarity = MinSimilarity (a raw cosine);
// from/size cut the page out of the k. Elasticsearch scores cosine as
// (1+cos)/2, converted back for Hit.Similarity. The total is the number of
// kNN matches when fewer than k matched (everything above the threshold was
// found, within HNSW recall); when the k were all filled a second request
// counts with k = num_candidates = 10,000, so a vector search's Total is
// approximate (HNSW recall) and saturates at 10,000 per shard.
func (e *Engine) SearchCompanies(ctx context.Context, s index.Search) (index.Result, error) {
	var res index.Result
	page, err := buildSearch(s, e.dim)
	if err != nil {
		return res, err
	}
	if s.Vector != nil && s.Offset+s.Limit == 0 {
		// k must be positive: only the total is wanted.
		res.Total, err = e.knnTotal(ctx, s)
		return res, err
	}
	if page.Knn != nil {
		page.Rescore = e.rescore(page.Knn, e.alias)
	}
	r, err := e.search(ctx, page)
	if err != nil {
		return res, err
	}
	res.Total = r.Hits.Total.Value
	res.Hits = make([]index.Hit, 0, len(r.Hits.Hits))
	for _, h := range r.Hits.Hits {
		var d struct {
			record.Company
			Vector []float32 `json:"vector"`
		}
		if err := json.Unmarshal(h.Source, &d); err != nil {
			return index.Result{}, fmt.Errorf("elasticsearch: decode hit %s: %w", h.ID, err)
		}
		hit := index.Hit{Company: d.Company}
		if s.WithVectors {
			hit.Vector = d.Vector
		}
		if s.Vector != nil {
			if h.Score == nil {
				return index.Result{}, fmt.Errorf("elasticsearch: kNN hit %s has no score", h.ID)
			}
			hit.Similarity = cosineFromScore(*h.Score)
		}
		res.Hits = append(res.Hits, hit)
	}
	if s.Vector != nil && res.Total >= page.Knn.K {
		if res.Total, err = e.knnTotal(ctx, s); err != nil {
			return index.Result{}, err
		}
	}
	return res, nil
}

func (e *Engine) knnTotal(ctx context.Context, s index.Search) (int, error) {
	body, err := buildKnnTotal(s, e.dim)
	if err != nil {
		return 0, err
	}
	r, err := e.search(ctx, body)
	if err != nil {
		return 0, err
	}
	return r.Hits.Total.Value, nil
}
