package prospecting

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"
	"unicode"

	"github.com/openprospect/prospectd/query"
	"github.com/openprospect/prospectd/record"
)

// NativeCheck is the built-in company check engine (native-icp): the
// brief's filters as the deterministic prompt reader extracts them
// (countries, industries) and its remaining ICP words, matched against a
// company's profile. The same brief and profile always give the same
// verdict, with no model and no network.
type NativeCheck struct {
	x     query.Extraction
	terms []string
}

var stopWords = map[string]bool{"find": true, "companies": true, "company": true, "like": true, "these": true, "those": true, "with": true,
	"that": true, "this": true, "from": true, "their": true, "them": true, "they": true, "have": true, "each": true, "every": true, "people": true,
	"contacts": true, "contact": true, "emails": true, "email": true, "working": true, "most": true, "least": true, "about": true, "into": true,
	"based": true, "over": true, "under": true, "than": true, "more": true, "less": true, "only": true, "just": true, "list": true, "want": true,
	"need": true, "offering": true, "offer": true, "selling": true, "sell": true, "provide": true, "providing": true, "similar": true, "some": true, "many": true, "three": true, "five": true, "seven": true, "eight": true, "nine": true, "businesses": true,
	"firms": true, "accounts": true, "leads": true, "decision": true, "makers": true, "where": true, "which": true, "what": true, "will": true}

// NewNativeCheck reads a brief once for many checks.
func NewNativeCheck(brief string) *NativeCheck {
	n := &NativeCheck{x: query.ExtractPrompt(CompanyText(brief))}
	// People words describe the persona, not the company.
	text := query.ExtractPersona(n.x.ICPText).Text
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && r != '-' }) {
		w = strings.Trim(w, "-")
		if len(w) < 4 || stopWords[w] {
			continue
		}
		w = stem(w)
		if !seen[w] {
			seen[w] = true
			n.terms = append(n.terms, w)
		}
	}
	return n
}

func stem(w string) string {
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 5:
		return w[:len(w)-3]
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && len(w) > 4:
		return w[:len(w)-1]
	}
	return w
}

// Check rates a company: fit when it meets every filter of the brief and
// its profile names at least a third of the brief's ICP words.
func (n *NativeCheck) Check(c record.Company) (bool, string) {
	if len(n.x.Countries) > 0 && !containsFold(n.x.Countries, c.Address.Country) {
		return false, fmt.Sprintf("country %s is not one of %s", orUnknown(c.Address.Country), strings.Join(n.x.Countries, ", "))
	}
	if len(n.x.Categories) > 0 {
		ok := false
		for _, cat := range n.x.Categories {
			for ind := range c.IndustryGroups {
				ok = ok || strings.EqualFold(ind, cat)
			}
		}
		if !ok {
			return false, "industry is not one of " + strings.Join(n.x.Categories, ", ")
		}
	}
	if len(n.terms) == 0 {
		return true, "meets the brief's filters"
	}
	var hay strings.Builder
	hay.WriteString(strings.ToLower(c.Name + " " + c.Description + " " + c.SiteText))
	for k := range c.Keywords {
		hay.WriteString(" " + strings.ToLower(k))
	}
	for k := range c.IndustryGroups {
		hay.WriteString(" " + strings.ToLower(strings.ReplaceAll(k, "_", " ")))
	}
	text := hay.String()
	var hit, miss []string
	for _, t := range n.terms {
		if strings.Contains(text, t) {
			hit = append(hit, t)
		} else {
			miss = append(miss, t)
		}
	}
	need := (len(n.terms) + 2) / 3
	if len(hit) >= need {
		return true, fmt.Sprintf("profile matches %s", strings.Join(hit, ", "))
	}
	if len(hit) == 0 {
		return false, fmt.Sprintf("profile matches none of %s", strings.Join(n.terms, ", "))
	}
	return false, fmt.Sprintf("profile matches %s but not %s", strings.Join(hit, ", "), strings.Join(miss, ", "))
}

func containsFold(list []string, v string) bool {
	for _, x := range list {
		if strings.EqualFold(x, v) {
			return true
		}
	}
	return false
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// titleSep splits a search result title into its parts.
var titleSep = regexp.MustCompile(`\s+[-–—|·]\s+`)

// PersonFromTitle reads a person from a search result title shaped like a
// profile page's: "Jane Doe - VP Sales - Acme | LinkedIn". ok is false
// when the first part is not a name of two to four capitalized words or no
// title follows.
func PersonFromTitle(s string) (name, title string, ok bool) {
	parts := titleSep.Split(strings.TrimSpace(s), -1)
	if len(parts) < 2 {
		return "", "", false
	}
	words := strings.Fields(parts[0])
	if len(words) < 2 || len(words) > 4 {
		return "", "", false
	}
	for _, w := range words {
		rs := []rune(w)
		if !unicode.IsUpper(rs[0]) {
			return "", "", false
		}
		for _, r := range rs {
			if !unicode.IsLetter(r) && r != '-' && r != '\'' && r != '.' {
				return "", "", false
			}
		}
	}
	title = strings.TrimSpace(parts[1])
	if title == "" || strings.EqualFold(title, "linkedin") {
		return "", "", false
	}
	return strings.Join(words, " "), title, true
}

// topIndustry is a company's heaviest industry group.
func topIndustry(c record.Company) string {
	best, w := "", -1.0
	for k, v := range c.IndustryGroups {
		if v > w || v == w && k < best {
			best, w = k, v
		}
	}
	if best == "" {
		return "OTHER"
	}
	return best
}

// seedSegments groups customer domains by their main industry, each with
// three lookalike examples and the size of its filter query.
func (s *Service) seedSegments(ctx context.Context, customers []string) ([]SeedSegment, error) {
	cs, err := s.Engine.GetCompanies(ctx, customers)
	if err != nil {
		return nil, fmt.Errorf("seed segments: %w", err)
	}
	groups := map[string][]string{}
	for _, c := range cs {
		k := topIndustry(c)
		groups[k] = append(groups[k], c.Domain)
	}
	names := make([]string, 0, len(groups))
	for k := range groups {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool {
		if len(groups[names[i]]) != len(groups[names[j]]) {
			return len(groups[names[i]]) > len(groups[names[j]])
		}
		return names[i] < names[j]
	})
	exclude := map[string]bool{}
	for _, d := range customers {
		exclude[d] = true
	}
	segs := make([]SeedSegment, 0, len(names))
	for i, name := range names {
		members := groups[name]
		d, err := discoverOf("", members, 0, 20)
		if err != nil {
			return nil, err
		}
		res, err := s.Companies.Discover(ctx, d)
		if err != nil {
			return nil, fmt.Errorf("seed segment %s: %w", name, err)
		}
		var examples []string
		for _, m := range res.Matches {
			if !exclude[m.Company.Domain] && len(examples) < 3 {
				examples = append(examples, m.Company.Domain)
			}
		}
		segs = append(segs, SeedSegment{ID: fmt.Sprintf("seg-%d", i+1), Name: label(name), Customers: members, Examples: examples,
			Selected: true, Matching: min(res.Total, MarketSizeCap)})
	}
	return segs, nil
}

func label(industry string) string {
	w := strings.Fields(strings.ToLower(strings.ReplaceAll(industry, "_", " ")))
	for i := range w {
		w[i] = strings.ToUpper(w[i][:1]) + w[i][1:]
	}
	return strings.Join(w, " ")
}

// minSegment is the fewest fit companies a run segments (spec: segment).
const minSegment = 10

// Segmentation is the outcome of segmenting a run's fit companies with the
// segmentation task's clustering (query.Companies.Segment); each
// company's segment is kept on its candidate.
type Segmentation struct {
	Companies  int     `json:"companies"`
	Segments   int     `json:"segments"`
	Silhouette float64 `json:"silhouette"`
	// Omitted are fit companies the clustering left out (not active or
	// without a vector): their rows carry no segment.
	Omitted int `json:"omitted"`
}

// segment clusters the fit companies with the segmentation task's
// clustering when at least minSegment are available, and keeps the
// outcome in the run (r.Data.Segmentation and each candidate's segment).
// It reports whether it segmented. The fit companies are already billed
// by the run, so nothing is billed again.
func (s *Service) segment(ctx context.Context, r *Run) (bool, error) {
	pr := &r.Data.Progress
	var fit []string
	for _, c := range pr.Candidates {
		if c.Fit && c.Billed {
			fit = append(fit, c.Domain)
		}
	}
	if len(fit) < minSegment {
		return false, nil
	}
	seg, err := s.Companies.Segment(ctx, fit, 0, func(int) {})
	if err != nil {
		return false, fmt.Errorf("segment results: %w", err)
	}
	type member struct {
		id   int
		desc string
	}
	byDomain := map[string]member{}
	for _, row := range seg.Rows {
		byDomain[row.Company.Domain] = member{row.SegmentID, row.Description}
	}
	for i := range pr.Candidates {
		c := &pr.Candidates[i]
		if l, ok := byDomain[c.Domain]; ok && c.Fit && c.Billed {
			id := l.id
			c.Segment, c.SegmentID = l.desc, &id
		}
	}
	sil := seg.Silhouette
	if math.IsNaN(sil) || math.IsInf(sil, 0) {
		sil = 0
	}
	r.Data.Segmentation = &Segmentation{Companies: len(fit), Segments: seg.Segments, Silhouette: round6(sil), Omitted: len(fit) - len(seg.Rows)}
	return true, nil
}
