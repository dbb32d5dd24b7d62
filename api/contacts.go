package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/openprospect/prospectd/query"
	"github.com/openprospect/prospectd/record"
	"github.com/openprospect/prospectd/store"
)

// Phone is a contact's number with its type (see record.Phone).
type Phone = record.Phone

// ContactOut is a contact record (spec: Contact record; see
// record.ContactOut).
type ContactOut = record.ContactOut

// ContactOf shapes a stored contact.
func ContactOf(c record.Contact, sim *int) ContactOut { return record.ContactOf(c, sim) }

// GroupAddress is a company group's location.
type GroupAddress struct {
	Country string `json:"country"`
	State   string `json:"state"`
}

// ContactGroupOut is a company group (spec: Company group).
type ContactGroupOut struct {
	Domain                 string             `json:"domain"`
	Name                   string             `json:"name"`
	Employees              string             `json:"employees"`
	RevenueRange           *string            `json:"revenue_range" doc:"Revenue bucket; null when unknown"`
	IndustryGroups         map[string]float64 `json:"industry_groups"`
	Address                GroupAddress       `json:"address"`
	EmailPattern           string             `json:"email_pattern" doc:"Address template inferred from the company's known addresses; empty when none is known"`
	EmailPatternConfidence float64            `json:"email_pattern_confidence" doc:"0-1"`
	EmailPatternGuess      string             `json:"email_pattern_guess" doc:"The pattern applied to a hypothetical Jane Doe"`
	Contacts               []ContactOut       `json:"contacts"`
}

// Groups is the results object: keyed by domain, in rank order (a JSON
// object keeps the order it is written in).
type Groups []ContactGroupOut

// MarshalJSON writes the groups as one object keyed by domain, in order.
func (g Groups) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, grp := range g {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(grp.Domain)
		v, err := json.Marshal(grp)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Schema documents Groups as an object of company groups.
func (Groups) Schema(r huma.Registry) *huma.Schema {
	return &huma.Schema{Type: "object", Description: "Company groups keyed by domain, best first",
		AdditionalProperties: r.Schema(reflect.TypeOf(ContactGroupOut{}), true, "ContactGroup")}
}

// ContactResultsBody is POST /v1/contacts/discover.
type ContactResultsBody struct {
	Results       Groups   `json:"results"`
	TotalContacts int      `json:"total_contacts" doc:"Contacts matching the search (all pages)"`
	TotalDomains  int      `json:"total_domains" doc:"Companies with matching contacts (all pages)"`
	Notes         []string `json:"notes,omitempty" doc:"What the service did with the request that it could not say otherwise (ignored deprecated parameters, prompt company search)"`
}

// contactDiscoverInput takes the body as raw JSON: the document declares
// it from query.ContactTable (contactDiscoverSchema), and
// query.ParseContactBody validates it against the same table, so Huma's
// own body validation is skipped (one set of messages).
type contactDiscoverInput struct {
	Body json.RawMessage
}

// Resolve answers a body that is not JSON at all with 400, as Huma does
// for the bodies it validates itself (docs/decisions.md, "Input errors"):
// with validation skipped Huma would report it as a 422.
func (in *contactDiscoverInput) Resolve(ctx huma.Context) []error {
	if in.Body != nil {
		return nil
	}
	b, _ := io.ReadAll(io.LimitReader(ctx.BodyReader(), 1<<20))
	if b = bytes.TrimSpace(b); len(b) > 0 && !json.Valid(b) {
		return []error{huma.Error400BadRequest("body: not valid JSON")}
	}
	return nil
}

type contactDiscoverOutput struct {
	CreditsBilled    int `header:"X-Credits-Billed"`
	CreditsRemaining int `header:"X-Credits-Remaining"`
	Body             ContactResultsBody
}

type contactListOutput struct {
	CreditsBilled    int `header:"X-Credits-Billed"`
	CreditsRemaining int `header:"X-Credits-Remaining"`
	Body             []ContactOut
}

type contactLookupInput struct {
	PersonaID int64  `query:"persona_id" minimum:"1" doc:"Contact id (positive integer)"`
	LinkedIn  string `query:"linkedin" maxLength:"300" doc:"LinkedIn profile URL or bare handle"`
	Email     string `query:"email" maxLength:"254" doc:"Email address (exact, case-insensitive)"`
}

// ContactLookupBody is the lookup subset of a contact.
type ContactLookupBody struct {
	PersonaID   int64   `json:"persona_id"`
	Name        string  `json:"name"`
	Title       *string `json:"title"`
	Domain      string  `json:"domain"`
	CompanyName string  `json:"company_name"`
	Summary     *string `json:"summary"`
}

type contactLookupOutput struct {
	Body ContactLookupBody
}

var linkedInHandle = regexp.MustCompile(`^[A-Za-z0-9\-_%.]{3,100}$`)

func (s *Server) registerContacts(svc *query.ContactService) {
	errs := []int{http.StatusBadRequest, http.StatusUnauthorized, http.StatusPaymentRequired, http.StatusForbidden,
		http.StatusNotFound, http.StatusUnprocessableEntity, http.StatusTooManyRequests, http.StatusServiceUnavailable}
	huma.Register(s.api, huma.Operation{
		OperationID:      "contacts-discover",
		Method:           http.MethodPost,
		Path:             "/v1/contacts/discover",
		Summary:          "Discover contacts",
		Description:      "Searches contacts by similarity (persona_id, icp_text, icp_prompt), by domain, or by filters only, and returns them grouped by employer with the employer's email pattern. JSON body with the parameters of the spec; arrays may also be single values. Unknown parameters are rejected.",
		Tags:             []string{"Contacts"},
		Security:         authRequired,
		Errors:           errs,
		SkipValidateBody: true,
		RequestBody: &huma.RequestBody{Required: false, Content: map[string]*huma.MediaType{
			"application/json": {Schema: s.contactDiscoverSchema()}}},
		MaxBodyBytes: jsonBodyLimit,
	}, func(ctx context.Context, in *contactDiscoverInput) (*contactDiscoverOutput, error) {
		p, err := s.paid(ctx, store.PlanStarter)
		if err != nil {
			return nil, err
		}
		d, err := query.ParseContactBody(in.Body)
		if err != nil {
			return nil, queryError(err, "body")
		}
		res, err := svc.Discover(ctx, d)
		if err != nil {
			return nil, s.serviceErrorAt(ctx, "contacts discover", err, "body")
		}
		groups, billed, left, err := s.billGroups(ctx, p, "contacts_discover", res.Groups)
		if err != nil {
			return nil, err
		}
		return &contactDiscoverOutput{CreditsBilled: billed, CreditsRemaining: left, Body: ContactResultsBody{
			Results: groups, TotalContacts: res.TotalContacts, TotalDomains: res.TotalDomains, Notes: res.Notes}}, nil
	})

	huma.Register(s.api, huma.Operation{
		OperationID: "contacts-legacy",
		Method:      http.MethodGet,
		Path:        "/v1/contacts",
		Summary:     "Search contacts (legacy)",
		Description: "The contact discovery vocabulary as query parameters (repeat a parameter for several values; max_records or max_companies, not both). Returns a flat array of contacts. POST /v1/contacts/discover is primary. Unknown parameters are rejected.",
		Tags:        []string{"Contacts"},
		Security:    authRequired,
		Parameters:  s.queryParams(query.ContactTable),
		Errors:      errs,
	}, func(ctx context.Context, in *rawQuery) (*contactListOutput, error) {
		p, err := s.paid(ctx, store.PlanStarter)
		if err != nil {
			return nil, err
		}
		d, err := query.ParseContactQuery(in.values)
		if err != nil {
			return nil, queryError(err, "query")
		}
		res, err := svc.Discover(ctx, d)
		if err != nil {
			return nil, s.serviceError(ctx, "contacts", err)
		}
		groups, billed, left, err := s.billGroups(ctx, p, "contacts", res.Groups)
		if err != nil {
			return nil, err
		}
		out := &contactListOutput{CreditsBilled: billed, CreditsRemaining: left, Body: []ContactOut{}}
		for _, g := range groups {
			out.Body = append(out.Body, g.Contacts...)
		}
		return out, nil
	})

	huma.Register(s.api, huma.Operation{
		OperationID: "contacts-count",
		Method:      http.MethodGet,
		Path:        "/v1/contacts/count",
		Summary:     "Count contacts",
		Description: "The contact discovery filters as query parameters; returns how many contacts match. Unknown parameters are rejected.",
		Tags:        []string{"Contacts"},
		Security:    authRequired,
		Parameters:  s.queryParams(query.ContactTable),
		Errors:      errs,
	}, func(ctx context.Context, in *rawQuery) (*countOutput, error) {
		if _, err := s.paid(ctx, store.PlanStarter); err != nil {
			return nil, err
		}
		d, err := query.ParseContactQuery(in.values)
		if err != nil {
			return nil, queryError(err, "query")
		}
		n, err := svc.Count(ctx, d)
		if err != nil {
			return nil, s.serviceError(ctx, "contacts count", err)
		}
		return &countOutput{Applied: "{}", Body: CountBody{Count: n}}, nil
	})

	huma.Register(s.api, huma.Operation{
		OperationID: "contacts-lookup",
		Method:      http.MethodGet,
		Path:        "/v1/contacts/lookup",
		Summary:     "Look up one contact",
		Description: "Exactly one of persona_id, linkedin (profile URL or bare handle) or email (exact, case-insensitive). 404 when nothing matches.",
		Tags:        []string{"Contacts"},
		Security:    authRequired,
		Errors:      errs,
	}, func(ctx context.Context, in *contactLookupInput) (*contactLookupOutput, error) {
		p, err := s.paid(ctx, store.PlanStarter)
		if err != nil {
			return nil, err
		}
		given := 0
		for _, v := range []string{strconv.FormatInt(in.PersonaID, 10), in.LinkedIn, in.Email} {
			if v = strings.TrimSpace(v); v != "" && v != "0" {
				given++
			}
		}
		if given != 1 {
			return nil, huma.Error422UnprocessableEntity("give exactly one of persona_id, linkedin or email")
		}
		var id int64
		var handle, email string
		switch {
		case in.PersonaID != 0:
			id = in.PersonaID // Huma refused non-integers and ids below 1 with 422
		case in.LinkedIn != "":
			handle = strings.TrimSpace(in.LinkedIn)
			if i := strings.Index(strings.ToLower(handle), "linkedin.com/in/"); i >= 0 {
				handle = strings.Trim(handle[i+len("linkedin.com/in/"):], "/")
				if j := strings.IndexAny(handle, "/?#"); j >= 0 {
					handle = handle[:j]
				}
			} else if strings.Contains(handle, "/") || strings.Contains(handle, ".") && strings.Contains(strings.ToLower(handle), "linkedin") {
				return nil, huma.Error422UnprocessableEntity("linkedin: not a LinkedIn profile URL (https://www.linkedin.com/in/<handle>) or handle")
			}
			if !linkedInHandle.MatchString(handle) {
				return nil, huma.Error422UnprocessableEntity("linkedin: a profile handle has 3-100 letters, digits, '-' or '_'")
			}
			handle = strings.ToLower(handle)
		default:
			email = strings.TrimSpace(in.Email)
			if !plainEmail(email) {
				return nil, huma.Error422UnprocessableEntity("email: not an email address")
			}
		}
		c, err := svc.Lookup(ctx, id, handle, email)
		if errors.Is(err, query.ErrContactNotFound) {
			return nil, huma.Error404NotFound("no contact matches")
		}
		if err != nil {
			return nil, s.serviceError(ctx, "contact lookup", err)
		}
		if _, err := bill(ctx, s, p, "contacts_lookup", []int64{c.PersonaID}, contactCharge); err != nil {
			return nil, err
		}
		return &contactLookupOutput{Body: ContactLookupBody{PersonaID: c.PersonaID, Name: c.Name, Title: optional(c.Title),
			Domain: c.Domain, CompanyName: c.CompanyName, Summary: optional(c.Summary)}}, nil
	})
}

// contactDiscoverSchema registers the body of POST /v1/contacts/discover,
// declared by query.ContactTable, as a named schema so generated clients
// get a type for it.
func (s *Server) contactDiscoverSchema() *huma.Schema {
	const name = "ContactDiscoverRequest"
	schemas := s.api.OpenAPI().Components.Schemas.Map()
	schemas[name] = s.bodySchema(query.ContactTable, "Contact discovery parameters. An array parameter also takes a single item; a value of another JSON type is refused with 422, as is an unknown property.")
	return &huma.Schema{Ref: "#/components/schemas/" + name}
}

// billGroups bills net-new firmographic domains and net-new contacts from
// one pool, in rank order, and keeps what the credits cover.
func (s *Server) billGroups(ctx context.Context, p store.Principal, endpoint string, groups []query.ContactGroup) (Groups, int, int, error) {
	// One record per company, then one per contact, in rank order.
	type item struct {
		domain  string
		persona int64 // 0 for the company
	}
	var items []item
	for _, g := range groups {
		items = append(items, item{domain: g.Domain})
		for _, c := range g.Contacts {
			items = append(items, item{persona: c.Contact.PersonaID})
		}
	}
	r, err := bill(ctx, s, p, endpoint, items, func(it item) []store.Charge {
		if it.persona == 0 {
			return companyCharge(it.domain)
		}
		return contactCharge(it.persona)
	})
	if err != nil {
		return nil, 0, 0, err
	}
	out := Groups{}
	k := 0
	for _, g := range groups {
		companyCovered := r.Mask[k]
		k++
		og := ContactGroupOut{Domain: g.Domain, Name: g.Name, Employees: g.Employees, RevenueRange: optional(g.RevenueRange),
			IndustryGroups: nonNilMap(g.IndustryGroups), Address: GroupAddress{Country: g.Country, State: g.State},
			EmailPattern: g.EmailPattern, EmailPatternConfidence: g.EmailPatternConfidence, EmailPatternGuess: g.EmailPatternGuess,
			Contacts: []ContactOut{}}
		for _, c := range g.Contacts {
			if r.Mask[k] && companyCovered {
				og.Contacts = append(og.Contacts, ContactOf(c.Contact, c.Similarity))
			}
			k++
		}
		if companyCovered && len(og.Contacts) > 0 {
			out = append(out, og)
		}
	}
	return out, r.Billed, r.Left, nil
}

// plainEmail reports whether s looks like a bare address (local@domain,
// no display name or list): lookups match stored addresses exactly, so
// nothing stricter is needed.
func plainEmail(s string) bool {
	at := strings.LastIndexByte(s, '@')
	return at > 0 && at < len(s)-1 && !strings.ContainsAny(s, " <>,;")
}
