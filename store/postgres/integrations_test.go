package postgres

import (
	"testing"

	"github.com/openprospect/prospectd/store/storetest"
)

func TestIntegrations(t *testing.T) {
	storetest.RunIntegrations(t, func(t *testing.T) storetest.IntegrationsStore {
		return open(t, testURL(t))
	})
}
