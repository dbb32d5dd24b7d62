package ingest

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/embedded"
	"github.com/openprospect/prospectd/index/embedding"
	"github.com/openprospect/prospectd/record"
)

// corpusJSONL returns n synthetic companies as JSON lines.
func corpusJSONL(t testing.TB, n int) string {
	var b bytes.Buffer
	newSynthCorpus(9).writeJSONL(t, &b, n)
	return b.String()
}

func readRejects(t *testing.T, b *bytes.Buffer) [][]string {
	t.Helper()
	rows, err := csv.NewReader(b).ReadAll()
	if err != nil {
		t.Fatalf("rejects file is not CSV: %v", err)
	}
	if len(rows) == 0 || strings.Join(rows[0], ",") != "row,domain,reason" {
		t.Fatalf("rejects file without its header: %v", rows)
	}
	return rows[1:]
}

// TestLoaderEndToEnd loads into the embedded engine: rejects with their
// rows, the later row of a domain wins, the fitted embedder is stored and
// ranks by meaning, and a second load reuses it.
func TestLoaderEndToEnd(t *testing.T) {
	ctx := context.Background()
	eng, err := embedded.Open(t.TempDir(), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	var b strings.Builder
	topics := []string{"endpoint security firewall malware", "savings mortgage lending bank", "tractor harvest crop farm"}
	for i := range 300 {
		fmt.Fprintf(&b, `{"domain":"co%d.com","name":"Co %d","description":"We build %s products","address":{"country":"US"}}`+"\n", i, i, topics[i%3])
	}
	b.WriteString(`{"domain":"bad domain"}` + "\n")                                                                    // row 301
	b.WriteString(`{"domain":"co1.com","name":"Co One Renamed","description":"savings mortgage lending bank"}` + "\n") // row 302
	b.WriteString(`{"domain":"co2.com","address":{"country":"Narnia"}}` + "\n")                                        // row 303
	var rejects bytes.Buffer
	var mu sync.Mutex
	var calls int
	l := &Loader{Engine: eng, Rejects: &rejects, BatchSize: 7, MinFit: 100, Progress: func(Stats) { mu.Lock(); calls++; mu.Unlock() }}
	st, err := l.Load(ctx, NewJSONL(strings.NewReader(b.String())))
	if err != nil {
		t.Fatal(err)
	}
	if st != (Stats{Read: 303, Indexed: 302, Rejected: 1, Dropped: 1}) {
		t.Fatalf("stats %+v", st)
	}
	rej := readRejects(t, &rejects)
	if len(rej) != 2 || rej[0][0] != "301" || rej[0][1] != "bad domain" || !strings.HasPrefix(rej[0][2], "domain: invalid domain") ||
		rej[1][0] != "303" || rej[1][1] != "co2.com" || !strings.HasPrefix(rej[1][2], `dropped country: "Narnia"`) {
		t.Fatalf("rejects %q", rej)
	}
	if calls == 0 {
		t.Fatal("no progress reported")
	}
	if n, _ := eng.CountCompanies(ctx, nil); n != 300 {
		t.Fatalf("%d companies indexed, want 300 (the duplicate replaces)", n)
	}
	got, _ := eng.GetCompanies(ctx, []string{"co1.com"})
	if len(got) != 1 || got[0].Name != "Co One Renamed" {
		t.Fatalf("the later row of a domain must win: %+v", got)
	}
	emb, err := embedding.Open(ctx, eng)
	if err != nil {
		t.Fatal(err)
	}
	res, err := eng.SearchCompanies(ctx, index.Search{Vector: emb.EmbedText("firewall and malware"), Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range res.Hits {
		if !strings.Contains(h.Company.Description, "security") {
			t.Fatalf("query about security returned %s: %q", h.Company.Domain, h.Company.Description)
		}
	}
	// A second load reuses the stored embedder.
	if _, err := (&Loader{Engine: eng}).Load(ctx, NewJSONL(strings.NewReader(`{"domain":"late.com","description":"crop harvest"}`+"\n"))); err != nil {
		t.Fatal(err)
	}
	if m, _ := eng.Meta(ctx); m.EmbedderID != emb.ID() {
		t.Fatalf("embedder replaced by a second load")
	}
}

// TestLoaderLastRowWins spreads rows of the same domains over a file, with
// small batches, many workers and concurrent writes: every domain must end
// with its last row, and a domain must never be in two writes at once.
func TestLoaderLastRowWins(t *testing.T) {
	const rows, domains = 3000, 97
	var b strings.Builder
	last := map[string]int{}
	for i := 1; i <= rows; i++ {
		d := fmt.Sprintf("d%d.com", (i*7919)%domains)
		fmt.Fprintf(&b, `{"domain":"https://www.%s/","name":"row %d","description":"word%d common text"}`+"\n", d, i, i%13)
		last[d] = i
	}
	eng := newMemEngine()
	var mu sync.Mutex
	inWrite := map[string]bool{}
	eng.hook = func(_ context.Context, docs []index.CompanyDoc) {
		mu.Lock()
		for _, d := range docs {
			if inWrite[d.Company.Domain] {
				t.Errorf("%s is in two writes at once", d.Company.Domain)
			}
			inWrite[d.Company.Domain] = true
		}
		mu.Unlock()
		time.Sleep(time.Millisecond) // let writes overlap
		mu.Lock()
		for _, d := range docs {
			delete(inWrite, d.Company.Domain)
		}
		mu.Unlock()
	}
	l := &Loader{Engine: eng, BatchSize: 16, Workers: 4, FitSample: 50}
	st, err := l.Load(context.Background(), NewJSONL(strings.NewReader(b.String())))
	if err != nil {
		t.Fatal(err)
	}
	if st != (Stats{Read: rows, Indexed: rows}) {
		t.Fatalf("stats %+v", st)
	}
	for d, row := range last {
		if got := eng.docs[d].Company.Name; got != fmt.Sprintf("row %d", row) {
			t.Errorf("%s holds %q, want row %d", d, got, row)
		}
	}
	if eng.maxActive < 2 {
		t.Errorf("writes never overlapped (max %d at once)", eng.maxActive)
	}
}

func TestLoaderRejectsInRowOrder(t *testing.T) {
	in := corpusJSONL(t, 40) + "{broken\n" + `{"domain":"x.com","score":9000}` + "\n" + `{"domain":"refused.com"}` + "\n" + corpusJSONL(t, 5)
	eng := newMemEngine()
	eng.refuse = map[string]string{"refused.com": "mapping conflict"}
	var rejects bytes.Buffer
	st, err := (&Loader{Engine: eng, Rejects: &rejects, FitSample: 20, BatchSize: 8}).Load(context.Background(), NewJSONL(strings.NewReader(in)))
	if err != nil {
		t.Fatal(err)
	}
	if st != (Stats{Read: 48, Indexed: 46, Rejected: 2, Dropped: 1}) {
		t.Fatalf("stats %+v", st)
	}
	want := [][]string{
		{"41", "", "malformed JSON at byte 2: want a quoted field name"},
		{"42", "x.com", "dropped score: 9000 is outside 0-800 (record kept)"},
		{"43", "refused.com", "mapping conflict"},
	}
	if got := readRejects(t, &rejects); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("rejects\n%q\nwant\n%q", got, want)
	}
}

func TestLoaderEngineFailure(t *testing.T) {
	eng := newMemEngine()
	eng.failAfter = 2
	st, err := (&Loader{Engine: eng, FitSample: 30, BatchSize: 10, Workers: 1}).Load(context.Background(), NewJSONL(strings.NewReader(corpusJSONL(t, 100))))
	if !errors.Is(err, errEngineDown) || !strings.Contains(err.Error(), "write rows 21-30") {
		t.Fatalf("err %v", err)
	}
	if st.Indexed != 20 || len(eng.docs) != 20 {
		t.Fatalf("stats %+v, engine holds %d", st, len(eng.docs))
	}
	// Running the load again once the engine is back completes it.
	eng.failAfter = 0
	st, err = (&Loader{Engine: eng}).Load(context.Background(), NewJSONL(strings.NewReader(corpusJSONL(t, 100))))
	if err != nil || st.Indexed != 100 || len(eng.docs) != 100 {
		t.Fatalf("rerun: %+v %v, engine holds %d", st, err, len(eng.docs))
	}
}

func TestLoaderCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	eng := newMemEngine()
	var once sync.Once
	eng.hook = func(context.Context, []index.CompanyDoc) { once.Do(cancel) }
	done := make(chan struct{})
	var st Stats
	var err error
	go func() {
		defer close(done)
		st, err = (&Loader{Engine: eng, FitSample: 20, BatchSize: 10}).Load(ctx, NewJSONL(strings.NewReader(corpusJSONL(t, 3000))))
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("Load did not return after its context was cancelled")
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	if st.Indexed >= 3000 || st.Indexed != len(eng.docs) {
		t.Fatalf("stats %+v, engine holds %d", st, len(eng.docs))
	}
}

// failingSource yields rows, then fails.
type failingSource struct {
	rows []record.Company
	i    int
}

var errDiskGone = errors.New("disk gone")

func (s *failingSource) Next() (record.Company, int, error) {
	if s.i == len(s.rows) {
		return record.Company{}, s.i, errDiskGone
	}
	s.i++
	return s.rows[s.i-1], s.i, nil
}

func (s *failingSource) Close() error { return nil }

func TestLoaderReadError(t *testing.T) {
	corpus := newSynthCorpus(4)
	src := &failingSource{}
	for i := range 50 {
		src.rows = append(src.rows, corpus.company(i))
	}
	eng := newMemEngine()
	st, err := (&Loader{Engine: eng, FitSample: 20}).Load(context.Background(), src)
	if !errors.Is(err, errDiskGone) {
		t.Fatalf("err %v", err)
	}
	if st != (Stats{Read: 50, Indexed: 50}) || len(eng.docs) != 50 {
		t.Fatalf("the rows read before the failure must be written: %+v, engine holds %d", st, len(eng.docs))
	}
}

func TestLoaderEmbedders(t *testing.T) {
	ctx := context.Background()
	var docs []embedding.Doc
	corpus := newSynthCorpus(5)
	for i := range 200 {
		docs = append(docs, embedding.DocOf(corpus.company(i)))
	}
	m1, err := embedding.Fit(docs[:100], embedding.Options{Dim: 32})
	if err != nil {
		t.Fatal(err)
	}
	m2, err := embedding.Fit(docs[100:], embedding.Options{Dim: 32})
	if err != nil {
		t.Fatal(err)
	}
	in := corpusJSONL(t, 30)

	t.Run("given embedder is stored with a new index", func(t *testing.T) {
		eng := newMemEngine()
		if _, err := (&Loader{Engine: eng, Embedder: m1}).Load(ctx, NewJSONL(strings.NewReader(in))); err != nil {
			t.Fatal(err)
		}
		got, err := embedding.Open(ctx, eng)
		if err != nil || got.ID() != m1.ID() {
			t.Fatalf("OpenEmbedder = %v, %v", got, err)
		}
		if v := eng.docs[newSynthCorpus(9).company(0).Domain].Vector; len(v) != 32 {
			t.Fatalf("vector of %d dimensions", len(v))
		}
	})
	t.Run("given embedder must match the index", func(t *testing.T) {
		eng := newMemEngine()
		eng.SetMeta(ctx, metaOf(m1))
		_, err := (&Loader{Engine: eng, Embedder: m2}).Load(ctx, NewJSONL(strings.NewReader(in)))
		if !errors.Is(err, ErrEmbedderMismatch) || !strings.Contains(err.Error(), "index was built with embedder "+m1.ID()) {
			t.Fatalf("err %v", err)
		}
		if len(eng.docs) != 0 {
			t.Fatal("wrote with a mismatched embedder")
		}
	})
	t.Run("new index", func(t *testing.T) {
		_, err := embedding.Open(ctx, newMemEngine())
		if !errors.Is(err, index.ErrNotFound) {
			t.Fatalf("err %v", err)
		}
	})
	for name, meta := range map[string]index.Meta{
		"corrupt model":            {EmbedderID: m1.ID(), Dimension: 32, Model: []byte("garbage")},
		"model without bytes":      {EmbedderID: "openai-3-small", Dimension: 1536},
		"metadata of another fit":  {EmbedderID: m2.ID(), Dimension: 32, Model: metaOf(m1).Model},
		"dimension does not match": {EmbedderID: m1.ID(), Dimension: 64, Model: metaOf(m1).Model},
	} {
		t.Run(name, func(t *testing.T) {
			eng := newMemEngine()
			eng.SetMeta(ctx, meta)
			if _, err := embedding.Open(ctx, eng); !errors.Is(err, ErrEmbedderMismatch) || !strings.Contains(err.Error(), "re-index") {
				t.Fatalf("OpenEmbedder: %v", err)
			}
			if _, err := (&Loader{Engine: eng}).Load(ctx, NewJSONL(strings.NewReader(in))); !errors.Is(err, ErrEmbedderMismatch) {
				t.Fatalf("Load: %v", err)
			}
		})
	}
	// A first load too small to fit on, or whose records share no terms,
	// gets the hashing embedder: stored with the index, and kept by the
	// next load (no mixed vectors).
	noShared := strings.Builder{}
	for i := range 12 {
		fmt.Fprintf(&noShared, `{"domain":"a%d.com","description":"word%c"}`+"\n", i, 'a'+i)
	}
	for _, tc := range []struct {
		name, in string
		minFit   int
	}{
		{"one record", `{"domain":"a.com","description":"one"}` + "\n", 0},
		{"below MinFit", corpusJSONL(t, 30), 0},
		{"records sharing no terms", noShared.String(), 5},
	} {
		t.Run("hashing: "+tc.name, func(t *testing.T) {
			eng := newMemEngine()
			st, err := (&Loader{Engine: eng, MinFit: tc.minFit}).Load(ctx, NewJSONL(strings.NewReader(tc.in)))
			if err != nil || st.Indexed == 0 {
				t.Fatalf("load: %+v %v", st, err)
			}
			emb, err := embedding.Open(ctx, eng)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := emb.(*embedding.Hashing); !ok || !strings.HasPrefix(emb.ID(), "hashing-v1-256-") {
				t.Fatalf("embedder %s (%T), want the hashing embedder", emb.ID(), emb)
			}
			// A later, larger load keeps the stored embedder.
			if _, err := (&Loader{Engine: eng, FitSample: 20}).Load(ctx, NewJSONL(strings.NewReader(corpusJSONL(t, 100)))); err != nil {
				t.Fatal(err)
			}
			if eng.meta.EmbedderID != emb.ID() {
				t.Errorf("second load replaced the embedder: %s, want %s", eng.meta.EmbedderID, emb.ID())
			}
		})
	}
	// FitOptions reach the first fit: label directions (the corpus has
	// industry labels) give another model than the default options.
	t.Run("fit options", func(t *testing.T) {
		in := corpusJSONL(t, 150)
		ids := map[int]string{}
		for _, labels := range []int{0, 8} {
			eng := newMemEngine()
			l := &Loader{Engine: eng, MinFit: 100, FitOptions: embedding.Options{Dim: 32, LabelDims: labels}}
			if _, err := l.Load(ctx, NewJSONL(strings.NewReader(in))); err != nil {
				t.Fatal(err)
			}
			emb, err := embedding.Open(ctx, eng)
			if err != nil {
				t.Fatal(err)
			}
			if emb.Dim() != 32 {
				t.Fatalf("label dims %d: embedder %s of %d dimensions, want the fitted 32-dimension model", labels, emb.ID(), emb.Dim())
			}
			ids[labels] = emb.ID()
		}
		if ids[0] == ids[8] {
			t.Fatalf("label directions did not change the fitted model %s", ids[0])
		}
	})
	t.Run("nothing valid to load", func(t *testing.T) {
		eng := newMemEngine()
		st, err := (&Loader{Engine: eng}).Load(ctx, NewJSONL(strings.NewReader(`{"domain":"bad domain"}`+"\n")))
		if err != nil || st != (Stats{Read: 1, Rejected: 1}) || eng.meta != nil {
			t.Fatalf("%+v %v", st, err)
		}
	})
}

func TestLoaderProgress(t *testing.T) {
	eng := newMemEngine()
	eng.hook = func(context.Context, []index.CompanyDoc) { time.Sleep(15 * time.Millisecond) }
	var mu sync.Mutex
	var calls []Stats
	progress := func(s Stats) {
		if !mu.TryLock() {
			t.Error("Progress called concurrently")
			return
		}
		defer mu.Unlock()
		calls = append(calls, s)
	}
	st, err := (&Loader{Engine: eng, FitSample: 50, BatchSize: 20, Progress: progress}).Load(context.Background(), NewJSONL(strings.NewReader(corpusJSONL(t, 400))))
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) < 2 || calls[len(calls)-1] != st {
		t.Fatalf("progress calls %v, final stats %+v", calls, st)
	}
	for i := 1; i < len(calls); i++ {
		if calls[i].Read < calls[i-1].Read || calls[i].Indexed < calls[i-1].Indexed {
			t.Fatalf("progress went backwards: %v", calls)
		}
	}
}

// failingWriter fails after n bytes.
type failingWriter struct{ n int }

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.n -= len(p); w.n < 0 {
		return 0, io.ErrShortWrite
	}
	return len(p), nil
}

func TestLoaderRejectsWriteFailure(t *testing.T) {
	var b strings.Builder
	b.WriteString(corpusJSONL(t, 30))
	for range 5000 {
		b.WriteString(`{"domain":"bad domain with a long reason to fill the buffer"}` + "\n")
	}
	_, err := (&Loader{Engine: newMemEngine(), FitSample: 20, Rejects: &failingWriter{n: 1000}}).Load(context.Background(), NewJSONL(strings.NewReader(b.String())))
	if !errors.Is(err, io.ErrShortWrite) || !strings.Contains(err.Error(), "write rejects") {
		t.Fatalf("err %v", err)
	}
}

func TestLoaderCSVSource(t *testing.T) {
	in := "domain,name,country,state,phones,industry,employees\n" +
		"acme.com,Acme,US,CA,(201) 555-0123,SaaS;Software,250\n" +
		"beta.io,Beta,Germany,Bavaria,+49 89 1234567,Consulting,10\n" +
		"bad,Bad,US,,,,\n"
	for range 20 {
		in += "filler.com,Filler,US,,,,\n"
	}
	var docs []embedding.Doc
	corpus := newSynthCorpus(6)
	for i := range 100 {
		docs = append(docs, embedding.DocOf(corpus.company(i)))
	}
	m, err := embedding.Fit(docs, embedding.Options{Dim: 16})
	if err != nil {
		t.Fatal(err)
	}
	src, err := NewCSV(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	eng := newMemEngine()
	var rejects bytes.Buffer
	st, err := (&Loader{Engine: eng, Rejects: &rejects, Embedder: m}).Load(context.Background(), src)
	if err != nil {
		t.Fatal(err)
	}
	if st != (Stats{Read: 23, Indexed: 22, Rejected: 1}) {
		t.Fatalf("stats %+v", st)
	}
	acme := eng.docs["acme.com"].Company
	if acme.Address.State != "US-CA" || acme.Phones[0] != "+12015550123" || acme.Employees != "201-500" || acme.IndustryGroups["SAAS"] != 1 {
		t.Fatalf("acme %+v", acme)
	}
	if beta := eng.docs["beta.io"].Company; beta.Address != (record.Address{Country: "DE", State: "DE-BY"}) || beta.Phones[0] != "+49891234567" {
		t.Fatalf("beta %+v", beta)
	}
	if rej := readRejects(t, &rejects); len(rej) != 1 || rej[0][0] != "3" || rej[0][1] != "bad" {
		t.Fatalf("rejects %q", rej)
	}
}

// countingEmbedder counts the documents it embeds.
type countingEmbedder struct {
	embedding.Embedder
	n atomic.Int64
}

func (c *countingEmbedder) Embed(d embedding.Doc) []float32 {
	c.n.Add(1)
	return c.Embedder.Embed(d)
}

func TestLoaderScreen(t *testing.T) {
	ctx := context.Background()
	const n = 600 // several chunks
	row := func(i int, desc string) string {
		return fmt.Sprintf(`{"domain":"d%d.com","name":"company %d","description":%q}`+"\n", i, i, desc)
	}
	var first, second strings.Builder
	for i := range n {
		first.WriteString(row(i, fmt.Sprintf("makes widgets of kind %d", i%7)))
	}
	for i := range n {
		desc := fmt.Sprintf("makes widgets of kind %d", i%7)
		if i < 50 {
			desc = "now sells gadgets"
		}
		second.WriteString(row(i, desc))
	}
	// A later row of d10 equal to what the index holds must still win over
	// the changed row before it; d100's changed row after its unchanged
	// one is written as any changed row.
	second.WriteString(row(10, "makes widgets of kind 3"))
	second.WriteString(row(100, "now sells gadgets"))

	var docs []embedding.Doc
	corpus := newSynthCorpus(5)
	for i := range 200 {
		docs = append(docs, embedding.DocOf(corpus.company(i)))
	}
	m, err := embedding.Fit(docs, embedding.Options{Dim: 32})
	if err != nil {
		t.Fatal(err)
	}
	eng := newMemEngine()
	if _, err := (&Loader{Engine: eng, Embedder: m}).Load(ctx, NewJSONL(strings.NewReader(first.String()))); err != nil {
		t.Fatal(err)
	}
	stored := map[string]string{}
	for d, doc := range eng.docs {
		stored[d] = doc.Company.Description
	}
	emb := &countingEmbedder{Embedder: m}
	var screened atomic.Int64
	l := &Loader{Engine: eng, Embedder: emb, Workers: 4, Screen: func(_ context.Context, cs []*record.Company) ([]bool, error) {
		write := make([]bool, len(cs))
		for i, c := range cs {
			write[i] = c.Description != stored[c.Domain]
		}
		screened.Add(int64(len(cs)))
		return write, nil
	}}
	st, err := l.Load(ctx, NewJSONL(strings.NewReader(second.String())))
	if err != nil {
		t.Fatal(err)
	}
	if want := (Stats{Read: n + 2, Indexed: 52, Skipped: 550}); st != want {
		t.Fatalf("stats %+v, want %+v", st, want)
	}
	if screened.Load() != n+2 {
		t.Errorf("screen saw %d rows, want %d", screened.Load(), n+2)
	}
	// 50 changed rows, d100's changed row, and d10's last row, embedded
	// when it turned out to be needed.
	if got := emb.n.Load(); got != 52 {
		t.Errorf("embedded %d rows, want 52: skipped rows must not be embedded", got)
	}
	for d, want := range map[string]string{"d10.com": "makes widgets of kind 3", "d100.com": "now sells gadgets", "d20.com": "now sells gadgets", "d300.com": "makes widgets of kind 6"} {
		if got := eng.docs[d].Company.Description; got != want {
			t.Errorf("%s holds %q, want %q", d, got, want)
		}
	}

	t.Run("a failing screen fails the load", func(t *testing.T) {
		boom := errors.New("index unavailable")
		l := &Loader{Engine: eng, Embedder: m, Screen: func(context.Context, []*record.Company) ([]bool, error) { return nil, boom }}
		if _, err := l.Load(ctx, NewJSONL(strings.NewReader(second.String()))); !errors.Is(err, boom) {
			t.Fatalf("err %v, want %v", err, boom)
		}
	})
}
