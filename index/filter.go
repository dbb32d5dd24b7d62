package index

import "fmt"

// Field names a filterable company attribute. The set is closed: every
// backend maps each field to its own representation.
type Field string

// Filterable fields. Keyword fields match exact values; ScoreField is
// numeric; StartDateField is a YYYY-MM-DD date; the Has* fields are
// existence checks usable with Exists; TextField is site text and
// description, usable with Phrase.
const (
	DomainField        Field = "domain"
	CountryField       Field = "country"
	StateField         Field = "state"
	CityField          Field = "city"
	IndustryField      Field = "industry"
	EmployeesField     Field = "employees"
	RevenueField       Field = "revenue_range"
	BusinessModelField Field = "business_model"
	SocialField        Field = "social"
	LanguageField      Field = "language"
	VendorField        Field = "vendor"
	SubdomainField     Field = "subdomain"
	StatusField        Field = "status"
	MXProviderField    Field = "mx_provider"
	ScoreField         Field = "score"
	StartDateField     Field = "start_date"
	RedirectField      Field = "redirect"     // Exists: the domain redirects elsewhere
	PhoneField         Field = "phone"        // Exists: at least one phone
	EmailField         Field = "public_email" // Exists: at least one public email
	SocialURLField     Field = "social_url"   // Exists: at least one social URL
	TextField          Field = "text"
)

// KeywordFields are the fields Terms accepts.
var KeywordFields = []Field{DomainField, CountryField, StateField, CityField, IndustryField, EmployeesField, RevenueField, BusinessModelField, SocialField, LanguageField, VendorField, SubdomainField, StatusField, MXProviderField}

// Filter is a node of a filter tree: Terms, Range, DateRange, Exists,
// Phrase, And, Or, Not, MatchNone.
type Filter interface{ filterNode() }

// Terms matches records whose field has any of Values (exact, case-sensitive;
// callers normalize case).
type Terms struct {
	Field  Field
	Values []string
}

// Range matches a numeric field within [Min, Max]; a nil bound is open.
type Range struct {
	Field    Field
	Min, Max *int
}

// DateRange matches a date field within [From, To] (YYYY-MM-DD, inclusive);
// an empty bound is open. Records without the date never match.
type DateRange struct {
	Field    Field
	From, To string
}

// Exists matches records where the field has a value.
type Exists struct{ Field Field }

// Phrase matches records whose text contains the phrase as consecutive
// words, case- and accent-insensitive.
type Phrase struct {
	Field Field
	Text  string
}

// And matches records every child matches; an empty And matches all.
type And []Filter

// Or matches records any child matches; an empty Or matches none.
type Or []Filter

// Not matches records its child does not match.
type Not struct{ Filter Filter }

func (Terms) filterNode()     {}
func (Range) filterNode()     {}
func (DateRange) filterNode() {}
func (Exists) filterNode()    {}
func (Phrase) filterNode()    {}
func (And) filterNode()       {}
func (Or) filterNode()        {}
func (Not) filterNode()       {}

// IntPtr is a convenience for Range bounds.
func IntPtr(v int) *int { return &v }

// Validate checks that every node names a field it can apply to.
func Validate(f Filter) error {
	switch n := f.(type) {
	case nil:
		return nil
	case Terms:
		if !isKeyword(n.Field) {
			return fmt.Errorf("%w: terms on non-keyword field %q", ErrInvalid, n.Field)
		}
	case Range:
		if n.Field != ScoreField {
			return fmt.Errorf("%w: range on non-numeric field %q", ErrInvalid, n.Field)
		}
	case DateRange:
		if n.Field != StartDateField {
			return fmt.Errorf("%w: date range on non-date field %q", ErrInvalid, n.Field)
		}
	case Exists:
		switch n.Field {
		case RedirectField, PhoneField, EmailField, SocialURLField, StartDateField, RevenueField, StateField:
		default:
			return fmt.Errorf("%w: exists on field %q", ErrInvalid, n.Field)
		}
	case Phrase:
		if n.Field != TextField {
			return fmt.Errorf("%w: phrase on non-text field %q", ErrInvalid, n.Field)
		}
	case And:
		for _, c := range n {
			if err := Validate(c); err != nil {
				return err
			}
		}
	case Or:
		for _, c := range n {
			if err := Validate(c); err != nil {
				return err
			}
		}
	case Not:
		return Validate(n.Filter)
	default:
		return fmt.Errorf("%w: unknown filter node %T", ErrInvalid, f)
	}
	return nil
}

func isKeyword(f Field) bool {
	for _, k := range KeywordFields {
		if k == f {
			return true
		}
	}
	return false
}
