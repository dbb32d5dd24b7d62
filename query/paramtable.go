package query

import "github.com/openprospect/prospectd/record"

// ParamType is the JSON type of a parameter's value (of each item for an
// array parameter).
type ParamType string

// Parameter types.
const (
	String  ParamType = "string"
	Integer ParamType = "integer"
	Boolean ParamType = "boolean"
)

// Param declares one request parameter once: the parser reads its limits,
// default, enum and repeat rules from here, and the API turns the same
// declaration into the OpenAPI document, so the two cannot drift apart.
type Param struct {
	Name string
	// Type is the value's type, or each item's when Array is set.
	Type ParamType
	// Array parameters are repeated in a query string and JSON arrays in
	// a body (where a single value counts as a one-item array).
	Array bool
	// Commas: an array item may also hold several values separated by
	// commas (only for values that cannot contain a comma).
	Commas bool
	// MinLen and MaxLen bound a string's characters (each item's for an
	// array); 0 is no bound.
	MinLen, MaxLen int
	// MaxItems bounds an array's items after splitting; 0 is no bound.
	MaxItems int
	// Min and Max bound an integer; a Max not above Min leaves it
	// unbounded above.
	Min, Max int
	// Default is the value used when the parameter is absent; nil when
	// absence means "no filter".
	Default any
	// Enum lists the accepted values (each item's for an array); the
	// parser also accepts them in other letter cases unless CaseSensitive.
	Enum          []string
	CaseSensitive bool
	// Deprecated parameters are accepted and ignored.
	Deprecated bool
	Doc        string
}

// ParamTable is the parameter set of one operation.
type ParamTable []Param

// Names lists the table's parameter names in order.
func (t ParamTable) Names() []string {
	out := make([]string, len(t))
	for i, p := range t {
		out[i] = p.Name
	}
	return out
}

// Lookup finds a parameter by name.
func (t ParamTable) Lookup(name string) (Param, bool) {
	for _, p := range t {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

func (t ParamTable) index() map[string]Param {
	m := make(map[string]Param, len(t))
	for _, p := range t {
		m[p.Name] = p
	}
	return m
}

// Shorthands keep the tables below one line per parameter.
func text(name string, minLen, maxLen int, doc string) Param {
	return Param{Name: name, Type: String, MinLen: minLen, MaxLen: maxLen, Doc: doc}
}

func list(name string, commas bool, maxItems int, doc string) Param {
	return Param{Name: name, Type: String, Array: true, Commas: commas, MaxItems: maxItems, Doc: doc}
}

func integer(name string, lo, hi int, def any, doc string) Param {
	return Param{Name: name, Type: Integer, Min: lo, Max: hi, Default: def, Doc: doc}
}

func flag(name string, def bool, doc string) Param {
	return Param{Name: name, Type: Boolean, Default: def, Doc: doc}
}

func enumList(name string, values []string, doc string) Param {
	return Param{Name: name, Type: String, Array: true, Commas: true, MaxItems: maxFilterListItems, Enum: values, Doc: doc}
}

func withMinLen(p Param, n int) Param { p.MinLen = n; return p }

var regionCodes = "ANZ, APAC, ASEAN, BENELUX, CEE, DACH, EMEA, EU, GCC, LATAM, MENA, NORDICS"

// DiscoverTable declares every parameter of GET /v1/discover and GET
// /v1/count; anything else is rejected.
var DiscoverTable = ParamTable{
	text("icp_prompt", 1, MaxPromptChars, "Natural-language request (max 4000 chars). Filters, an ICP text and lookalike examples are extracted from it; explicit parameters win over extracted ones. Overrides auto_icp_text and auto_phrase_match."),
	list("domain", true, MaxExampleDomains, "Lookalike example domains, max 10."),
	list("negate_domain", true, MaxExampleDomains, "Domains to push results away from, max 10; needs domain, icp_text or icp_prompt."),
	text("icp_text", MinICPTextChars, MaxICPTextChars, "Description of the ideal customer, 3-4000 chars; empty is treated as omitted."),
	text("negate_icp_text", MinICPTextChars, MaxICPTextChars, "Description to push results away from, 3-4000 chars; needs domain, icp_text or icp_prompt."),
	withMinLen(list("phrase_match", false, MaxPhrases, "Exact fragments of site text or description (any of them), max 20, each >= 3 chars; commas are part of a phrase."), MinPhraseChars),
	withMinLen(list("negate_phrase_match", false, MaxPhrases, "Fragments none of the results may contain; same limits."), MinPhraseChars),
	list("country", true, maxFilterListItems, "ISO-3166-1 alpha-2 codes, country names or region codes ("+regionCodes+")."),
	list("negate_country", true, maxFilterListItems, "Countries or regions to exclude."),
	list("state", false, MaxStates, "ISO 3166-2 codes or names, max 100; only with a single country (full codes such as US-CA imply it). A value that is not one subdivision is split on commas."),
	list("negate_state", false, MaxStates, "Subdivisions to exclude; same rules as state."),
	integer("min_digital_footprint", 0, MaxScore, DefaultMinScore, "Lowest digital-footprint score; must not exceed max_digital_footprint. With start_date, capped at the score the top 1% of companies of that age reach."),
	integer("max_digital_footprint", 0, MaxScore, MaxScore, "Highest digital-footprint score."),
	text("start_date", 0, 0, "YYYY-MM-DD (started on or after) or YYYY-MM-DD,YYYY-MM-DD (inclusive; either side may be empty)."),
	enumList("category", record.Industries, "Industry labels (any of them); case, spaces and hyphens are normalized."),
	enumList("negate_category", record.Industries, "Industry labels to exclude."),
	text("employee_range", 0, 0, "min,max head count; '50,' is 50 and above, ',50' 50 and below. Unparseable values are ignored."),
	text("revenue_range", 0, 0, "min,max annual revenue in USD; a '+' suffix on max means unbounded. Unknown revenue is included when the range reaches below 1M. Unparseable values are ignored."),
	enumList("business_model", record.BusinessModels, "Business models (any of them); case-insensitive."),
	enumList("negate_business_model", record.BusinessModels, "Business models to exclude."),
	enumList("social", record.SocialNetworks, "Social networks the company must have a profile on (any of them); case-insensitive."),
	enumList("negate_social", record.SocialNetworks, "Social networks the company must not be on."),
	withMinLen(Param{Name: "language", Type: String, Array: true, Commas: true, MaxItems: maxFilterListItems, MaxLen: 2, Doc: "2-letter ISO 639-1 site language codes (any of them)."}, 2),
	withMinLen(Param{Name: "negate_language", Type: String, Array: true, Commas: true, MaxItems: maxFilterListItems, MaxLen: 2, Doc: "Site languages to exclude."}, 2),
	flag("redirect", false, "Include domains that redirect to another domain."),
	flag("exclude_leadgen", true, "Exclude suspected lead-generation sites (score below 100 and no phone, email or social profile)."),
	list("tech_stack", true, MaxTechStack, "Technology vendor domains (any of them), max 20; results then carry vendors."),
	list("negate_tech_stack", true, MaxTechStack, "Vendor domains to exclude, max 20."),
	withMinLen(list("subdomain", true, MaxSubdomains, "Subdomain labels (any of them), max 20, each >= 3 chars."), MinSubdomainChars),
	withMinLen(list("negate_subdomain", true, MaxSubdomains, "Subdomain labels to exclude; same limits."), MinSubdomainChars),
	list("inclusion_query_id", true, MaxQueryIDs, "Limit results to the domains of saved queries (404 for an unknown id)."),
	list("exclusion_query_id", true, MaxQueryIDs, "Exclude the domains of saved queries (404 for an unknown id)."),
	list("exclude_domain", true, MaxExcludeDomains, "Domains to leave out of the results, max 100; does not change lookalike matching."),
	integer("max_records", MinRecords, MaxRecords, DefaultRecords, "Results per page."),
	integer("offset", 0, MaxRecords-MinRecords, 0, "Results to skip; offset + max_records <= 10000."),
	integer("min_similarity", 0, MaxMinSimilarity, 0, "Lowest similarity (0-100) of a result."),
	integer("consensus", 1, MaxConsensus, 1, "Refine the query with its top N results' vectors; higher is broader."),
	{Name: "variance", Type: String, Enum: Variances, Default: defaultVariance, Doc: "How far below the best match results may fall: LOW 5, MID_LOW 10, MEDIUM 20, MID_HIGH 30, HIGH 45 similarity points; UNRESTRICTED no limit. Case-insensitive."},
	flag("include_search_domains", false, "Include the example domains in the results."),
	flag("enhanced", false, "Add match_reasons to each result: its nearest example domain, the industries, keywords and phrases it shares with the search, and the filters it satisfies."),
	flag("retrieval", false, "Add site_text, the text retrieved from each company's pages."),
	flag("auto_icp_text", false, "Write an ICP text from the example domains' keywords and industries and search with it too."),
	flag("auto_phrase_match", false, "Derive phrase matches from the ICP text (kept only when they occur in the index)."),
}

// ContactTable declares every parameter of contact discovery: the JSON
// body of POST /v1/contacts/discover and the query string of GET
// /v1/contacts and GET /v1/contacts/count.
var ContactTable = ParamTable{
	{Name: "persona_id", Type: Integer, Array: true, Commas: true, MaxItems: MaxPersonaIDs, Min: 1,
		Doc: "Contact ids to search like (similarity mode), up to 10; positive integers."},
	text("icp_prompt", 1, MaxPromptChars, "Natural-language ICP (max 4000 chars): filters (seniority, department, industry, country, employee range, title keywords) are extracted from it; when it needs company signals, company discovery runs first."),
	text("icp_text", 1, maxContactTextChars, "Semantic matching text (similarity mode); no filters are extracted."),
	list("domain", true, maxContactListItems, "Limit to contacts at these domains, max 100."),
	list("inclusion_query_id", true, MaxQueryIDs, "Saved queries to scope to (404 for an unknown id)."),
	list("exclusion_query_id", true, MaxQueryIDs, "Saved queries to exclude (404 for an unknown id)."),
	enumList("seniority", record.Seniorities, "Seniority levels (any of them); case-insensitive."),
	enumList("negate_seniority", record.Seniorities, "Seniority levels to exclude."),
	{Name: "department", Type: String, Array: true, MaxItems: maxContactListItems, Enum: record.Departments, CaseSensitive: true,
		Doc: "Canonical departments (exact, case-sensitive); any other value is a 422."},
	{Name: "negate_department", Type: String, Array: true, MaxItems: maxContactListItems, Enum: record.Departments, CaseSensitive: true,
		Doc: "Canonical departments to exclude."},
	list("skills", false, maxContactListItems, "Skills (any of them), max 100."),
	text("name", 2, maxContactNameChars, "Partial match on the contact's name, 2-200 chars."),
	list("title", false, maxContactTitleEntries, "Title terms, max 50: each item a separate term; quoted phrases; a '+' prefix marks a required term; C-suite acronyms and spelled-out forms expand to each other."),
	list("negate_title", false, maxContactTitleEntries, "Title terms to exclude; same syntax."),
	text("summary", 3, maxContactTextChars, "Semantic match on the profile summary (similarity mode), 3-4000 chars."),
	text("negate_summary", 3, maxContactTextChars, "Summary text to push results away from, 3-4000 chars."),
	list("person_country", true, maxFilterListItems, "Contact's country: ISO-3166-1 alpha-2 codes, names or region codes ("+regionCodes+")."),
	list("negate_person_country", true, maxFilterListItems, "Contact countries or regions to exclude."),
	list("person_state", false, MaxStates, "Contact's subdivision (ISO 3166-2 code or name); only with a single person_country."),
	flag("has_email", false, "Only contacts with an email address."),
	flag("email_validated", false, "Only contacts whose address passed the SMTP check."),
	flag("has_phone", false, "Only contacts with a phone number."),
	flag("has_mobile", false, "Only contacts with a mobile number."),
	flag("has_linkedin", false, "Only contacts with a LinkedIn profile."),
	integer("min_connections", 0, 1<<31-1, 0, "Lowest LinkedIn connection count."),
	text("jobstart_date", 0, 0, "YYYY-MM-DD (started on or after) or YYYY-MM-DD,YYYY-MM-DD; contacts without a known start date are excluded."),
	enumList("filter_industry", record.Industries, "Employer industries (any of them)."),
	enumList("negate_filter_industry", record.Industries, "Employer industries to exclude."),
	list("filter_country", true, maxFilterListItems, "Employer countries or regions."),
	list("negate_filter_country", true, maxFilterListItems, "Employer countries or regions to exclude."),
	list("filter_state", false, MaxStates, "Employer subdivisions; only with a single filter_country."),
	list("negate_filter_state", false, MaxStates, "Employer subdivisions to exclude; only with a single filter_country."),
	text("employee_range", 0, 0, "Employer head count min,max ('50,' is 50 and above). Unparseable values are ignored."),
	{Name: "revenue_range", Type: String, Deprecated: true, Doc: "Deprecated: accepted and ignored (filter revenue in company discovery and pass the domains)."},
	{Name: "revenue", Type: String, Deprecated: true, Doc: "Deprecated: accepted and ignored."},
	integer("max_records", MinContactRecords, MaxContactRecords, DefaultContactRecords, "Total contact cap; not with max_companies."),
	integer("max_companies", 1, MaxCompaniesLimit, nil, "Stop after this many company groups; not with max_records."),
	integer("offset", 0, MaxContactRecords, 0, "Contacts to skip; forced to 0 when results_by_company is not 0."),
	integer("results_by_company", 0, MaxPerCompany, DefaultPerCompany, "Contacts per company; 0 removes the cap."),
	flag("include_search_contacts", false, "Include the persona_id inputs in the results."),
	integer("consensus", 1, MaxConsensus, 1, "Number of top results used to refine the search vector."),
}

// Bounded reports whether the integer has an upper bound.
func (p Param) Bounded() bool { return p.Max > p.Min }
