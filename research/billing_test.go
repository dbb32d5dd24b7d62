package research

import (
	"encoding/json"
	"testing"

	"github.com/openprospect/prospectd/store"
)

func TestCharges(t *testing.T) {
	for _, tc := range []struct {
		kind, mode string
		want       string // charge kind billed, "" for none
	}{
		{KindGen, ModeWebsite, store.KindCompany},
		{KindGen, ModeProfile, store.KindCompany},
		{KindGen, ModeDomain, ""},
		{KindICP, ModeWebsite, store.KindCompany},
		{KindICP, ModeDomain, ""},
		{KindPersonas, ModeProfile, store.KindContact},
		{KindPersonas, ModeFull, store.KindContact},
		{KindPersonas, ModeNameOnly, ""},
		{KindContacts, ModeWebsite, ""},
	} {
		fn := Charges(tc.kind, tc.mode)
		if tc.want == "" {
			if fn != nil {
				t.Errorf("%s/%s bills %v, want nothing", tc.kind, tc.mode, fn([]string{"a.com"}))
			}
			continue
		}
		if fn == nil {
			t.Errorf("%s/%s bills nothing, want %s", tc.kind, tc.mode, tc.want)
			continue
		}
		got := fn([]string{"a.com", "b.com"})
		if len(got) != 2 || got[0].Kind != tc.want || got[1].Key != "b.com" {
			t.Errorf("%s/%s bills %+v, want %s per key", tc.kind, tc.mode, got, tc.want)
		}
	}
}

func TestPreviousByDomain(t *testing.T) {
	got, err := PreviousByDomain(map[string]json.RawMessage{"https://www.Acme.com/x": json.RawMessage(`1`)})
	if err != nil || string(got["acme.com"]) != "1" {
		t.Fatalf("%v %v", got, err)
	}
	if _, err := PreviousByDomain(map[string]json.RawMessage{"not a domain": nil}); err == nil {
		t.Fatal("a key that is not a domain was accepted")
	}
}
