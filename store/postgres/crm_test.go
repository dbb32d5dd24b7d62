package postgres

import (
	"testing"

	"github.com/openprospect/prospectd/store/storetest"
)

func TestCRMConformance(t *testing.T) {
	storetest.RunCRM(t, func(t *testing.T) storetest.CRMStore { return open(t, testURL(t)) })
}
