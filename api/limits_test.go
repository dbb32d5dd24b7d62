package api

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/enginetest"
)

// countingListener counts the bytes the server reads from its connections.
type countingListener struct {
	net.Listener
	read atomic.Int64
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &countingConn{Conn: c, read: &l.read}, nil
}

type countingConn struct {
	net.Conn
	read *atomic.Int64
}

func (c *countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.read.Add(int64(n))
	return n, err
}

// unlimitedFixture is contactFixture without rate limits.
func unlimitedFixture(t *testing.T) fixture {
	f := newFixtureWith(t, func(d *Deps) {
		d.Limits = &account.Limits{KeyPerSecond: 1e6, KeyBurst: 1e6, OrgPerSecond: 1e6, OrgBurst: 1e6}
	})
	ce := f.srv.deps.Engine.(index.ContactEngine)
	if _, err := ce.UpsertContacts(context.Background(), enginetest.ContactFixtures()); err != nil {
		t.Fatal(err)
	}
	return f
}

// serveLoopback serves f on a real loopback listener, as a client meets it
// (app.Test skips the connection's read buffer).
func serveLoopback(t *testing.T, f fixture) (addr string, read *atomic.Int64) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cl := &countingListener{Listener: ln}
	go f.srv.App().Listener(cl)
	t.Cleanup(func() { f.srv.App().ShutdownWithTimeout(5 * time.Second) })
	return ln.Addr().String(), &cl.read
}

type problem struct {
	Status int    `json:"status"`
	Detail string `json:"detail"`
	Errors []struct {
		Location string `json:"location"`
		Message  string `json:"message"`
	} `json:"errors"`
}

func (p problem) String() string { b, _ := json.Marshal(p); return string(b) }

func getLoopback(t *testing.T, addr, key, target string) (int, problem) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, "http://"+addr+target, nil)
	req.Header.Set("X-API-Key", key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v (a dropped connection rather than an answer)", target[:min(len(target), 60)], err)
	}
	defer res.Body.Close()
	var p problem
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode >= 400 {
		if err := json.Unmarshal(b, &p); err != nil {
			t.Fatalf("%d answer is not a problem document: %.200s", res.StatusCode, b)
		}
	}
	return res.StatusCode, p
}

// TestLongTextsFitTheRequestLine: query strings with the spec's longest
// texts (4,000 characters, ASCII, CJK or emoji, percent-encoded up to 12
// bytes a character) reach validation on every GET route that takes them,
// over a real connection; a longer text is refused by validation naming
// the parameter, and a request line over the buffer gets a 431 problem.
func TestLongTextsFitTheRequestLine(t *testing.T) {
	f := unlimitedFixture(t)
	addr, _ := serveLoopback(t, f)
	texts := map[string]string{"ascii": "a", "cjk": "企", "emoji": "🚀"}
	for _, path := range []string{"/v1/discover", "/v1/count", "/v1/contacts", "/v1/contacts/count"} {
		for name, ch := range texts {
			for _, param := range []string{"icp_text", "icp_prompt"} {
				t.Run(path+"/"+param+"/"+name, func(t *testing.T) {
					at := url.Values{param: {strings.Repeat(ch, 4000)}}.Encode()
					code, p := getLoopback(t, addr, f.key, path+"?"+at)
					if code == http.StatusRequestHeaderFieldsTooLarge || code == http.StatusRequestURITooLong || strings.Contains(p.String(), param) {
						t.Fatalf("4000 characters (%d bytes encoded): %d %s", len(at), code, p)
					}
					over := url.Values{param: {strings.Repeat(ch, 4001)}}.Encode()
					code, p = getLoopback(t, addr, f.key, path+"?"+over)
					if code != http.StatusUnprocessableEntity || !strings.Contains(p.String(), param) {
						t.Fatalf("4001 characters: %d %s, want 422 naming %s", code, p, param)
					}
				})
			}
		}
	}
	// Every text parameter at its cap at once, in emoji, with a full
	// exclusion list.
	all := url.Values{"icp_text": {strings.Repeat("🚀", 4000)}, "negate_icp_text": {strings.Repeat("🚀", 4000)},
		"icp_prompt": {strings.Repeat("🚀", 4000)}}
	for i := range 100 {
		all.Add("exclude_domain", fmt.Sprintf("%s%d.com", strings.Repeat("x", 60), i))
	}
	if code, p := getLoopback(t, addr, f.key, "/v1/discover?"+all.Encode()); code == http.StatusRequestHeaderFieldsTooLarge || code == http.StatusRequestURITooLong {
		t.Fatalf("every text at its cap: %d %s", code, p)
	}

	code, p := getLoopback(t, addr, f.key, "/v1/discover?icp_text="+strings.Repeat("%F0%9F%9A%80", 30_000))
	if code != http.StatusRequestHeaderFieldsTooLarge || !strings.Contains(p.Detail, "4000 characters") {
		t.Fatalf("request line over the buffer: %d %s", code, p)
	}
}

// rawPost sends a POST announcing size body bytes and writes them while
// it reads the answer; it returns the answer once read.
func rawPost(t *testing.T, addr, path, contentType string, size int, hdr map[string]string) (int, problem) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var h strings.Builder
	fmt.Fprintf(&h, "POST %s HTTP/1.1\r\nHost: test\r\nContent-Type: %s\r\nContent-Length: %d\r\n", path, contentType, size)
	for k, v := range hdr {
		fmt.Fprintf(&h, "%s: %s\r\n", k, v)
	}
	h.WriteString("\r\n")
	if _, err := io.WriteString(conn, h.String()); err != nil {
		t.Fatal(err)
	}
	go func() {
		chunk := []byte(strings.Repeat("x", 64<<10))
		for sent := 0; sent < size; {
			n, err := conn.Write(chunk[:min(len(chunk), size-sent)])
			if err != nil {
				return // the server closed the connection: expected
			}
			sent += n
		}
	}()
	conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("POST %s: no answer: %v", path, err)
	}
	defer res.Body.Close()
	var p problem
	b, _ := io.ReadAll(res.Body)
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatalf("%d answer is not a problem document: %.200s", res.StatusCode, b)
	}
	return res.StatusCode, p
}

// TestBodyLimits: a large body is read only for a valid key and within
// its route's limit; otherwise it is refused (401, 413) after reading
// little more than its headers.
func TestBodyLimits(t *testing.T) {
	f := unlimitedFixture(t)
	addr, read := serveLoopback(t, f)
	const big = 50 << 20
	form := "multipart/form-data; boundary=xyz"
	for _, tc := range []struct {
		name, path, ctype string
		size              int
		hdr               map[string]string
		want              int
		detail            string
	}{
		{"no key", "/v1/segment", form, big, nil, 401, "missing API key"},
		{"wrong key", "/v1/bulkmatch", form, big, map[string]string{"X-API-Key": "pk_live_nope"}, 401, "invalid or revoked API key"},
		{"wrong bearer key", "/v1/contacts/bulk-match", "application/json", big, map[string]string{"Authorization": "Bearer nope"}, 401, "invalid or revoked"},
		{"valid key, over the segment limit", "/v1/segment", form, big, map[string]string{"X-API-Key": f.key}, 413, "request body: 52428800 bytes, the limit of POST /v1/segment is 1088 KiB"},
		{"valid key, over the append limit", "/v1/append", form, 6 << 20, map[string]string{"X-API-Key": f.key}, 413, "the limit of POST /v1/append is 5184 KiB"},
		{"valid key, over the bulk match limit", "/v1/contacts/bulk-match", "application/json", 3 << 20, map[string]string{"X-API-Key": f.key}, 413, "is 2 MiB"},
		{"public route, over the JSON limit", "/v1/public/signup", "application/json", big, nil, 413, "the limit of POST /v1/public/signup is 64 KiB"},
		{"unknown route", "/v1/nowhere", "application/json", big, nil, 413, "is 64 KiB"},
		{"absolute-form target, no key", "http://test/v1/segment", form, big, nil, 401, "missing API key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := read.Load()
			start := time.Now()
			code, p := rawPost(t, addr, tc.path, tc.ctype, tc.size, tc.hdr)
			took, got := time.Since(start), read.Load()-before
			if code != tc.want || !strings.Contains(p.Detail, tc.detail) {
				t.Fatalf("%d %s, want %d with %q", code, p, tc.want, tc.detail)
			}
			t.Logf("%d refused in %v after the server read %d bytes", code, took, got)
			// The headers and what the read buffer took in one read.
			if got > maxHeaderBytes+jsonBodyLimit {
				t.Errorf("the server read %d bytes of a %d-byte request before refusing it", got, tc.size)
			}
		})
	}

	// A large upload within its limit, with a valid key, is read and
	// handled.
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", "list.csv")
	io.WriteString(fw, "domain,notes\n")
	for i := 0; body.Len() < 600<<10; i++ {
		fmt.Fprintf(fw, "company-%d.com,%s\n", i, strings.Repeat("n", 250))
	}
	mw.Close()
	req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/v1/segment", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("X-API-Key", f.key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusAccepted {
		t.Fatalf("upload of %d bytes within the limit: %d %s", req.ContentLength, res.StatusCode, b)
	}
	t.Logf("upload within the limit: %d %.200s", res.StatusCode, b)
}
