package record

import "github.com/nyaruka/phonenumbers"

// Phone types of a contact's numbers.
const (
	PhoneMobile   = "mobile"
	PhoneLandline = "landline"
)

// PhoneType derives a number's type with libphonenumber's metadata:
// mobile for mobile (and pager) ranges, landline otherwise. Numbers the
// metadata cannot tell apart (FIXED_LINE_OR_MOBILE, as in the US and
// Canada) are landline: has_mobile promises a number known to be mobile.
// It returns "" for a number that does not parse.
func PhoneType(e164 string) string {
	n, err := phonenumbers.Parse(e164, "")
	if err != nil {
		return ""
	}
	switch phonenumbers.GetNumberType(n) {
	case phonenumbers.MOBILE, phonenumbers.PAGER:
		return PhoneMobile
	}
	return PhoneLandline
}
