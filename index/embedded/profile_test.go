package embedded

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"testing"

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

var profileStrings = []string{
	"", "acme.com", "Acme <Tools> & Co", "quote \" backslash \\ slash /", "tab\tnew\nline\r\u0001\u001f\u007f",
	"\b\f", "caf\u00e9 M\u00fcnchen \u4e2d\u6587", "bad \xff\xfe utf8", "sep \u2028 \u2029", "emoji \U0001F600", "\x80", "a\xe2\x80",
}

var profileFloats = []float64{0, 1, -1, 0.5, 0.87, 1e-7, 1e-6, 123456789, 1e20, 1e21, 1e300, 5e-324, -0.0, 0.1 + 0.2, math.NaN(), math.Inf(1)}

// fill sets every field of v from rng, through reflection, so a field added
// to record.Company is exercised too.
func fill(rng *rand.Rand, v reflect.Value, depth int) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(profileStrings[rng.IntN(len(profileStrings))])
	case reflect.Int:
		v.SetInt([]int64{0, 1, -5, 800, math.MaxInt64, math.MinInt64}[rng.IntN(6)])
	case reflect.Float64:
		f := profileFloats[rng.IntN(len(profileFloats))]
		if rng.IntN(8) != 0 && (math.IsNaN(f) || math.IsInf(f, 0)) {
			f = rng.Float64()
		}
		v.SetFloat(f)
	case reflect.Pointer:
		if rng.IntN(3) == 0 {
			return
		}
		p := reflect.New(v.Type().Elem())
		fill(rng, p.Elem(), depth+1)
		v.Set(p)
	case reflect.Slice:
		switch rng.IntN(4) {
		case 0:
			return // nil
		case 1:
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
			return
		}
		s := reflect.MakeSlice(v.Type(), 1+rng.IntN(4), 5)
		for i := range s.Len() {
			fill(rng, s.Index(i), depth+1)
		}
		v.Set(s)
	case reflect.Map:
		switch rng.IntN(4) {
		case 0:
			return
		case 1:
			v.Set(reflect.MakeMap(v.Type()))
			return
		}
		m := reflect.MakeMap(v.Type())
		for range 1 + rng.IntN(20) {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(rng, k, depth+1)
			fill(rng, e, depth+1)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(rng, v.Field(i), depth+1)
			}
		}
	}
}

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
