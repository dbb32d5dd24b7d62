//go:build !unix

package api

import "time"

func cpuTime() time.Duration { return 0 }
