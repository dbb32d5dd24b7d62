package record

// Contact is a business contact as ingested, stored and served. Field
// names follow the spec's "Contact record" table. The employer fields
// (CompanyName, Industry, Employees, RevenueRange, CompanyCountry,
// CompanyState) are copied from the company index when the contact is
// indexed and refreshed when the company is re-indexed, so company
// filters need no join.
type Contact struct {
	PersonaID      int64    `json:"persona_id"`
	Domain         string   `json:"domain"`
	Name           string   `json:"name"`
	Title          string   `json:"title,omitempty"`
	Department     string   `json:"department,omitempty"`
	Seniority      string   `json:"seniority,omitempty"`
	Skills         []string `json:"skills,omitempty"`
	Phones         []string `json:"phones,omitempty"` // E.164; the type is derived on each read
	Email          string   `json:"email,omitempty"`
	EmailValidated bool     `json:"email_validated,omitempty"`
	SocialURLs     []string `json:"social_urls,omitempty"`
	Connections    int      `json:"connections,omitempty"`
	Country        string   `json:"country,omitempty"` // where the person is, ISO-3166-1 alpha-2
	State          string   `json:"state,omitempty"`   // ISO 3166-2
	JobStartDate   string   `json:"jobstart_date,omitempty"`
	Summary        string   `json:"summary,omitempty"`

	CompanyName    string   `json:"company_name,omitempty"`
	Industry       []string `json:"industry,omitempty"`
	Employees      string   `json:"employees,omitempty"`
	RevenueRange   string   `json:"revenue_range,omitempty"`
	CompanyCountry string   `json:"company_country,omitempty"`
	CompanyState   string   `json:"company_state,omitempty"`
}

// Departments are the 15 canonical departments (exact, case-sensitive).
var Departments = []string{
	"Operations", "Executive", "Technology", "Sales - Marketing", "Finance", "Legal", "Human Resources",
	"Medical - Science", "Customer Service", "Research & Development", "Administration", "Public Relations",
	"Investor Relations", "Pro Services", "Other",
}

// Seniorities are the seniority levels, highest first.
var Seniorities = []string{"executive", "vp", "director", "manager", "senior_ic", "mid_level", "entry_level"}

// IsDepartment and IsSeniority report membership (exact).
func IsDepartment(s string) bool { return indexOf(Departments, s) >= 0 }
func IsSeniority(s string) bool  { return indexOf(Seniorities, s) >= 0 }

// LinkedIn returns the contact's LinkedIn profile URL, or "".
func (c *Contact) LinkedIn() string {
	for _, u := range c.SocialURLs {
		if SocialNetworkOf(u) == "linkedin" {
			return u
		}
	}
	return ""
}

// SetEmployer copies a company's firmographics onto the contact.
func (c *Contact) SetEmployer(co Company) {
	c.CompanyName = co.Name
	c.Industry = co.Industries()
	c.Employees = co.Employees
	c.RevenueRange = co.RevenueRange
	c.CompanyCountry = co.Address.Country
	c.CompanyState = co.Address.State
}
