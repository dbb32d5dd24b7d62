//go:build !linux

package embedded

// PhysicalMemory returns 0: unknown outside Linux.
func PhysicalMemory() int64 { return 0 }
