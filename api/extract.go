package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/query"
	"github.com/openprospect/prospectd/record/domain"
	"github.com/openprospect/prospectd/store"
)

// GET /v1/extract: the site text and languages the crawler stored for one
// domain. It reads the index only; a site is fetched by the crawler
// (`prospectd crawl`, crawl tasks), never on the request path.

type extractInput struct {
	Domain string `query:"domain" required:"true" minLength:"1" maxLength:"2048" doc:"Company domain or URL; subdomains normalize to the root domain" example:"example.com"`
}

type extractOutput struct {
	CreditsBilled    int `header:"X-Credits-Billed" doc:"Credits this response cost (0 when it carries no site text)"`
	CreditsRemaining int `header:"X-Credits-Remaining" doc:"Credits left in the current period"`
	Body             query.SiteExtract
}

// extractCharge bills one extraction: a record every time, like the
// dataset lookups (the text changes with each crawl, so nothing is cached).
func extractCharge(d string) []store.Charge {
	return []store.Charge{{Kind: store.KindRow, Key: "extract:" + d, NoCache: true}}
}

func (s *Server) registerExtract() {
	huma.Register(s.api, huma.Operation{
		OperationID: "extract",
		Method:      http.MethodGet,
		Path:        "/v1/extract",
		Summary:     "Crawled site text and languages of a domain",
		Description: "What the crawler stored for one company's site: the visible text of its home page, the languages detected in it, and when and where the last crawl went. Never fetches the site: 404 when the domain is not indexed or its site was never crawled. Billed one record when the answer carries site text, every time; a crawled site without text is free.",
		Tags:        []string{"Companies"},
		Security:    authRequired,
		Errors:      []int{http.StatusUnauthorized, http.StatusPaymentRequired, http.StatusForbidden, http.StatusNotFound, http.StatusUnprocessableEntity, http.StatusTooManyRequests},
	}, func(ctx context.Context, in *extractInput) (*extractOutput, error) {
		p, err := s.paid(ctx, store.PlanStarter)
		if err != nil {
			return nil, err
		}
		d, err := domain.Normalize(in.Domain)
		if err != nil {
			return nil, huma.Error422UnprocessableEntity(fmt.Sprintf("domain: %v", err), &huma.ErrorDetail{Location: "query.domain", Message: err.Error(), Value: in.Domain})
		}
		e, err := s.companies.Extract(ctx, d)
		switch {
		case errors.Is(err, index.ErrNotFound):
			return nil, huma.Error404NotFound(fmt.Sprintf("domain: no company profile for %q", d))
		case errors.Is(err, query.ErrNotCrawled):
			return nil, huma.Error404NotFound(fmt.Sprintf("domain: the site of %q has not been crawled", d))
		case err != nil:
			return nil, s.serviceError(ctx, "extract", err)
		}
		out := &extractOutput{Body: e}
		if e.Billable() {
			r, err := bill(ctx, s, p, "extract", []string{d}, extractCharge)
			if err != nil {
				return nil, err
			}
			out.CreditsBilled, out.CreditsRemaining = r.Billed, r.Left
		} else {
			u, err := s.biller.Usage(ctx, p.Org)
			if err != nil {
				return nil, s.internal(ctx, "usage", err)
			}
			out.CreditsRemaining = u.CreditsLeft
		}
		return out, nil
	})
}
