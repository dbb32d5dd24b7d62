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
				switch d, ok := e.(*huma.ErrorDetail); {
				case e == nil:
				case ok && strings.Contains(msg, d.Message):
					// The handler's message already says it.
				case ok && d.Location != "":
					parts = append(parts, d.Location+": "+d.Message)
				default:
					parts = append(parts, e.Error())
				}
			}
			if len(parts) > 0 {
				msg += ": " + strings.Join(parts, "; ")
			}
			return base(status, msg, errs...)
		}
	})
}
