package research

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/net/html"

	"github.com/openprospect/prospectd/record"
)

// recordContext is what the model is told about one record.
type recordContext struct {
	Domain   string // the company's domain (the record key, or a contact's employer)
	Name     string // company or person name
	Profile  string // JSON or text block
	Homepage string
	// FetchHomepage asks for the homepage text, fetched when the record
	// runs (so a long task starts calling the model at once).
	FetchHomepage bool
}

// maxHomepage bounds the homepage text sent per record (runes).
const maxHomepage = 6000

// contexts builds the context of each key according to the mode.
func (p *Pipeline) contexts(ctx context.Context, t Task, keys []string) (map[string]recordContext, error) {
	out := make(map[string]recordContext, len(keys))
	switch t.Kind {
	case KindPersonas:
		return p.personaContexts(ctx, t, keys)
	}
	var companies map[string]record.Company
	if t.ContextMode != ModeDomain && p.Engine != nil {
		var err error
		if companies, err = p.companies(ctx, keys); err != nil {
			return nil, err
		}
	}
	for _, k := range keys {
		rc := recordContext{Domain: k, Name: k, FetchHomepage: t.ContextMode == ModeWebsite}
		if c, ok := companies[k]; ok {
			rc.Name = c.Name
			b, _ := json.Marshal(record.ProfileOf(c))
			rc.Profile = string(b)
		}
		out[k] = rc
	}
	return out, ctx.Err()
}

func (p *Pipeline) companies(ctx context.Context, domains []string) (map[string]record.Company, error) {
	out := map[string]record.Company{}
	for i := 0; i < len(domains); i += 1000 {
		cs, err := p.Engine.GetCompanies(ctx, domains[i:min(i+1000, len(domains))])
		if err != nil {
			return nil, fmt.Errorf("load profiles: %w", err)
		}
		for _, c := range cs {
			out[c.Domain] = c
		}
	}
	return out, nil
}

func (p *Pipeline) personaContexts(ctx context.Context, t Task, keys []string) (map[string]recordContext, error) {
	out := make(map[string]recordContext, len(keys))
	if p.Contacts == nil {
		return nil, fmt.Errorf("this engine has no contact index")
	}
	ids := make([]int64, 0, len(keys))
	for _, k := range keys {
		id, err := strconv.ParseInt(k, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("persona id %q: %w", k, err)
		}
		ids = append(ids, id)
	}
	contacts, err := p.Contacts.GetContacts(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("load contacts: %w", err)
	}
	byID := map[string]record.Contact{}
	var domains []string
	for _, c := range contacts {
		byID[strconv.FormatInt(c.PersonaID, 10)] = c
		domains = append(domains, c.Domain)
	}
	var companies map[string]record.Company
	if (t.ContextMode == ModeFull || t.ContextMode == ModeCompany) && p.Engine != nil {
		if companies, err = p.companies(ctx, domains); err != nil {
			return nil, err
		}
	}
	for _, k := range keys {
		c, ok := byID[k]
		rc := recordContext{Name: "persona " + k}
		if ok {
			rc.Domain, rc.Name = c.Domain, c.Name
			switch t.ContextMode {
			case ModeNameOnly:
				linkedin := ""
				for _, u := range c.SocialURLs {
					if strings.Contains(u, "linkedin.com") {
						linkedin = u
					}
				}
				rc.Profile = "Name: " + c.Name + "\nLinkedIn: " + linkedin
			case ModeProfileSummary:
				rc.Profile = fmt.Sprintf("%s, %s (%s, %s) at %s (%s)", c.Name, c.Title, c.Department, c.Seniority, c.CompanyName, c.Domain)
			default:
				b, _ := json.Marshal(c)
				rc.Profile = string(b)
			}
			if co, ok := companies[c.Domain]; ok {
				b, _ := json.Marshal(record.ProfileOf(co))
				rc.Profile += "\nEmployer profile: " + string(b)
			}
			rc.FetchHomepage = t.ContextMode == ModeFull && c.Domain != ""
		}
		out[k] = rc
	}
	return out, nil
}

// pageCache keeps fetched homepage text for a while, so tasks over the
// same domains (and ICP then research) fetch each homepage once.
type pageCache struct {
	mu      sync.Mutex
	entries map[string]pageEntry
}

type pageEntry struct {
	text string
	at   time.Time
}

const (
	pageTTL      = 24 * time.Hour
	pageCacheMax = 20000
)

func (c *pageCache) get(d string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[d]
	if !ok || time.Since(e.at) > pageTTL {
		return "", false
	}
	return e.text, true
}

func (c *pageCache) put(d, text string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil {
		c.entries = map[string]pageEntry{}
	}
	if len(c.entries) >= pageCacheMax {
		// Drop the expired, then an arbitrary half: a bounded cache, not
		// an exact LRU.
		n := 0
		for k, e := range c.entries {
			if time.Since(e.at) > pageTTL || n%2 == 0 {
				delete(c.entries, k)
			}
			n++
		}
	}
	c.entries[d] = pageEntry{text, time.Now()}
}

// homepage returns the visible text of a domain's homepage, fetched
// through the SSRF-guarded client; "" when it cannot be fetched (the
// record is then grounded in its profile).
func (p *Pipeline) homepage(ctx context.Context, domain string) string {
	p.mu.Lock()
	if p.pages == nil {
		p.pages = &pageCache{}
	}
	cache := p.pages
	p.mu.Unlock()
	if text, ok := cache.get(domain); ok {
		return text
	}
	u := "https://" + domain + "/"
	if p.HomepageURL != nil {
		u = p.HomepageURL(domain)
	}
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return ""
	}
	req.Header.Set("User-Agent", "prospectd-research/1.0")
	req.Header.Set("Accept", "text/html")
	resp, err := p.Integrations.HTTP().Do(req)
	if err != nil {
		p.Log.Debug().Str("domain", domain).Err(err).Msg("homepage fetch failed")
		return ""
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 || !strings.Contains(resp.Header.Get("Content-Type"), "html") {
		cache.put(domain, "")
		return ""
	}
	text := trimText(visibleText(io.LimitReader(resp.Body, 2<<20)), maxHomepage)
	cache.put(domain, text)
	return text
}

// visibleText extracts the text of an HTML page, without scripts and
// styles, whitespace collapsed.
func visibleText(r io.Reader) string {
	z := html.NewTokenizer(r)
	var b strings.Builder
	skip := 0
	for {
		switch z.Next() {
		case html.ErrorToken:
			return strings.Join(strings.Fields(b.String()), " ")
		case html.StartTagToken:
			name, _ := z.TagName()
			switch string(name) {
			case "script", "style", "noscript", "svg", "template":
				skip++
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			switch string(name) {
			case "script", "style", "noscript", "svg", "template":
				if skip > 0 {
					skip--
				}
			}
		case html.TextToken:
			if skip == 0 {
				b.Write(z.Text())
				b.WriteByte(' ')
			}
		}
	}
}
