package refresh

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/openprospect/prospectd/internal/privatefs"
)

// urlKind is an http(s) URL. Each run asks with the validators of the
// last completed run (If-None-Match, If-Modified-Since): 304 is
// unchanged. A download goes to a partial file in the data directory with
// the validator it belongs to; a download cut off (connection dropped,
// process killed) is resumed with Range and If-Range, so an unchanged
// resource continues where it stopped and a changed one starts over. A
// body whose SHA-256 equals the last completed run's is unchanged too
// (servers without validators).
//
// The URL comes from the operator's configuration file, not from a
// customer, so it is fetched without netguard's public-address rule (a
// registry export on the operator's own network is a normal source).
type urlKind struct{}

// Client is the HTTP client of URL sources: a whole download may take
// long, so only the wait for a response is bounded.
var Client = &http.Client{Transport: &http.Transport{
	Proxy:                 http.ProxyFromEnvironment,
	ResponseHeaderTimeout: time.Minute,
	IdleConnTimeout:       90 * time.Second,
	TLSHandshakeTimeout:   10 * time.Second,
}}

// downloadAttempts bounds the resumptions of a download within one run.
const downloadAttempts = 5

func (urlKind) Check(sc SourceConfig) error {
	u, err := url.Parse(sc.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("url %q: want an absolute http or https URL", sc.URL)
	}
	if sc.Path != "" {
		return errors.New("path: not used by kind url")
	}
	if _, err := formatOf(sc); err != nil {
		return err
	}
	return nil
}

// formatOf returns the extension the downloaded file is saved under, so
// ingest.Open chooses its reader.
func formatOf(sc SourceConfig) (string, error) {
	f := strings.TrimPrefix(strings.ToLower(sc.Format), ".")
	if f == "" {
		u, _ := url.Parse(sc.URL)
		base := path.Base(u.Path)
		if i := strings.Index(base, "."); i >= 0 {
			f = strings.ToLower(base[i+1:])
		}
	}
	if !isDrop("x." + f) {
		return "", fmt.Errorf("format %q: set format to one of jsonl, ndjson, csv, tsv, xlsx (optionally with .gz) when the URL path does not end in one", f)
	}
	return f, nil
}

// urlCursor is what a completed run of a URL source leaves.
type urlCursor struct {
	ETag         string `json:"etag,omitempty"`
	LastModified string `json:"last_modified,omitempty"`
	SHA256       string `json:"sha256,omitempty"`
}

// partMeta describes a partial download: the URL and validator it
// belongs to.
type partMeta struct {
	URL          string `json:"url"`
	ETag         string `json:"etag,omitempty"`
	LastModified string `json:"last_modified,omitempty"`
}

func (m partMeta) ifRange() string {
	// A weak ETag cannot be used with If-Range (RFC 9110 13.1.5).
	if m.ETag != "" && !strings.HasPrefix(m.ETag, "W/") {
		return m.ETag
	}
	return m.LastModified
}

func (urlKind) Fetch(ctx context.Context, sc SourceConfig, env Env, cursor []byte) (*Fetch, error) {
	format, err := formatOf(sc)
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(env.DataDir, "refresh")
	if err := privatefs.MkdirAll(dir); err != nil {
		return nil, fmt.Errorf("refresh work directory: %w", err)
	}
	var prev urlCursor
	if cursor != nil {
		_ = json.Unmarshal(cursor, &prev)
	}
	d := &download{url: sc.URL, part: filepath.Join(dir, sc.Name+".part"), done: filepath.Join(dir, sc.Name+"."+format), prev: prev}
	meta, unchanged, err := d.run(ctx)
	if err != nil {
		return nil, err
	}
	if unchanged {
		return &Fetch{Cursor: cursor, Unchanged: true}, nil
	}
	sum, err := fileSHA256(d.done)
	if err != nil {
		return nil, err
	}
	cur, _ := json.Marshal(urlCursor{ETag: meta.ETag, LastModified: meta.LastModified, SHA256: sum})
	remove := func() { os.Remove(d.done) }
	if prev.SHA256 != "" && prev.SHA256 == sum {
		remove()
		return &Fetch{Cursor: cur, Unchanged: true}, nil
	}
	return &Fetch{Parts: []Part{openPart(d.done)}, Cursor: cur, Done: remove}, nil
}

type download struct {
	url, part, done string
	prev            urlCursor
}

func (d *download) metaPath() string { return d.part + ".json" }

func (d *download) readMeta() (partMeta, int64) {
	var m partMeta
	b, err := os.ReadFile(d.metaPath())
	if err != nil || json.Unmarshal(b, &m) != nil || m.URL != d.url || m.ifRange() == "" {
		return partMeta{}, 0
	}
	fi, err := os.Stat(d.part)
	if err != nil {
		return partMeta{}, 0
	}
	return m, fi.Size()
}

// run downloads the URL to d.done, resuming a partial download, and
// reports an unchanged resource (304) instead.
func (d *download) run(ctx context.Context) (partMeta, bool, error) {
	var lastErr error
	for attempt := 0; attempt < downloadAttempts; attempt++ {
		if attempt > 0 {
			select {
			case <-ctx.Done():
				return partMeta{}, false, ctx.Err()
			case <-time.After(time.Duration(attempt) * 500 * time.Millisecond):
			}
		}
		meta, unchanged, retry, err := d.attempt(ctx)
		if err == nil {
			return meta, unchanged, nil
		}
		if !retry || ctx.Err() != nil {
			return partMeta{}, false, err
		}
		lastErr = err
	}
	return partMeta{}, false, fmt.Errorf("download %s: gave up after %d attempts: %w", d.url, downloadAttempts, lastErr)
}

// attempt makes one request; retry reports an error worth resuming after
// (the connection dropped mid-body, a 5xx).
func (d *download) attempt(ctx context.Context) (meta partMeta, unchanged, retry bool, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, d.url, nil)
	if err != nil {
		return meta, false, false, fmt.Errorf("download %s: %w", d.url, err)
	}
	// Byte offsets must be of one representation: no transparent gzip.
	req.Header.Set("Accept-Encoding", "identity")
	have, offset := d.readMeta()
	if offset > 0 {
		req.Header.Set("Range", "bytes="+strconv.FormatInt(offset, 10)+"-")
		req.Header.Set("If-Range", have.ifRange())
	} else {
		if d.prev.ETag != "" {
			req.Header.Set("If-None-Match", d.prev.ETag)
		}
		if d.prev.LastModified != "" {
			req.Header.Set("If-Modified-Since", d.prev.LastModified)
		}
	}
	resp, err := Client.Do(req)
	if err != nil {
		return meta, false, true, fmt.Errorf("download %s: %w", d.url, err)
	}
	defer resp.Body.Close()
	meta = partMeta{URL: d.url, ETag: resp.Header.Get("ETag"), LastModified: resp.Header.Get("Last-Modified")}
	var f *os.File
	switch {
	case resp.StatusCode == http.StatusNotModified && offset == 0:
		os.Remove(d.part)
		os.Remove(d.metaPath())
		return meta, true, false, nil
	case resp.StatusCode == http.StatusPartialContent && offset > 0:
		start, ok := contentRangeStart(resp.Header.Get("Content-Range"))
		if !ok || start != offset {
			d.reset()
			return meta, false, true, fmt.Errorf("download %s: the server answered Range bytes=%d- with Content-Range %q: starting over",
				d.url, offset, resp.Header.Get("Content-Range"))
		}
		meta = have // the validator of the bytes already here
		if f, err = os.OpenFile(d.part, os.O_WRONLY|os.O_APPEND, 0o600); err != nil {
			return meta, false, false, fmt.Errorf("download %s: %w", d.url, err)
		}
	case resp.StatusCode == http.StatusOK:
		// A first download, or the resource changed since the partial one
		// (If-Range failed): start over.
		if f, err = os.OpenFile(d.part, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600); err != nil {
			return meta, false, false, fmt.Errorf("download %s: %w", d.url, err)
		}
		b, _ := json.Marshal(meta)
		if err := os.WriteFile(d.metaPath(), b, 0o600); err != nil {
			f.Close()
			return meta, false, false, fmt.Errorf("download %s: %w", d.url, err)
		}
	case resp.StatusCode == http.StatusRequestedRangeNotSatisfiable:
		d.reset()
		return meta, false, true, fmt.Errorf("download %s: range not satisfiable: starting over", d.url)
	default:
		d.reset()
		return meta, false, resp.StatusCode >= 500, fmt.Errorf("download %s: HTTP %d %s", d.url, resp.StatusCode, http.StatusText(resp.StatusCode))
	}
	_, cerr := io.Copy(f, resp.Body)
	serr := f.Sync()
	if err := errors.Join(cerr, serr, f.Close()); err != nil {
		// Kept for the next attempt (or the next run) to resume.
		return meta, false, true, fmt.Errorf("download %s: interrupted: %w", d.url, err)
	}
	if resp.ContentLength >= 0 && resp.StatusCode == http.StatusOK {
		if fi, err := os.Stat(d.part); err == nil && fi.Size() != resp.ContentLength {
			return meta, false, true, fmt.Errorf("download %s: got %d of %d bytes", d.url, fi.Size(), resp.ContentLength)
		}
	}
	if err := os.Rename(d.part, d.done); err != nil {
		return meta, false, false, fmt.Errorf("download %s: %w", d.url, err)
	}
	os.Remove(d.metaPath())
	return meta, false, false, nil
}

func (d *download) reset() {
	os.Remove(d.part)
	os.Remove(d.metaPath())
}

// contentRangeStart parses the first byte of "bytes START-END/TOTAL".
func contentRangeStart(h string) (int64, bool) {
	rest, ok := strings.CutPrefix(h, "bytes ")
	if !ok {
		return 0, false
	}
	start, _, ok := strings.Cut(rest, "-")
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(start, 10, 64)
	return n, err == nil
}

func fileSHA256(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("hash %s: %w", p, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
