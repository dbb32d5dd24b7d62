//go:build unix

// Package cputime reads the CPU time the process has used, for benchmarks:
// on a shared machine it measures what a run cost where wall time also
// counts the waits for a core.
package cputime

import (
	"syscall"
	"time"
)

// Process is the user and system CPU time the process has used (0 if
// unknown).
func Process() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
