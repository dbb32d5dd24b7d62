package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/embedded"
)

// fakeUpgrader is an engine whose contact upgrade returns set answers.
type fakeUpgrader struct {
	index.Engine
	pending int
	st      embedded.ContactUpgrade
	err     error
	ran     bool
}

func (f *fakeUpgrader) PendingContactUpgrades() (int, error) { return f.pending, nil }

func (f *fakeUpgrader) UpgradeContactEntries(context.Context) (embedded.ContactUpgrade, error) {
	f.ran = true
	return f.st, f.err
}

// TestUpgradeContactEntriesLog: serve runs the upgrade only when entries
// are pending and logs its start, its counts and how it ended.
func TestUpgradeContactEntriesLog(t *testing.T) {
	done := embedded.ContactUpgrade{Upgraded: 7, Current: 1, Gone: 2, Stale: 3}
	for _, tc := range []struct {
		name  string
		f     fakeUpgrader
		ran   bool
		wants []string
	}{
		{"nothing pending", fakeUpgrader{}, false, nil},
		{"done", fakeUpgrader{pending: 13, st: done}, true,
			[]string{`"contacts":13`, `"level":"info","upgraded":7,"current":1,"gone":2,"stale":3`}},
		{"closed", fakeUpgrader{pending: 13, st: embedded.ContactUpgrade{Upgraded: 4}, err: fmt.Errorf("x: %w", embedded.ErrClosed)}, true,
			[]string{`"stopped":"shutting down`, `"upgraded":4`}},
		{"failed", fakeUpgrader{pending: 13, err: errors.New("disk on fire")}, true,
			[]string{`"level":"error","error":"disk on fire"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			upgradeContactEntries(context.Background(), &tc.f, zerolog.New(&buf))
			if tc.f.ran != tc.ran {
				t.Fatalf("upgrade ran: %v, want %v", tc.f.ran, tc.ran)
			}
			out := buf.String()
			if !tc.ran && out != "" {
				t.Fatalf("logged %s", out)
			}
			if stopped := strings.Contains(out, `"stopped"`); stopped != (tc.name == "closed") {
				t.Errorf("log %s: stopped %v", out, stopped)
			}
			for _, w := range tc.wants {
				if !strings.Contains(out, w) {
					t.Errorf("log %s lacks %s", out, w)
				}
			}
		})
	}
}
