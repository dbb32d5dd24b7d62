package elastic

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"
)

// fakeES answers the storage-level Elasticsearch APIs this package uses
// (info, templates, indices, aliases, mappings, _bulk, _mget, _doc,
// _reindex, _tasks, _update_by_query) on loopback, in Elasticsearch's wire format, keeping
// documents in memory. It evaluates no queries: _search and _count go to
// the onSearch hook, which tests set to check the request and return a
// canned answer. The real-cluster run is elastic_test.go's conformance suite.
type fakeES struct {
	t   *testing.T
	srv *httptest.Server

	mu        sync.Mutex
	version   string
	dims      int    // the vector dims every companies index reports
	vecType   string // and the dense_vector index type ("" for none)
	health    string
	templates map[string][]byte
	docs      map[string]map[string]json.RawMessage // index -> id -> source
	aliases   map[string]string                     // alias -> index
	log       []string                              // "METHOD /path?query" of every request

	// onBulkItem may override the outcome of one bulk item: status 0 lets
	// it through.
	onBulkItem func(action, id string) (status int, errType string)
	// onBulk may fail a whole _bulk request with an HTTP status.
	onBulk func() int
	// onSearch answers _search and _count (path ends with the endpoint).
	onSearch func(endpoint string, body []byte) (status int, answer any)
	// onReindex runs while a reindex task copies (to simulate writes).
	onReindex func()
	// onUpdateByQuery may answer an _update_by_query instead of the
	// simulation of the employer script (status 0 lets it through).
	onUpdateByQuery func(body []byte) (status int, answer any)
}

func newFakeES(t *testing.T) *fakeES {
	f := &fakeES{
		t: t, version: "8.19.3", dims: 8, vecType: "int8_hnsw", health: "green",
		templates: map[string][]byte{},
		docs:      map[string]map[string]json.RawMessage{},
		aliases:   map[string]string{},
	}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeES) requests(prefix string) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, r := range f.log {
		if strings.HasPrefix(r, prefix) {
			out = append(out, r)
		}
	}
	return out
}

func (f *fakeES) resolve(name string) string {
	if idx, ok := f.aliases[name]; ok {
		return idx
	}
	return name
}

func reply(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Elastic-Product", "Elasticsearch")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func esErr(typ, reason string, status int) map[string]any {
	return map[string]any{"error": map[string]any{"type": typ, "reason": reason, "root_cause": []any{}}, "status": status}
}

func (f *fakeES) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	f.log = append(f.log, r.Method+" "+r.URL.RequestURI())
	f.mu.Unlock()
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	switch {
	case r.URL.Path == "/" && r.Method == http.MethodGet:
		reply(w, 200, map[string]any{"name": "fake", "version": map[string]any{"number": f.version}, "tagline": "You Know, for Search"})
	case parts[0] == "_index_template" && r.Method == http.MethodPut:
		f.mu.Lock()
		f.templates[parts[1]] = body
		f.mu.Unlock()
		reply(w, 200, map[string]any{"acknowledged": true})
	case parts[0] == "_alias" && r.Method == http.MethodGet:
		f.mu.Lock()
		idx, ok := f.aliases[parts[1]]
		f.mu.Unlock()
		if !ok {
			reply(w, 404, map[string]any{"error": "alias [" + parts[1] + "] missing", "status": 404})
			return
		}
		reply(w, 200, map[string]any{idx: map[string]any{"aliases": map[string]any{parts[1]: map[string]any{}}}})
	case parts[0] == "_aliases" && r.Method == http.MethodPost:
		f.updateAliases(w, body)
	case parts[0] == "_cluster":
		reply(w, 200, map[string]any{"status": f.health})
	case parts[0] == "_reindex":
		f.reindex(w, body)
	case parts[0] == "_tasks":
		reply(w, 200, map[string]any{"completed": true, "response": map[string]any{"total": 0, "failures": []any{}}})
	case len(parts) == 1 && r.Method == http.MethodPut:
		f.createIndex(w, parts[0], body)
	case len(parts) == 1 && r.Method == http.MethodDelete:
		f.deleteIndex(w, parts[0])
	case len(parts) == 2 && parts[1] == "_mapping":
		f.mu.Lock()
		idx := f.resolve(parts[0])
		_, ok := f.docs[idx]
		f.mu.Unlock()
		if !ok {
			reply(w, 404, esErr("index_not_found_exception", "no such index ["+idx+"]", 404))
			return
		}
		vec := map[string]any{"type": "dense_vector", "dims": f.dims}
		if f.vecType != "" {
			vec["index_options"] = map[string]any{"type": f.vecType, "m": 16, "ef_construction": 100}
		}
		reply(w, 200, map[string]any{idx: map[string]any{"mappings": map[string]any{"properties": map[string]any{"vector": vec}}}})
	case len(parts) == 2 && parts[1] == "_bulk":
		f.bulk(w, parts[0], r, body)
	case len(parts) == 2 && parts[1] == "_mget":
		f.mget(w, parts[0], r, body)
	case len(parts) == 3 && parts[1] == "_doc":
		f.doc(w, r.Method, parts[0], parts[2], body)
	case len(parts) == 2 && parts[1] == "_search" && f.sortedScan(w, parts[0], body):
	case len(parts) == 2 && (parts[1] == "_search" || parts[1] == "_count"):
		if f.onSearch == nil {
			if parts[1] == "_count" && len(body) == 0 {
				f.mu.Lock()
				n := len(f.docs[f.resolve(parts[0])])
				f.mu.Unlock()
				reply(w, 200, map[string]any{"count": n, "_shards": map[string]int{"total": 1, "successful": 1}})
				return
			}
			f.t.Errorf("fake Elasticsearch cannot evaluate %s %s", r.URL.Path, body)
			reply(w, 500, esErr("fake", "no search hook", 500))
			return
		}
		status, ans := f.onSearch(parts[1], body)
		reply(w, status, ans)
	case len(parts) == 2 && parts[1] == "_update_by_query":
		f.updateByQuery(w, parts[0], body)
	case len(parts) == 2 && parts[1] == "_refresh":
		reply(w, 200, map[string]any{"_shards": map[string]int{"total": 1, "successful": 1}})
	default:
		f.t.Errorf("fake Elasticsearch: unexpected %s %s", r.Method, r.URL)
		reply(w, 400, esErr("fake", "unexpected request", 400))
	}
}

func (f *fakeES) deleteIndex(w http.ResponseWriter, name string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.docs[name]; !ok {
		reply(w, 404, esErr("index_not_found_exception", "no such index ["+name+"]", 404))
		return
	}
	delete(f.docs, name)
	for a, idx := range f.aliases {
		if idx == name {
			delete(f.aliases, a)
		}
	}
	reply(w, 200, map[string]any{"acknowledged": true})
}

// sortedScan answers a match_all search sorted by one field with
// search_after and _source excludes (the refit's scan), evaluated over
// the fake's documents; it reports false for any other search.
func (f *fakeES) sortedScan(w http.ResponseWriter, target string, body []byte) bool {
	var req struct {
		Query       map[string]json.RawMessage     `json:"query"`
		Size        int                            `json:"size"`
		Sort        []map[string]map[string]string `json:"sort"`
		Source      struct{ Excludes []string }    `json:"_source"`
		SearchAfter []json.RawMessage              `json:"search_after"`
	}
	if json.Unmarshal(body, &req) != nil || len(req.Query) != 1 || req.Query["match_all"] == nil || len(req.Sort) != 1 || len(req.Source.Excludes) == 0 {
		return false
	}
	var field string
	for k := range req.Sort[0] {
		field = k
	}
	f.mu.Lock()
	idx := f.resolve(target)
	type kv struct {
		key any
		id  string
		src json.RawMessage
	}
	var all []kv
	for id, src := range f.docs[idx] {
		var m map[string]any
		_ = json.Unmarshal(src, &m)
		all = append(all, kv{key: m[field], id: id, src: src})
	}
	f.mu.Unlock()
	less := func(a, b any) bool {
		if x, ok := a.(float64); ok {
			y, _ := b.(float64)
			return x < y
		}
		return fmt.Sprint(a) < fmt.Sprint(b)
	}
	sort.Slice(all, func(i, j int) bool { return less(all[i].key, all[j].key) })
	start := 0
	if len(req.SearchAfter) == 1 {
		var after any
		_ = json.Unmarshal(req.SearchAfter[0], &after)
		for start < len(all) && !less(after, all[start].key) {
			start++
		}
	}
	var hits []map[string]any
	for _, d := range all[start:min(len(all), start+req.Size)] {
		hits = append(hits, map[string]any{"_index": idx, "_id": d.id, "sort": []any{d.key}, "_source": filterSource(d.src, nil, req.Source.Excludes)})
	}
	reply(w, 200, map[string]any{"timed_out": false, "_shards": map[string]int{"total": 1, "successful": 1},
		"hits": map[string]any{"hits": hits}})
	return true
}

func (f *fakeES) createIndex(w http.ResponseWriter, name string, body []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.docs[name]; ok {
		reply(w, 400, esErr("resource_already_exists_exception", "index ["+name+"] already exists", 400))
		return
	}
	var req struct {
		Aliases map[string]json.RawMessage `json:"aliases"`
	}
	if len(body) > 0 {
		if err := json.Unmarshal(body, &req); err != nil {
			reply(w, 400, esErr("parse_exception", err.Error(), 400))
			return
		}
	}
	f.docs[name] = map[string]json.RawMessage{}
	for a := range req.Aliases {
		f.aliases[a] = name
	}
	reply(w, 200, map[string]any{"acknowledged": true, "index": name})
}

func (f *fakeES) updateAliases(w http.ResponseWriter, body []byte) {
	var req aliasActions
	if err := json.Unmarshal(body, &req); err != nil {
		reply(w, 400, esErr("parse_exception", err.Error(), 400))
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	next := map[string]string{}
	for k, v := range f.aliases {
		next[k] = v
	}
	for _, a := range req.Actions {
		switch {
		case a.Remove != nil:
			if next[a.Remove.Alias] != a.Remove.Index {
				reply(w, 404, esErr("aliases_not_found_exception", "aliases ["+a.Remove.Alias+"] missing", 404))
				return
			}
			delete(next, a.Remove.Alias)
		case a.Add != nil:
			next[a.Add.Alias] = a.Add.Index
		}
	}
	f.aliases = next
	reply(w, 200, map[string]any{"acknowledged": true})
}

func (f *fakeES) bulk(w http.ResponseWriter, target string, r *http.Request, body []byte) {
	if f.onBulk != nil {
		if status := f.onBulk(); status != 0 {
			reply(w, status, esErr("fake_failure", "bulk refused", status))
			return
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	_, isAlias := f.aliases[target]
	if r.URL.Query().Get("require_alias") == "true" && !isAlias {
		reply(w, 404, esErr("index_not_found_exception", "no such index ["+target+"] and [require_alias] request flag is [true]", 404))
		return
	}
	idx := f.resolve(target)
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(nil, 64<<20)
	var items []map[string]any
	hasErrors := false
	for sc.Scan() {
		var meta map[string]struct {
			ID string `json:"_id"`
		}
		if err := json.Unmarshal(sc.Bytes(), &meta); err != nil {
			reply(w, 400, esErr("illegal_argument_exception", "malformed action line", 400))
			return
		}
		for action, m := range meta {
			var src []byte
			if action == "index" || action == "create" {
				sc.Scan()
				src = append([]byte(nil), sc.Bytes()...)
			}
			item := map[string]any{"_index": idx, "_id": m.ID}
			status, errType := 0, ""
			if f.onBulkItem != nil {
				status, errType = f.onBulkItem(action, m.ID)
			}
			switch {
			case status != 0:
				item["status"] = status
				item["error"] = map[string]any{"type": errType, "reason": "refused by the test", "caused_by": map[string]any{"type": "cause_type", "reason": "the cause"}}
				hasErrors = true
			case action == "create":
				if _, ok := f.docs[idx][m.ID]; ok {
					item["status"] = 409
					item["error"] = map[string]any{"type": "version_conflict_engine_exception", "reason": "[" + m.ID + "]: version conflict, document already exists"}
					hasErrors = true
					break
				}
				f.docs[idx][m.ID] = src
				item["status"], item["result"] = 201, "created"
			case action == "index":
				_, existed := f.docs[idx][m.ID]
				f.docs[idx][m.ID] = src
				item["status"], item["result"] = 201, "created"
				if existed {
					item["status"], item["result"] = 200, "updated"
				}
			case action == "delete":
				if _, ok := f.docs[idx][m.ID]; ok {
					delete(f.docs[idx], m.ID)
					item["status"], item["result"] = 200, "deleted"
				} else {
					item["status"], item["result"] = 404, "not_found"
				}
			}
			items = append(items, map[string]any{action: item})
		}
	}
	reply(w, 200, map[string]any{"took": 1, "errors": hasErrors, "items": items})
}

func (f *fakeES) mget(w http.ResponseWriter, target string, r *http.Request, body []byte) {
	var req struct {
		IDs []string `json:"ids"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		reply(w, 400, esErr("parse_exception", err.Error(), 400))
		return
	}
	includes := splitList(r.URL.Query().Get("_source_includes"))
	excludes := splitList(r.URL.Query().Get("_source_excludes"))
	f.mu.Lock()
	defer f.mu.Unlock()
	idx := f.resolve(target)
	var docs []map[string]any
	for _, id := range req.IDs {
		src, ok := f.docs[idx][id]
		d := map[string]any{"_index": idx, "_id": id, "found": ok}
		if ok {
			d["_source"] = filterSource(src, includes, excludes)
		}
		docs = append(docs, d)
	}
	reply(w, 200, map[string]any{"docs": docs})
}

func (f *fakeES) doc(w http.ResponseWriter, method, target, id string, body []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	idx := f.resolve(target)
	store, ok := f.docs[idx]
	if !ok {
		reply(w, 404, esErr("index_not_found_exception", "no such index ["+idx+"]", 404))
		return
	}
	switch method {
	case http.MethodPut:
		store[id] = append(json.RawMessage(nil), body...)
		reply(w, 201, map[string]any{"_index": idx, "_id": id, "result": "created"})
	case http.MethodGet:
		src, ok := store[id]
		if !ok {
			reply(w, 404, map[string]any{"_index": idx, "_id": id, "found": false})
			return
		}
		reply(w, 200, map[string]any{"_index": idx, "_id": id, "found": true, "_source": src})
	case http.MethodDelete:
		if _, ok := store[id]; !ok {
			reply(w, 404, map[string]any{"_index": idx, "_id": id, "result": "not_found"})
			return
		}
		delete(store, id)
		reply(w, 200, map[string]any{"_index": idx, "_id": id, "result": "deleted"})
	}
}

func (f *fakeES) reindex(w http.ResponseWriter, body []byte) {
	var req reindexBody
	if err := json.Unmarshal(body, &req); err != nil {
		reply(w, 400, esErr("parse_exception", err.Error(), 400))
		return
	}
	f.mu.Lock()
	for id, src := range f.docs[req.Source.Index] {
		f.docs[req.Dest.Index][id] = src
	}
	f.mu.Unlock()
	if f.onReindex != nil {
		f.onReindex()
	}
	reply(w, 200, map[string]any{"task": "fakenode:42"})
}

// updateByQuery simulates the employer refresh (employerScript) in Go: the
// documents whose domain is in the terms query get params.employers[domain]
// set, null values removed. It checks the request's shape, not painless.
func (f *fakeES) updateByQuery(w http.ResponseWriter, target string, body []byte) {
	if f.onUpdateByQuery != nil {
		if status, ans := f.onUpdateByQuery(body); status != 0 {
			reply(w, status, ans)
			return
		}
	}
	var req struct {
		Query struct {
			Terms map[string][]string `json:"terms"`
		} `json:"query"`
		Script struct {
			Lang   string `json:"lang"`
			Source string `json:"source"`
			Params struct {
				Employers map[string]map[string]json.RawMessage `json:"employers"`
			} `json:"params"`
		} `json:"script"`
	}
	if err := json.Unmarshal(body, &req); err != nil || req.Script.Lang != "painless" || req.Script.Source != employerScript || len(req.Query.Terms["domain"]) == 0 {
		reply(w, 400, esErr("parse_exception", fmt.Sprintf("unexpected update by query %s (%v)", body, err), 400))
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	idx := f.resolve(target)
	store, ok := f.docs[idx]
	if !ok {
		reply(w, 404, esErr("index_not_found_exception", "no such index ["+target+"]", 404))
		return
	}
	domains := map[string]bool{}
	for _, d := range req.Query.Terms["domain"] {
		domains[d] = true
	}
	total, updated, noops := 0, 0, 0
	for id, src := range store {
		var doc map[string]json.RawMessage
		if err := json.Unmarshal(src, &doc); err != nil {
			panic(err)
		}
		var domain string
		_ = json.Unmarshal(doc["domain"], &domain)
		if !domains[domain] {
			continue
		}
		total++
		fields := req.Script.Params.Employers[domain]
		before, _ := json.Marshal(doc)
		for k, v := range fields {
			if string(v) == "null" {
				delete(doc, k)
			} else {
				doc[k] = v
			}
		}
		after, _ := json.Marshal(doc)
		if bytes.Equal(before, after) {
			noops++
			continue
		}
		store[id] = after
		updated++
	}
	reply(w, 200, map[string]any{"took": 1, "timed_out": false, "total": total, "updated": updated, "noops": noops,
		"version_conflicts": 0, "failures": []any{}})
}

func splitList(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// filterSource applies top-level _source includes/excludes.
func filterSource(src json.RawMessage, includes, excludes []string) json.RawMessage {
	if includes == nil && excludes == nil {
		return src
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(src, &m); err != nil {
		panic(fmt.Sprintf("stored source is not an object: %s", src))
	}
	if includes != nil {
		kept := map[string]json.RawMessage{}
		for _, k := range includes {
			if v, ok := m[k]; ok {
				kept[k] = v
			}
		}
		m = kept
	}
	for _, k := range excludes {
		delete(m, k)
	}
	b, _ := json.Marshal(m)
	return b
}
