// Command mcpauthproxy forwards to a tool server, adding a bearer token to
// every request: the MCP conformance suite (scripts/mcp-conformance.sh)
// sends no credentials, and the tool server requires one.
package main

import (
	"flag"
	"log"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:0", "address to listen on")
	target := flag.String("target", "", "the server's origin, e.g. http://127.0.0.1:8080")
	flag.Parse()
	token := os.Getenv("MCP_BEARER_TOKEN")
	u, err := url.Parse(*target)
	if err != nil || u.Host == "" || token == "" {
		log.Fatal("usage: MCP_BEARER_TOKEN=... mcpauthproxy --target http://HOST:PORT [--listen ADDR]")
	}
	p := httputil.NewSingleHostReverseProxy(u)
	p.FlushInterval = -1 // stream server-sent events as they come
	inner := p.Director
	p.Director = func(r *http.Request) {
		inner(r)
		r.Header.Set("Authorization", "Bearer "+token)
		r.Host = u.Host
	}
	log.Fatal(http.ListenAndServe(*listen, p))
}
