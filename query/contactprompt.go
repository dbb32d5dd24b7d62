package query

import (
	"context"
	"fmt"
	"regexp"
	"strings"
)

// productRe finds a prompt that describes what the companies make or sell
// ("at companies selling payroll software"): a company-level signal that
// company discovery answers better than contact text.
var productRe = regexp.MustCompile(`(?i)\b(selling|sells|that sell|offering|that offer|that make|making|makers of|building|that build|providers of|vendors of|using|built on|powered by)\b`)

// PersonaExtraction is what a contact prompt says about the people.
type PersonaExtraction struct {
	Seniority  []string
	Department []string
	Titles     []string // title terms (acronyms and "head of X" phrases)
	Text       string   // the semantic text left
}

// personaWords map words of a prompt to seniorities and departments.
// C-suite acronyms are titles, not departments: a CTO's department may be
// Executive or Technology depending on the data.
var (
	seniorityWords = map[string]string{
		"ceo": "executive", "ceos": "executive", "cto": "executive", "ctos": "executive", "cfo": "executive", "cfos": "executive",
		"coo": "executive", "cmo": "executive", "cmos": "executive", "cio": "executive", "cios": "executive", "ciso": "executive",
		"cisos": "executive", "cro": "executive", "cpo": "executive", "founder": "executive", "founders": "executive",
		"co-founder": "executive", "co-founders": "executive", "cofounders": "executive", "owner": "executive", "owners": "executive",
		"executives": "executive", "c-level": "executive", "c-suite": "executive", "president": "executive",
		"vp": "vp", "vps": "vp", "svp": "vp", "evp": "vp", "vice": "vp",
		"director": "director", "directors": "director", "head": "director", "heads": "director",
		"manager": "manager", "managers": "manager", "lead": "manager", "leads": "manager",
		"engineers": "senior_ic", "engineer": "senior_ic", "developers": "mid_level", "developer": "mid_level",
		"sdrs": "entry_level", "sdr": "entry_level", "bdrs": "entry_level", "interns": "entry_level", "junior": "entry_level",
	}
	departmentWords = map[string]string{
		"sales": "Sales - Marketing", "marketing": "Sales - Marketing", "growth": "Sales - Marketing", "revenue": "Sales - Marketing",
		"sdrs": "Sales - Marketing", "sdr": "Sales - Marketing", "bdrs": "Sales - Marketing",
		"engineering": "Technology", "engineers": "Technology", "engineer": "Technology", "developers": "Technology", "developer": "Technology",
		"technology": "Technology", "it": "Technology", "devops": "Technology",
		"security": "Technology", "data": "Technology",
		"finance": "Finance", "financial": "Finance", "accounting": "Finance", "controllers": "Finance",
		"hr": "Human Resources", "people": "Human Resources", "talent": "Human Resources", "recruiting": "Human Resources", "recruiters": "Human Resources",
		"legal": "Legal", "counsel": "Legal", "lawyers": "Legal", "compliance": "Legal",
		"operations": "Operations", "ops": "Operations", "procurement": "Operations", "purchasing": "Operations", "logistics": "Operations",
		"support": "Customer Service", "success": "Customer Service", "service": "Customer Service",
		"research": "Research & Development", "r&d": "Research & Development", "scientists": "Research & Development",
		"medical": "Medical - Science", "clinical": "Medical - Science", "doctors": "Medical - Science", "physicians": "Medical - Science",
		"pr": "Public Relations", "communications": "Public Relations", "investor": "Investor Relations",
		"founders": "Executive", "founder": "Executive", "executives": "Executive", "owners": "Executive",
	}
)

// ExtractPersona reads the people part of a contact prompt ("VPs of sales
// at fintech companies in Germany").
func ExtractPersona(prompt string) PersonaExtraction {
	var x PersonaExtraction
	words := tokenize(prompt)
	var keep []string
	for i, w := range words {
		t := strings.TrimSuffix(w.text, "'s")
		used := false
		if s, ok := seniorityWords[t]; ok && !(t == "vice" && (i+1 >= len(words) || words[i+1].text != "president" && words[i+1].text != "presidents")) {
			if !(t == "lead" || t == "leads") || i > 0 {
				x.Seniority = appendNew(x.Seniority, s)
				used = true
			}
		}
		if d, ok := departmentWords[t]; ok {
			x.Department = appendNew(x.Department, d)
			used = true
		}
		if _, ok := cSuite[strings.TrimSuffix(t, "s")]; ok {
			x.Titles = appendNew(x.Titles, strings.ToUpper(strings.TrimSuffix(t, "s")))
		}
		if (t == "head" || t == "heads") && i+2 < len(words) && words[i+1].text == "of" {
			x.Titles = appendNew(x.Titles, "head of "+words[i+2].text)
		}
		if !used {
			keep = append(keep, w.raw)
		}
	}
	// Only words that carry meaning make a semantic text.
	for _, k := range keep {
		if !stopWords[strings.ToLower(k)] && len(k) > 2 {
			x.Text = strings.Join(keep, " ")
			break
		}
	}
	return x
}

// applyPrompt merges a contact prompt into d: persona filters, person
// country, company industry and size; when the prompt names company-level
// signals (vendors, revenue) it runs company discovery first and returns
// the domains contacts are searched at.
func (s *ContactService) applyPrompt(ctx context.Context, d *ContactDiscover, pl *contactPlan) ([]string, error) {
	company := ExtractPrompt(d.ICPPrompt)
	persona := ExtractPersona(company.ICPText)
	seniorityFromPrompt := len(d.Seniority) == 0
	if seniorityFromPrompt {
		d.Seniority = persona.Seniority
	}
	if len(d.Department) == 0 {
		d.Department = persona.Department
	}
	if len(d.Title) == 0 && len(persona.Titles) > 0 {
		terms, err := ParseTitles(persona.Titles)
		if err == nil {
			d.Title = terms
			if seniorityFromPrompt {
				d.Seniority = nil // the titles say it more precisely
			}
		}
	}
	if len(d.PersonCountry) == 0 && len(d.Country) == 0 {
		d.PersonCountry = company.Countries
		if len(d.PersonState) == 0 && len(company.Countries) == 1 {
			d.PersonState = company.States
		}
	}
	if len(d.Industry) == 0 {
		d.Industry = company.Categories
	}
	if d.Employees == nil {
		d.Employees = company.Employees
	}
	if d.ICPText == "" {
		d.ICPText = persona.Text
	}
	if len(company.VendorNames) == 0 && company.Revenue == nil && !productRe.MatchString(d.ICPPrompt) {
		return nil, nil
	}
	// Company-level signals: find the companies first.
	cd := Discover{ICPPrompt: d.ICPPrompt, MaxRecords: 1000, MinScore: 0, MaxScore: MaxScore, Consensus: 1,
		Variance: defaultVariance, ExcludeLeadgen: true}
	res, err := s.Companies.Discover(ctx, cd)
	if err != nil {
		return nil, fmt.Errorf("company discovery for the prompt: %w", err)
	}
	domains := make([]string, 0, len(res.Matches))
	for _, m := range res.Matches {
		domains = append(domains, m.Company.Domain)
	}
	pl.notes = append(pl.notes, fmt.Sprintf("the prompt names company signals (tech stack, revenue or product): contacts searched at the %d companies company discovery found", len(domains)))
	if len(domains) == 0 {
		domains = []string{} // nothing matches
	}
	return domains, nil
}
