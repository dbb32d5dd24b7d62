package ingest

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	gojson "github.com/goccy/go-json"

	"github.com/openprospect/prospectd/record"
)

// The JSONL reader decodes records with this purpose-built decoder rather
// than encoding/json: it fills record.Company in one pass, accepts the
// looser shapes exported files use (a status as a bare string, numbers for
// employees or zip codes, lists as "a;b" strings, industry lists without
// scores), matches keys like CSV headers (case, aliases), and names the
// field in type errors. It measured about three times faster than
// encoding/json into a struct with json.RawMessage fields. Semantics follow
// encoding/json where both apply: invalid UTF-8 and lone surrogates become
// U+FFFD, a repeated key's last value wins, unknown keys are skipped.

// maxJSONDepth bounds nesting inside skipped values, so a line of
// brackets cannot exhaust the stack.
const maxJSONDepth = 1000

// jsonSyntaxError is a line that is not valid JSON.
type jsonSyntaxError struct {
	off int
	msg string
}

func (e *jsonSyntaxError) Error() string {
	return fmt.Sprintf("malformed JSON at byte %d: %s", e.off+1, e.msg)
}

type jsonDecoder struct {
	b []byte
	i int
	// dropped, when set, receives the reason of each field whose value is
	// well-formed JSON of the wrong type or form; the field is left out
	// and decoding goes on (a lenient load). nil: such a value is the
	// record's error.
	dropped *[]string
	buf     []byte // unescaping scratch

	// Scratch for list elements and score entries, so that each list or
	// map is allocated once at its final size rather than grown.
	strs []string
	nums []float64
	used int // the most of strs this record filled, for release to clear

	// listed is the record's lists, one after another: one allocation for
	// most records rather than one per list. listHint is how many strings
	// the previous record's lists had, so that a record like it fills a
	// single allocation; decoders of one CSV cell start at 0, an exact
	// size.
	listed          []string
	listN, listHint int
	// ints, intsN and intsHint are the same for the growth histories,
	// which plainInts reads into the scratch intBuf.
	ints            []int
	intsN, intsHint int
	intBuf          []int

	// lineCopy is a copy of the line that the record's strings are made
	// over: the line itself is the reader's buffer and changes with the
	// next one. Copying it whole takes one allocation per record and no
	// zeroing, and a string without escapes is then a slice of it, not a
	// copy; an unescaped string is written over its own escaped form in
	// lineCopy, which is never longer (see unescape). Bytes under a string
	// handed out are never written again, so a new copy is made per
	// record, since the record's strings keep it alive.
	lineCopy []byte

	// others collects the members naming a field of record.Company that
	// this decoder has no case for (a field added to the record), as
	// `"name":value,` pairs for setOthers.
	others []byte
}

// otherFields are the JSON names of record.Company's fields that
// fieldNames does not list: such a field is decoded by goccy/go-json, as
// encoding/json would, so adding a field to the record needs no change
// here (TestDecodeMatchesEncodingJSON checks every field).
var otherFields = func() map[string]bool {
	m := map[string]bool{}
	t := reflect.TypeFor[record.Company]()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if _, known := fieldNames[name]; !known && name != "" && name != "-" {
			m[name] = true
		}
	}
	return m
}()

// other passes over the value of an unknown key, keeping it for setOthers
// when the key names a record field the decoder has no case for.
func (d *jsonDecoder) other(raw []byte, plain bool) error {
	if len(otherFields) == 0 {
		return d.skip(0)
	}
	key := string(raw)
	if !plain {
		key = d.unescape(raw)
	}
	key = canonicalName(key)
	start := d.i
	if err := d.skip(0); err != nil || !otherFields[key] {
		return err
	}
	d.others = strconv.AppendQuote(d.others, key)
	d.others = append(d.others, ':')
	d.others = append(d.others, d.b[start:d.i]...)
	d.others = append(d.others, ',')
	return nil
}

// setOthers decodes the members other kept into c.
func (d *jsonDecoder) setOthers(c *record.Company) error {
	obj := append([]byte{'{'}, d.others[:len(d.others)-1]...)
	obj = append(obj, '}')
	d.others = d.others[:0]
	if err := gojson.Unmarshal(obj, c); err != nil {
		return fmt.Errorf("decode record fields: %w", err)
	}
	return nil
}

// dropField leaves out field f, whose value at start failed with err:
// the value is skipped as JSON and the field cleared. A value that is not
// even well-formed JSON stays the record's error.
func (d *jsonDecoder) dropField(c *record.Company, f field, start int, err error) error {
	var se *jsonSyntaxError
	if errors.As(err, &se) {
		return err
	}
	d.i = start
	if d.skip(0) != nil {
		return err
	}
	clearField(c, f)
	*d.dropped = append(*d.dropped, err.Error())
	return nil
}

// clearField resets field f of c to its zero value.
func clearField(c *record.Company, f field) {
	switch f {
	case fieldName:
		c.Name = ""
	case fieldStatus:
		c.Status = record.Status{}
	case fieldStatusConfidence:
		c.Status.Confidence = 0
	case fieldScore:
		c.Score = 0
	case fieldStartDate:
		c.StartDate = ""
	case fieldEndDate:
		c.EndDate = nil
	case fieldUpdateDate:
		c.UpdateDate = ""
	case fieldStreet:
		c.Address.Street = ""
	case fieldCity:
		c.Address.City = ""
	case fieldState:
		c.Address.State = ""
	case fieldZip:
		c.Address.Zip = ""
	case fieldCountry:
		c.Address.Country = ""
	case fieldAddress:
		c.Address = record.Address{}
	case fieldPhones:
		c.Phones = nil
	case fieldPublicEmails:
		c.PublicEmails = nil
	case fieldSocialURLs:
		c.SocialURLs = nil
	case fieldVendors:
		c.Vendors = nil
	case fieldSubdomains:
		c.Subdomains = nil
	case fieldBusinessModels:
		c.BusinessModels = nil
	case fieldLanguages:
		c.Languages = nil
	case fieldKeywords:
		c.Keywords = nil
	case fieldIndustryGroups:
		c.IndustryGroups = nil
	case fieldDescription:
		c.Description = ""
	case fieldSiteText:
		c.SiteText = ""
	case fieldEmployees:
		c.Employees = ""
	case fieldRevenueRange:
		c.RevenueRange = ""
	case fieldRedirectDomain:
		c.RedirectDomain = nil
	case fieldMXProvider:
		c.MXProvider = ""
	case fieldHTTPStatus, fieldStatusCode, fieldStatusReason, fieldRecordDate:
		c.HTTPStatus = nil
	case fieldRedirectSources:
		c.RedirectSources = nil
	case fieldRedirectCount:
		c.RedirectCount = 0
	case fieldGrowth:
		c.Growth = nil
	}
}

// jsonDecoders keeps decoders with their scratch between lines.
var jsonDecoders = sync.Pool{New: func() any { return new(jsonDecoder) }}

// decodeJSONCompany decodes one JSON object into c.
func decodeJSONCompany(b []byte, c *record.Company) error {
	return decodeJSONCompanyLenient(b, c, nil)
}

// decodeJSONCompanyLenient is decodeJSONCompany that, with dropped
// non-nil, leaves out a field of the wrong type and appends why to
// dropped instead of failing.
func decodeJSONCompanyLenient(b []byte, c *record.Company, dropped *[]string) error {
	d := jsonDecoders.Get().(*jsonDecoder)
	d.b, d.i, d.dropped = b, 0, dropped
	defer d.release()
	d.ws()
	if d.peek() != '{' {
		return d.syntax("a record must be a JSON object")
	}
	if err := d.object(c, false); err != nil {
		return err
	}
	d.ws()
	if d.i < len(d.b) {
		return d.syntax("unexpected data after the object")
	}
	return nil
}

// release returns d to jsonDecoders, without the line or the strings of
// its record, and without scratch grown large by an unusual line.
func (d *jsonDecoder) release() {
	d.b, d.lineCopy, d.listed, d.ints, d.dropped = nil, nil, nil, nil, nil
	d.others = d.others[:0]
	d.listHint, d.listN = min(d.listN, 1<<10), 0
	d.intsHint, d.intsN = min(d.intsN, 1<<10), 0
	if cap(d.intBuf) > 1<<10 {
		d.intBuf = nil
	}
	// Only what this record used: clearing all of a capacity grown by one
	// long list cost every later record.
	clear(d.strs[:min(d.used, cap(d.strs))])
	d.used = 0
	if cap(d.buf) > 1<<16 {
		d.buf = nil
	}
	if cap(d.strs) > 1<<10 {
		d.strs, d.nums = nil, nil
	}
	jsonDecoders.Put(d)
}

func (d *jsonDecoder) syntax(msg string) error { return &jsonSyntaxError{off: d.i, msg: msg} }

func (d *jsonDecoder) ws() {
	// Exported lines are mostly compact: one comparison passes most calls.
	if d.i < len(d.b) && d.b[d.i] > ' ' {
		return
	}
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// peek returns the next byte, 0 at the end.
func (d *jsonDecoder) peek() byte {
	if d.i < len(d.b) {
		return d.b[d.i]
	}
	return 0
}

// object reads an object into c; inAddress reads the nested address,
// where only address fields count.
func (d *jsonDecoder) object(c *record.Company, inAddress bool) error {
	d.i++ // '{'
	d.ws()
	if d.peek() == '}' {
		d.i++
		return nil
	}
	for {
		d.ws()
		if d.peek() != '"' {
			return d.syntax("want a quoted field name")
		}
		raw, plain, err := d.scanString()
		if err != nil {
			return err
		}
		f, ok := knownField(raw) // no allocation for the common exact names
		if !ok {
			key := string(raw)
			if !plain {
				key = d.unescape(raw)
			}
			f, _ = lookupField(key)
		}
		d.ws()
		if d.peek() != ':' {
			return d.syntax("want ':' after a field name")
		}
		d.i++
		d.ws()
		switch {
		case inAddress && !isAddressField(f):
			err = d.skip(0)
		case f == fieldAddress:
			err = d.address(c)
		case f == fieldUnknown && !inAddress:
			err = d.other(raw, plain)
		default:
			start := d.i
			err = d.set(c, f)
			if err != nil && d.dropped != nil && f != fieldDomain {
				err = d.dropField(c, f, start, err)
			}
		}
		if err != nil {
			return err
		}
		d.ws()
		switch d.peek() {
		case ',':
			d.i++
		case '}':
			d.i++
			if !inAddress && len(d.others) > 0 {
				return d.setOthers(c)
			}
			return nil
		default:
			return d.syntax("want ',' or '}' after a value")
		}
	}
}

func isAddressField(f field) bool { return f >= fieldStreet && f <= fieldCountry }

func (d *jsonDecoder) address(c *record.Company) error {
	switch d.peek() {
	case '{':
		return d.object(c, true)
	case 'n':
		return d.literal("null")
	default:
		return d.typeError("address", "an object")
	}
}

// set decodes the value at d.i into field f of c.
func (d *jsonDecoder) set(c *record.Company, f field) error {
	switch f {
	case fieldUnknown:
		return d.skip(0)
	case fieldDomain:
		return d.text("domain", &c.Domain)
	case fieldName:
		return d.text("name", &c.Name)
	case fieldStatus:
		return d.status(c)
	case fieldStatusConfidence:
		return d.number("status_confidence", &c.Status.Confidence)
	case fieldScore:
		return d.score(&c.Score)
	case fieldStartDate:
		return d.text("start_date", &c.StartDate)
	case fieldEndDate:
		return d.optionalText("end_date", &c.EndDate)
	case fieldUpdateDate:
		return d.text("update_date", &c.UpdateDate)
	case fieldStreet:
		return d.text("street", &c.Address.Street)
	case fieldCity:
		return d.text("city", &c.Address.City)
	case fieldState:
		return d.text("state", &c.Address.State)
	case fieldZip:
		return d.text("zip", &c.Address.Zip)
	case fieldCountry:
		return d.text("country", &c.Address.Country)
	case fieldPhones:
		return d.list("phones", &c.Phones)
	case fieldPublicEmails:
		return d.list("public_emails", &c.PublicEmails)
	case fieldSocialURLs:
		return d.list("social_urls", &c.SocialURLs)
	case fieldVendors:
		return d.list("vendors", &c.Vendors)
	case fieldSubdomains:
		return d.list("subdomains", &c.Subdomains)
	case fieldBusinessModels:
		return d.list("business_models", &c.BusinessModels)
	case fieldLanguages:
		return d.list("languages", &c.Languages)
	case fieldKeywords:
		return d.scores("keywords", &c.Keywords)
	case fieldIndustryGroups:
		return d.scores("industry_groups", &c.IndustryGroups)
	case fieldDescription:
		return d.text("description", &c.Description)
	case fieldSiteText:
		return d.text("site_text", &c.SiteText)
	case fieldEmployees:
		return d.text("employees", &c.Employees)
	case fieldRevenueRange:
		return d.text("revenue_range", &c.RevenueRange)
	case fieldRedirectDomain:
		return d.optionalText("redirect_domain", &c.RedirectDomain)
	case fieldMXProvider:
		return d.text("mx_provider", &c.MXProvider)
	case fieldHTTPStatus:
		return d.httpStatus(c)
	case fieldStatusCode:
		return d.integer("status_code", &c.HTTPStatusOrNew().Code)
	case fieldStatusReason:
		return d.text("status_reason", &c.HTTPStatusOrNew().Reason)
	case fieldRecordDate:
		return d.text("record_date", &c.HTTPStatusOrNew().RecordDate)
	case fieldRedirectSources:
		return d.list("redirect_sources", &c.RedirectSources)
	case fieldRedirectCount:
		return d.integer("redirect_count", &c.RedirectCount)
	case fieldGrowth:
		return d.growth(c)
	}
	return d.skip(0)
}

// scalar reads a string or a number as text; null gives ok false.
func (d *jsonDecoder) scalar(name string) (s string, ok bool, err error) {
	switch c := d.peek(); {
	case c == '"':
		raw, plain, err := d.scanString()
		if err != nil {
			return "", false, err
		}
		if plain {
			return d.str(raw), true, nil
		}
		return d.unescape(raw), true, nil
	case c == '-' || (c >= '0' && c <= '9'):
		num, err := d.scanNumber()
		return d.str(num), err == nil, err
	case c == 'n':
		return "", false, d.literal("null")
	}
	return "", false, d.typeError(name, "a string or a number")
}

func (d *jsonDecoder) text(name string, dst *string) error {
	s, ok, err := d.scalar(name)
	if ok {
		*dst = s
	}
	return err
}

func (d *jsonDecoder) optionalText(name string, dst **string) error {
	s, ok, err := d.scalar(name)
	switch {
	case err != nil:
	case ok:
		// A new variable here, not s, so that the usual null costs no
		// allocation.
		p := new(string)
		*p = s
		*dst = p
	default:
		*dst = nil
	}
	return err
}

func (d *jsonDecoder) number(name string, dst *float64) error {
	return d.memberNumber(name, "", dst)
}

// memberNumber is number for member key of name ("" for name itself),
// named "name.key" in errors; most numbers are read without a string.
func (d *jsonDecoder) memberNumber(name, key string, dst *float64) error {
	if c := d.peek(); c == '-' || (c >= '0' && c <= '9') {
		start := d.i
		num, err := d.scanNumber()
		if err != nil {
			return err
		}
		if f, ok := plainFloat(num); ok {
			*dst = f
			return nil
		}
		d.i = start
	}
	if key != "" {
		name += "." + key
	}
	s, ok, err := d.scalar(name)
	if err != nil || !ok {
		return err
	}
	f, perr := strconv.ParseFloat(s, 64)
	if perr != nil {
		return fmt.Errorf("%s: %q is not a number", name, s)
	}
	*dst = f
	return nil
}

// pow10 are the powers of ten that float64 holds exactly.
var pow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}

// plainFloat is strconv.ParseFloat for a JSON number without an exponent
// and with at most 15 digits ("0.87", "-12", "300"); ok is false for any
// other. Such a number is an integer below 2^53 divided by an exact power
// of ten, and one IEEE division rounds that correctly, as ParseFloat does
// (its own fast path).
func plainFloat(num []byte) (f float64, ok bool) {
	neg := len(num) > 0 && num[0] == '-'
	if neg {
		num = num[1:]
	}
	var mant uint64
	digits, point := 0, -1
	for i, c := range num {
		switch {
		case c >= '0' && c <= '9':
			mant = mant*10 + uint64(c-'0')
			digits++
		case c == '.' && point < 0:
			point = i
		default:
			return 0, false
		}
	}
	if digits == 0 || digits >= len(pow10) {
		return 0, false
	}
	f = float64(mant)
	if point >= 0 {
		f /= pow10[len(num)-point-1]
	}
	if neg {
		f = -f
	}
	return f, true
}

func (d *jsonDecoder) score(dst *int) error {
	if n, ok := d.plainInt(); ok {
		*dst = n // what parseScore gives a small integer
		return nil
	}
	s, ok, err := d.scalar("score")
	if err != nil || !ok {
		return err
	}
	return parseScore(dst, s)
}

func (d *jsonDecoder) status(c *record.Company) error {
	if d.peek() != '{' {
		return d.text("status", &c.Status.Status)
	}
	done, err := d.openObject("status", "an object")
	for !done && err == nil {
		var key string
		if key, err = d.memberName(); err != nil {
			break
		}
		switch key {
		case "status":
			err = d.text("status", &c.Status.Status)
		case "confidence":
			err = d.number("status.confidence", &c.Status.Confidence)
		default:
			err = d.skip(0)
		}
		if err == nil {
			done, err = d.memberEnd()
		}
	}
	return err
}

// The members of the objects below the record (status, http_status,
// growth, label scores) are read by a loop of openObject, memberKey (or
// memberName), the value, and memberEnd, rather than through a callback:
// a closure per object and a canonicalName string per key cost these
// small objects more than their values did.

// openObject reads the start of the object at d.i; null reads as an
// empty object, and any other value is a type error for name, want
// naming what is expected. done reports that there is no member to read
// (or an error).
func (d *jsonDecoder) openObject(name, want string) (done bool, err error) {
	switch d.peek() {
	case '{':
	case 'n':
		return true, d.literal("null")
	default:
		return true, d.typeError(name, want)
	}
	d.i++
	d.ws()
	if d.peek() == '}' {
		d.i++
		return true, nil
	}
	return false, nil
}

// memberKey reads a member's key, as scanString gives it, and the ':'
// after it, leaving d.i at the value.
func (d *jsonDecoder) memberKey() (raw []byte, plain bool, err error) {
	d.ws()
	if d.peek() != '"' {
		return nil, false, d.syntax("want a quoted field name")
	}
	if raw, plain, err = d.scanString(); err != nil {
		return nil, false, err
	}
	d.ws()
	if d.peek() != ':' {
		return nil, false, d.syntax("want ':' after a field name")
	}
	d.i++
	d.ws()
	return raw, plain, nil
}

// memberName is memberKey with the key as canonicalName gives it.
func (d *jsonDecoder) memberName() (string, error) {
	raw, plain, err := d.memberKey()
	if err != nil {
		return "", err
	}
	if plain && isCanonical(raw) {
		return d.str(raw), nil // as canonicalName would give it
	}
	return canonicalName(d.key(raw, plain)), nil
}

// isCanonical reports that canonicalName leaves name as it is, without
// its allocation: only lower-case letters, digits and underscores.
func isCanonical(name []byte) bool {
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// key returns a string that scanString read as raw.
func (d *jsonDecoder) key(raw []byte, plain bool) string {
	if plain {
		return d.str(raw)
	}
	return d.unescape(raw)
}

// memberEnd reads what follows a member's value; done at the end of the
// object (or on an error).
func (d *jsonDecoder) memberEnd() (done bool, err error) {
	d.ws()
	switch d.peek() {
	case ',':
		d.i++
		return false, nil
	case '}':
		d.i++
		return true, nil
	}
	return true, d.syntax("want ',' or '}' after a value")
}

// integer reads a whole number (or its text); null leaves dst alone.
func (d *jsonDecoder) integer(name string, dst *int) error {
	if n, ok := d.plainInt(); ok {
		*dst = n // what parseInt gives a small integer
		return nil
	}
	s, ok, err := d.scalar(name)
	if err != nil || !ok {
		return err
	}
	return parseInt(name, dst, s)
}

// plainInt reads a JSON integer below 1e9 in magnitude, which parseInt
// would take as it is, without making it a string; ok is false, with d.i
// unchanged, for any other value, which the general path then reads.
func (d *jsonDecoder) plainInt() (n int, ok bool) {
	if c := d.peek(); c != '-' && (c < '0' || c > '9') {
		return 0, false
	}
	start := d.i
	num, err := d.scanNumber()
	digits := num
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if err != nil || len(digits) > 9 {
		d.i = start
		return 0, false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			d.i = start
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	if len(digits) < len(num) {
		n = -n
	}
	return n, true
}

// integers reads an array of whole numbers, or a "1;2;3" string.
func (d *jsonDecoder) integers(name string, dst *[]int) error {
	if d.peek() == '[' {
		if out, ok := d.plainInts(); ok {
			*dst = out
			return nil
		}
	}
	var list []string
	if err := d.list(name, &list); err != nil {
		return err
	}
	return parseInts(name, dst, list)
}

// plainInts reads an array of integer literals below 1e9 in magnitude
// ("[455,472,-3]"), the shape of every growth history, without the
// per-element strings and field names of the general path (which cost a
// growth history more than the rest of its record). ok is false, with d.i
// unchanged, for any other array: the general path then reads it and
// reports what is wrong.
func (d *jsonDecoder) plainInts() (ints []int, ok bool) {
	start := d.i
	out := d.intBuf[:0]
	d.i++ // '['
	d.ws()
	if d.peek() == ']' {
		d.i++
		return nil, true
	}
	for {
		d.ws()
		neg := d.peek() == '-'
		if neg {
			d.i++
		}
		from, n := d.i, 0
		for d.i < len(d.b) && d.b[d.i] >= '0' && d.b[d.i] <= '9' && d.i-from < 9 {
			n = n*10 + int(d.b[d.i]-'0')
			d.i++
		}
		digits := d.i - from
		c := d.peek()
		if digits == 0 || (digits > 1 && d.b[from] == '0') || c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' {
			d.i = start
			return nil, false
		}
		if neg {
			n = -n
		}
		out = append(out, n)
		d.ws()
		switch d.peek() {
		case ',':
			d.i++
		case ']':
			d.i++
			d.intBuf = out[:0]
			return keep(&d.ints, &d.intsN, d.intsHint, out), true
		default:
			d.i = start
			return nil, false
		}
	}
}

func (d *jsonDecoder) httpStatus(c *record.Company) error {
	done, err := d.openObject("http_status", "an object")
	for !done && err == nil {
		var key string
		if key, err = d.memberName(); err != nil {
			break
		}
		switch key {
		case "status_code", "code":
			err = d.integer("http_status.status_code", &c.HTTPStatusOrNew().Code)
		case "status_reason", "reason":
			err = d.text("http_status.status_reason", &c.HTTPStatusOrNew().Reason)
		case "record_date":
			err = d.text("http_status.record_date", &c.HTTPStatusOrNew().RecordDate)
		default:
			err = d.skip(0)
		}
		if err == nil {
			done, err = d.memberEnd()
		}
	}
	return err
}

func (d *jsonDecoder) growth(c *record.Company) error {
	done, err := d.openObject("growth", "an object")
	for !done && err == nil {
		var key string
		if key, err = d.memberName(); err != nil {
			break
		}
		g := c.GrowthOrNew() // any member, even an unknown one, makes a growth
		switch key {
		case "through":
			var s string
			err = d.text("growth.through", &s)
			g.Through = record.Quarter(s)
		case "scores":
			err = d.integers("growth.scores", &g.Scores)
		case "subdomains":
			err = d.integers("growth.subdomains", &g.Subdomains)
		default:
			err = d.skip(0)
		}
		if err == nil {
			done, err = d.memberEnd()
		}
	}
	return err
}

// list reads an array of strings (numbers are taken as their text, nulls
// skipped), or a string of values separated by ";" or "|".
func (d *jsonDecoder) list(name string, dst *[]string) error {
	switch d.peek() {
	case '[':
	case '"':
		s, _, err := d.scalar(name)
		if err == nil {
			*dst = splitList(s)
		}
		return err
	case 'n':
		*dst = nil
		return d.literal("null")
	default:
		return d.typeError(name, "an array of strings")
	}
	d.i++
	out, err := d.listItems(name, d.strs[:0])
	d.strs, d.used = out[:0], max(d.used, len(out))
	if err == nil {
		*dst = d.keepList(out)
	}
	return err
}

// keepList copies a list of the record out of scratch into d.listed, nil
// for none.
func (d *jsonDecoder) keepList(out []string) []string {
	return keep(&d.listed, &d.listN, d.listHint, out)
}

// keep copies out, nil for none, to the end of *all, which a new
// allocation of at least hint-*n more elements replaces when it lacks the
// room; *n counts what was copied. The copy's capacity ends at its
// length, so that appending to it cannot overwrite the next one.
func keep[T any](all *[]T, n *int, hint int, out []T) []T {
	if len(out) == 0 {
		return nil
	}
	if cap(*all)-len(*all) < len(out) {
		*all = make([]T, 0, max(len(out), hint-*n))
	}
	at := len(*all)
	*all = append(*all, out...)
	*n += len(out)
	return (*all)[at : at+len(out) : at+len(out)]
}

// listItems reads the elements of an array of strings after its '[',
// appending them to out.
func (d *jsonDecoder) listItems(name string, out []string) ([]string, error) {
	d.ws()
	if d.peek() == ']' {
		d.i++
		return out, nil
	}
	for {
		d.ws()
		if c := d.peek(); c == '[' || c == '{' || c == 't' || c == 'f' {
			return out, d.typeError(name, "an array of strings")
		}
		s, ok, err := d.scalar(name)
		if err != nil {
			return out, err
		}
		if ok {
			out = append(out, s)
		}
		d.ws()
		switch d.peek() {
		case ',':
			d.i++
		case ']':
			d.i++
			return out, nil
		default:
			return out, d.syntax("want ',' or ']' after an array element")
		}
	}
}

// scores reads an object of label -> number, or a list (array or "a;b"
// string) whose order gives descending scores.
func (d *jsonDecoder) scores(name string, dst *map[string]float64) error {
	const want = "an object of label to score, or a list of labels"
	switch d.peek() {
	case '{':
	case '[', '"', 'n':
		var list []string
		err := d.list(name, &list)
		*dst = scoresFromList(list)
		return err
	default:
		return d.typeError(name, want)
	}
	keys, vals := d.strs[:0], d.nums[:0]
	done, err := d.openObject(name, want)
	for !done && err == nil {
		raw, plain, kerr := d.memberKey()
		if kerr != nil {
			err = kerr
			break
		}
		key := d.key(raw, plain)
		var v float64
		if c := d.peek(); c == '"' || c == 'n' || c == '-' || (c >= '0' && c <= '9') {
			err = d.memberNumber(name, key, &v)
		} else {
			err = d.typeError(name+"."+key, "a number")
		}
		if err == nil {
			keys, vals = append(keys, key), append(vals, v)
			done, err = d.memberEnd()
		}
	}
	d.strs, d.nums, d.used = keys[:0], vals[:0], max(d.used, len(keys))
	if err == nil {
		m := make(map[string]float64, len(keys))
		for i, k := range keys {
			m[k] = vals[i] // the last of a repeated key wins
		}
		*dst = m
	}
	return err
}

// typeError reports a value of the wrong kind; the value is still checked
// for syntax, so a malformed line is reported as such.
func (d *jsonDecoder) typeError(name, want string) error {
	got := "a value"
	switch d.peek() {
	case '{':
		got = "an object"
	case '[':
		got = "an array"
	case 't', 'f':
		got = "a boolean"
	case '"':
		got = "a string"
	case 'n':
		got = "null"
	default:
		if c := d.peek(); c == '-' || (c >= '0' && c <= '9') {
			got = "a number"
		}
	}
	if err := d.skip(0); err != nil {
		return err
	}
	return fmt.Errorf("%s: want %s, got %s", name, want, got)
}

func (d *jsonDecoder) literal(lit string) error {
	if len(d.b)-d.i >= len(lit) && string(d.b[d.i:d.i+len(lit)]) == lit {
		d.i += len(lit)
		return nil
	}
	return d.syntax("invalid literal")
}

// skip checks and passes over one value.
func (d *jsonDecoder) skip(depth int) error {
	if depth > maxJSONDepth {
		return d.syntax(fmt.Sprintf("nested deeper than %d levels", maxJSONDepth))
	}
	switch c := d.peek(); {
	case c == '"':
		_, _, err := d.scanString()
		return err
	case c == '-' || (c >= '0' && c <= '9'):
		_, err := d.scanNumber()
		return err
	case c == 't':
		return d.literal("true")
	case c == 'f':
		return d.literal("false")
	case c == 'n':
		return d.literal("null")
	case c == '[':
		d.i++
		d.ws()
		if d.peek() == ']' {
			d.i++
			return nil
		}
		for {
			d.ws()
			if err := d.skip(depth + 1); err != nil {
				return err
			}
			d.ws()
			switch d.peek() {
			case ',':
				d.i++
			case ']':
				d.i++
				return nil
			default:
				return d.syntax("want ',' or ']' after an array element")
			}
		}
	case c == '{':
		d.i++
		d.ws()
		if d.peek() == '}' {
			d.i++
			return nil
		}
		for {
			d.ws()
			if d.peek() != '"' {
				return d.syntax("want a quoted field name")
			}
			if _, _, err := d.scanString(); err != nil {
				return err
			}
			d.ws()
			if d.peek() != ':' {
				return d.syntax("want ':' after a field name")
			}
			d.i++
			d.ws()
			if err := d.skip(depth + 1); err != nil {
				return err
			}
			d.ws()
			switch d.peek() {
			case ',':
				d.i++
			case '}':
				d.i++
				return nil
			default:
				return d.syntax("want ',' or '}' after a value")
			}
		}
	case c == 0 && d.i >= len(d.b):
		return d.syntax("unexpected end of line")
	}
	return d.syntax(fmt.Sprintf("unexpected character %q", d.peek()))
}

// scanString passes over a string at d.i and returns the bytes between
// its quotes; plain reports that they are valid UTF-8 without escapes and
// can be used as they are.
//
// Most strings are short (keys, dates, domains) and end within the first
// two words scanned eight bytes at a time. A longer one (a description, a
// site's text) is passed faster by finding its closing quote and any
// backslash with bytes.IndexByte, which is vectorized, and then checking
// the bytes before the quote for control characters, five operations a
// word instead of the thirteen that stringStops takes to find all three.
// Strings with escapes or control characters, and unterminated ones, are
// left to scanStringSlow, which reports what is wrong.
func (d *jsonDecoder) scanString() (raw []byte, plain bool, err error) {
	start := d.i + 1 // after the opening quote
	b := d.b
	i := start
	var high uint64 // the bytes passed, or-ed: whether any is non-ASCII
	for range 2 {
		if i+8 > len(b) {
			return d.scanStringSlow()
		}
		x := binary.LittleEndian.Uint64(b[i:])
		if m := stringStops(x); m != 0 {
			n := bits.TrailingZeros64(m) >> 3
			if b[i+n] != '"' {
				return d.scanStringSlow()
			}
			high |= x & (1<<(8*n) - 1)
			raw = b[start : i+n]
			d.i = i + n + 1
			return raw, high&swarHigh == 0 || utf8.Valid(raw), nil
		}
		high |= x
		i += 8
	}
	q := bytes.IndexByte(b[i:], '"')
	if q < 0 {
		return d.scanStringSlow()
	}
	run := b[i : i+q]
	if bytes.IndexByte(run, '\\') >= 0 {
		return d.scanStringSlow()
	}
	var ctrl uint64 // high bit of a byte set where one below 0x20 is
	j := 0
	for ; j+16 <= len(run); j += 16 {
		x := binary.LittleEndian.Uint64(run[j:])
		y := binary.LittleEndian.Uint64(run[j+8:])
		ctrl |= (x-swarOnes*0x20)&^x | (y-swarOnes*0x20)&^y
		high |= x | y
	}
	for _, c := range run[j:] {
		if c < 0x20 {
			ctrl = swarHigh
		}
		high |= uint64(c)
	}
	if ctrl&swarHigh != 0 {
		return d.scanStringSlow()
	}
	raw = b[start : i+q]
	d.i = i + q + 1
	return raw, high&swarHigh == 0 || utf8.Valid(raw), nil
}

// scanStringSlow is scanString for any string, escapes and errors
// included.
func (d *jsonDecoder) scanStringSlow() (raw []byte, plain bool, err error) {
	open := d.i
	start := d.i + 1 // after the opening quote
	b := d.b
	esc := false
	var high uint64 // the bytes passed, or-ed: whether any is non-ASCII
	for i := start; ; {
		// Eight bytes at a time to the next quote, backslash or control
		// character: most string bytes need nothing else.
		for i+8 <= len(b) {
			x := binary.LittleEndian.Uint64(b[i:])
			if m := stringStops(x); m != 0 {
				n := bits.TrailingZeros64(m) >> 3
				high |= x & (1<<(8*n) - 1)
				i += n
				break
			}
			high |= x
			i += 8
		}
		if i >= len(b) {
			break
		}
		switch c := b[i]; {
		case c == '"':
			raw = b[start:i]
			d.i = i + 1
			return raw, !esc && (high&swarHigh == 0 || utf8.Valid(raw)), nil
		case c == '\\':
			esc = true
			if i+1 >= len(b) {
				d.i = i
				return nil, false, &jsonSyntaxError{off: open, msg: "unterminated string"}
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(b) || !isHex4(b[i+2:i+6]) {
					d.i = i + 1
					return nil, false, d.syntax(`invalid \u escape`)
				}
				i += 6
			default:
				d.i = i + 1
				return nil, false, d.syntax(fmt.Sprintf("invalid escape %q", "\\"+string(b[i+1])))
			}
		case c < 0x20:
			d.i = i
			return nil, false, d.syntax("control character in a string")
		default: // the last few bytes of the line
			high |= uint64(c)
			i++
		}
	}
	d.i = len(b)
	return nil, false, &jsonSyntaxError{off: open, msg: "unterminated string"}
}

const (
	swarOnes = 0x0101010101010101
	swarHigh = 0x8080808080808080
)

// stringStops sets the high bit of each byte of x (eight string bytes,
// the first in the low byte) that is a quote, a backslash or a control
// character. Borrows may also set it above such a byte, so only the
// lowest set bit is exact.
func stringStops(x uint64) uint64 {
	q := x ^ (swarOnes * '"')
	bs := x ^ (swarOnes * '\\')
	return ((x-swarOnes*0x20)&^x | (q-swarOnes)&^q | (bs-swarOnes)&^bs) & swarHigh
}

func isHex4(b []byte) bool {
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

func hex4(b []byte) rune {
	var r rune
	for _, c := range b {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		default:
			r |= rune(c - 'A' + 10)
		}
	}
	return r
}

// unescape decodes the contents of a string that scanString checked.
func (d *jsonDecoder) unescape(raw []byte) string {
	out := d.buf[:0]
	for i := 0; i < len(raw); {
		// The run up to the next escape is copied as it is when it is
		// valid UTF-8, and rune by rune otherwise.
		j := bytes.IndexByte(raw[i:], '\\')
		if j < 0 {
			j = len(raw) - i
		}
		if run := raw[i : i+j]; utf8.Valid(run) {
			out = append(out, run...)
		} else {
			for k := 0; k < len(run); {
				r, size := utf8.DecodeRune(run[k:])
				out = utf8.AppendRune(out, r) // invalid bytes become U+FFFD
				k += size
			}
		}
		if i += j; i == len(raw) {
			break
		}
		switch e := raw[i+1]; e {
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r := hex4(raw[i+2 : i+6])
			i += 6
			if utf16.IsSurrogate(r) {
				r2 := utf8.RuneError
				if i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
					r2 = utf16.DecodeRune(r, hex4(raw[i+2:i+6]))
				}
				if r2 != utf8.RuneError {
					i += 6
				}
				r = r2
			}
			out = utf8.AppendRune(out, r)
			continue
		default: // '"', '\\', '/'
			out = append(out, e)
		}
		i += 2
	}
	d.buf = out
	if len(out) > len(raw) {
		return string(out) // invalid bytes grew into U+FFFD
	}
	if len(out) == 0 {
		return ""
	}
	at := d.offset(raw)
	copy(d.lineCopy[at:], out)
	return unsafe.String(&d.lineCopy[at], len(out))
}

// str returns raw, a part of the line, as a string over the record's copy
// of the line (see jsonDecoder.lineCopy).
func (d *jsonDecoder) str(raw []byte) string {
	if len(raw) == 0 {
		return ""
	}
	at := d.offset(raw)
	return unsafe.String(&d.lineCopy[at], len(raw))
}

// offset returns where raw, a part of the line, starts in it, making the
// copy of the line on first use: decoders of a single CSV cell make one
// too, and a line without strings needs none.
func (d *jsonDecoder) offset(raw []byte) int {
	if d.lineCopy == nil {
		// A make followed by a copy between plain variables allocates
		// without zeroing (bytes.Clone clears its size class's tail).
		b := d.b
		c := make([]byte, len(b))
		copy(c, b)
		d.lineCopy = c
	}
	return int(uintptr(unsafe.Pointer(unsafe.SliceData(raw))) - uintptr(unsafe.Pointer(unsafe.SliceData(d.b))))
}

// scanNumber passes over a JSON number and returns its text.
func (d *jsonDecoder) scanNumber() ([]byte, error) {
	start := d.i
	if d.peek() == '-' {
		d.i++
	}
	switch c := d.peek(); {
	case c == '0':
		d.i++
	case c >= '1' && c <= '9':
		d.digits()
	default:
		return nil, d.syntax("invalid number")
	}
	if d.peek() == '.' {
		d.i++
		if n := d.digits(); n == 0 {
			return nil, d.syntax("invalid number: no digits after '.'")
		}
	}
	if c := d.peek(); c == 'e' || c == 'E' {
		d.i++
		if c := d.peek(); c == '+' || c == '-' {
			d.i++
		}
		if n := d.digits(); n == 0 {
			return nil, d.syntax("invalid number: no digits in the exponent")
		}
	}
	return d.b[start:d.i], nil
}

func (d *jsonDecoder) digits() int {
	start := d.i
	for d.i < len(d.b) && d.b[d.i] >= '0' && d.b[d.i] <= '9' {
		d.i++
	}
	return d.i - start
}
