package record

// Phone is a contact's number with its type, derived on each call.
type Phone struct {
	Phone string `json:"phone" doc:"E.164"`
	Type  string `json:"type" enum:"mobile,landline"`
}

// ContactOut is a contact as the API returns it (spec: Contact record),
// here rather than in api/ because task results (contact bulk match) are
// shaped by the task body.
type ContactOut struct {
	PersonaID      int64    `json:"persona_id"`
	Domain         string   `json:"domain"`
	Name           string   `json:"name"`
	Title          *string  `json:"title"`
	Department     *string  `json:"department"`
	Seniority      *string  `json:"seniority"`
	Skills         []string `json:"skills"`
	Phone          []Phone  `json:"phone"`
	Email          *string  `json:"email"`
	EmailValidated bool     `json:"email_validated"`
	SocialURLs     []string `json:"social_urls"`
	Connections    int      `json:"connections"`
	Country        string   `json:"country"`
	State          string   `json:"state"`
	Industry       []string `json:"industry"`
	Employees      string   `json:"employees"`
	RevenueRange   *string  `json:"revenue_range" doc:"Employer revenue bucket; null when unknown"`
	JobstartDate   *string  `json:"jobstart_date"`
	Similarity     *int     `json:"similarity,omitempty" doc:"0-100, in similarity mode"`
	Summary        *string  `json:"summary"`
	CompanyName    string   `json:"company_name"`
}

// ContactOf shapes a stored contact; sim is its similarity in similarity
// mode.
func ContactOf(c Contact, sim *int) ContactOut {
	out := ContactOut{
		PersonaID: c.PersonaID, Domain: c.Domain, Name: c.Name, Title: OptionalText(c.Title), Department: OptionalText(c.Department),
		Seniority: OptionalText(c.Seniority), Skills: List(c.Skills), Phone: []Phone{}, Email: OptionalText(c.Email),
		EmailValidated: c.Email != "" && c.EmailValidated, SocialURLs: List(c.SocialURLs), Connections: c.Connections,
		Country: c.Country, State: c.State, Industry: List(c.Industry), Employees: c.Employees, RevenueRange: OptionalText(c.RevenueRange),
		JobstartDate: OptionalText(c.JobStartDate), Similarity: sim, Summary: OptionalText(c.Summary), CompanyName: c.CompanyName,
	}
	for _, p := range c.Phones {
		if t := PhoneType(p); t != "" {
			out.Phone = append(out.Phone, Phone{Phone: p, Type: t})
		}
	}
	return out
}
