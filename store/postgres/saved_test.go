package postgres

import (
	"testing"

	"github.com/openprospect/prospectd/store/storetest"
)

func TestSavedConformance(t *testing.T) {
	storetest.RunSaved(t, func(t *testing.T) storetest.SavedStore { return open(t, testURL(t)) })
}
