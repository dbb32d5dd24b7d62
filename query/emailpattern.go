package query

import (
	"context"
	"strings"
)

// EmailPattern returns a domain's address template as measured from its
// indexed contacts ("{first}.{last}", without the domain; "" when
// unknown) and its confidence, for the email finder.
func (s *ContactService) EmailPattern(ctx context.Context, domain string) (string, float64, error) {
	p, err := s.emailPattern(ctx, domain)
	if err != nil {
		return "", 0, err
	}
	tpl, _, _ := strings.Cut(p.Pattern, "@")
	return tpl, p.Confidence, nil
}
