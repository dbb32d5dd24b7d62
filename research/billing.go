package research

import (
	"encoding/json"
	"fmt"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/record/domain"
	"github.com/openprospect/prospectd/store"
)

// Charges returns what a research task of kind in context mode bills per
// record key, or nil when it bills no credits: the spec charges records
// (companies, or contacts for personas) except in the `domain` and
// `name_only` modes, which incur model fees only, and contact generation
// bills no credits at all. The REST handlers and the MCP tools both ask
// here.
func Charges(kind, mode string) func(keys []string) []store.Charge {
	switch {
	case kind == KindContacts, mode == ModeDomain, mode == ModeNameOnly:
		return nil
	case kind == KindPersonas:
		return func(keys []string) []store.Charge {
			out := make([]store.Charge, len(keys))
			for i, k := range keys {
				out[i] = store.Charge{Kind: store.KindContact, Key: k}
			}
			return out
		}
	}
	return account.Companies
}

// PreviousByDomain keys earlier findings (previous_discogen_data of
// /gen/process) by root domain, as the records are keyed; a key that is
// not a domain is an error naming it.
func PreviousByDomain(prev map[string]json.RawMessage) (map[string]json.RawMessage, error) {
	out := make(map[string]json.RawMessage, len(prev))
	for k, v := range prev {
		d, err := domain.Normalize(k)
		if err != nil {
			return nil, fmt.Errorf("key %q is not a domain", k)
		}
		out[d] = v
	}
	return out, nil
}
