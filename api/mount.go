package api

import (
	"net/http"
	"strings"
	"sync"

	"github.com/danielgtaylor/huma/v2"
	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/adaptor"
)

// mounts are net/http handlers served on the API's listener beside the
// Huma routes: the MCP tool server, the OAuth endpoints and the web app,
// which are built on net/http libraries and live in their own packages.
type mounts struct {
	mu   sync.RWMutex
	list []mount
}

type mount struct {
	prefix  string
	limit   int64
	handler fiber.Handler
}

// Mount serves h for every request whose path is prefix or, when prefix
// ends in "/", starts with it. Bodies are read up to bodyLimit bytes
// (jsonBodyLimit when 0). Streaming responses (server-sent events) flush
// through as they are written.
func (s *Server) Mount(prefix string, h http.Handler, bodyLimit int64) {
	if bodyLimit <= 0 {
		bodyLimit = jsonBodyLimit
	}
	s.mounts.mu.Lock()
	defer s.mounts.mu.Unlock()
	s.mounts.list = append(s.mounts.list, mount{prefix: prefix, limit: bodyLimit, handler: adaptor.HTTPHandler(h)})
}

// mounted returns the mount serving path.
func (s *Server) mounted(path string) (mount, bool) {
	s.mounts.mu.RLock()
	defer s.mounts.mu.RUnlock()
	for _, m := range s.mounts.list {
		if path == m.prefix || strings.HasSuffix(m.prefix, "/") && strings.HasPrefix(path, m.prefix) {
			return m, true
		}
	}
	return mount{}, false
}

func (s *Server) serveMounted(c *fiber.Ctx) error {
	if m, ok := s.mounted(c.Path()); ok {
		return m.handler(c)
	}
	return c.Next()
}

// OpenAPI is the API's OpenAPI document: the declarations the routes are
// served from, which the MCP tool server derives its input schemas from.
func (s *Server) OpenAPI() *huma.OpenAPI { return s.api.OpenAPI() }
