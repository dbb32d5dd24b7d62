package ingest

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/nyaruka/phonenumbers"
)

// libraryPhone is what normalizePhone must return: the library's own
// Parse, IsValidNumber and E.164 format.
func libraryPhone(p, country string) string {
	if country == "" {
		country = "ZZ"
	}
	n, err := phonenumbers.Parse(p, country)
	if err != nil || !phonenumbers.IsValidNumber(n) {
		return ""
	}
	return phonenumbers.Format(n, phonenumbers.E164)
}

// TestPhoneMatchesLibrary compares normalizePhone with the library on the
// example numbers of every region and number type, in E.164 and national
// form, and on variants of them one digit shorter, longer or changed.
func TestPhoneMatchesLibrary(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	regions := make([]string, 0, len(phonenumbers.GetSupportedRegions()))
	for region := range phonenumbers.GetSupportedRegions() {
		regions = append(regions, region)
	}
	slices.Sort(regions)
	types := []phonenumbers.PhoneNumberType{
		phonenumbers.FIXED_LINE, phonenumbers.MOBILE, phonenumbers.TOLL_FREE, phonenumbers.PREMIUM_RATE,
		phonenumbers.SHARED_COST, phonenumbers.VOIP, phonenumbers.PERSONAL_NUMBER, phonenumbers.PAGER,
		phonenumbers.UAN, phonenumbers.VOICEMAIL,
	}
	var checked, valid, fast int
	check := func(p, country string) {
		t.Helper()
		checked++
		got, want := normalizePhone(p, country), libraryPhone(p, country)
		if got != want {
			t.Errorf("normalizePhone(%q, %q) = %q, library gives %q", p, country, got, want)
		}
		if want != "" {
			valid++
		}
		if _, _, ok := plainE164(p); ok {
			fast++
		}
	}
	for _, region := range regions {
		for _, typ := range types {
			ex := phonenumbers.GetExampleNumberForType(region, typ)
			if ex == nil {
				continue
			}
			e164 := phonenumbers.Format(ex, phonenumbers.E164)
			national := phonenumbers.Format(ex, phonenumbers.NATIONAL)
			variants := []string{e164, e164[:len(e164)-1], e164 + "5", national}
			for range 3 {
				b := []byte(e164)
				b[2+r.IntN(len(b)-2)] = byte('0' + r.IntN(10))
				variants = append(variants, string(b))
			}
			for _, v := range variants {
				for _, country := range []string{region, "US", ""} {
					check(v, country)
				}
			}
		}
	}
	// Formats people type, and numbers that are not numbers.
	for _, tc := range [][2]string{
		{"+1 (512) 555-0100", "US"}, {"(512) 555-0100", "US"}, {"512.555.0100", ""}, {"+44 (0)20 7946 0018", "GB"},
		{"0049 30 123456", "DE"}, {"+49 30 123456 ext. 12", "DE"}, {"tel:+1-201-555-0123", "US"}, {"+390612345678", "IT"},
		{"+79123456789", "RU"}, {"+77012345678", "KZ"}, {"+18095551234", "DO"}, {"+12425551234", "BS"},
		{"+800 1234 5678", ""}, {"+8822 1234 5678", ""}, {"not a phone", "US"}, {"", "US"}, {"+", ""}, {"+0123456789", ""},
		{"+99912345678", ""}, {"+1234567890123456789", ""}, {"+12015550123", "XX"},
	} {
		check(tc[0], tc[1])
	}
	if valid < 1000 || fast < 1000 {
		t.Fatalf("too few cases exercised: %d checked, %d valid, %d on the fast path", checked, valid, fast)
	}
	t.Logf("%d numbers checked, %d valid, %d on the E.164 fast path", checked, valid, fast)
}

// phoneCases are numbers around the E.164 fast path's edges: Italian
// leading zeros, Argentina's national prefix that may match empty (and
// its "15" mobile prefix, which it does strip), regions whose prefix is a
// plain digit, and numbers that are not numbers.
var phoneCases = [][2]string{
	{"+390212171027", "IT"}, {"+390669252578", "VA"}, {"+390000000000", ""}, {"+39000000000000000", ""},
	{"+3900", ""}, {"+39012", "IT"}, {"+393123456789", "IT"}, {"+541123298673", "AR"}, {"+5491123733275", "AR"},
	{"+541115123456789", "AR"}, {"+5401123298673", ""}, {"+549115123456", "AR"}, {"+542214567890", ""},
	{"+12015368074", "US"}, {"+11201536807", "US"}, {"+15145550123", "CA"}, {"+4402079460018", "GB"},
	{"+442079460018", ""}, {"+74951234567", "RU"}, {"+78123456789", ""}, {"+5521987654321", "BR"},
	{"+55021987654321", "BR"}, {"+52155123456789", "MX"}, {"+5215512345678", ""}, {"+8613812345678", "CN"},
	{"+861381234567", ""}, {"+80012345678", ""}, {"+999", ""}, {"+1", "US"}, {"+12345", ""}, {"12015368074", "US"},
}

// checkPhone fails when normalizePhone differs from the library, or when
// the fast path splits a number otherwise than the library's Parse.
func checkPhone(t *testing.T, p, country string) {
	t.Helper()
	if got, want := normalizePhone(p, country), libraryPhone(p, country); got != want {
		t.Errorf("normalizePhone(%q, %q) = %q, library gives %q", p, country, got, want)
	}
	cc, nsn, ok := plainE164(p)
	if !ok {
		return
	}
	n, err := phonenumbers.Parse(p, "ZZ")
	if err != nil {
		t.Errorf("plainE164(%q) = %d, %q; Parse fails: %v", p, cc, nsn, err)
		return
	}
	if int(n.GetCountryCode()) != cc || phonenumbers.GetNationalSignificantNumber(n) != nsn {
		t.Errorf("plainE164(%q) = %d, %q; Parse gives %d, %q", p, cc, nsn, n.GetCountryCode(), phonenumbers.GetNationalSignificantNumber(n))
	}
}

func TestPhoneEdges(t *testing.T) {
	for _, tc := range phoneCases {
		for _, country := range []string{tc[1], "", "US", "IT", "AR"} {
			checkPhone(t, tc[0], country)
		}
	}
}

func FuzzPhoneMatchesLibrary(f *testing.F) {
	for _, tc := range phoneCases {
		f.Add(tc[0], tc[1])
	}
	f.Fuzz(func(t *testing.T, p, country string) {
		if len(country) > 3 {
			country = country[:3]
		}
		checkPhone(t, p, country)
		// Most mutations are not "+<digits>": check the E.164 form of
		// the same digits too, which the fast path reads.
		digits := []byte{'+'}
		for i := 0; i < len(p); i++ {
			if p[i] >= '0' && p[i] <= '9' {
				digits = append(digits, p[i])
			}
		}
		checkPhone(t, string(digits), country)
	})
}

// TestFusedDescMatchesPatterns compares each region's fused DFA with its
// patterns checked one by one, on every example number of the metadata,
// their prefixes, extensions and one-digit changes, and random digits.
func TestFusedDescMatchesPatterns(t *testing.T) {
	coll, err := phonenumbers.MetadataCollection()
	if err != nil {
		t.Fatal(err)
	}
	var examples []string
	for _, md := range coll.GetMetadata() {
		for _, d := range []*phonenumbers.PhoneNumberDesc{
			md.GetGeneralDesc(), md.GetFixedLine(), md.GetMobile(), md.GetTollFree(), md.GetPremiumRate(), md.GetSharedCost(),
			md.GetVoip(), md.GetPersonalNumber(), md.GetPager(), md.GetUan(), md.GetVoicemail(),
		} {
			if ex := d.GetExampleNumber(); ex != "" {
				examples = append(examples, ex)
			}
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	var regions, fused, valid int
	for cc := range len(phoneCodes) {
		for _, region := range phoneMetadata(cc).regions {
			regions++
			if region.fused == nil {
				continue
			}
			fused++
			check := func(nsn string) {
				if got, want := region.valid(nsn), region.validByDesc(nsn); got != want {
					t.Fatalf("calling code %d: valid(%q) = %v, pattern by pattern %v", cc, nsn, got, want)
				} else if got {
					valid++
				}
			}
			check("")
			check("12a4")
			for _, ex := range examples {
				check(ex)
			}
			for range 200 {
				ex := []byte(examples[r.IntN(len(examples))])
				check(string(ex[:r.IntN(len(ex)+1)]))
				check(string(ex) + string('0'+byte(r.IntN(10))))
				ex[r.IntN(len(ex))] = '0' + byte(r.IntN(10))
				check(string(ex))
				var b strings.Builder
				for range r.IntN(20) {
					b.WriteByte('0' + byte(r.IntN(10)))
				}
				check(b.String())
			}
		}
	}
	if fused < regions*9/10 || valid < 1000 {
		t.Errorf("%d of %d regions fused, %d valid numbers checked", fused, regions, valid)
	}
	t.Logf("%d of %d regions fused, %d valid numbers checked", fused, regions, valid)
}

func FuzzFusedDesc(f *testing.F) {
	f.Add(uint16(1), "2015368074")
	f.Add(uint16(39), "0212171027")
	f.Add(uint16(44), "2079460018")
	f.Add(uint16(7), "9123456789")
	f.Fuzz(func(t *testing.T, cc uint16, nsn string) {
		for _, region := range phoneMetadata(int(cc % 1000)).regions {
			if got, want := region.valid(nsn), region.validByDesc(nsn); got != want {
				t.Fatalf("calling code %d: valid(%q) = %v, pattern by pattern %v", cc%1000, nsn, got, want)
			}
		}
	})
}
