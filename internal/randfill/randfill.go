// Package randfill fills Go values with random contents that are hard on
// JSON encoders (HTML characters, control characters, invalid UTF-8, line
// separators, extreme and non-finite floats), for tests that hold a fast
// encoder or decoder to encoding/json's behaviour on every field of a type,
// fields added later included.
package randfill

import (
	"math"
	"math/rand/v2"
	"reflect"
)

// Strings are the string values Fill picks from.
var Strings = []string{
	"", "acme.com", "Acme <Tools> & Co", "quote \" backslash \\ slash /", "tab\tnew\nline\r\u0001\u001f\u007f",
	"\b\f", "caf\u00e9 M\u00fcnchen \u4e2d\u6587", "bad \xff\xfe utf8", "sep \u2028 \u2029", "emoji \U0001F600", "\x80", "a\xe2\x80",
}

// Floats are the float values Fill picks from (NaN and infinities one time
// in eight at most: encoding/json refuses them).
var Floats = []float64{0, 1, -1, 0.5, 0.87, 1e-7, 1e-6, 123456789, 1e20, 1e21, 1e300, 5e-324, -0.0, 0.1 + 0.2, math.NaN(), math.Inf(1)}

// Fill sets every exported field of v from rng, through reflection:
// strings and floats from Strings and Floats, ints among edge values,
// pointers, slices and maps nil, empty or filled. Other kinds keep their
// zero value.
func Fill(rng *rand.Rand, v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(Strings[rng.IntN(len(Strings))])
	case reflect.Int:
		v.SetInt([]int64{0, 1, -5, 800, math.MaxInt64, math.MinInt64}[rng.IntN(6)])
	case reflect.Float64:
		f := Floats[rng.IntN(len(Floats))]
		if rng.IntN(8) != 0 && (math.IsNaN(f) || math.IsInf(f, 0)) {
			f = rng.Float64()
		}
		v.SetFloat(f)
	case reflect.Pointer:
		if rng.IntN(3) == 0 {
			return
		}
		p := reflect.New(v.Type().Elem())
		Fill(rng, p.Elem())
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
			Fill(rng, s.Index(i))
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
			Fill(rng, k)
			Fill(rng, e)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				Fill(rng, v.Field(i))
			}
		}
	}
}
