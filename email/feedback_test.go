package email_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/openprospect/prospectd/email"
	"github.com/openprospect/prospectd/email/mailworld"
	"github.com/openprospect/prospectd/store"
)

// TestDeliveryFeedback: a delivery report raises the confidence of the
// address's template at its domain (so the next person there is tried
// with it first) and marks the cached result; a bounce drops the cached
// result and lowers the confidence.
func TestDeliveryFeedback(t *testing.T) {
	w := testWorld(t)
	w.AddDomain(mailworld.Domain{Name: "fb.example.com", MX: []string{"mx.strict.example.com"}, Mailboxes: []string{"doe.jane", "roe.rick"}})
	st := openStore(t)
	ctx := context.Background()
	org, _ := st.CreateOrg(ctx, "Acme", store.PlanTeam)
	svc, r := newService(t, st, w, time.Second)
	svc.Finder.Patterns = &email.FeedbackPatterns{Store: st}
	if err := r.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer r.Stop()
	lookup := func(first, last string) *email.Result {
		t.Helper()
		b, _, err := svc.Submit(ctx, org.ID, email.Submission{Kind: email.KindFind, Requests: []email.Request{findReq(first, last, "fb.example.com")}})
		if err != nil {
			t.Fatal(err)
		}
		return waitBatch(t, svc, org.ID, b.ID, 10*time.Second, nil).Results[0].Result
	}
	res := lookup("Jane", "Doe")
	if res.Status != email.StatusFound || res.Result.Tier != 3 || res.Evidence.PatternSource != "common" {
		t.Fatalf("before feedback: %+v %+v", res.Result, res.Evidence)
	}
	fb, err := svc.Feedback(ctx, email.FeedbackRequest{Email: "Doe.Jane@fb.example.com", Outcome: email.OutcomeDelivered})
	if err != nil || fb.CachedResults != 1 || fb.Pattern != "{last}.{first}" || fb.DomainPattern != "{last}.{first}" || fb.DomainPatternConfidence != 0.5 {
		t.Fatalf("delivered: %+v %v", fb, err)
	}
	res = lookup("Rick", "Roe")
	if res.Status != email.StatusFound || res.Result.Email != "roe.rick@fb.example.com" || res.Result.Tier != 1 || res.Evidence.PatternSource != "measured" {
		t.Fatalf("after feedback: %+v %+v", res.Result, res.Evidence)
	}
	if res = lookup("Jane", "Doe"); !res.Cached || !res.DeliveryConfirmed {
		t.Fatalf("cached result not marked: %+v", res)
	}
	fb, err = svc.Feedback(ctx, email.FeedbackRequest{Email: "doe.jane@fb.example.com", Outcome: email.OutcomeBounced})
	if err != nil || fb.CachedResults != 1 || fb.DomainPatternConfidence != 0.33 {
		t.Fatalf("bounced: %+v %v", fb, err)
	}
	before := len(w.Rcpts())
	if res = lookup("Jane", "Doe"); res.Cached || len(w.Rcpts()) == before {
		t.Fatalf("a bounced address was served from the cache: %+v", res)
	}
	// Feedback by names alone (nothing cached for this address).
	fb, err = svc.Feedback(ctx, email.FeedbackRequest{Email: "rick.roe@fb.example.com", Outcome: email.OutcomeBounced, FirstName: "Rick", LastName: "Roe"})
	if err != nil || fb.Pattern != "{first}.{last}" || fb.CachedResults != 0 {
		t.Fatalf("feedback by names: %+v %v", fb, err)
	}
	var fe *email.FieldError
	if _, err := svc.Feedback(ctx, email.FeedbackRequest{Email: "a@fb.example.com", Outcome: "maybe"}); !errors.As(err, &fe) || fe.Field != "outcome" {
		t.Fatalf("bad outcome: %v", err)
	}
}
