package api

import (
	"strings"
	"sync"

	"github.com/danielgtaylor/huma/v2"
)

var errorsOnce sync.Once

// detailedErrors makes every Huma error's detail name the failing fields
// and rules ("validation failed: query.domain: expected required property
// domain to be present"), so a client reading only `detail` learns what to
// fix. The structured list stays in `errors`.
func detailedErrors() {
	errorsOnce.Do(func() {
		base := huma.NewError
		huma.NewError = func(status int, msg string, errs ...error) huma.StatusError {
			var parts []string
			for _, e := range errs {
				if e == nil {
					continue
				}
				if d, ok := e.(*huma.ErrorDetail); ok && d.Location != "" {
					parts = append(parts, d.Location+": "+d.Message)
				} else {
					parts = append(parts, e.Error())
				}
			}
			if len(parts) > 0 && !strings.Contains(msg, parts[0]) {
				msg += ": " + strings.Join(parts, "; ")
			}
			return base(status, msg, errs...)
		}
	})
}
