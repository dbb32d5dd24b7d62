package crawl

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"

	"github.com/openprospect/prospectd/record"
)

const english = `<!doctype html><html lang="en"><head><title>Acme Security — Home</title>
<meta name="description" content="Managed detection and response for mid-sized companies.">
<script>var tracking = "do not index me";</script><style>body{color:red}</style></head>
<body><nav><a href="/">Home</a></nav><h1>Security operations that never sleep</h1>
<p>Our analysts watch your network around the clock and respond to threats before they become incidents.</p>
<p>We protect hospitals, banks and manufacturers across the country with a team of experienced engineers.</p></body></html>`

func get(t *testing.T, eng interface {
	GetCompanies(context.Context, []string) ([]record.Company, error)
}, d string) record.Company {
	t.Helper()
	got, err := eng.GetCompanies(context.Background(), []string{d})
	if err != nil || len(got) != 1 {
		t.Fatalf("get %s: %v %v", d, got, err)
	}
	return got[0]
}

func TestRunUpdatesRecords(t *testing.T) {
	f := newFarm(t)
	f.site("ok.com", page(200, "text/html; charset=utf-8", english))
	f.site("old.com", redirect(http.StatusMovedPermanently, f.url("new.com", "/")))
	f.site("new.com", page(200, "text/html", "<p>The new brand of the old company, with plenty of words to read.</p>"))
	// chain.com → chain.com/a (same domain) → hop.com → final.com.
	f.site("chain.com", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			http.Redirect(w, r, "/a", http.StatusFound)
		case "/a":
			http.Redirect(w, r, f.url("hop.com", "/"), http.StatusMovedPermanently)
		default:
			http.NotFound(w, r)
		}
	}))
	f.site("hop.com", redirect(http.StatusTemporaryRedirect, f.url("www.final.com", "/welcome")))
	f.site("www.final.com", page(200, "text/html", "<p>final</p>"))
	// www redirect within the domain: the site answers 200.
	f.site("same.com", redirect(http.StatusMovedPermanently, f.url("www.same.com", "/")))
	f.site("www.same.com", page(200, "text/html", "<h1>Same company, www host</h1><p>Text on the www host of the same domain.</p>"))
	f.site("gone.com", page(http.StatusGone, "text/html", "<p>gone</p>"))
	f.site("missing.com", page(http.StatusNotFound, "text/html", "<p>missing</p>"))
	f.site("broken.com", page(http.StatusServiceUnavailable, "text/html", "<p>down</p>"))
	f.site("pdf.com", page(200, "application/pdf", "%PDF-1.4"))
	// back.com used to redirect to new.com and is listed among its
	// sources; it now answers itself.
	f.site("back.com", page(200, "text/html", "<p>Back on our own feet with our own website and our own words: we sell garden furniture, tools and plants to people who love their gardens.</p>"))

	back := company("back.com")
	nc := "new.com"
	back.RedirectDomain = &nc
	newCo := company("new.com")
	newCo.RedirectSources, newCo.RedirectCount = []string{"back.com", "other.com"}, 2
	final := company("final.com")
	eng, h := newIndex(t, company("ok.com"), company("old.com"), newCo, company("chain.com"), final, company("same.com"),
		company("gone.com"), company("missing.com"), company("broken.com"), company("pdf.com"), back)
	ctx := context.Background()
	before, err := eng.CompanyVectors(ctx, []string{"ok.com", "gone.com"})
	if err != nil {
		t.Fatal(err)
	}
	day := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	o := f.options()
	o.Now = func() time.Time { return day }
	targets := []string{"ok.com", "https://old.com/x", "new.com", "chain.com", "same.com", "gone.com", "missing.com",
		"broken.com", "pdf.com", "back.com", "notindexed.com", "not a domain", "ok.com"}
	st, err := Run(ctx, o, targets, eng)
	if err != nil {
		t.Fatal(err)
	}
	if st.Targets != 11 || st.Invalid != 1 || st.NotIndexed != 1 || st.Crawled != 10 || st.Sources != 2 || st.Redirects != 2 || st.TextRead != 4 || st.Reembedded != 4 {
		t.Errorf("stats %+v", st)
	}
	if f.hitsOf("notindexed.com") != 0 {
		t.Error("a domain without a record was fetched")
	}

	tests := []struct {
		domain   string
		code     int
		redirect string
		text     string // a fragment of the site text; "" = unchanged
		langs    []string
		errText  string
	}{
		{"ok.com", 200, "", "Our analysts watch your network", []string{"en"}, ""},
		{"old.com", 301, "new.com", "", []string{"de"}, ""},
		{"chain.com", 301, "final.com", "", []string{"de"}, ""},
		{"same.com", 200, "", "Text on the www host", []string{"en"}, ""},
		{"gone.com", 410, "", "", []string{"de"}, ""},
		{"missing.com", 404, "", "", []string{"de"}, ""},
		{"broken.com", 503, "", "", []string{"de"}, ""},
		{"pdf.com", 200, "", "", []string{"de"}, ReasonNotHTML},
		{"back.com", 200, "", "Back on our own feet", []string{"en"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.domain, func(t *testing.T) {
			c := get(t, eng, tc.domain)
			if c.HTTPStatus == nil || c.HTTPStatus.Code != tc.code || c.HTTPStatus.Reason != http.StatusText(tc.code) || c.HTTPStatus.RecordDate != "2026-11-25" {
				t.Errorf("status %+v, want %d", c.HTTPStatus, tc.code)
			}
			red := ""
			if c.RedirectDomain != nil {
				red = *c.RedirectDomain
			}
			if red != tc.redirect {
				t.Errorf("redirect_domain %q, want %q", red, tc.redirect)
			}
			if tc.text == "" && c.SiteText != "old site text of "+tc.domain || tc.text != "" && !strings.Contains(c.SiteText, tc.text) {
				t.Errorf("site text %q, want %q", c.SiteText, tc.text)
			}
			if !slices.Equal(c.Languages, tc.langs) {
				t.Errorf("languages %v, want %v", c.Languages, tc.langs)
			}
			if c.Crawl == nil || c.Crawl.At != "2026-11-25T10:00:00Z" || c.Crawl.Error != tc.errText {
				t.Errorf("crawl %+v, want error %q", c.Crawl, tc.errText)
			}
		})
	}
	ok := get(t, eng, "ok.com")
	for _, banned := range []string{"do not index me", "color:red"} {
		if strings.Contains(ok.SiteText, banned) {
			t.Errorf("script or style text %q in site text %q", banned, ok.SiteText)
		}
	}
	if !strings.HasPrefix(ok.SiteText, "Acme Security — Home\nManaged detection and response") {
		t.Errorf("site text does not start with title and description: %q", ok.SiteText)
	}
	after, err := eng.CompanyVectors(ctx, []string{"ok.com", "gone.com"})
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(after["ok.com"], before["ok.com"]) {
		t.Error("ok.com's text changed but its vector did not")
	}
	if !slices.Equal(after["gone.com"], before["gone.com"]) {
		t.Error("gone.com's text did not change but its vector did")
	}
	// The engine stores vectors at half precision: compare by cosine.
	if cos := dot(after["ok.com"], h.Embed(embeddingDoc(ok))); cos < 0.999 {
		t.Errorf("ok.com's vector is not the embedding of its new record (cosine %.4f)", cos)
	}
	// Redirect sources: old.com joined new.com's, back.com left them;
	// final.com gained chain.com.
	n := get(t, eng, "new.com")
	if !slices.Equal(n.RedirectSources, []string{"other.com", "old.com"}) || n.RedirectCount != 2 {
		t.Errorf("new.com sources %v count %d", n.RedirectSources, n.RedirectCount)
	}
	if fc := get(t, eng, "final.com"); !slices.Equal(fc.RedirectSources, []string{"chain.com"}) || fc.RedirectCount != 1 || fc.Crawl != nil {
		t.Errorf("final.com sources %v count %d crawl %+v", fc.RedirectSources, fc.RedirectCount, fc.Crawl)
	}
	// Phrase matching and discovery read the new text (the embedded
	// engine searches what was written).
	res, err := eng.SearchCompanies(ctx, searchPhrase("analysts watch your network"))
	if err != nil || len(res.Hits) != 1 || res.Hits[0].Company.Domain != "ok.com" {
		t.Errorf("phrase search: %+v %v", res, err)
	}

	if ok.Crawl.TextAt != ok.Crawl.At || !slices.Equal(ok.Crawl.Languages, []string{"en"}) {
		t.Errorf("ok.com crawl %+v", ok.Crawl)
	}
	if g := get(t, eng, "gone.com"); g.Crawl.TextAt != "" || g.Crawl.Languages != nil {
		t.Errorf("gone.com: no text was read, crawl %+v", g.Crawl)
	}

	// A second run changes nothing it need not: same text, same vectors.
	if _, err := Run(ctx, o, []string{"ok.com"}, eng); err != nil {
		t.Fatal(err)
	}
	again, _ := eng.CompanyVectors(ctx, []string{"ok.com"})
	if !slices.Equal(again["ok.com"], after["ok.com"]) {
		t.Error("a recrawl of unchanged text changed the vector")
	}
	// A later crawl that reads nothing keeps the text and when it was read.
	f.site("ok.com", page(http.StatusServiceUnavailable, "text/html", "down"))
	o.Now = func() time.Time { return day.AddDate(0, 0, 1) }
	if _, err := Run(ctx, o, []string{"ok.com"}, eng); err != nil {
		t.Fatal(err)
	}
	if c := get(t, eng, "ok.com"); c.HTTPStatus.Code != 503 || c.SiteText != ok.SiteText || c.Crawl.At != "2026-11-26T10:00:00Z" ||
		c.Crawl.TextAt != "2026-11-25T10:00:00Z" || !slices.Equal(c.Crawl.Languages, []string{"en"}) {
		t.Errorf("ok.com after a failed crawl: status %+v crawl %+v", c.HTTPStatus, c.Crawl)
	}
}

func TestRunFailures(t *testing.T) {
	f := newFarm(t)
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	f.site("slow.com", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	// slowbody.com answers at once and then trickles its body.
	f.site("slowbody.com", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<p>Starting"))
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	f.site("loop.com", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/"+fmt.Sprint(len(r.URL.Path)), http.StatusFound)
	}))
	eng, _ := newIndex(t, company("slow.com"), company("slowbody.com"), company("loop.com"), company("nowhere.com"))
	o := f.options()
	o.Timeout = 300 * time.Millisecond
	base := o.StartURLs
	o.StartURLs = func(d string) []string {
		if d == "nowhere.com" {
			return []string{"http://nowhere.com:1/"} // nothing listens on port 1
		}
		return base(d)
	}
	start := time.Now()
	st, err := Run(context.Background(), o, []string{"slow.com", "slowbody.com", "loop.com", "nowhere.com"}, eng)
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("slow sites held the crawl for %s", took)
	}
	if st.Failed != 2 || st.Crawled != 4 {
		t.Errorf("stats %+v", st)
	}
	for d, want := range map[string]string{"slow.com": ReasonTimeout, "slowbody.com": ReasonTimeout, "loop.com": ReasonRedirects} {
		c := get(t, eng, d)
		if c.Crawl == nil || c.Crawl.Error != want {
			t.Errorf("%s: crawl %+v, want %q", d, c.Crawl, want)
		}
	}
	if c := get(t, eng, "slow.com"); c.HTTPStatus != nil || c.SiteText != "old site text of slow.com" {
		t.Errorf("slow.com: a timeout changed status %+v or text %q", c.HTTPStatus, c.SiteText)
	}
	if c := get(t, eng, "slowbody.com"); c.HTTPStatus == nil || c.HTTPStatus.Code != 200 {
		t.Errorf("slowbody.com: status %+v", c.HTTPStatus)
	}
	if c := get(t, eng, "nowhere.com"); c.Crawl == nil || !strings.HasPrefix(c.Crawl.Error, "connect: ") {
		t.Errorf("nowhere.com: crawl %+v", c.Crawl)
	}
}

func TestRunHugeBody(t *testing.T) {
	f := newFarm(t)
	var mu sync.Mutex
	sent := 0
	f.site("huge.com", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		chunk := []byte(strings.Repeat("<p>lots of words about industrial pumps and valves</p>\n", 1000))
		for range 4000 { // ~220 MB
			n, err := w.Write(chunk)
			mu.Lock()
			sent += n
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}))
	f.site("onetoken.com", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<p>" + strings.Repeat("x", 8<<20))) // one 8 MB word
	}))
	eng, _ := newIndex(t, company("huge.com"), company("onetoken.com"))
	o := f.options()
	o.MaxBody = 1 << 20
	o.MaxText = 8 << 10
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	st, err := Run(context.Background(), o, []string{"huge.com", "onetoken.com"}, eng)
	if err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&m1)
	if alloc := m1.TotalAlloc - m0.TotalAlloc; alloc > 64<<20 {
		t.Errorf("crawling two huge pages allocated %d MB", alloc>>20)
	}
	mu.Lock()
	if sent > 64<<20 {
		t.Errorf("the crawler read %d MB of a page capped at 1 MB", sent>>20)
	}
	mu.Unlock()
	if st.Truncated != 2 || st.TextRead != 2 {
		t.Errorf("stats %+v", st)
	}
	if c := get(t, eng, "onetoken.com"); len(c.SiteText) > o.MaxText || !strings.HasPrefix(c.SiteText, "xxxx") {
		t.Errorf("onetoken.com text: %d bytes", len(c.SiteText))
	}
	c := get(t, eng, "huge.com")
	if len(c.SiteText) > o.MaxText || !strings.HasPrefix(c.SiteText, "lots of words about industrial pumps") {
		t.Errorf("huge.com text: %d bytes %.60q", len(c.SiteText), c.SiteText)
	}
}

func TestRunCharsets(t *testing.T) {
	french := "<html><body><p>Société générale de réparation navale à côté du port. Nous réparons les coques, les moteurs et les hélices des navires de commerce depuis trente ans.</p></body></html>"
	latin1, err := charmap.Windows1252.NewEncoder().String(french)
	if err != nil {
		t.Fatal(err)
	}
	jp := `<html><head><meta charset="Shift_JIS"><title>株式会社サンプル</title></head><body><p>私たちは東京の小さな会社です。お客様のために高品質なソフトウェアを開発しています。日本全国のお客様にサービスを提供しています。</p></body></html>`
	sjis, err := japanese.ShiftJIS.NewEncoder().String(jp)
	if err != nil {
		t.Fatal(err)
	}
	f := newFarm(t)
	f.site("latin.com", page(200, "text/html; charset=windows-1252", latin1))
	f.site("sjis.com", page(200, "text/html", sjis)) // only the meta tag says
	eng, _ := newIndex(t, company("latin.com"), company("sjis.com"))
	if _, err := Run(context.Background(), f.options(), []string{"latin.com", "sjis.com"}, eng); err != nil {
		t.Fatal(err)
	}
	for d, want := range map[string]struct {
		text string
		lang string
	}{
		"latin.com": {"Société générale de réparation navale à côté du port", "fr"},
		"sjis.com":  {"株式会社サンプル\n私たちは東京の小さな会社です。", "ja"},
	} {
		c := get(t, eng, d)
		if !strings.HasPrefix(c.SiteText, want.text) || !slices.Equal(c.Languages, []string{want.lang}) {
			t.Errorf("%s: text %q languages %v, want %q %s", d, c.SiteText, c.Languages, want.text, want.lang)
		}
	}
}

func TestRunRobots(t *testing.T) {
	f := newFarm(t)
	robots := func(txt string) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/robots.txt" {
				io.WriteString(w, txt)
				return
			}
			io.WriteString(w, "<p>a page we should not have read</p>")
		})
	}
	f.site("closed.com", robots("User-agent: *\nDisallow: /\n"))
	f.site("notus.com", robots("User-agent: prospectd-crawler\nDisallow: /\n\nUser-agent: *\nAllow: /\n"))
	f.site("others.com", robots("User-agent: otherbot\nDisallow: /\n"))
	f.site("error.com", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.Error(w, "oops", http.StatusInternalServerError)
			return
		}
		io.WriteString(w, "<p>a page we should not have read</p>")
	}))
	// A redirect to a host whose robots.txt closes it: the redirect is
	// known, the page is not read.
	f.site("moved.com", redirect(http.StatusMovedPermanently, f.url("closed.com", "/")))
	eng, _ := newIndex(t, company("closed.com"), company("notus.com"), company("others.com"), company("error.com"), company("moved.com"))
	st, err := Run(context.Background(), f.options(), []string{"closed.com", "notus.com", "others.com", "error.com", "moved.com"}, eng)
	if err != nil {
		t.Fatal(err)
	}
	if st.Disallowed != 3 {
		t.Errorf("stats %+v", st)
	}
	for d, want := range map[string]string{"closed.com": ReasonRobots, "notus.com": ReasonRobots, "error.com": ReasonRobots, "others.com": "", "moved.com": ReasonRobots} {
		c := get(t, eng, d)
		if c.Crawl == nil || c.Crawl.Error != want {
			t.Errorf("%s: crawl %+v, want %q", d, c.Crawl, want)
		}
		if read := strings.Contains(c.SiteText, "should not have read"); read != (want == "") {
			t.Errorf("%s: page read %v with robots error %q", d, read, want)
		}
	}
	if c := get(t, eng, "moved.com"); c.RedirectDomain == nil || *c.RedirectDomain != "closed.com" || c.HTTPStatus.Code != 301 {
		t.Errorf("moved.com: redirect %v status %+v", c.RedirectDomain, c.HTTPStatus)
	}
	if f.hitsOf("closed.com") != 1 { // robots.txt only, once for two sites
		t.Errorf("closed.com got %d requests, want 1 (robots.txt)", f.hitsOf("closed.com"))
	}
}

func TestRunRefusesPrivateAddresses(t *testing.T) {
	f := newFarm(t)
	f.site("intranet.com", page(200, "text/html", "<p>secret</p>"))
	f.site("public.com", redirect(http.StatusFound, "http://127.0.0.1:"+f.port+"/"))
	eng, _ := newIndex(t, company("intranet.com"), company("public.com"))
	o := f.options()
	o.AllowPrivate = false
	st, err := Run(context.Background(), o, []string{"intranet.com", "public.com"}, eng)
	if err != nil {
		t.Fatal(err)
	}
	if st.Refused != 2 || f.hitsOf("intranet.com")+f.hitsOf("public.com") != 0 {
		t.Errorf("stats %+v, hits %d", st, f.hitsOf("intranet.com")+f.hitsOf("public.com"))
	}
	for _, d := range []string{"intranet.com", "public.com"} {
		if c := get(t, eng, d); c.Crawl == nil || c.Crawl.Error != ReasonRefused || c.HTTPStatus != nil {
			t.Errorf("%s: crawl %+v status %+v", d, c.Crawl, c.HTTPStatus)
		}
	}
}

func TestRunPoliteness(t *testing.T) {
	f := newFarm(t)
	var mu sync.Mutex
	var active, most int
	var starts []time.Time
	f.site("shared.com", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		active++
		most = max(most, active)
		starts = append(starts, time.Now())
		mu.Unlock()
		time.Sleep(5 * time.Millisecond)
		mu.Lock()
		active--
		mu.Unlock()
		io.WriteString(w, "<p>shared</p>")
	}))
	var companies []record.Company
	var targets []string
	for i := range 6 {
		d := fmt.Sprintf("alias%d.com", i)
		f.site(d, redirect(http.StatusMovedPermanently, f.url("shared.com", "/")))
		companies = append(companies, company(d))
		targets = append(targets, d)
	}
	eng, _ := newIndex(t, append(companies, company("shared.com"))...)
	o := f.options()
	o.Delay = 40 * time.Millisecond
	o.Concurrency = 6
	if _, err := Run(context.Background(), o, targets, eng); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if most != 1 {
		t.Errorf("%d requests at once to one host", most)
	}
	if len(starts) != 7 { // robots.txt once, the home page for each alias
		t.Errorf("%d requests to shared.com, want 7", len(starts))
	}
	for i := 1; i < len(starts); i++ {
		if gap := starts[i].Sub(starts[i-1]); gap < 40*time.Millisecond {
			t.Errorf("requests %d and %d to one host %s apart, delay is 40ms", i-1, i, gap)
		}
	}
	if s := get(t, eng, "shared.com"); s.RedirectCount != 6 || len(s.RedirectSources) != 6 {
		t.Errorf("shared.com sources %v count %d", s.RedirectSources, s.RedirectCount)
	}
}

func TestRunFallsBackToHTTP(t *testing.T) {
	f := newFarm(t)
	f.site("plain.com", page(200, "text/html", "<p>Served over plain HTTP only, for this test of the fallback.</p>"))
	eng, _ := newIndex(t, company("plain.com"))
	o := f.options()
	// Port 1 refuses connections, like a site without HTTPS.
	o.StartURLs = func(d string) []string { return []string{"https://" + d + ":1/", f.url(d, "/")} }
	if _, err := Run(context.Background(), o, []string{"plain.com"}, eng); err != nil {
		t.Fatal(err)
	}
	if c := get(t, eng, "plain.com"); c.Crawl == nil || c.Crawl.Error != "" || c.Crawl.URL != f.url("plain.com", "/") {
		t.Errorf("crawl %+v", c.Crawl)
	}
}
