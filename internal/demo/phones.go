package demo

import (
	"strconv"
	"sync"

	"github.com/nyaruka/phonenumbers"
)

// phoneBook makes valid phone numbers of one region. libphonenumber's
// example numbers are the starting point; the digits before the last
// three are varied to get several base numbers, each kept only when it and
// a sample of last-three-digit variants validate. Validation costs a few
// microseconds, so it happens once per region, lazily, and generation
// then only appends three digits.
type phoneBook struct {
	region string
	once   sync.Once
	lines  [2]phoneLine // fixed line, mobile
}

type phoneLine struct {
	prefixes []string // E.164 without the last three digits, free to vary
	full     []string // validated numbers, when no prefix is free
}

const (
	phoneFixed = iota
	phoneMobile
)

func (pb *phoneBook) init() {
	pb.once.Do(func() {
		types := [2]phoneNumbers{phonenumbers.FIXED_LINE, phonenumbers.MOBILE}
		r := rng{s: mix64(uint64(pb.region[0])<<8 | uint64(pb.region[1]))}
		for k, typ := range types {
			pb.lines[k] = buildPhoneLine(&r, pb.region, typ)
		}
		// Regions whose metadata lumps both types together answer for one.
		if len(pb.lines[0].prefixes)+len(pb.lines[0].full) == 0 {
			pb.lines[0] = pb.lines[1]
		}
		if len(pb.lines[1].prefixes)+len(pb.lines[1].full) == 0 {
			pb.lines[1] = pb.lines[0]
		}
	})
}

type phoneNumbers = phonenumbers.PhoneNumberType

func buildPhoneLine(r *rng, region string, typ phoneNumbers) phoneLine {
	var pl phoneLine
	ex := phonenumbers.GetExampleNumberForType(region, typ)
	if ex == nil || !phonenumbers.IsValidNumber(ex) {
		return pl
	}
	nat := ex.GetNationalNumber()
	// lastThree varies the last three digits of a national number.
	lastThree := func(base uint64) *phonenumbers.PhoneNumber {
		return withNational(ex, base-base%1000+uint64(r.intn(1000)))
	}
	free := func(n *phonenumbers.PhoneNumber) bool {
		for j := 0; j < 8; j++ {
			if !phonenumbers.IsValidNumber(lastThree(n.GetNationalNumber())) {
				return false
			}
		}
		return true
	}
	addPrefix := func(n *phonenumbers.PhoneNumber) {
		e := phonenumbers.Format(n, phonenumbers.E164)
		pl.prefixes = append(pl.prefixes, e[:len(e)-3])
	}
	if nat >= 1_000_000 && free(ex) {
		addPrefix(ex)
		// Vary the three digits above the last three for more bases.
		for try := 0; try < 24 && len(pl.prefixes) < 12; try++ {
			n := withNational(ex, nat-nat%1_000_000+uint64(r.intn(1000))*1000)
			if phonenumbers.IsValidNumber(n) && free(n) {
				addPrefix(n)
			}
		}
	}
	if len(pl.prefixes) == 0 {
		seen := map[string]bool{}
		for try := 0; try < 200 && len(pl.full) < 64; try++ {
			n := lastThree(nat)
			if phonenumbers.IsValidNumber(n) {
				if e := phonenumbers.Format(n, phonenumbers.E164); !seen[e] {
					seen[e] = true
					pl.full = append(pl.full, e)
				}
			}
		}
		if len(pl.full) == 0 {
			pl.full = []string{phonenumbers.Format(ex, phonenumbers.E164)}
		}
	}
	return pl
}

// number returns a phone number of the given line type, "" when the
// region has none.
func (pb *phoneBook) number(r *rng, kind int) string {
	pb.init()
	pl := &pb.lines[kind]
	if len(pl.prefixes) > 0 {
		p := pick(r, pl.prefixes)
		var buf [24]byte
		b := append(buf[:0], p...)
		d := r.intn(1000)
		b = append(b, byte('0'+d/100), byte('0'+d/10%10), byte('0'+d%10))
		return string(b)
	}
	if len(pl.full) > 0 {
		return pick(r, pl.full)
	}
	return ""
}

// phoneSummary is for tests: how many bases or numbers a region has.
func (pb *phoneBook) summary() string {
	pb.init()
	return strconv.Itoa(len(pb.lines[0].prefixes)) + "/" + strconv.Itoa(len(pb.lines[0].full)) + " " +
		strconv.Itoa(len(pb.lines[1].prefixes)) + "/" + strconv.Itoa(len(pb.lines[1].full))
}

// withNational copies a number's country and leading-zero fields with
// another national number (PhoneNumber is a protobuf message: no struct
// copies).
func withNational(ex *phonenumbers.PhoneNumber, national uint64) *phonenumbers.PhoneNumber {
	return &phonenumbers.PhoneNumber{
		CountryCode:          ex.CountryCode,
		NationalNumber:       &national,
		ItalianLeadingZero:   ex.ItalianLeadingZero,
		NumberOfLeadingZeros: ex.NumberOfLeadingZeros,
	}
}
