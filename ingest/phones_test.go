package ingest

import (
	"math/rand/v2"
	"slices"
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
