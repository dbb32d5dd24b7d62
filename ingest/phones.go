package ingest

import (
	"encoding/binary"
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/nyaruka/phonenumbers"
)

// Phone numbers are validated against libphonenumber's metadata (through
// github.com/nyaruka/phonenumbers), but not through its IsValidNumber: that
// rebuilds and re-hashes each pattern string for every check and matches
// every pattern twice, and for a number already in E.164 form its Parse
// runs several large regular expressions to learn nothing. Here the
// patterns are compiled once per calling code, and a number that is
// already "+<digits>" skips Parse when Parse provably returns it unchanged.
// TestPhoneMatchesLibrary checks the result equals Parse + IsValidNumber +
// Format(E164) on numbers of every region; it made phones 3-5x cheaper.

// normalizePhone returns p in E.164 form, "" when it is not a valid
// number. A national number is read in country (ISO alpha-2); without a
// country only international (+) numbers can be placed.
func normalizePhone(p, country string) string {
	if cc, nsn, ok := plainE164(p); ok {
		if phoneValid(cc, nsn) {
			return p
		}
		return ""
	}
	if country == "" {
		country = "ZZ" // unknown region: Parse accepts only +numbers
	}
	n, err := phonenumbers.Parse(p, country)
	if err != nil {
		return ""
	}
	cc, nsn := int(n.GetCountryCode()), phonenumbers.GetNationalSignificantNumber(n)
	if !phoneValid(cc, nsn) {
		return ""
	}
	return "+" + strconv.Itoa(cc) + nsn
}

// plainE164 splits p into calling code and national number when p is
// "+<digits>" and Parse would return exactly those: the national number
// does not start with the region's national prefix (which Parse may strip
// or rewrite), unless that prefix can only match empty there and then
// leaves the number as it is (Argentina's optional "0?(...15)?"). Leading
// zeros stay (Italy's): Parse records them as Italian leading zeros, which
// GetNationalSignificantNumber writes back.
func plainE164(p string) (cc int, nsn string, ok bool) {
	if len(p) < 8 || len(p) > 1+phonenumbers.MAX_LENGTH_COUNTRY_CODE+phonenumbers.MAX_LENGTH_FOR_NSN || p[0] != '+' || p[1] == '0' {
		return 0, "", false
	}
	for i := 1; i < len(p); i++ {
		if p[i] < '0' || p[i] > '9' {
			return 0, "", false
		}
	}
	// Calling codes are prefix-free: the first known prefix is the one.
	known := knownCallingCodes()
	code := 0
	for l := 1; l <= phonenumbers.MAX_LENGTH_COUNTRY_CODE; l++ {
		code = code*10 + int(p[l]-'0')
		if known[code] {
			cc, nsn = code, p[1+l:]
			break
		}
	}
	if cc == 0 || len(nsn) < phonenumbers.MIN_LENGTH_FOR_NSN || len(nsn) > phonenumbers.MAX_LENGTH_FOR_NSN {
		return 0, "", false
	}
	main := phoneMetadata(cc).main
	if main == nil {
		return 0, "", false
	}
	if np := main.nationalPrefix; np != nil && np.MatchString(nsn) {
		if !main.emptyPrefixKeeps {
			return 0, "", false
		}
		if longer, sure := np.matchesNonEmptyPrefix(nsn); longer || !sure {
			return 0, "", false
		}
	}
	return cc, nsn, true
}

// knownCallingCodes[cc] reports whether the library has a region for the
// calling code cc: a table, as plainE164 tries up to three prefixes of
// every number and the library's map lookups cost more than the rest of
// the split.
var knownCallingCodes = sync.OnceValue(func() *[1000]bool {
	var known [1000]bool
	for cc := range known {
		known[cc] = len(phonenumbers.GetRegionCodesForCountryCode(cc)) > 0
	}
	return &known
})

// phoneValid reports what phonenumbers.IsValidNumber reports for the
// number: the region is the only one of the calling code, or the first
// whose leading digits match, or the first the number is valid in; the
// number must then match the region's general pattern and one of its
// number types.
func phoneValid(cc int, nsn string) bool {
	m := phoneMetadata(cc)
	if len(m.regions) == 1 {
		return m.regions[0].valid(nsn)
	}
	for _, r := range m.regions {
		if r.leading != nil {
			if r.leading.MatchString(nsn) {
				return r.valid(nsn)
			}
		} else if r.valid(nsn) {
			return true
		}
	}
	return false
}

type phoneCode struct {
	regions []*phoneRegion // in the library's order
	main    *phoneRegion   // the calling code's main region
}

type phoneRegion struct {
	leading        *digitMatcher // leading digits, anchored at the start; nil when none
	nationalPrefix *digitMatcher // national prefix for parsing, anchored; nil when none
	// emptyPrefixKeeps: when nationalPrefix matches only the empty string
	// at the start of a number, Parse leaves the number unchanged.
	emptyPrefixKeeps bool
	general          phoneDesc
	types            []phoneDesc // the common types first
	fused            *fusedDesc  // general and types in one DFA; nil when too large
}

type phoneDesc struct {
	lengths []int32
	re      *digitMatcher // nil: matches nothing
}

func (r *phoneRegion) valid(nsn string) bool {
	if r.fused != nil {
		if v, ok := r.fused.valid(nsn); ok {
			return v
		}
	}
	return r.validByDesc(nsn)
}

// validByDesc is valid pattern by pattern: the reference of fusedDesc.
func (r *phoneRegion) validByDesc(nsn string) bool {
	if !r.general.match(nsn) {
		return false
	}
	for _, d := range r.types {
		if d.match(nsn) {
			return true
		}
	}
	return false
}

func (d phoneDesc) match(nsn string) bool {
	if d.re == nil {
		return false
	}
	if len(d.lengths) > 0 {
		found := false
		for _, l := range d.lengths {
			if int32(len(nsn)) == l {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return d.re.MatchString(nsn)
}

var (
	phoneCodes     [1000]atomic.Pointer[phoneCode] // by calling code; nil until first used
	phoneRegionsMu sync.Mutex
	phoneByRegion  map[string]*phonenumbers.PhoneMetadata // region (or "001/<cc>") -> metadata
)

// phoneMetadata returns the compiled metadata of a calling code, building
// it on first use.
func phoneMetadata(cc int) *phoneCode {
	if cc < 0 || cc >= len(phoneCodes) {
		return &phoneCode{} // no such calling code: no region, nothing valid
	}
	if m := phoneCodes[cc].Load(); m != nil {
		return m
	}
	phoneRegionsMu.Lock()
	defer phoneRegionsMu.Unlock()
	if m := phoneCodes[cc].Load(); m != nil {
		return m
	}
	if phoneByRegion == nil {
		phoneByRegion = map[string]*phonenumbers.PhoneMetadata{}
		if coll, err := phonenumbers.MetadataCollection(); err == nil {
			for _, md := range coll.GetMetadata() {
				id := md.GetId()
				if id == phonenumbers.REGION_CODE_FOR_NON_GEO_ENTITY {
					id += "/" + strconv.Itoa(int(md.GetCountryCode()))
				}
				phoneByRegion[id] = md
			}
		}
	}
	m := &phoneCode{}
	mainRegion := phonenumbers.GetRegionCodeForCountryCode(cc)
	for _, region := range phonenumbers.GetRegionCodesForCountryCode(cc) {
		key := region
		if region == phonenumbers.REGION_CODE_FOR_NON_GEO_ENTITY {
			key += "/" + strconv.Itoa(cc)
		}
		md := phoneByRegion[key]
		if md == nil {
			continue
		}
		r := compilePhoneRegion(md)
		m.regions = append(m.regions, r)
		if region == mainRegion {
			m.main = r
		}
	}
	phoneCodes[cc].Store(m)
	return m
}

func compilePhoneRegion(md *phonenumbers.PhoneMetadata) *phoneRegion {
	r := &phoneRegion{general: compilePhoneDesc(md.GetGeneralDesc())}
	if ld := md.GetLeadingDigits(); ld != "" {
		r.leading = compileDigits("^(?:" + ld + ")")
	}
	if np := md.GetNationalPrefixForParsing(); np != "" {
		r.nationalPrefix = compileDigits("^(?:" + np + ")")
		r.emptyPrefixKeeps = emptyPrefixKeeps(r.nationalPrefix.re, md.GetNationalPrefixTransformRule())
	}
	for _, d := range []*phonenumbers.PhoneNumberDesc{
		md.GetFixedLine(), md.GetMobile(), md.GetTollFree(), md.GetPremiumRate(), md.GetSharedCost(),
		md.GetVoip(), md.GetPersonalNumber(), md.GetPager(), md.GetUan(), md.GetVoicemail(),
	} {
		if pd := compilePhoneDesc(d); pd.re != nil {
			r.types = append(r.types, pd)
		}
	}
	r.fused = fuseDescs(r.general, r.types)
	return r
}

// fusedDesc runs the DFAs of a region's general pattern and of its number
// types in step, so that a number is read once per region rather than once
// per pattern, each pass touching other tables: the validity checks were
// most of a phone's cost.
type fusedDesc struct {
	next   []int32  // next[state*10+digit]; -1: the general pattern or every type failed
	accept []uint16 // bit 0: the general pattern matches here; bit 1+i: types[i] does
	// lengths[n]: the bits of the patterns that allow a number of n
	// digits (bit 0 and every type when general and types take any)
	lengths [phonenumbers.MAX_LENGTH_FOR_NSN + 1]uint16
}

// maxFusedStates bounds a fused DFA; a region past it keeps the pattern
// by pattern check.
const maxFusedStates = 4096

// fuseDescs builds the product of the DFAs of general and types, nil when
// one has no DFA, one could match before the end of a number (they all end
// in $), or the product grows past maxFusedStates.
func fuseDescs(general phoneDesc, types []phoneDesc) *fusedDesc {
	descs := append([]phoneDesc{general}, types...)
	if general.re == nil || len(descs) > 16 {
		return nil
	}
	for _, d := range descs {
		if d.re == nil || d.re.next == nil || slices.Contains(d.re.prefix, true) {
			return nil
		}
	}
	f := &fusedDesc{}
	for n := range f.lengths {
		for i, d := range descs {
			if len(d.lengths) == 0 || slices.Contains(d.lengths, int32(n)) {
				f.lengths[n] |= 1 << i
			}
		}
	}
	ids := map[string]int32{}
	var tuples [][]int32
	var buf []byte
	add := func(t []int32) (int32, bool) {
		buf = buf[:0]
		for _, st := range t {
			buf = binary.LittleEndian.AppendUint32(buf, uint32(st))
		}
		key := string(buf)
		if id, ok := ids[key]; ok {
			return id, true
		}
		if len(tuples) >= maxFusedStates {
			return 0, false
		}
		id := int32(len(tuples))
		ids[key] = id
		tuples = append(tuples, t)
		var acc uint16
		for i, st := range t {
			if st >= 0 && descs[i].re.final[st] {
				acc |= 1 << i
			}
		}
		f.accept = append(f.accept, acc)
		return id, true
	}
	add(make([]int32, len(descs)))
	for s := 0; s < len(tuples); s++ {
		for d := range 10 {
			t := make([]int32, len(descs))
			anyType := false
			for i, st := range tuples[s] {
				if st >= 0 {
					st = descs[i].re.next[int(st)*10+d]
				}
				t[i] = st
				anyType = anyType || (i > 0 && st >= 0)
			}
			next := int32(-1)
			if t[0] >= 0 && anyType {
				id, ok := add(t)
				if !ok {
					return nil
				}
				next = id
			}
			f.next = append(f.next, next)
		}
	}
	return f
}

// valid reports what validByDesc reports; ok is false for a number it
// cannot read (not all digits, or too long), left to validByDesc.
func (f *fusedDesc) valid(nsn string) (valid, ok bool) {
	if len(nsn) >= len(f.lengths) {
		return false, false
	}
	state := int32(0)
	for i := 0; i < len(nsn); i++ {
		d := nsn[i] - '0'
		if d > 9 {
			return false, false
		}
		if state = f.next[int(state)*10+int(d)]; state < 0 {
			return false, true // as digitMatcher: nothing later can match
		}
	}
	acc := f.accept[state] & f.lengths[len(nsn)]
	return acc&1 != 0 && acc&^1 != 0, true
}

func compilePhoneDesc(d *phonenumbers.PhoneNumberDesc) phoneDesc {
	p := d.GetNationalNumberPattern()
	if p == "" {
		return phoneDesc{} // the library's "^(?:)$" matches no national number
	}
	return phoneDesc{lengths: d.GetPossibleLength(), re: compileDigits("^(?:" + p + ")$")}
}

// emptyPrefixKeeps reports whether an empty match of the national prefix
// pattern re at the start of a number leaves the number unchanged in
// Parse (maybeStripNationalPrefixAndCarrierCode): with no transform rule
// the empty prefix is cut, which cuts nothing; with one, the number is
// rewritten unless the last group is unset. The match on "" stands for the
// match on any number where only the empty prefix matches, as long as
// the pattern asserts nothing but the start of the text: no path that
// reads a digit can succeed there, so the same empty path is chosen.
func emptyPrefixKeeps(re *regexp.Regexp, transform string) bool {
	parsed, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil || !onlyBeginText(parsed) {
		return false
	}
	groups := re.FindStringSubmatchIndex("")
	if groups == nil {
		return false
	}
	return transform == "" || (len(groups) > 2 && groups[len(groups)-2] < 0)
}

// onlyBeginText reports whether re has no assertion other than ^.
func onlyBeginText(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return false
	}
	for _, sub := range re.Sub {
		if !onlyBeginText(sub) {
			return false
		}
	}
	return true
}
