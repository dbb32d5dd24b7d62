package postgres

import (
	"testing"

	"github.com/openprospect/prospectd/store/storetest"
)

func TestSavedConformance(t *testing.T) {
	storetest.RunSaved(t, func(t *testing.T) storetest.SavedStore { return open(t, testURL(t)) })
}

func TestMonitorConformance(t *testing.T) {
	storetest.RunMonitors(t, func(t *testing.T) storetest.MonitorStore { return open(t, testURL(t)) })
}

func TestProspectingConformance(t *testing.T) {
	storetest.RunProspecting(t, func(t *testing.T) storetest.ProspectingStore { return open(t, testURL(t)) })
}

func TestWebhookSecretsConformance(t *testing.T) {
	storetest.RunWebhookSecrets(t, func(t *testing.T) storetest.WebhookSecretStore { return open(t, testURL(t)) })
}
