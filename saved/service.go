package saved

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/openprospect/prospectd/record/domain"
)

// Limits are the saved-query caps of the spec.
type Limits struct {
	// MaxDomains and MaxPersonaIDs cap a list: exclusion lists are
	// truncated to them at creation, a longer list used for exclusion is
	// refused, and a query_id contributes at most MaxDomains domains.
	MaxDomains    int
	MaxPersonaIDs int
	// MinExclusionDomains is the least number of distinct domains of an
	// exclusion list that has no persona ids.
	MinExclusionDomains int
	// MaxRows and MaxBytes cap save-results (413 over them).
	MaxRows  int
	MaxBytes int64
	// MaxPage caps a listing's max_records; ListedDomains caps the domains
	// shown per query in a listing.
	MaxPage       int
	ListedDomains int
}

// DefaultLimits are the spec's caps.
func DefaultLimits() Limits {
	return Limits{
		MaxDomains:          250_000,
		MaxPersonaIDs:       500_000,
		MinExclusionDomains: 20,
		MaxRows:             50_000,
		MaxBytes:            50 << 20,
		MaxPage:             1000,
		ListedDomains:       1000,
	}
}

// Service applies the rules of saved queries over a Store.
type Service struct {
	Store  Store
	Limits Limits

	cache listCache
}

// NewService returns a Service with the default limits.
func NewService(st Store) *Service {
	return &Service{Store: st, Limits: DefaultLimits(), cache: listCache{max: DefaultCacheItems}}
}

// SaveResults is a save-results request. Data holds the rows exactly as
// sent; they are stored as they are.
type SaveResults struct {
	Name         string            `json:"query_name"`
	Action       string            `json:"action"`
	Data         []json.RawMessage `json:"data"`
	Params       json.RawMessage   `json:"query_params,omitempty"`
	DomainColumn string            `json:"domain_column,omitempty"`
	Tags         []string          `json:"tags,omitempty"`
}

// DecodeSaveResults reads a save-results body: 413 (ErrTooLarge) over
// the byte cap, 400 (ErrInvalid) for a body that is not the request
// object. The row cap is checked by SaveResults.
func (s *Service) DecodeSaveResults(body []byte) (SaveResults, error) {
	var in SaveResults
	if int64(len(body)) > s.Limits.MaxBytes {
		return in, &RuleError{Field: "body", Rule: fmt.Sprintf("%d bytes, the limit is %d MB", len(body), s.Limits.MaxBytes>>20), Sentinel: ErrTooLarge}
	}
	if err := json.Unmarshal(body, &in); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return in, invalid(te.Field, "must be %s, got %s", jsonKind(te.Type.Kind().String()), te.Value)
		}
		return in, invalid("body", "not a JSON object: %v", err)
	}
	return in, nil
}

func jsonKind(goKind string) string {
	switch goKind {
	case "slice":
		return "an array"
	case "string":
		return "a string"
	case "struct", "map":
		return "an object"
	}
	return goKind
}

// SaveResults validates and stores a result set.
func (s *Service) SaveResults(ctx context.Context, c Caller, in SaveResults) (Query, error) {
	name, err := validName("query_name", in.Name)
	if err != nil {
		return Query{}, err
	}
	action := strings.ToLower(strings.TrimSpace(in.Action))
	if !slices.Contains(ResultActions, action) {
		return Query{}, invalid("action", "must be one of %s, got %q", strings.Join(ResultActions, ", "), in.Action)
	}
	if in.Data == nil {
		return Query{}, invalid("data", "required: an array of row objects")
	}
	if len(in.Data) > s.Limits.MaxRows {
		return Query{}, &RuleError{Field: "data", Rule: fmt.Sprintf("%d rows, the limit is %d", len(in.Data), s.Limits.MaxRows), Sentinel: ErrTooLarge}
	}
	tags, err := ValidTags(in.Tags)
	if err != nil {
		return Query{}, err
	}
	params, err := objectOrNil("query_params", in.Params)
	if err != nil {
		return Query{}, err
	}
	col := strings.TrimSpace(in.DomainColumn)
	if col == "" {
		col = "domain"
	}
	domains, personas, err := s.rowKeys(in.Data, col, action == "contacts")
	if err != nil {
		return Query{}, err
	}
	if len(domains) == 0 && (action != "contacts" || len(personas) == 0) {
		if action == "contacts" {
			return Query{}, invalid("data", "no domain in column %q and no persona_id in any row: a contacts result needs one or the other", col)
		}
		return Query{}, invalid("data", "no domain in column %q of any row: a %s result needs at least one domain", col, action)
	}
	q := Query{
		OrgID: c.OrgID, UserID: c.UserID, Name: name, Action: ThinPrefix + action, Tags: tags, Params: params,
		Domains: domains, PersonaIDs: personas, DomainCount: len(domains), PersonaIDCount: len(personas),
		RowCount: len(in.Data), Rows: joinRows(in.Data),
	}
	out, err := s.Store.CreateSavedQuery(ctx, q)
	if err != nil {
		return Query{}, fmt.Errorf("save results: %w", err)
	}
	return out, nil
}

// rowKeys reads the domains (and, for contacts, persona ids) of the rows,
// distinct and in order; every bad value is reported at once.
func (s *Service) rowKeys(rows []json.RawMessage, col string, withPersonas bool) ([]string, []int64, error) {
	var domains []string
	var personas []int64
	seenD := map[string]bool{}
	seenP := map[int64]bool{}
	var badD, badP []string
	var notObject []int
	for i, raw := range rows {
		var row map[string]json.RawMessage
		if err := json.Unmarshal(raw, &row); err != nil || row == nil {
			notObject = append(notObject, i)
			continue
		}
		if v, ok := row[col]; ok && !isNull(v) {
			var str string
			if json.Unmarshal(v, &str) != nil {
				badD = append(badD, fmt.Sprintf("row %d: %s", i, v))
			} else if str = strings.TrimSpace(str); str != "" {
				d, err := domain.Normalize(str)
				if err != nil {
					badD = append(badD, fmt.Sprintf("row %d: %q", i, str))
				} else if !seenD[d] {
					seenD[d] = true
					domains = append(domains, d)
				}
			}
		}
		if !withPersonas {
			continue
		}
		if v, ok := row["persona_id"]; ok && !isNull(v) {
			id, err := strictID(v)
			if err != nil {
				badP = append(badP, fmt.Sprintf("row %d: %s", i, v))
			} else if !seenP[id] {
				seenP[id] = true
				personas = append(personas, id)
			}
		}
	}
	switch {
	case len(notObject) > 0:
		return nil, nil, invalid("data", "every row must be a JSON object; rows %s are not", listInts(notObject))
	case len(badD) > 0:
		return nil, nil, invalid("data", "values of the domain column %q that are not domains: %s", col, listSome(badD))
	case len(badP) > 0:
		return nil, nil, invalid("data", "persona_id values must be positive integers (fractions, booleans and strings are refused): %s", listSome(badP))
	}
	return domains, personas, nil
}

// strictID reads a JSON integer literal: no fraction, exponent, quotes or
// booleans, so nothing is coerced.
func strictID(v json.RawMessage) (int64, error) {
	t := string(bytes.TrimSpace(v))
	if t == "" || strings.ContainsAny(t, ".eE\"") {
		return 0, fmt.Errorf("not an integer: %s", t)
	}
	id, err := strconv.ParseInt(t, 10, 64)
	if err != nil || id <= 0 {
		return 0, fmt.Errorf("not a positive integer: %s", t)
	}
	return id, nil
}

func isNull(v json.RawMessage) bool { return string(bytes.TrimSpace(v)) == "null" }

func objectOrNil(field string, v json.RawMessage) (json.RawMessage, error) {
	v = bytes.TrimSpace(v)
	if len(v) == 0 || isNull(v) {
		return nil, nil
	}
	if v[0] != '{' {
		return nil, invalid(field, "must be a JSON object")
	}
	return v, nil
}

func joinRows(rows []json.RawMessage) json.RawMessage {
	n := 2
	for _, r := range rows {
		n += len(r) + 1
	}
	b := make([]byte, 0, n)
	b = append(b, '[')
	for i, r := range rows {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, bytes.TrimSpace(r)...)
	}
	return append(b, ']')
}

func listSome(vals []string) string {
	if len(vals) > maxListedBad {
		return strings.Join(vals[:maxListedBad], "; ") + fmt.Sprintf("; and %d more", len(vals)-maxListedBad)
	}
	return strings.Join(vals, "; ")
}

func listInts(vals []int) string {
	s := make([]string, len(vals))
	for i, v := range vals {
		s[i] = strconv.Itoa(v)
	}
	return listSome(s)
}

// ExclusionList is an exclusion-list request.
type ExclusionList struct {
	Name       string   `json:"query_name"`
	Domains    []string `json:"domains,omitempty"`
	PersonaIDs []int64  `json:"persona_ids,omitempty"`
	Tags       []string `json:"tags,omitempty"`
}

// CreateExclusionList validates, deduplicates, truncates to the caps and
// stores an exclusion list. Truncated reports whether anything was cut.
func (s *Service) CreateExclusionList(ctx context.Context, c Caller, in ExclusionList) (q Query, truncated bool, err error) {
	name, err := validName("query_name", in.Name)
	if err != nil {
		return Query{}, false, err
	}
	tags, err := ValidTags(in.Tags)
	if err != nil {
		return Query{}, false, err
	}
	if len(in.Domains) == 0 && len(in.PersonaIDs) == 0 {
		return Query{}, false, invalid("domains", "give domains or persona_ids (or both)")
	}
	var domains, bad []string
	seen := make(map[string]bool, len(in.Domains))
	for i, raw := range in.Domains {
		if strings.TrimSpace(raw) == "" {
			continue
		}
		d, err := domain.Normalize(raw)
		if err != nil {
			bad = append(bad, fmt.Sprintf("%d: %q", i, raw))
			continue
		}
		if !seen[d] {
			seen[d] = true
			domains = append(domains, d)
		}
	}
	if len(bad) > 0 {
		return Query{}, false, invalid("domains", "not domains: %s", listSome(bad))
	}
	var personas []int64
	seenP := make(map[int64]bool, len(in.PersonaIDs))
	var badP []string
	for i, id := range in.PersonaIDs {
		if id <= 0 {
			badP = append(badP, fmt.Sprintf("%d: %d", i, id))
			continue
		}
		if !seenP[id] {
			seenP[id] = true
			personas = append(personas, id)
		}
	}
	if len(badP) > 0 {
		return Query{}, false, invalid("persona_ids", "must be positive integers: %s", listSome(badP))
	}
	if len(personas) == 0 && len(domains) < s.Limits.MinExclusionDomains {
		return Query{}, false, invalid("domains", "an exclusion list needs at least %d distinct domains (persona-only lists are exempt), got %d",
			s.Limits.MinExclusionDomains, len(domains))
	}
	if len(domains) > s.Limits.MaxDomains {
		domains, truncated = domains[:s.Limits.MaxDomains], true
	}
	if len(personas) > s.Limits.MaxPersonaIDs {
		personas, truncated = personas[:s.Limits.MaxPersonaIDs], true
	}
	q, err = s.Store.CreateSavedQuery(ctx, Query{
		OrgID: c.OrgID, UserID: c.UserID, Name: name, Action: ActionExclusion, Tags: tags,
		Domains: domains, PersonaIDs: personas, DomainCount: len(domains), PersonaIDCount: len(personas),
	})
	if err != nil {
		return Query{}, false, fmt.Errorf("create exclusion list: %w", err)
	}
	return q, truncated, nil
}

// List is a listing request; Tags may be comma-separated and are
// normalized like stored tags.
type List struct {
	Action        string
	Tags          []string
	Limit, Offset int
}

// filterActions reads a listing's action filter: an action matches the
// queries of that action and the results saved from it ("discover" lists
// both discover and thin_discover queries); a thin_ action matches itself.
func filterActions(a string) []string {
	a = strings.ToLower(strings.TrimSpace(a))
	switch {
	case a == "":
		return nil
	case strings.HasPrefix(a, ThinPrefix):
		return []string{a}
	}
	return []string{a, ThinPrefix + a}
}

// List returns the organization's saved queries that have domains.
func (s *Service) List(ctx context.Context, c Caller, in List) ([]Query, int, error) {
	if in.Limit < 1 || in.Limit > s.Limits.MaxPage {
		return nil, 0, invalid("max_records", "must be 1-%d, got %d", s.Limits.MaxPage, in.Limit)
	}
	if in.Offset < 0 {
		return nil, 0, invalid("offset", "must be >= 0, got %d", in.Offset)
	}
	qs, n, err := s.Store.ListSavedQueries(ctx, c.OrgID, ListFilter{
		Actions: filterActions(in.Action), Tags: FilterTags(in.Tags),
		Limit: in.Limit, Offset: in.Offset, DomainLimit: s.Limits.ListedDomains,
	})
	if err != nil {
		return nil, 0, fmt.Errorf("list saved queries: %w", err)
	}
	return qs, n, nil
}

// Update renames and/or retags a query the caller may change.
func (s *Service) Update(ctx context.Context, c Caller, id string, name *string, tags *[]string) (Query, error) {
	if name == nil && tags == nil {
		return Query{}, invalid("body", "give query_name and/or tags")
	}
	var u Update
	if name != nil {
		n, err := validName("query_name", *name)
		if err != nil {
			return Query{}, err
		}
		u.Name = &n
	}
	if tags != nil {
		t, err := ValidTags(*tags)
		if err != nil {
			return Query{}, err
		}
		u.Tags = &t
	}
	q, err := s.Store.UpdateSavedQuery(ctx, c.OrgID, c.owner(), strings.TrimSpace(id), u)
	if err != nil {
		return Query{}, fmt.Errorf("update saved query %s: %w", id, err)
	}
	return q, nil
}

// Delete deletes a query the caller may change.
func (s *Service) Delete(ctx context.Context, c Caller, id string) error {
	if err := s.Store.DeleteSavedQuery(ctx, c.OrgID, c.owner(), strings.TrimSpace(id)); err != nil {
		return fmt.Errorf("delete saved query %s: %w", id, err)
	}
	return nil
}

// Get returns a query of the caller's organization with its lists.
func (s *Service) Get(ctx context.Context, c Caller, id string) (Query, error) {
	q, err := s.Store.SavedQuery(ctx, c.OrgID, strings.TrimSpace(id))
	if err != nil {
		return Query{}, fmt.Errorf("saved query %s: %w", id, err)
	}
	return q, nil
}

// OverCap reports whether a list is longer than an exclusion may use.
func (s *Service) OverCap(q Query) bool {
	return len(q.Domains) > s.Limits.MaxDomains || len(q.PersonaIDs) > s.Limits.MaxPersonaIDs
}

// NotFoundError lists the ids that are not saved queries of the caller.
type NotFoundError struct {
	Field string
	IDs   []string
}

func (e *NotFoundError) Error() string {
	return fmt.Sprintf("%s: saved query %s not found for the caller", e.Field, strings.Join(quoteAll(e.IDs), ", "))
}

// Unwrap lets errors.Is find ErrNotFound.
func (e *NotFoundError) Unwrap() error { return ErrNotFound }

func quoteAll(ids []string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = strconv.Quote(id)
	}
	return out
}

// SplitIDs reads query ids given repeated and/or comma-separated.
func SplitIDs(vals []string) []string {
	var out []string
	for _, v := range vals {
		for _, id := range strings.Split(v, ",") {
			if id = strings.TrimSpace(id); id != "" && !slices.Contains(out, id) {
				out = append(out, id)
			}
		}
	}
	return out
}

// UnionDomains resolves query_id values (segment, append): the union of
// the queries' domains, each contributing at most MaxDomains, in order
// and without duplicates. Unknown ids are a *NotFoundError naming all.
func (s *Service) UnionDomains(ctx context.Context, c Caller, field string, ids []string) ([]string, error) {
	var out, missing []string
	seen := map[string]bool{}
	for _, id := range ids {
		q, err := s.Lists(ctx, c, id)
		if errors.Is(err, ErrNotFound) {
			missing = append(missing, id)
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("saved query %s: %w", id, err)
		}
		doms := q.Domains
		if len(doms) > s.Limits.MaxDomains {
			doms = doms[:s.Limits.MaxDomains]
		}
		for _, d := range doms {
			if !seen[d] {
				seen[d] = true
				out = append(out, d)
			}
		}
	}
	if len(missing) > 0 {
		return nil, &NotFoundError{Field: field, IDs: missing}
	}
	return out, nil
}
