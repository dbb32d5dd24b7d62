package elastic

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/elastic/go-elasticsearch/v8/esapi"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/enginetest"
)

// liveURL returns the cluster of the live tests, skipping the test (and
// saying so) when ELASTICSEARCH_URL is unset. Optional credentials come
// from ELASTICSEARCH_USERNAME, ELASTICSEARCH_PASSWORD, ELASTICSEARCH_API_KEY.
func liveURL(t *testing.T) string {
	t.Helper()
	url := os.Getenv("ELASTICSEARCH_URL")
	if url == "" {
		t.Skip("ELASTICSEARCH_URL not set: Elasticsearch conformance suite skipped")
	}
	return url
}

// openLive opens an engine on a fresh random prefix and deletes its indices
// and template at cleanup. An unreachable cluster fails the test: the
// variable says one is expected.
func openLive(t *testing.T, url string) *Engine {
	t.Helper()
	var r [6]byte
	if _, err := rand.Read(r[:]); err != nil {
		t.Fatal(err)
	}
	prefix := "prospect-test-" + hex.EncodeToString(r[:])
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	e, err := New(ctx, Config{
		URL:         url,
		IndexPrefix: prefix,
		Username:    os.Getenv("ELASTICSEARCH_USERNAME"),
		Password:    os.Getenv("ELASTICSEARCH_PASSWORD"),
		APIKey:      os.Getenv("ELASTICSEARCH_API_KEY"),
		Dimension:   enginetest.Dim,
	})
	if err != nil {
		t.Fatalf("ELASTICSEARCH_URL=%s is set but the engine cannot open: %v", url, err)
	}
	t.Cleanup(func() {
		dropLayout(t, e)
		e.Close()
	})
	return e
}

// dropLayout deletes every index of the engine's prefix by name (clusters
// refuse wildcard deletes by default) and its templates.
func dropLayout(t *testing.T, e *Engine) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var byName map[string]json.RawMessage
	if err := e.call(ctx, "list test indices", esapi.IndicesGetRequest{Index: []string{e.prefix + "-*"}}, &byName); err != nil {
		t.Errorf("cleanup: %v", err)
		return
	}
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	if len(names) > 0 {
		if err := e.call(ctx, "delete test indices", esapi.IndicesDeleteRequest{Index: names}, nil); err != nil {
			t.Errorf("cleanup: %v", err)
		}
	}
	for _, name := range []string{e.template, e.contactsTemplate} {
		if err := e.call(ctx, "delete test template", esapi.IndicesDeleteIndexTemplateRequest{Name: name}, nil); err != nil {
			t.Errorf("cleanup: %v", err)
		}
	}
}

func TestConformance(t *testing.T) {
	url := liveURL(t)
	// One loud failure up front when the cluster is unreachable, rather
	// than one per subtest.
	openLive(t, url)
	enginetest.RunAll(t, func(t *testing.T) index.Engine { return openLive(t, url) })
}

// TestRefitConformance re-embeds every company and contact into new
// generations and swaps both aliases on the cluster.
func TestRefitConformance(t *testing.T) {
	url := liveURL(t)
	openLive(t, url)
	enginetest.RunRefit(t, func(t *testing.T) index.Engine { return openLive(t, url) }, enginetest.RefitOptions{SameDimension: true})
}

// TestContactConformance runs the contact suite (ranking, grouping, every
// contact filter, the employer refresh by _update_by_query) on the cluster.
func TestContactConformance(t *testing.T) {
	url := liveURL(t)
	openLive(t, url)
	enginetest.RunContacts(t, func(t *testing.T) enginetest.ContactBackend { return openLive(t, url) })
}

// TestLiveContactsReindex moves the contacts alias to a second generation
// and checks the contacts are served from it.
func TestLiveContactsReindex(t *testing.T) {
	e := openLive(t, liveURL(t))
	ctx := context.Background()
	docs := enginetest.ContactFixtures()
	if failed, err := e.UpsertContacts(ctx, docs); err != nil || len(failed) > 0 {
		t.Fatalf("UpsertContacts: %v %v", failed, err)
	}
	if err := e.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	res, err := e.ReindexContacts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.To != e.contactsAlias+"-v2" || res.Documents != len(docs) {
		t.Fatalf("ReindexContacts = %+v", res)
	}
	n, err := e.CountContacts(ctx, index.Phrase{Field: index.NameField, Text: "mull"})
	if err != nil || n != 1 {
		t.Fatalf("count through the new generation = %d, %v", n, err)
	}
}

// TestLiveMetaLargeModel stores a model of several chunks on the cluster.
func TestLiveMetaLargeModel(t *testing.T) {
	e := openLive(t, liveURL(t))
	ctx := context.Background()
	model := make([]byte, 2*metaChunkBytes+12345)
	if _, err := rand.Read(model); err != nil {
		t.Fatal(err)
	}
	if err := e.SetMeta(ctx, index.Meta{EmbedderID: "big", Dimension: enginetest.Dim, Model: model}); err != nil {
		t.Fatal(err)
	}
	got, err := e.Meta(ctx)
	if err != nil || !bytes.Equal(got.Model, model) {
		t.Fatalf("Meta: %d bytes, %v; want %d bytes", len(got.Model), err, len(model))
	}
}

// TestLiveReindex moves the alias to a second generation on the cluster and
// checks the data is served from it.
func TestLiveReindex(t *testing.T) {
	e := openLive(t, liveURL(t))
	ctx := context.Background()
	docs := enginetest.Fixtures()
	if failed, err := e.UpsertCompanies(ctx, docs); err != nil || len(failed) > 0 {
		t.Fatalf("UpsertCompanies: %v %v", failed, err)
	}
	if err := e.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	res, err := e.Reindex(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.To != e.alias+"-v2" || res.Documents != len(docs) {
		t.Fatalf("Reindex = %+v", res)
	}
	live, err := e.liveIndex(ctx)
	if err != nil || live != res.To {
		t.Fatalf("alias -> %q, %v", live, err)
	}
	n, err := e.CountCompanies(ctx, index.Terms{Field: index.IndustryField, Values: []string{"CYBERSECURITY"}})
	if err != nil || n != 3 {
		t.Fatalf("count through the new generation = %d, %v", n, err)
	}
}
