package elastic

import (
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/enginetest"
	"github.com/openprospect/prospectd/record"
)

func TestRefitRequests(t *testing.T) {
	golden(t, "refit_alias_swap", refitSwap("p-companies", "p-contacts", refitMarker{
		FromCompanies: "p-companies-v1", ToCompanies: "p-companies-v2", FromContacts: "p-contacts-v3", ToContacts: "p-contacts-v4"}))
	golden(t, "refit_scan_companies_first_page", buildSourceScan("domain", 1000, nil))
	golden(t, "refit_scan_contacts_next_page", buildSourceScan("persona_id", 1000, []json.RawMessage{json.RawMessage(`42`)}))
}

// refitVec is the new generation's vector of a key in these tests.
func refitVec(key string) []float32 {
	v := make([]float32, enginetest.Dim)
	v[len(key)%enginetest.Dim] = 1
	return v
}

func storedVector(t *testing.T, f *fakeES, idx, id string) []float32 {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	src, ok := f.docs[idx][id]
	if !ok {
		return nil
	}
	var d struct {
		Vector []float32 `json:"vector"`
	}
	if err := json.Unmarshal(src, &d); err != nil {
		t.Fatal(err)
	}
	return d.Vector
}

func seedRefit(t *testing.T, f *fakeES) (*Engine, []index.CompanyDoc, []index.ContactDoc) {
	t.Helper()
	e := openFake(t, f)
	ctx := context.Background()
	if err := e.SetMeta(ctx, index.Meta{EmbedderID: "old-embedder", Dimension: enginetest.Dim, Model: []byte("old model")}); err != nil {
		t.Fatal(err)
	}
	docs := enginetest.Fixtures()
	for i := range docs {
		docs[i].EmbedderID = "old-embedder"
	}
	if _, err := e.UpsertCompanies(ctx, docs); err != nil {
		t.Fatal(err)
	}
	contacts := enginetest.ContactFixtures()
	if _, err := e.UpsertContacts(ctx, contacts); err != nil {
		t.Fatal(err)
	}
	return e, docs, contacts
}

func refitOf(companies func(ctx context.Context, cs []record.Company) ([][]float32, error)) index.Refit {
	return index.Refit{
		Meta:      index.Meta{EmbedderID: "new-embedder", Dimension: enginetest.Dim, Model: []byte("new model"), FitRecords: 9},
		Companies: companies,
		Contacts: func(_ context.Context, cs []record.Contact) ([][]float32, error) {
			out := make([][]float32, len(cs))
			for i := range cs {
				out[i] = refitVec(cs[i].Name)
			}
			return out, nil
		},
		BatchSize: 2,
	}
}

// TestRefitSwapsGenerations: every document lands in the new
// generations with its new vector, a write and a delete made during the
// refit are carried over, both aliases move, the head names the new
// model, and the old generations and the marker are gone.
func TestRefitSwapsGenerations(t *testing.T) {
	old := refitScanPage
	refitScanPage = 3 // several pages
	t.Cleanup(func() { refitScanPage = old })
	f := newFakeES(t)
	e, docs, contacts := seedRefit(t, f)
	ctx := context.Background()
	late := index.CompanyDoc{EmbedderID: "old-embedder", Vector: refitVec("x"), Company: record.Company{Domain: "late-arrival.com", Name: "Late"}}
	gone := docs[len(docs)-1].Company.Domain
	var calls atomic.Int32
	res, err := e.Refit(ctx, refitOf(func(ctx context.Context, cs []record.Company) ([][]float32, error) {
		if calls.Add(1) == 1 {
			if _, err := e.UpsertCompanies(ctx, []index.CompanyDoc{late}); err != nil {
				t.Errorf("write during the refit: %v", err)
			}
			if _, err := e.DeleteCompanies(ctx, []string{gone}); err != nil {
				t.Errorf("delete during the refit: %v", err)
			}
		}
		out := make([][]float32, len(cs))
		for i := range cs {
			out[i] = refitVec(cs[i].Domain)
		}
		return out, nil
	}))
	if err != nil {
		t.Fatalf("Refit: %v", err)
	}
	if res.From != "old-embedder" || res.To != "new-embedder" || res.Companies != len(docs) || res.Contacts != len(contacts) || res.Concurrent < 1 {
		t.Fatalf("result %+v, want %d companies (one added, one deleted), %d contacts", res, len(docs), len(contacts))
	}
	if f.aliases["t-companies"] != "t-companies-v2" || f.aliases["t-contacts"] != "t-contacts-v2" {
		t.Fatalf("aliases after the refit: %v", f.aliases)
	}
	for _, a := range []string{"t-companies-refit", "t-contacts-refit"} {
		if _, ok := f.aliases[a]; ok {
			t.Fatalf("write alias %s left behind", a)
		}
	}
	for _, idx := range []string{"t-companies-v1", "t-contacts-v1"} {
		if _, ok := f.docs[idx]; ok {
			t.Fatalf("old generation %s kept", idx)
		}
	}
	for _, d := range append(docs[:len(docs)-1], late) {
		if got := storedVector(t, f, "t-companies-v2", d.Company.Domain); len(got) == 0 || cosine(got, refitVec(d.Company.Domain)) < 0.999 {
			t.Errorf("%s in the new generation: vector %v", d.Company.Domain, got)
		}
	}
	if v := storedVector(t, f, "t-companies-v2", gone); v != nil {
		t.Errorf("%s, deleted during the refit, came back", gone)
	}
	for _, c := range contacts {
		if got := storedVector(t, f, "t-contacts-v2", personaKey(c.Contact.PersonaID)); len(got) == 0 || cosine(got, refitVec(c.Contact.Name)) < 0.999 {
			t.Errorf("contact %d in the new generation: vector %v", c.Contact.PersonaID, got)
		}
	}
	m, err := e.Meta(ctx)
	if err != nil || m.EmbedderID != "new-embedder" || string(m.Model) != "new model" || m.FitRecords != 9 {
		t.Fatalf("meta after the refit: %+v %v", m, err)
	}
	if e.EmbedderID() != "new-embedder" {
		t.Fatalf("EmbedderID = %s", e.EmbedderID())
	}
	if _, ok := f.docs["t-meta"][refitMarkerID]; ok {
		t.Fatal("refit marker left behind")
	}
	// A writer still holding the old embedder is refused.
	if _, err := e.UpsertCompanies(ctx, []index.CompanyDoc{late}); !errors.Is(err, index.ErrEmbedderChanged) {
		t.Fatalf("write with the old embedder after the refit: %v", err)
	}
	wide := refitOf(byDomain)
	wide.Meta.Dimension++
	if _, err := e.Refit(ctx, wide); !errors.Is(err, index.ErrUnsupported) {
		t.Fatalf("refit to another dimension: %v", err)
	}
}

func byDomain(_ context.Context, cs []record.Company) ([][]float32, error) {
	out := make([][]float32, len(cs))
	for i := range cs {
		out[i] = refitVec(cs[i].Domain)
	}
	return out, nil
}

// TestRefitFailureKeepsServing: a provider failing mid-refit leaves the
// old generation and head serving and nothing of the new one behind.
func TestRefitFailureKeepsServing(t *testing.T) {
	f := newFakeES(t)
	e, _, _ := seedRefit(t, f)
	ctx := context.Background()
	var calls atomic.Int32
	_, err := e.Refit(ctx, refitOf(func(ctx context.Context, cs []record.Company) ([][]float32, error) {
		if calls.Add(1) == 3 {
			return nil, errors.New("provider down")
		}
		return byDomain(ctx, cs)
	}))
	if err == nil {
		t.Fatal("refit with a failing embedder succeeded")
	}
	if f.aliases["t-companies"] != "t-companies-v1" || f.aliases["t-contacts"] != "t-contacts-v1" {
		t.Fatalf("aliases moved: %v", f.aliases)
	}
	for _, idx := range []string{"t-companies-v2", "t-contacts-v2"} {
		if _, ok := f.docs[idx]; ok {
			t.Fatalf("%s left behind", idx)
		}
	}
	if m, _ := e.Meta(ctx); m.EmbedderID != "old-embedder" || string(m.Model) != "old model" {
		t.Fatalf("meta after a failed refit: %+v", m)
	}
	if _, ok := f.docs["t-meta"][refitMarkerID]; ok {
		t.Fatal("marker left behind")
	}
	if _, err := e.Refit(ctx, refitOf(byDomain)); err != nil {
		t.Fatalf("retry: %v", err)
	}
}

// TestRecoverRefit: a process that died after writing the marker is
// rolled back by the next refit when the aliases had not moved, and
// finished when they had.
func TestRecoverRefit(t *testing.T) {
	for _, moved := range []bool{false, true} {
		f := newFakeES(t)
		e, docs, _ := seedRefit(t, f)
		ctx := context.Background()
		// What a refit leaves when killed: chunks, marker, new indices
		// (filled), and for moved the aliases swapped.
		head, err := e.putModelChunks(ctx, index.Meta{EmbedderID: "new-embedder", Dimension: enginetest.Dim, Model: []byte("new model")})
		if err != nil {
			t.Fatal(err)
		}
		mk := refitMarker{Kind: "refit", Head: head, FromCompanies: "t-companies-v1", ToCompanies: "t-companies-v2",
			FromContacts: "t-contacts-v1", ToContacts: "t-contacts-v2"}
		if err := e.putMeta(ctx, refitMarkerID, mk); err != nil {
			t.Fatal(err)
		}
		f.mu.Lock()
		f.docs["t-companies-v2"], f.docs["t-contacts-v2"] = map[string]json.RawMessage{}, map[string]json.RawMessage{}
		for k, v := range f.docs["t-companies-v1"] {
			f.docs["t-companies-v2"][k] = v
		}
		f.aliases["t-companies-refit"], f.aliases["t-contacts-refit"] = "t-companies-v2", "t-contacts-v2"
		f.mu.Unlock()
		if moved {
			if err := e.updateAliases(ctx, refitSwap(e.alias, e.contactsAlias, mk)); err != nil {
				t.Fatal(err)
			}
		}
		if err := e.RecoverRefit(ctx); err != nil {
			t.Fatalf("moved=%v: RecoverRefit: %v", moved, err)
		}
		m, _ := e.Meta(ctx)
		want, live := "old-embedder", "t-companies-v1"
		if moved {
			want, live = "new-embedder", "t-companies-v2"
		}
		if m.EmbedderID != want || f.aliases["t-companies"] != live {
			t.Fatalf("moved=%v: after recovery the head is %s and the alias on %s, want %s on %s", moved, m.EmbedderID, f.aliases["t-companies"], want, live)
		}
		if _, ok := f.docs["t-meta"][refitMarkerID]; ok {
			t.Fatalf("moved=%v: marker kept", moved)
		}
		if got, _ := e.GetCompanies(ctx, []string{docs[0].Company.Domain}); len(got) != 1 {
			t.Fatalf("moved=%v: companies unreachable after recovery", moved)
		}
	}
}
