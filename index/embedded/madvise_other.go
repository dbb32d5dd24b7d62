//go:build !linux

package embedded

func adviseHuge([]byte) {}
