//go:build unix

package api

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used: on a shared machine it
// measures a benchmark's cost where wall time also counts the waits for a
// core.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
