package embedded

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"reflect"
	"testing"

	"github.com/openprospect/prospectd/internal/randfill"
	"github.com/openprospect/prospectd/record"
)

// checkProfile asserts that marshalProfile writes what json.Marshal writes
// and that it reads back, through json.Unmarshal, as json.Marshal's output
// does.
func checkProfile(t *testing.T, c *record.Company) {
	t.Helper()
	want, wantErr := json.Marshal(c)
	got, err := marshalProfile([]byte("prefix"), c)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("error %v, encoding/json %v", err, wantErr)
	}
	if err != nil {
		return
	}
	if !bytes.HasPrefix(got, []byte("prefix")) {
		t.Fatalf("dst not kept: %q", got)
	}
	got = got[len("prefix"):]
	if !bytes.Equal(got, want) {
		t.Fatalf("encoded\n%s\nencoding/json\n%s", got, want)
	}
	var a, b record.Company
	if err := json.Unmarshal(got, &a); err != nil {
		t.Fatalf("unmarshal: %v\n%s", err, got)
	}
	if err := json.Unmarshal(want, &b); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("round trip differs:\n%+v\n%+v", a, b)
	}
}

// fill sets every field of v from rng (randfill.Fill), so a field added
// to record.Company is exercised too.
func fill(rng *rand.Rand, v reflect.Value, _ int) { randfill.Fill(rng, v) }

// profileStrings are the hard strings of randfill.
var profileStrings = randfill.Strings

func TestProfileEncoderMatchesJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for range 20000 {
		var c record.Company
		fill(rng, reflect.ValueOf(&c).Elem(), 0)
		checkProfile(t, &c)
	}
	checkProfile(t, &record.Company{})
}

func FuzzProfileEncoder(f *testing.F) {
	f.Add("acme.com", "Acme <&>", "caf\u00e9 \xff", "k\u2028", 0.87, 12, true)
	f.Add("", "", "", "", 1e-7, -1, false)
	f.Fuzz(func(t *testing.T, domain, name, text, key string, score float64, n int, ptrs bool) {
		c := record.Company{
			Domain: domain, Name: name, Description: text, SiteText: text, Score: n,
			Status:   record.Status{Status: key, Confidence: score},
			Address:  record.Address{City: name, Country: key},
			Phones:   []string{text, key},
			Keywords: map[string]float64{key: score, text: 1, name: -score},
			Vendors:  []string{domain},
		}
		if ptrs {
			c.EndDate, c.RedirectDomain = &text, &key
			c.HTTPStatus = &record.HTTPStatus{Code: n, Reason: text}
			c.Growth = &record.Growth{Through: record.Quarter(key), Scores: []int{n, 1}}
			c.RedirectSources, c.RedirectCount = []string{name}, n
		}
		checkProfile(t, &c)
	})
}

// benchCompanies reads the companies of a JSON lines file named by
// PROSPECT_PROFILE_BENCH_FILE (such as a demo corpus written by
// `prospectd demo --out`); it skips the benchmark when the variable is
// unset. size is the file's bytes per company.
func benchCompanies(b *testing.B) (companies []record.Company, size int) {
	b.Helper()
	path := os.Getenv("PROSPECT_PROFILE_BENCH_FILE")
	if path == "" {
		b.Skip("PROSPECT_PROFILE_BENCH_FILE is not set")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	for line := range bytes.Lines(data) {
		var c record.Company
		if err := json.Unmarshal(line, &c); err != nil {
			b.Fatal(err)
		}
		companies = append(companies, c)
	}
	if len(companies) == 0 {
		b.Fatalf("%s holds no companies", path)
	}
	return companies, len(data) / len(companies)
}

// TestProfileFileMatchesJSON checks the profiles of the companies of
// PROSPECT_PROFILE_BENCH_FILE (such as the 1M demo corpus) against
// encoding/json.
func TestProfileFileMatchesJSON(t *testing.T) {
	path := os.Getenv("PROSPECT_PROFILE_BENCH_FILE")
	if path == "" {
		t.Skip("PROSPECT_PROFILE_BENCH_FILE is not set")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for line := range bytes.Lines(data) {
		var c record.Company
		if err := json.Unmarshal(line, &c); err != nil {
			t.Fatal(err)
		}
		checkProfile(t, &c)
	}
}

// BenchmarkMarshalProfile encodes the companies of
// PROSPECT_PROFILE_BENCH_FILE.
func BenchmarkMarshalProfile(b *testing.B) {
	companies, size := benchCompanies(b)
	var buf []byte
	var err error
	n := 0
	for b.Loop() {
		buf, err = marshalProfile(buf[:0], &companies[n%len(companies)])
		if err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.SetBytes(int64(size))
}

// BenchmarkEntry builds and encodes the entries of the companies of
// PROSPECT_PROFILE_BENCH_FILE, with random unit vectors, as
// UpsertCompanies does.
func BenchmarkEntry(b *testing.B) {
	companies, _ := benchCompanies(b)
	r := rand.New(rand.NewPCG(1, 2))
	vecs := make([][]float32, 1024)
	for i := range vecs {
		vecs[i] = make([]float32, benchDim)
		for j := range vecs[i] {
			vecs[i][j] = float32(r.NormFloat64())
		}
		normalize(vecs[i])
	}
	var buf []byte
	n := 0
	for b.Loop() {
		e := newEntry(&companies[n%len(companies)], vecs[n%len(vecs)])
		buf = e.marshal(buf[:0])
		n++
	}
}
