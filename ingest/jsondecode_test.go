package ingest

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/openprospect/prospectd/record"
)

func TestDecodeJSONCompany(t *testing.T) {
	end := "2020-01-31"
	for _, tc := range []struct {
		name, in string
		want     record.Company
		err      string
	}{
		{name: "profile", in: `{"domain":"acme.com","name":"Acme","status":{"status":"closed","confidence":0.8},"score":300,
			"start_date":"2001-02-03","end_date":"2020-01-31","address":{"street":"1 Main St","city":"Austin","state":"TX","zip":"78701","country":"US"},
			"phones":["+15125550100"],"public_emails":["info@acme.com"],"social_urls":["https://x.com/acme"],"description":"Anvils",
			"keywords":{"anvils":0.9},"industry_groups":{"MANUFACTURING":0.8},"employees":"51-200","redirect_domain":null,
			"update_date":"2026-01-01","mx_provider":"google.com","revenue_range":"1-10M","business_models":["B2B"],
			"languages":["en"],"vendors":["stripe.com"],"subdomains":["www"],"site_text":"We make anvils."}`,
			want: record.Company{Domain: "acme.com", Name: "Acme", Status: record.Status{Status: "closed", Confidence: 0.8}, Score: 300,
				StartDate: "2001-02-03", EndDate: &end, Address: record.Address{Street: "1 Main St", City: "Austin", State: "TX", Zip: "78701", Country: "US"},
				Phones: []string{"+15125550100"}, PublicEmails: []string{"info@acme.com"}, SocialURLs: []string{"https://x.com/acme"},
				Description: "Anvils", Keywords: map[string]float64{"anvils": 0.9}, IndustryGroups: map[string]float64{"MANUFACTURING": 0.8},
				Employees: "51-200", UpdateDate: "2026-01-01", MXProvider: "google.com", RevenueRange: "1-10M", BusinessModels: []string{"B2B"},
				Languages: []string{"en"}, Vendors: []string{"stripe.com"}, Subdomains: []string{"www"}, SiteText: "We make anvils."}},
		{name: "loose shapes", in: `{"Website":"https://www.acme.com/x","Company Name":"Acme","status":"active","employees":250,"score":"300",
			"zip":78701,"country":"Germany","phones":[4930123456,null],"industry":["SAAS","software"],"keywords":"a; b","revenue":5e6,"unknown":{"x":[1,{"y":null}]}}`,
			want: record.Company{Domain: "https://www.acme.com/x", Name: "Acme", Status: record.Status{Status: "active"}, Employees: "250", Score: 300,
				Address: record.Address{Zip: "78701", Country: "Germany"}, Phones: []string{"4930123456"},
				IndustryGroups: map[string]float64{"SAAS": 1, "software": 0.9}, Keywords: map[string]float64{"a": 1, "b": 0.9}, RevenueRange: "5e6"}},
		{name: "escapes and unicode", in: `{"domain":"b\u00fccher.de","name":"B\u00fccher \"&\" S\u00f6hne\n","description":"\ud83d\ude00 \ud83d x \u00e9\\\/"}`,
			want: record.Company{Domain: "bücher.de", Name: "Bücher \"&\" Söhne\n", Description: "😀 \uFFFD x é\\/"}},
		{name: "invalid utf-8 becomes U+FFFD", in: "{\"domain\":\"a.com\",\"name\":\"caf\xe9\"}",
			want: record.Company{Domain: "a.com", Name: "caf\uFFFD"}},
		{name: "last key wins, address prefix keys", in: `{"domain":"a.com","domain":"b.com","address.city":"Paris","address":{"country":"FR","name":"ignored"}}`,
			want: record.Company{Domain: "b.com", Address: record.Address{City: "Paris", Country: "FR"}}},
		{name: "whitespace", in: " \t{ \"domain\" : \"a.com\" , \"phones\" : [ ] , \"end_date\" : null }\r\n",
			want: record.Company{Domain: "a.com"}},
		{name: "fractional score", in: `{"domain":"a.com","score":1.5}`, err: "score: 1.5 is not an integer"},
		{name: "huge score", in: `{"domain":"a.com","score":1e300}`, err: "score: 1e300 is outside 0-800"},
		{name: "list of objects", in: `{"domain":"a.com","phones":[{"n":1}]}`, err: "phones: want an array of strings, got an object"},
		{name: "boolean name", in: `{"domain":"a.com","name":true}`, err: "name: want a string or a number, got a boolean"},
		{name: "address string", in: `{"domain":"a.com","address":"1 Main St"}`, err: "address: want an object, got a string"},
		{name: "industry scores as text", in: `{"domain":"a.com","industry_groups":{"SAAS":"high"}}`, err: `industry_groups.SAAS: "high" is not a number`},
		{name: "not an object", in: `["a.com"]`, err: "malformed JSON at byte 1: a record must be a JSON object"},
		{name: "truncated", in: `{"domain": "broken`, err: "malformed JSON at byte 12: unterminated string"},
		{name: "trailing data", in: `{"domain":"a.com"} x`, err: "unexpected data after the object"},
		{name: "missing colon", in: `{"domain" "a.com"}`, err: "want ':'"},
		{name: "trailing comma", in: `{"domain":"a.com",}`, err: "want a quoted field name"},
		{name: "bad number", in: `{"domain":"a.com","x":01}`, err: "want ',' or '}'"},
		{name: "bad escape", in: `{"domain":"a\x"}`, err: `invalid escape`},
		{name: "control character", in: "{\"domain\":\"a\tb\"}", err: "control character"},
		{name: "deep nesting", in: `{"x":` + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + `}`, err: "nested deeper than 1000 levels"},
		{name: "type error inside malformed value", in: `{"domain":"a.com","phones":{"x":}}`, err: "malformed JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c record.Company
			err := decodeJSONCompany([]byte(tc.in), &c)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(c, tc.want) {
				t.Fatalf("decoded\n %+v\nwant\n %+v", c, tc.want)
			}
		})
	}
}

// FuzzJSONDecode checks the decoder against encoding/json: it refuses what
// encoding/json finds invalid, reports no syntax error on valid objects,
// and reads the same text for string fields.
func FuzzJSONDecode(f *testing.F) {
	for _, s := range []string{
		`{"domain":"acme.com","name":"Acme","status":{"status":"closed"},"phones":["+1"],"keywords":{"a":1}}`,
		`{"name":"\ud800\udc00\u0041\\\"","description":"\ud800x"}`, `{"domain":1e5,"x":[true,false,null,{}]}`,
		"{\"name\":\"\xff\xfe\"}", `{"a":-0.5e-3}`, `{}`, `[]`, `{"a":}`, `{"name":"x"}}`, `{"name":"\u12"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var c record.Company
		err := decodeJSONCompany(b, &c)
		var se *jsonSyntaxError
		isSyntax := errors.As(err, &se)
		var ref map[string]any
		refErr := json.Unmarshal(b, &ref)
		var refSyntax *json.SyntaxError
		if !json.Valid(b) {
			if err == nil {
				t.Fatalf("accepted invalid JSON %q", b)
			}
			return
		}
		if isSyntax && refErr == nil {
			t.Fatalf("syntax error %v on a valid object %q", err, b)
		}
		if errors.As(refErr, &refSyntax) {
			t.Fatalf("encoding/json: syntax error on valid input %q", b)
		}
		if err != nil || refErr != nil {
			return
		}
		// Keys match case-insensitively in both, and the last one wins
		// in both; compare plain string fields when only one key spells them.
		for key, got := range map[string]string{"name": c.Name, "description": c.Description, "site_text": c.SiteText} {
			var n int
			var want any
			for k, v := range ref {
				if strings.EqualFold(k, key) {
					n++
					want = v
				}
			}
			if s, ok := want.(string); ok && n == 1 && s != got {
				t.Fatalf("%s: got %q, encoding/json %q (input %q)", key, got, s, b)
			}
		}
	})
}

// The integer-array fast path reads what the general path reads, and
// leaves everything else to it.
func TestJSONPlainInts(t *testing.T) {
	for _, in := range []string{
		`[]`, `[ ]`, `[0]`, `[-0]`, `[1,2,3]`, `[ 455 , 472,481 ]`, `[-5,800]`, `[999999999]`, `[-999999999]`,
		`[1000000000]`, `[12345678901234567890]`, `[01]`, `[-01]`, `[1.5]`, `[2.0]`, `[1e3]`, `[1E3]`, `["3", 4]`, `[null, 2]`,
		`[1,]`, `[1 2]`, `[-]`, `[1`, `[true]`, `[[1]]`, `[1,{"a":1}]`, `["1;2"]`,
	} {
		line := `{"domain":"acme.com","growth":{"through":"2025-Q4","scores":` + in + `}}`
		var fast, slow record.Company
		errFast := decodeJSONCompany([]byte(line), &fast)
		var list []string
		d := jsonDecoder{b: []byte(in)}
		errSlow := d.list("growth.scores", &list)
		if errSlow == nil {
			var ints []int
			errSlow = parseInts("growth.scores", &ints, list)
			slow.Growth = &record.Growth{Through: "2025-Q4", Scores: ints}
			if errSlow == nil && d.i != len(in) {
				errSlow = errors.New("trailing")
			}
		}
		switch {
		case (errFast != nil) != (errSlow != nil):
			t.Errorf("%s: error %v, general path %v", in, errFast, errSlow)
		case errFast == nil && !reflect.DeepEqual(fast.Growth.Scores, slow.Growth.Scores):
			t.Errorf("%s: %v, general path %v", in, fast.Growth.Scores, slow.Growth.Scores)
		}
	}
}

func TestKnownField(t *testing.T) {
	for name, want := range fieldNames {
		if f, ok := knownField([]byte(name)); !ok || f != want {
			t.Errorf("knownField(%q) = %v, %v; fieldNames has %v", name, f, ok, want)
		}
	}
	for name := range fieldAliases {
		if f, ok := knownField([]byte(name)); ok {
			t.Errorf("knownField(%q) = %v for an alias", name, f)
		}
	}
	for _, name := range []string{"", "Domain", "domain ", "address.city", "x"} {
		if f, ok := knownField([]byte(name)); ok {
			t.Errorf("knownField(%q) = %v", name, f)
		}
	}
}

// stringStops finds the first quote, backslash or control character of
// eight bytes, whatever the other bytes are.
func TestStringStops(t *testing.T) {
	special := func(c byte) bool { return c == '"' || c == '\\' || c < 0x20 }
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte{0, 0x1f, ' ', '!', '"', '#', '[', '\\', ']', 'a', 0x7f, 0x80, 0x9f, 0xa0, 0xa2, 0xdc, 0xff}
	for range 200_000 {
		var w [8]byte
		for i := range w {
			if r.IntN(2) == 0 {
				w[i] = alphabet[r.IntN(len(alphabet))]
			} else {
				w[i] = byte(r.IntN(256))
			}
		}
		want := 8
		for i, c := range w {
			if special(c) {
				want = i
				break
			}
		}
		got := 8
		if m := stringStops(binary.LittleEndian.Uint64(w[:])); m != 0 {
			got = bits.TrailingZeros64(m) >> 3
		}
		if got != want {
			t.Fatalf("stringStops(% x): first stop %d, want %d", w, got, want)
		}
	}
}

// plainFloat reads what strconv.ParseFloat reads, or leaves the number
// to it.
func TestPlainFloat(t *testing.T) {
	check := func(s string) {
		f, ok := plainFloat([]byte(s))
		if !ok {
			return
		}
		want, err := strconv.ParseFloat(s, 64)
		if err != nil || math.Float64bits(f) != math.Float64bits(want) {
			t.Fatalf("plainFloat(%q) = %v, ParseFloat %v, %v", s, f, want, err)
		}
	}
	for _, s := range []string{"0", "-0", "0.0", "-0.0", "1", "0.87", "0.1", "0.3", "-12.5", "999999999999999",
		"99999999999999.9", "0.000000000000001", "123456789012345", "1e5", "1234567890123456"} {
		check(s)
	}
	if _, ok := plainFloat([]byte("1234567890123456")); ok {
		t.Error("plainFloat took 16 digits")
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 500_000 {
		n := 1 + r.IntN(15)
		b := make([]byte, 0, n+2)
		if r.IntN(4) == 0 {
			b = append(b, '-')
		}
		for range n {
			b = append(b, byte('0'+r.IntN(10)))
		}
		if p := r.IntN(n + 1); p < n {
			b = append(b[:p+1], b[p:]...)
			b[p] = '.'
			if p == 0 || b[p-1] == '-' {
				continue
			}
		}
		check(string(b))
	}
}

// scanString's fast paths for short and long strings give what
// scanStringSlow, which reads any string byte by byte past its first
// stop, gives: the same bytes, plainness, error and position.
func TestScanStringFast(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	pieces := []string{"a", "Z", " ", "\"", "\\", "\\\"", "\\n", "\\u00e9", "\\ud83d", "\\x", "\t", "\x00", "\x1f", "\x7f",
		"é", "—", "😀", "\xff", "\xe2\x80", "\xc3", "0123456789abcdef"}
	for range 300_000 {
		var sb strings.Builder
		sb.WriteByte('"')
		n := r.IntN(40)
		if r.IntN(4) == 0 {
			n += r.IntN(200)
		}
		for range n {
			if r.IntN(3) == 0 {
				sb.WriteString(pieces[r.IntN(len(pieces))])
			} else {
				sb.WriteByte(byte('a' + r.IntN(26)))
			}
		}
		if r.IntN(8) != 0 {
			sb.WriteByte('"')
		}
		if r.IntN(2) == 0 {
			sb.WriteString(`,"x":1}`)
		}
		line := []byte(sb.String())
		fast, slow := jsonDecoder{b: line}, jsonDecoder{b: line}
		raw, plain, err := fast.scanString()
		rawS, plainS, errS := slow.scanStringSlow()
		if string(raw) != string(rawS) || plain != plainS || fmt.Sprint(err) != fmt.Sprint(errS) || fast.i != slow.i {
			t.Fatalf("%q: scanString %q %v %v at %d, scanStringSlow %q %v %v at %d",
				line, raw, plain, err, fast.i, rawS, plainS, errS, slow.i)
		}
	}
}

// TestDecodeMatchesEncodingJSON decodes records that set every field of
// record.Company, through reflection, so a field added to the record is
// covered without changing this test: the decoder must read the JSON
// encoding/json writes as encoding/json reads it.
func TestDecodeMatchesEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	texts := []string{"acme.com", "Acme <Tools> & Co", `quote " backslash \ /`, "tab\tline\n\u0001",
		"caf\u00e9 \u4e2d\u6587 \U0001F600", "sep \u2028", "x", "2025-07-24"}
	var fill func(v reflect.Value)
	fill = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.String:
			v.SetString(texts[rng.IntN(len(texts))] + strconv.Itoa(rng.IntN(100)))
		case reflect.Int:
			v.SetInt(int64(rng.IntN(2_000_000) - 1_000_000))
		case reflect.Float64:
			v.SetFloat([]float64{0, 1, 0.5, 0.87, 1e-7, 0.1 + 0.2, 123.456, -2}[rng.IntN(8)])
		case reflect.Pointer:
			v.Set(reflect.New(v.Type().Elem()))
			fill(v.Elem())
		case reflect.Slice:
			n := 1 + rng.IntN(4)
			v.Set(reflect.MakeSlice(v.Type(), n, n))
			for i := range v.Len() {
				fill(v.Index(i))
			}
		case reflect.Map:
			v.Set(reflect.MakeMap(v.Type()))
			for range 1 + rng.IntN(5) {
				k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
				fill(k)
				fill(e)
				v.SetMapIndex(k, e)
			}
		case reflect.Struct:
			for i := range v.NumField() {
				fill(v.Field(i))
			}
		case reflect.Bool:
			v.SetBool(rng.IntN(2) == 0)
		default:
			t.Fatalf("record.Company has a %s field: teach fill about it", v.Type())
		}
	}
	for range 2000 {
		var in record.Company
		fill(reflect.ValueOf(&in).Elem())
		line, err := json.Marshal(&in)
		if err != nil {
			t.Fatal(err)
		}
		var got, want record.Company
		if err := json.Unmarshal(line, &want); err != nil {
			t.Fatal(err)
		}
		if err := decodeJSONCompany(line, &got); err != nil {
			t.Fatalf("%v\n%s", err, line)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("decoded\n%+v\nencoding/json\n%+v\nfrom %s", got, want, line)
		}
	}
}

// TestDecodeOtherFields takes redirect_count out of fieldNames, as if it
// were a field added to record.Company without a case in this decoder: it
// is then decoded by the library, and a wrong value is reported.
func TestDecodeOtherFields(t *testing.T) {
	savedOther, savedField := otherFields, fieldNames["redirect_count"]
	t.Cleanup(func() { otherFields, fieldNames["redirect_count"] = savedOther, savedField })
	delete(fieldNames, "redirect_count")
	otherFields = map[string]bool{"redirect_count": true}
	tests := []struct {
		line    string
		want    int
		wantErr string
	}{
		// "Redirect-Count" is not the exact name knownField's switch
		// still knows, so the lookup goes through fieldNames.
		{line: `{"domain":"a.com","Redirect-Count":7,"zz":[{"}":1}],"name":"A"}`, want: 7},
		{line: `{"domain":"a.com","Redirect-Count":"x"}`, wantErr: "decode record fields"},
		{line: `{"domain":"a.com","Redirect-Count":[}`, wantErr: "malformed JSON"},
	}
	for _, tc := range tests {
		var c record.Company
		err := decodeJSONCompany([]byte(tc.line), &c)
		switch {
		case tc.wantErr != "":
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: error %v, want %q", tc.line, err, tc.wantErr)
			}
		case err != nil:
			t.Errorf("%s: %v", tc.line, err)
		case c.RedirectCount != tc.want || c.Domain != "a.com" || c.Name != "A":
			t.Errorf("%s: decoded %+v", tc.line, c)
		}
	}
}
