package elastic

import (
	"testing"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/textfold"
	"github.com/openprospect/prospectd/record"
)

// TestNameFoldingIsShared: the stored folded name and the name query are
// textfold's folding, the one the embedded engine matches names with, so
// a name matches the same text on both engines.
func TestNameFoldingIsShared(t *testing.T) {
	for _, name := range []string{"Jürgen Müller", "Ana García-Núñez", "Straße", "Zoë O'Brien", "東京 太郎", "İpek 🚀 Şahin", "ALL CAPS"} {
		want := textfold.Words(name)
		if got := newContactDoc(index.ContactDoc{Contact: record.Contact{Name: name}}).NameFolded; got != want {
			t.Errorf("document of %q: name_folded %q, want %q", name, got, want)
		}
		q, err := translateContact(index.Phrase{Field: index.NameField, Text: name})
		if err != nil {
			t.Fatal(err)
		}
		if q.Wildcard == nil || q.Wildcard.Value != "*"+want+"*" {
			t.Errorf("name query of %q: %+v, want wildcard *%s*", name, q.Wildcard, want)
		}
	}
}
