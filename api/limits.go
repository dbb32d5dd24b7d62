package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/valyala/fasthttp"

	"github.com/openprospect/prospectd/store"
	"github.com/openprospect/prospectd/uploads"
)

// Request size limits. The spec's longest query strings are the discovery
// texts: icp_text, negate_icp_text and icp_prompt of 4,000 characters
// each, which percent-encoded as 4-byte UTF-8 (emoji) take 12 bytes a
// character, 48,000 bytes a parameter, 144,000 for the three; the other
// array parameters at their caps (100 excluded domains, 10+10 lookalike
// domains, 4x20 phrases, tech stacks and subdomains) add under 64 KiB, and
// headers a few KiB. fasthttp needs the request line and headers to fit
// its per-connection read buffer (431 otherwise), so that buffer is the
// sum rounded up to 256 KiB.
const (
	maxHeaderBytes = 256 << 10
	// jsonBodyLimit is the body limit of a route that declares none:
	// small JSON bodies, and the most a client without a valid key can
	// make the server read.
	jsonBodyLimit = 64 << 10
	// formOverhead is what a multipart upload may carry besides its file
	// (boundaries, part headers, the other form fields), so a file just
	// over its cap gets the file's own 413 ("file: N bytes, the limit is
	// 1 MB") rather than the body's.
	formOverhead = 64 << 10
	// contactMatchBodyLimit fits 500 contact bulk match queries with every
	// field at its maximum length (name 200, email 254, company 300,
	// domain 300, country 60 characters) in up to 3-byte UTF-8.
	contactMatchBodyLimit = 2 << 20
)

// uploadBodyLimit is the body limit of a route taking a file within lim.
func uploadBodyLimit(lim uploads.Limits) int64 { return lim.MaxBytes + formOverhead }

// refusalHeader carries, from the header hook to the error handler, why a
// request's body was refused before it was read: "<status> <detail>". A
// client's own value is removed first.
const refusalHeader = "X-Prospectd-Refusal"

// route is what the header hook knows of a served operation.
type route struct {
	method   string
	segments []string // "" matches any one segment (a {param})
	limit    int64
	secured  bool
}

// routeTable matches request paths to operations, built from the OpenAPI
// document once every route is registered (at the first request).
type routeTable struct {
	once   sync.Once
	routes []route
}

func (s *Server) routeFor(method, path string) (route, bool) {
	s.routeTable.once.Do(func() {
		for p, item := range s.api.OpenAPI().Paths {
			for _, op := range []*huma.Operation{item.Get, item.Put, item.Post, item.Delete, item.Patch} {
				if op == nil {
					continue
				}
				r := route{method: op.Method, limit: op.MaxBodyBytes, secured: len(op.Security) > 0 && !sessionOnly(op.Security)}
				if r.limit <= 0 {
					r.limit = jsonBodyLimit
				}
				for _, seg := range strings.Split(strings.Trim(p, "/"), "/") {
					if strings.HasPrefix(seg, "{") {
						seg = ""
					}
					r.segments = append(r.segments, strings.ToLower(seg))
				}
				s.routeTable.routes = append(s.routeTable.routes, r)
			}
		}
	})
	segs := strings.Split(strings.ToLower(strings.Trim(path, "/")), "/")
next:
	for _, r := range s.routeTable.routes {
		if r.method != method || len(r.segments) != len(segs) {
			continue
		}
		for i, seg := range r.segments {
			if seg != "" && seg != segs[i] {
				continue next
			}
		}
		return r, true
	}
	return route{}, false
}

// bodyPolicy is fasthttp's HeaderReceived hook: it runs once a request's
// headers are read and before its body is, and sets the most the server
// reads of that body: the route's declared limit (huma.Operation's
// MaxBodyBytes; jsonBodyLimit when it declares none). A body announced
// over the limit is refused with 413 without reading it. On a route that
// needs a key, a body over jsonBodyLimit (or of unknown length) is read
// only when the key is valid: otherwise the request is refused with 401
// before its body is read. Either refusal closes the connection, its body
// unread. A chunked body whose length is unknown up front is read up to
// the limit before it is refused.
func (s *Server) bodyPolicy(h *fasthttp.RequestHeader) fasthttp.RequestConfig {
	h.Del(refusalHeader)
	cl := h.ContentLength() // -1 chunked, -2 none announced
	if cl == 0 || cl == -2 {
		return fasthttp.RequestConfig{MaxRequestBodySize: jsonBodyLimit}
	}
	method := string(h.Method())
	path, _, _ := strings.Cut(string(h.RequestURI()), "?")
	if _, rest, ok := strings.Cut(path, "://"); ok && !strings.HasPrefix(path, "/") { // absolute form
		_, p, _ := strings.Cut(rest, "/")
		path = "/" + p
	}
	r, ok := s.routeFor(method, path)
	if m, mounted := s.mounted(path); !ok && mounted {
		r, ok = route{limit: m.limit}, true
	}
	if !ok {
		r = route{limit: jsonBodyLimit}
	}
	if r.secured && (cl > jsonBodyLimit || cl < 0) {
		if reason := s.keyRefusal(h); reason != "" {
			h.Set(refusalHeader, "401 "+reason)
			return fasthttp.RequestConfig{MaxRequestBodySize: jsonBodyLimit}
		}
	}
	if cl > 0 && int64(cl) > r.limit {
		h.Set(refusalHeader, fmt.Sprintf("413 request body: %d bytes, the limit of %s %s is %s", cl, method, path, human(r.limit)))
	}
	return fasthttp.RequestConfig{MaxRequestBodySize: int(r.limit)}
}

// keyRefusal checks the key of a request from its headers alone; "" when
// it is valid or cannot be checked now (the store is down: the request
// then goes on to the middleware's own 503).
func (s *Server) keyRefusal(h *fasthttp.RequestHeader) string {
	key := credentialFrom(func(name string) string { return string(h.Peek(name)) })
	if key == "" {
		return missingKey
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := s.authenticateCredential(ctx, key); errors.Is(err, store.ErrUnauthorized) {
		return invalidKey
	}
	return ""
}

// refusal returns the status and detail the header hook set, if any.
func refusal(get func(string) string) (int, string, bool) {
	v := get(refusalHeader)
	code, detail, ok := strings.Cut(v, " ")
	if !ok {
		return 0, "", false
	}
	n, err := strconv.Atoi(code)
	if err != nil || (n != http.StatusUnauthorized && n != http.StatusRequestEntityTooLarge) {
		return 0, "", false
	}
	return n, detail, true
}

// human writes a byte limit for messages.
func human(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	default:
		return fmt.Sprintf("%d bytes", n)
	}
}
