//go:build !linux

package embedded

// physicalMemory returns 0: unknown outside Linux.
func physicalMemory() int64 { return 0 }
