package embedded

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/openprospect/prospectd/record"
)

// TestDecodeStoredMatchesJSON fills every field of companies and contacts
// through reflection (odd strings, invalid UTF-8, extreme numbers, nil and
// empty slices and maps), stores them as json.Marshal does, and checks that
// decodeStored reads back what encoding/json reads back.
func TestDecodeStoredMatchesJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	check := func(v, a, b any) {
		t.Helper()
		js, err := json.Marshal(v)
		if err != nil {
			return // NaN or Inf: never stored
		}
		if err := json.Unmarshal(js, a); err != nil {
			t.Fatal(err)
		}
		if err := decodeStored(js, b); err != nil {
			t.Fatalf("decodeStored: %v\n%s", err, js)
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("decodeStored differs from encoding/json on\n%s\n%+v\n%+v", js, a, b)
		}
	}
	for range 10000 {
		var c record.Company
		fill(rng, reflect.ValueOf(&c).Elem(), 0)
		check(&c, &record.Company{}, &record.Company{})
		var p record.Contact
		fill(rng, reflect.ValueOf(&p).Elem(), 0)
		check(&p, &record.Contact{}, &record.Contact{})
	}
	check(&record.Company{}, &record.Company{}, &record.Company{})
	check(&record.Contact{}, &record.Contact{}, &record.Contact{})
}

// BenchmarkDecodeStored decodes the profiles of PROSPECT_PROFILE_BENCH_FILE
// (JSON lines of companies) with decodeStored and with encoding/json.
func BenchmarkDecodeStored(b *testing.B) {
	companies, _ := benchCompanies(b)
	var stored [][]byte
	for i := range companies {
		js, err := json.Marshal(&companies[i])
		if err != nil {
			b.Fatal(err)
		}
		stored = append(stored, js)
	}
	for _, dec := range []struct {
		name string
		fn   func([]byte, any) error
	}{{"goccy", decodeStored}, {"encoding-json", json.Unmarshal}} {
		b.Run(dec.name, func(b *testing.B) {
			n := 0
			for b.Loop() {
				var c record.Company
				if err := dec.fn(stored[n%len(stored)], &c); err != nil {
					b.Fatal(err)
				}
				n++
			}
		})
	}
}
