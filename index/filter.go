package index

import "fmt"

// Field names a filterable company attribute. The set is closed: every
// backend maps each field to its own representation.
type Field string

// Filterable fields. Keyword fields match exact values; ScoreField is
// numeric, and Exists on it matches a known score (1-800: a score of 0 is
// unknown, which Range{Min: 0} includes and any Min above 0 excludes); StartDateField is a YYYY-MM-DD date; the Has* fields are
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

// Contact fields. Contacts also carry their employer's DomainField,
// IndustryField, CountryField, StateField, EmployeesField and
// RevenueField, so company filters apply to contacts unchanged.
const (
	PersonaIDField      Field = "persona_id"
	SeniorityField      Field = "seniority"
	DepartmentField     Field = "department"
	SkillField          Field = "skill"          // lower-cased skills
	PersonCountryField  Field = "person_country" // where the person is
	PersonStateField    Field = "person_state"
	ContactEmailField   Field = "email"    // Terms: exact, lower-cased; Exists: has an email
	LinkedInField       Field = "linkedin" // Terms: lower-cased profile handle; Exists: has a LinkedIn URL
	EmailValidatedField Field = "email_validated"
	MobileField         Field = "mobile" // Exists: at least one mobile phone
	ConnectionsField    Field = "connections"
	JobStartField       Field = "jobstart_date"
	TitleField          Field = "title" // Phrase
	NameField           Field = "name"  // Phrase
)

// ContactKeywordFields are the fields Terms accepts in contact filters.
var ContactKeywordFields = []Field{DomainField, IndustryField, CountryField, StateField, EmployeesField, RevenueField,
	PersonaIDField, SeniorityField, DepartmentField, SkillField, PersonCountryField, PersonStateField, ContactEmailField, LinkedInField}

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
	// Key, when set, names Values: every Terms node with the same Key
	// and Field holds the same values (a saved list, which never
	// changes). An engine may keep what it derives from a long list (the
	// embedded engine: a bitmap of its documents) until its next write
	// instead of resolving every value on every request. Empty for ad hoc
	// lists.
	Key string
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

// Validate checks that every node of a company filter names a field it
// can apply to.
func Validate(f Filter) error { return validate(f, companyRules) }

// ValidateContact checks a contact filter.
func ValidateContact(f Filter) error { return validate(f, contactRules) }

type rules struct {
	keyword, numeric, date, exists, phrase []Field
}

var (
	companyRules = rules{
		keyword: KeywordFields, numeric: []Field{ScoreField}, date: []Field{StartDateField},
		exists: []Field{RedirectField, PhoneField, EmailField, SocialURLField, StartDateField, RevenueField, StateField, ScoreField},
		phrase: []Field{TextField},
	}
	contactRules = rules{
		keyword: ContactKeywordFields, numeric: []Field{ConnectionsField}, date: []Field{JobStartField},
		exists: []Field{ContactEmailField, EmailValidatedField, PhoneField, MobileField, LinkedInField, JobStartField, RevenueField},
		phrase: []Field{TitleField, NameField},
	}
)

func has(list []Field, f Field) bool {
	for _, k := range list {
		if k == f {
			return true
		}
	}
	return false
}

func validate(f Filter, r rules) error {
	switch n := f.(type) {
	case nil:
		return nil
	case Terms:
		if !has(r.keyword, n.Field) {
			return fmt.Errorf("%w: terms on non-keyword field %q", ErrInvalid, n.Field)
		}
	case Range:
		if !has(r.numeric, n.Field) {
			return fmt.Errorf("%w: range on non-numeric field %q", ErrInvalid, n.Field)
		}
	case DateRange:
		if !has(r.date, n.Field) {
			return fmt.Errorf("%w: date range on non-date field %q", ErrInvalid, n.Field)
		}
	case Exists:
		if !has(r.exists, n.Field) {
			return fmt.Errorf("%w: exists on field %q", ErrInvalid, n.Field)
		}
	case Phrase:
		if !has(r.phrase, n.Field) {
			return fmt.Errorf("%w: phrase on non-text field %q", ErrInvalid, n.Field)
		}
	case And:
		for _, c := range n {
			if err := validate(c, r); err != nil {
				return err
			}
		}
	case Or:
		for _, c := range n {
			if err := validate(c, r); err != nil {
				return err
			}
		}
	case Not:
		return validate(n.Filter, r)
	default:
		return fmt.Errorf("%w: unknown filter node %T", ErrInvalid, f)
	}
	return nil
}
