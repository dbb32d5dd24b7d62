// Package embedfake is a loopback server answering exactly like the
// OpenAI embeddings API (POST /embeddings, float or base64 encoding,
// usage, error bodies), scripted by tests: rate limits with Retry-After,
// server errors, wrong dimensions, delays. Its vectors are feature
// hashes of the input's words, so texts sharing words are near each
// other, and the same text always gets the same vector.
package embedfake

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"hash/fnv"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
)

// Reply scripts the answer to one request; the zero Reply embeds.
type Reply struct {
	Status     int    // an error status (429, 500, ...)
	RetryAfter string // Retry-After header of an error
	Dim        int    // answer vectors of this length instead
}

// Server is the fake. Set its fields before the first request.
type Server struct {
	*httptest.Server
	Key   string // the only key accepted; empty accepts any
	Dim   int    // vector length when the request sets no "dimensions"
	Delay time.Duration
	// Script answers request number call (from 1); nil embeds every time.
	Script func(call int) Reply

	calls  atomic.Int64
	inputs atomic.Int64
	mu     sync.Mutex
	models []string
	auth   []string
}

// Start starts a fake on 127.0.0.1 serving vectors of dim values.
func Start(key string, dim int) *Server {
	s := &Server{Key: key, Dim: dim}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// Calls is the number of embedding requests received.
func (s *Server) Calls() int64 { return s.calls.Load() }

// Inputs is the number of texts embedded.
func (s *Server) Inputs() int64 { return s.inputs.Load() }

// Models are the model names of the requests, in order.
func (s *Server) Models() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.models...)
}

// Authorizations are the Authorization headers received, in order.
func (s *Server) Authorizations() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.auth...)
}

func apiError(w http.ResponseWriter, status int, typ, code, msg string) {
	writeJSON(w, status, map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": code}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/embeddings") {
		apiError(w, 404, "invalid_request_error", "unknown_url", "Unknown request URL: "+r.Method+" "+r.URL.Path)
		return
	}
	call := int(s.calls.Add(1))
	s.mu.Lock()
	s.auth = append(s.auth, r.Header.Get("Authorization"))
	s.mu.Unlock()
	if s.Key != "" && r.Header.Get("Authorization") != "Bearer "+s.Key {
		apiError(w, 401, "invalid_request_error", "invalid_api_key", "Incorrect API key provided.")
		return
	}
	var req struct {
		Input          json.RawMessage `json:"input"`
		Model          string          `json:"model"`
		EncodingFormat string          `json:"encoding_format"`
		Dimensions     int             `json:"dimensions"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		apiError(w, 400, "invalid_request_error", "", "We could not parse the JSON body of your request.")
		return
	}
	var inputs []string
	var one string
	if err := json.Unmarshal(req.Input, &one); err == nil {
		inputs = []string{one}
	} else if err := json.Unmarshal(req.Input, &inputs); err != nil {
		apiError(w, 400, "invalid_request_error", "", "'input' must be a string or an array of strings.")
		return
	}
	if req.Model == "" {
		apiError(w, 400, "invalid_request_error", "", "you must provide a model parameter")
		return
	}
	if len(inputs) == 0 || len(inputs) > 2048 {
		apiError(w, 400, "invalid_request_error", "", "'input' must hold 1 to 2048 entries.")
		return
	}
	for _, in := range inputs {
		if in == "" {
			apiError(w, 400, "invalid_request_error", "", "'$.input' is invalid: empty string.")
			return
		}
	}
	s.mu.Lock()
	s.models = append(s.models, req.Model)
	s.mu.Unlock()
	if s.Delay > 0 {
		time.Sleep(s.Delay)
	}
	var rep Reply
	if s.Script != nil {
		rep = s.Script(call)
	}
	if rep.Status != 0 && rep.Status != 200 {
		if rep.RetryAfter != "" {
			w.Header().Set("Retry-After", rep.RetryAfter)
		}
		if rep.Status == 429 {
			apiError(w, 429, "requests", "rate_limit_exceeded", "Rate limit reached for requests.")
		} else {
			apiError(w, rep.Status, "server_error", "", "The server had an error while processing your request.")
		}
		return
	}
	dim := s.Dim
	if req.Dimensions > 0 {
		dim = req.Dimensions
	}
	if rep.Dim > 0 {
		dim = rep.Dim
	}
	s.inputs.Add(int64(len(inputs)))
	data := make([]map[string]any, len(inputs))
	tokens := 0
	for i, in := range inputs {
		v, n := Vector(in, dim)
		tokens += n
		var emb any = v
		if req.EncodingFormat == "base64" {
			b := make([]byte, 4*len(v))
			for k, x := range v {
				binary.LittleEndian.PutUint32(b[4*k:], math.Float32bits(float32(x)))
			}
			emb = base64.StdEncoding.EncodeToString(b)
		}
		data[i] = map[string]any{"object": "embedding", "index": i, "embedding": emb}
	}
	writeJSON(w, 200, map[string]any{"object": "list", "data": data, "model": req.Model,
		"usage": map[string]any{"prompt_tokens": tokens, "total_tokens": tokens}})
}

// Vector is the fake's embedding of text (unit length) and its word
// count, for tests that check what a client received.
func Vector(text string, dim int) ([]float64, int) {
	v := make([]float64, dim)
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for _, w := range words {
		h := fnv.New64a()
		h.Write([]byte(w))
		x := h.Sum64()
		sign := 1.0
		if x>>63 != 0 {
			sign = -1
		}
		v[int(x%uint64(dim))] += sign
	}
	var sq float64
	for _, x := range v {
		sq += x * x
	}
	if sq == 0 {
		v[0], sq = 1, 1
	}
	for i := range v {
		v[i] /= math.Sqrt(sq)
	}
	return v, len(words)
}
