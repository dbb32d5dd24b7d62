package embedded

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// PhysicalMemory returns the memory this process may use, in bytes: the
// machine's, or its cgroup's limit when lower (a container on a large host
// must not size its buffers by the host); 0 when unknown.
func PhysicalMemory() int64 {
	var si syscall.Sysinfo_t
	if syscall.Sysinfo(&si) != nil {
		return 0
	}
	total := int64(si.Totalram) * int64(si.Unit)
	for _, path := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		// "max" (cgroup v2) or a huge number (v1) mean no limit.
		if n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && n > 0 && n < total {
			total = n
		}
	}
	return total
}
