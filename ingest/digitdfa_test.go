package ingest

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/nyaruka/phonenumbers"
)

// Every pattern of libphonenumber's metadata, as the phone checks compile
// it, matches what package regexp matches on digit strings: random ones,
// the metadata's example numbers, their prefixes and one-digit changes.
func TestDigitMatcherMatchesRegexp(t *testing.T) {
	coll, err := phonenumbers.MetadataCollection()
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(9, 10))
	var exprs, examples []string
	own := map[string]string{} // a pattern's own example number, which it matches
	for _, md := range coll.GetMetadata() {
		if ld := md.GetLeadingDigits(); ld != "" {
			exprs = append(exprs, "^(?:"+ld+")")
		}
		if np := md.GetNationalPrefixForParsing(); np != "" {
			exprs = append(exprs, "^(?:"+np+")")
		}
		for _, d := range []*phonenumbers.PhoneNumberDesc{
			md.GetGeneralDesc(), md.GetFixedLine(), md.GetMobile(), md.GetTollFree(), md.GetPremiumRate(), md.GetSharedCost(),
			md.GetVoip(), md.GetPersonalNumber(), md.GetPager(), md.GetUan(), md.GetVoicemail(),
		} {
			if p := d.GetNationalNumberPattern(); p != "" {
				exprs = append(exprs, "^(?:"+p+")$")
				if ex := d.GetExampleNumber(); ex != "" {
					own["^(?:"+p+")$"] = ex
				}
			}
			if ex := d.GetExampleNumber(); ex != "" {
				examples = append(examples, ex)
			}
		}
	}
	built := 0
	for _, expr := range exprs {
		m := compileDigits(expr)
		if m.next != nil {
			built++
		}
		check := func(s string) {
			if got, want := m.MatchString(s), m.re.MatchString(s); got != want {
				t.Fatalf("%s on %q: DFA %v, regexp %v", expr, s, got, want)
			}
		}
		check("")
		if ex, ok := own[expr]; ok {
			if !m.MatchString(ex) {
				t.Fatalf("%s does not match its example %s", expr, ex)
			}
			for i := range len(ex) {
				check(ex[:i])
				check(ex[:i] + string('0'+byte(r.IntN(10))) + ex[i+1:])
			}
		}
		for range 40 {
			var b strings.Builder
			for range r.IntN(18) {
				b.WriteByte('0' + byte(r.IntN(10)))
			}
			check(b.String())
		}
		for range 20 {
			ex := []byte(examples[r.IntN(len(examples))])
			check(string(ex))
			check(string(ex[:r.IntN(len(ex)+1)]))
			ex[r.IntN(len(ex))] = '0' + byte(r.IntN(10))
			check(string(ex))
		}
		check("12a4") // not digits: the regexp answers
	}
	if built < len(exprs)*95/100 {
		t.Errorf("a DFA was built for %d of %d patterns", built, len(exprs))
	}
	t.Logf("%d patterns, %d with a DFA", len(exprs), built)
}
