package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/openprospect/prospectd/store/storetest"
)

func TestSavedConformance(t *testing.T) {
	storetest.RunSaved(t, func(t *testing.T) storetest.SavedStore {
		s, err := Open(context.Background(), filepath.Join(t.TempDir(), "state.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	})
}

func TestMonitorConformance(t *testing.T) {
	storetest.RunMonitors(t, func(t *testing.T) storetest.MonitorStore {
		s, err := Open(context.Background(), filepath.Join(t.TempDir(), "state.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	})
}

func TestProspectingConformance(t *testing.T) {
	storetest.RunProspecting(t, func(t *testing.T) storetest.ProspectingStore {
		s, err := Open(context.Background(), filepath.Join(t.TempDir(), "state.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	})
}

func TestWebhookSecretsConformance(t *testing.T) {
	storetest.RunWebhookSecrets(t, func(t *testing.T) storetest.WebhookSecretStore {
		s, err := Open(context.Background(), filepath.Join(t.TempDir(), "state.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	})
}
