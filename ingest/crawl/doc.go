// Package crawl fetches companies' home pages to keep what the index knows
// of their sites current: the HTTP status of the domain (code, reason,
// date), where it redirects (redirect_domain, and the target's list of
// redirect sources), the visible text of the home page (site_text, read by
// phrase matching and the embedder) and the languages of that text.
//
// Run is the one entry point: the `prospectd crawl` command, the `crawl`
// task kind (Task) and a scheduled refresh all call it with a list of
// domains and the index's writer roles. It is polite — robots.txt is
// honoured, one request at a time per host with a delay between requests
// (or the host's Crawl-delay, when longer), a global concurrency cap,
// timeouts and a body size cap — and safe: every connection goes through
// netguard, which refuses loopback, private and link-local addresses at
// connect time unless the operator allows them.
//
// Records are updated, never created: a domain that is not indexed is
// skipped. Each crawled record gets a record.Crawl (when, from which URL,
// and why nothing was read, if so), which is how GET /v1/extract tells a
// crawled site from one that never was.
package crawl
