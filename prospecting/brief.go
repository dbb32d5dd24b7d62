package prospecting

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// BriefQuantities are the quantities a reader found in a brief.
type BriefQuantities struct {
	Target, ContactsPer int // 0 when the brief gives none
	AccountsOnly        bool
	// Questions ask about ambiguous or out-of-range quantities.
	Questions []string
}

var (
	numberWords = map[string]int{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
		"a": 1, "an": 1, "a couple of": 2, "a few": 3}
	numPat      = `(\d[\d,_.]*k?|one|two|three|four|five|six|seven|eight|nine|ten)`
	companiesRe = regexp.MustCompile(`(?i)\b` + numPat + `\s+(?:[\p{L}\d&-]+\s+){0,3}?(?:companies|company|accounts|businesses|firms|organizations|organisations|brands|startups|agencies|vendors|retailers|manufacturers|banks|lookalikes)\b`)
	peopleRe    = regexp.MustCompile(`(?i)\b` + numPat + `\s+(?:[a-z-]+\s+){0,3}?(?:people|persons|contacts|decision[- ]makers|executives|leads|leaders|heads|managers|directors|officers|founders|vps|buyers|stakeholders|employees)\s+(?:at|per|in|from|for)\s+(?:each|every|per|the|those|these)?`)
	accountsRe  = regexp.MustCompile(`(?i)\b(companies only|only companies|just companies|accounts only|only accounts|just accounts|no contacts|without contacts|no people|list of companies|company list|account list)\b`)
)

// ReadBrief extracts quantities from a brief, as icp_prompt extraction
// does for filters: rule-based, the same brief always gives the same
// answer.
func ReadBrief(brief string) BriefQuantities {
	var q BriefQuantities
	per := map[int]bool{}
	for _, m := range peopleRe.FindAllStringSubmatch(brief, -1) {
		if n, ok := parseCount(m[1]); ok {
			per[n] = true
			q.ContactsPer = n
		}
	}
	// "3 contacts per company" names no company count.
	rest := peopleRe.ReplaceAllString(brief, " ")
	targets := map[int]bool{}
	for _, m := range companiesRe.FindAllStringSubmatch(rest, -1) {
		if n, ok := parseCount(m[1]); ok {
			targets[n] = true
			q.Target = n
		}
	}
	if len(targets) > 1 {
		q.Questions = append(q.Questions, fmt.Sprintf("The brief names several company counts (%s); which is the target? Set target_companies in the plan.", joinCounts(targets)))
		q.Target = 0
	} else if q.Target != 0 && (q.Target < 1 || q.Target > MaxTarget) {
		q.Questions = append(q.Questions, fmt.Sprintf("The brief asks for %d companies; a run takes 1-%d. Set target_companies in the plan.", q.Target, MaxTarget))
		q.Target = 0
	}
	if len(per) > 1 {
		q.Questions = append(q.Questions, fmt.Sprintf("The brief names several contact counts per company (%s); which one? Set contacts_per_company in the plan.", joinCounts(per)))
		q.ContactsPer = 0
	} else if q.ContactsPer != 0 && (q.ContactsPer < 1 || q.ContactsPer > MaxContactsPer) {
		q.Questions = append(q.Questions, fmt.Sprintf("The brief asks for %d people per company; a run takes 1-%d. Set contacts_per_company in the plan.", q.ContactsPer, MaxContactsPer))
		q.ContactsPer = 0
	}
	q.AccountsOnly = accountsRe.MatchString(brief)
	return q
}

func parseCount(s string) (int, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	if n, ok := numberWords[s]; ok {
		return n, true
	}
	mult := 1
	if strings.HasSuffix(s, "k") {
		mult, s = 1000, strings.TrimSuffix(s, "k")
	}
	s = strings.NewReplacer(",", "", "_", "").Replace(s)
	if mult == 1000 {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return 0, false
		}
		return int(f * 1000), true
	}
	s = strings.TrimRight(s, ".")
	if strings.Contains(s, ".") {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	if err != nil || n > 10_000_000 {
		return 0, false
	}
	return n, true
}

func joinCounts(m map[int]bool) string {
	ns := make([]int, 0, len(m))
	for n := range m {
		ns = append(ns, n)
	}
	slices.Sort(ns)
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ", ")
}

// countRe finds a count before a noun ("20 SaaS companies").
var countRe = regexp.MustCompile(`(?i)\b` + numPat + `\s+`)

// CompanyText is the part of a brief that describes the companies: the
// people asked for ("2 finance leaders at each") and counts taken out, so
// neither becomes a company filter or ICP word.
func CompanyText(brief string) string {
	s := peopleRe.ReplaceAllString(brief, " ")
	s = companiesRe.ReplaceAllStringFunc(s, func(m string) string { return countRe.ReplaceAllString(m, "") })
	return strings.Join(strings.Fields(s), " ")
}

// PersonaText is the part of a brief that describes the people, or the
// whole brief when no phrase names them.
func PersonaText(brief string) string {
	ms := peopleRe.FindAllString(brief, -1)
	if len(ms) == 0 {
		return brief
	}
	return strings.Join(ms, "; ")
}
