package embedded

import (
	"bufio"
	"bytes"
	"os"
	"runtime"
	"strconv"
	"testing"
)

// reportMemory reports where the process's resident memory is, at the
// moment it is called (no collection is forced, so the figures describe
// the same state as VmRSS): the resident anonymous and file-backed bytes
// (/proc/self/smaps_rollup, Linux), the Go heap's spans in use, the live
// objects in them, the heap the runtime holds but has not returned, the
// goroutine stacks and the runtime's other bookkeeping. The anonymous
// bytes the Go runtime does not account for are memory allocated outside
// it (Pebble's block cache and memtables, C allocations, mappings of
// allocArena). All in MB.
func reportMemory(b *testing.B) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	mb := func(v uint64) float64 { return float64(v) / 1e6 }
	b.ReportMetric(mb(ms.HeapInuse), "heap-inuse-MB")
	b.ReportMetric(mb(ms.HeapAlloc), "heap-alloc-MB")
	b.ReportMetric(mb(ms.HeapIdle-ms.HeapReleased), "heap-unreleased-MB")
	b.ReportMetric(mb(ms.StackSys), "stacks-MB")
	other := ms.Sys - ms.HeapSys - ms.StackSys
	b.ReportMetric(mb(other), "runtime-other-MB")
	roll := smapsRollup()
	if roll == nil {
		return
	}
	anon, file := roll["Anonymous"], roll["Rss"]-roll["Anonymous"]
	b.ReportMetric(mb(anon), "rss-anon-MB")
	b.ReportMetric(mb(file), "rss-file-MB")
	// Of the anonymous bytes, those in transparent huge pages (the int8
	// chunks ask for them: allocInt8).
	b.ReportMetric(mb(roll["AnonHugePages"]), "rss-hugepages-MB")
	goRes := ms.HeapInuse + (ms.HeapIdle - ms.HeapReleased) + ms.StackInuse + other
	if anon > goRes {
		b.ReportMetric(mb(anon-goRes), "anon-outside-go-MB")
	}
}

// smapsRollup returns the byte counts of /proc/self/smaps_rollup by field
// name (nil where it is absent).
func smapsRollup() map[string]uint64 {
	raw, err := os.ReadFile("/proc/self/smaps_rollup")
	if err != nil {
		return nil
	}
	out := map[string]uint64{}
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for sc.Scan() {
		f := bytes.Fields(sc.Bytes())
		if len(f) != 3 || !bytes.Equal(f[2], []byte("kB")) {
			continue
		}
		v, err := strconv.ParseUint(string(f[1]), 10, 64)
		if err != nil {
			continue
		}
		out[string(bytes.TrimSuffix(f[0], []byte(":")))] = v << 10
	}
	return out
}
