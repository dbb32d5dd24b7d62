package postgres

import (
	"testing"

	"github.com/openprospect/prospectd/store/storetest"
)

func TestEmailConformance(t *testing.T) {
	storetest.RunEmail(t, func(t *testing.T) storetest.EmailStore { return open(t, testURL(t)) })
}
