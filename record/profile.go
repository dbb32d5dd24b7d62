package record

// Profile is a company profile as the API returns it: the spec's profile
// fields plus revenue_range, business_models and languages. Site text,
// vendors and subdomains are append datasets and are not part of it.
type Profile struct {
	Domain         string             `json:"domain" doc:"Normalized root domain; unique identifier"`
	Name           string             `json:"name"`
	Status         Status             `json:"status"`
	Score          int                `json:"score" doc:"Digital footprint score, 1-800"`
	StartDate      *string            `json:"start_date" doc:"Estimated company start (YYYY-MM-DD)"`
	EndDate        *string            `json:"end_date" doc:"Last certificate date when closed; null when active"`
	Address        Address            `json:"address"`
	Phones         []string           `json:"phones"`
	PublicEmails   []string           `json:"public_emails"`
	SocialURLs     []string           `json:"social_urls"`
	Description    string             `json:"description"`
	Keywords       map[string]float64 `json:"keywords"`
	IndustryGroups map[string]float64 `json:"industry_groups" doc:"Top 2 industry labels -> score"`
	Employees      string             `json:"employees" enum:"1-10,11-50,51-200,201-500,501-1000,1001-5000,5001-10000,10001+,"`
	RedirectDomain *string            `json:"redirect_domain"`
	UpdateDate     *string            `json:"update_date"`
	MXProvider     string             `json:"mx_provider"`
	RevenueRange   *string            `json:"revenue_range" doc:"Revenue bucket; null when unknown"`
	BusinessModels []string           `json:"business_models"`
	Languages      []string           `json:"languages"`
}

// ProfileOf shapes a stored company for the API: lists are never null.
func ProfileOf(c Company) Profile {
	return Profile{
		Domain: c.Domain, Name: c.Name, Status: c.Status, Score: c.Score,
		StartDate: OptionalText(c.StartDate), EndDate: c.EndDate, Address: c.Address,
		Phones: List(c.Phones), PublicEmails: List(c.PublicEmails), SocialURLs: List(c.SocialURLs),
		Description: c.Description, Keywords: Scores(c.Keywords), IndustryGroups: Scores(c.IndustryGroups),
		Employees: c.Employees, RedirectDomain: c.RedirectDomain, UpdateDate: OptionalText(c.UpdateDate),
		MXProvider: c.MXProvider, RevenueRange: OptionalText(c.RevenueRange),
		BusinessModels: List(c.BusinessModels), Languages: List(c.Languages),
	}
}

// OptionalText is s, or nil (JSON null) when s is empty.
func OptionalText(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// List is s, or an empty list (JSON []) when s is nil.
func List(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Scores is m, or an empty object (JSON {}) when m is nil.
func Scores(m map[string]float64) map[string]float64 {
	if m == nil {
		return map[string]float64{}
	}
	return m
}
