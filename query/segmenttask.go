package query

import (
	"context"
	"errors"
	"fmt"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/record"
	"github.com/openprospect/prospectd/store"
)

// KindSegment is the task kind of POST /v1/segment.
const KindSegment = "segment"

// SegmentInput is a segment task's input: the upload's domains, normalized
// and each once, and the segment cap (0: chosen by silhouette).
type SegmentInput struct {
	Domains     []string `json:"domains"`
	MaxSegments int      `json:"max_segments"`
}

// SegmentedCompany is a segment result row: a profile with the segment
// fields.
type SegmentedCompany struct {
	record.Profile
	SegmentID          int     `json:"segment_id" doc:"-1 means unclustered"`
	SegmentDescription string  `json:"segment_description"`
	Probability        float64 `json:"probability"`
}

// SegmentResults are a completed segmentation's results.
type SegmentResults []SegmentedCompany

// SegmentTask is the body of segment tasks (wired by jobs/).
type SegmentTask struct {
	Companies *Companies
	Orgs      store.Orgs
	Biller    *account.Biller
}

// Run segments the task's domains. Segment rows are hydrated profiles:
// billed like bizdata, cut to what the credits cover; a task whose rows
// the credits cover none of fails.
func (h *SegmentTask) Run(ctx context.Context, t store.Task, in SegmentInput, progress func(pct int)) (SegmentResults, error) {
	seg, err := h.Companies.Segment(ctx, in.Domains, in.MaxSegments, progress)
	if err != nil {
		return nil, err
	}
	org, err := h.Orgs.OrgByID(ctx, t.OrgID)
	if err != nil {
		return nil, err
	}
	paid, err := account.BillRecords(ctx, h.Biller, org, "segment", seg.Rows, func(r SegmentRow) []store.Charge {
		return account.Companies([]string{r.Company.Domain})
	})
	if errors.Is(err, account.ErrNoCredits) {
		return nil, fmt.Errorf("no credits left this period for the %d segmented companies; see GET /v1/usage", len(seg.Rows))
	}
	if err != nil {
		return nil, err
	}
	out := SegmentResults{}
	for _, r := range paid.Records {
		out = append(out, SegmentedCompany{Profile: record.ProfileOf(r.Company), SegmentID: r.SegmentID,
			SegmentDescription: r.Description, Probability: r.Probability})
	}
	return out, nil
}
