//go:build unix

package embedded

import "syscall"

// fileLimit is the process's limit on open files (the soft RLIMIT_NOFILE,
// which the Go runtime raises to the hard limit at start); 0 when unknown.
func fileLimit() int {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
		return 0
	}
	return int(min(rl.Cur, 1<<30))
}
