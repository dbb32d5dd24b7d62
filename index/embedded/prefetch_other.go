//go:build !linux

package embedded

// willNeed is a no-op where the vector file is not mapped.
func willNeed(b []byte) {}
