package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/danielgtaylor/huma/v2"

	"github.com/openprospect/prospectd/account"
	"github.com/openprospect/prospectd/store"
)

// bill pays for a response's records with account.BillRecords; the
// handler returns only the covered ones. A response whose records the
// credits cover none of is a 402.
func bill[T any](ctx context.Context, s *Server, p store.Principal, endpoint string, records []T, charges func(T) []store.Charge) (account.Covered[T], error) {
	r, err := account.BillRecords(ctx, s.biller, p.Org, endpoint, records, charges)
	if errors.Is(err, account.ErrNoCredits) {
		return r, huma.NewError(http.StatusPaymentRequired, fmt.Sprintf(
			"no credits left this period (%d used); records retrieved in the last 90 days stay free; see GET /v1/usage", r.Used))
	}
	if err != nil {
		return r, s.internal(ctx, "bill", err)
	}
	return r, nil
}

// companyCharge bills a company profile by domain.
func companyCharge(domain string) []store.Charge {
	return []store.Charge{{Kind: store.KindCompany, Key: domain}}
}

// contactCharge bills a contact by persona id.
func contactCharge(id int64) []store.Charge {
	return []store.Charge{{Kind: store.KindContact, Key: strconv.FormatInt(id, 10)}}
}
