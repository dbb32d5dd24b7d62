package crawl

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/embedded"
	"github.com/openprospect/prospectd/index/embedding"
	"github.com/openprospect/prospectd/record"
)

// farm is a site farm on loopback: one HTTP server answering for many
// host names (virtual hosting), which the crawler reaches through a
// resolver mapping every name to 127.0.0.1.
type farm struct {
	srv  *httptest.Server
	port string

	mu    sync.Mutex
	sites map[string]http.Handler
	hits  map[string]int // requests per host
}

func newFarm(t testing.TB) *farm {
	f := &farm{sites: map[string]http.Handler{}, hits: map[string]int{}}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, _ := net.SplitHostPort(r.Host)
		f.mu.Lock()
		h := f.sites[host]
		f.hits[host]++
		f.mu.Unlock()
		if h == nil {
			http.Error(w, "no such site", http.StatusMisdirectedRequest)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(f.srv.Close)
	_, f.port, _ = net.SplitHostPort(f.srv.Listener.Addr().String())
	return f
}

func (f *farm) site(host string, h http.Handler) {
	f.mu.Lock()
	f.sites[host] = h
	f.mu.Unlock()
}

func (f *farm) hitsOf(host string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.hits[host]
}

// url is a URL of the farm on host.
func (f *farm) url(host, path string) string { return "http://" + host + ":" + f.port + path }

// options are crawl options that reach the farm: loopback allowed, every
// name resolved to 127.0.0.1, start URLs on the farm's port, no delay.
func (f *farm) options() Options {
	return Options{
		AllowPrivate: true,
		Delay:        -1,
		Lookup: func(ctx context.Context, host string) ([]netip.Addr, error) {
			return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
		},
		StartURLs: func(d string) []string { return []string{f.url(d, "/")} },
	}
}

// page serves an HTML page with a status.
func page(code int, contentType, body string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		if contentType != "" {
			w.Header().Set("Content-Type", contentType)
		}
		w.WriteHeader(code)
		io.WriteString(w, body)
	})
}

// redirect answers every page with a redirect to to.
func redirect(code int, to string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		http.Redirect(w, r, to, code)
	})
}

// newIndex opens an embedded engine in a temporary directory holding
// companies, embedded by the hashing embedder.
func newIndex(t testing.TB, companies ...record.Company) (*embedded.Engine, embedding.Embedder) {
	t.Helper()
	ctx := context.Background()
	eng, err := embedded.Open(t.TempDir(), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	h, err := embedding.NewHashing(256)
	if err != nil {
		t.Fatal(err)
	}
	model, err := h.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if err := eng.SetMeta(ctx, index.Meta{EmbedderID: h.ID(), Dimension: h.Dim(), Model: model}); err != nil {
		t.Fatal(err)
	}
	for start := 0; start < len(companies); start += 1000 {
		docs := make([]index.CompanyDoc, 0, 1000)
		for _, c := range companies[start:min(len(companies), start+1000)] {
			docs = append(docs, index.CompanyDoc{Company: c, Vector: h.Embed(embedding.DocOf(c))})
		}
		failed, err := eng.UpsertCompanies(ctx, docs)
		if err != nil || len(failed) > 0 {
			t.Fatalf("load companies: %v %v", failed, err)
		}
	}
	if err := eng.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	return eng, h
}

func company(d string) record.Company {
	return record.Company{Domain: d, Name: strings.TrimSuffix(d, ".com"), Description: "A company called " + d,
		SiteText: "old site text of " + d, Languages: []string{"de"}}
}

func embeddingDoc(c record.Company) embedding.Doc { return embedding.DocOf(c) }

func searchPhrase(p string) index.Search {
	return index.Search{Filter: index.Phrase{Field: index.TextField, Text: p}, Limit: 10}
}

func dot(a, b []float32) float64 {
	if len(a) != len(b) {
		return 0
	}
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}
