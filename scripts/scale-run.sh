#!/usr/bin/env bash
# Scale run of issue 24: builds a demo index and prints the figures
# docs/benchmarks.md records ("Ten million companies (issue 24)").
#
#   COMPANIES=10000000 CONTACTS=0 SCALE_DIR=/work/bench/me bash scripts/scale-run.sh
#
# Every heavy step runs under `flock /tmp/bench.lock` (the machine is
# shared). Variables:
#   COMPANIES   demo companies (default 10,000,000)
#   CONTACTS    demo contacts (default 0)
#   SCALE_DIR   work directory: binary, index, logs (default /tmp/scale-run); removed by CLEAN=1
#   KEEP_INDEX  1: reuse an index already in SCALE_DIR/data (skip the load)
#   SEARCHES    timed searches per VectorSearch case (default 100)
#   RECALL_Q    queries recall is measured with per case (default 10; each
#               scans the candidates' full-precision vectors)
#   HTTP_N      requests per HTTP case (default 200)
set -euo pipefail
cd "$(dirname "$0")/.."
COMPANIES=${COMPANIES:-10000000}
CONTACTS=${CONTACTS:-0}
SCALE_DIR=${SCALE_DIR:-/tmp/scale-run}
SEARCHES=${SEARCHES:-100}
RECALL_Q=${RECALL_Q:-10}
HTTP_N=${HTTP_N:-200}
LOCK=/tmp/bench.lock
mkdir -p "$SCALE_DIR"
BIN=$SCALE_DIR/prospectd
DATA=$SCALE_DIR/data
go build -o "$BIN" ./cmd/prospectd

echo "== $(date -u +%FT%TZ) load average: $(cut -d' ' -f1-3 /proc/loadavg)"
if [[ "${KEEP_INDEX:-0}" != 1 || ! -d $DATA/index ]]; then
	rm -rf "$DATA"
	echo "== load: demo --companies $COMPANIES --contacts $CONTACTS"
	flock "$LOCK" /usr/bin/time -v "$BIN" demo --companies "$COMPANIES" --contacts "$CONTACTS" --seed 1 \
		--data-dir "$DATA" 2>"$SCALE_DIR/demo.time" | tee "$SCALE_DIR/demo.out"
	grep -E "Elapsed|Maximum resident" "$SCALE_DIR/demo.time"
fi
du -sh "$DATA/index"

echo "== warm restart: serve, twice (ready_in, resident after ready)"
for i in 1 2; do
	log=$SCALE_DIR/serve-$i.log
	flock "$LOCK" bash -c '
		"$1" serve --data-dir "$2" --addr 127.0.0.1:18924 --log-format json >"$3" 2>&1 &
		pid=$!
		for _ in $(seq 600); do
			grep -q ready_in "$3" && break
			kill -0 $pid 2>/dev/null || break
			sleep 0.5
		done
		echo "ready_in_ms=$(grep -o "\"ready_in\":[0-9.]*" "$3" | cut -d: -f2) rss_kb=$(awk "/VmRSS/{print \$2}" /proc/$pid/status)"
		kill $pid; wait $pid || true' _ "$BIN" "$DATA" "$log"
done

echo "== open + resident (embedded engine alone)"
PROSPECT_BENCH_INDEX=$DATA/index flock "$LOCK" go test -run '^$' -bench OpenIndex -benchtime 1x -timeout 30m ./index/embedded/ | grep -E "^Benchmark|ok|FAIL"

echo "== engine search: p50/p99, recall@10/@100 against full precision, one exact int8 pass (exact-int8-ms)"
PROSPECT_BENCH_INDEX=$DATA/index PROSPECT_BENCH_RECALL_QUERIES=$RECALL_Q flock "$LOCK" \
	go test -run '^$' -bench VectorSearch -benchtime "${SEARCHES}x" -timeout 4h ./index/embedded/ | grep -E "^Benchmark|opened|ok|FAIL"

echo "== HTTP: broad lookalike vs GET /v1/bizdata (x-bizdata-p50 is the ratio)"
PROSPECT_BENCH_INDEX=$DATA/index flock "$LOCK" \
	go test -run '^$' -bench BroadLookalikeRatioHTTP -benchtime "${HTTP_N}x" -timeout 2h ./api/ | grep -E "^Benchmark|ok|FAIL"

echo "== done $(date -u +%FT%TZ) load average: $(cut -d' ' -f1-3 /proc/loadavg)"
if [[ "${CLEAN:-0}" == 1 ]]; then rm -rf "$SCALE_DIR"; fi
