package api

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/store"
)

// TestProspectingStartNeedsQuota: starting needs a paid plan (403) and
// credits left this period (402, as every billed endpoint); the accepted
// request repeated with its key still answers with its run.
func TestProspectingStartNeedsQuota(t *testing.T) {
	f := prospectingFixture(t)
	ctx := context.Background()
	key := f.keyFor(t, "broke", store.PlanStarter)
	code, b := f.sendKey(t, "POST", "/v1/prospecting/runs", key, "q-1", startBody)
	if code != http.StatusAccepted {
		t.Fatalf("first start: %d %v", code, b)
	}
	id := b["run_id"]
	org, err := f.st.OrgByName(ctx, "broke")
	if err != nil {
		t.Fatal(err)
	}
	plans := account.DefaultPlans()
	charges := make([]store.Charge, plans[store.PlanStarter].Credits)
	for i := range charges {
		charges[i] = store.Charge{Kind: store.KindCompany, Key: fmt.Sprintf("c%05d.example.com", i)}
	}
	if _, err := (&account.Biller{Store: f.st, Plans: plans}).Bill(ctx, org, "bizdata", charges); err != nil {
		t.Fatal(err)
	}
	code, b = f.sendKey(t, "POST", "/v1/prospecting/runs", key, "q-2", strings.Replace(startBody, "Find 3", "Find 5", 1))
	if code != http.StatusPaymentRequired || !strings.Contains(fmt.Sprint(b["detail"]), "no credits left") || !strings.Contains(fmt.Sprint(b["detail"]), "GET /v1/usage") {
		t.Fatalf("start without credits: %d %v", code, b)
	}
	if code, b = f.sendKey(t, "POST", "/v1/prospecting/runs", key, "q-1", startBody); code != http.StatusAccepted || b["run_id"] != id {
		t.Fatalf("repeat with no credits left: %d %v", code, b)
	}
	free := f.keyFor(t, "free", store.PlanNone)
	if code, b = f.sendKey(t, "POST", "/v1/prospecting/runs", free, "q-3", startBody); code != http.StatusForbidden || !strings.Contains(fmt.Sprint(b["detail"]), "paid plan") {
		t.Fatalf("start on plan none: %d %v", code, b)
	}
}
