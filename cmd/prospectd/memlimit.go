package main

import (
	"runtime/debug"
)

// memoryShare is the part of the memory the process may use (the
// machine's, or its cgroup's limit) that the Go heap is held under by
// default. The collector's own goal is twice the live heap (GOGC 100;
// four times in the loaders, which set 300), so without a limit a process
// whose live heap is under half the machine can be killed for memory it
// would have collected: at 10M companies and 15M contacts (~11 GB live)
// the contact index load reached 24 GB and was killed on a 24 GiB
// machine (docs/benchmarks.md "Contacts: 10M companies / 15M contacts").
const memoryShare = 0.8

// limitMemory sets the Go runtime's soft memory limit to memoryShare of
// total, unless the operator set GOMEMLIMIT (the runtime's own variable,
// which then stays in force) or total is unknown. It returns the limit it
// set, 0 for none.
func limitMemory(getenv func(string) string, total int64) int64 {
	if getenv("GOMEMLIMIT") != "" || total <= 0 {
		return 0
	}
	limit := int64(float64(total) * memoryShare)
	debug.SetMemoryLimit(limit)
	return limit
}
