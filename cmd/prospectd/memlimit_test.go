package main

import (
	"math"
	"runtime/debug"
	"testing"
)

func TestLimitMemory(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == "GOMEMLIMIT" {
				return v
			}
			return ""
		}
	}
	for _, c := range []struct {
		name    string
		env     string
		total   int64
		want    int64 // returned and in force
		inForce int64
	}{
		{"share of the machine", "", 10 << 30, 8 << 30, 8 << 30},
		{"operator's GOMEMLIMIT stays", "3GiB", 10 << 30, 0, math.MaxInt64},
		{"unknown memory: no limit", "", 0, 0, math.MaxInt64},
	} {
		t.Run(c.name, func(t *testing.T) {
			debug.SetMemoryLimit(math.MaxInt64)
			if got := limitMemory(env(c.env), c.total); got != c.want {
				t.Fatalf("limitMemory = %d, want %d", got, c.want)
			}
			if got := debug.SetMemoryLimit(-1); got != c.inForce {
				t.Fatalf("limit in force %d, want %d", got, c.inForce)
			}
		})
	}
}
