//go:build !linux

package embedded

func adviseHuge([]byte) {}

func prefault([]byte) {}

func releaseZeros([]byte) {}
