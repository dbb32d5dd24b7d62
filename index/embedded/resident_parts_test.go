package embedded

// residentParts are the engine's resident structures, in the order
// BenchmarkResidentBreakdown drops them to measure each.
var residentParts = []struct {
	name string
	drop func(*Engine)
}{
	{"domains", func(e *Engine) { e.domains = nil }},
	{"columns", func(e *Engine) { e.scores, e.starts = nil, nil }},
	{"sketch", func(e *Engine) { e.signs = nil }},
	{"vectors", func(e *Engine) { e.chunks = nil }},
	{"postings", func(e *Engine) { e.post = [numKeyword]keywordPostings{} }},
	{"exists", func(e *Engine) { e.exists = nil }},
	{"live", func(e *Engine) { e.live = nil }},
}
