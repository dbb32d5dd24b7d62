package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/openprospect/prospectd/store/storetest"
)

func TestCRMConformance(t *testing.T) {
	storetest.RunCRM(t, func(t *testing.T) storetest.CRMStore {
		s, err := Open(context.Background(), filepath.Join(t.TempDir(), "state.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	})
}
