#!/usr/bin/env bash
# Runs the Python SDK's pytest suite against a live prospectd: builds the
# server, starts it on a free loopback port with a demo corpus (plus an
# organization limited to 2 credits for the 402 tests), installs the SDK
# offline into a throwaway venv, runs pytest, and stops the server.
# Needs pytest for a python3 on PATH or /usr/bin/python3 (Debian: python3-pytest).
set -euo pipefail
cd "$(dirname "$0")/.."

py=""
for cand in "${PYTHON:-python3}" /usr/bin/python3; do
  if command -v "$cand" >/dev/null && "$cand" -c 'import pytest' 2>/dev/null; then py=$cand; break; fi
done
if [ -z "$py" ]; then echo "test-python-sdk: no python3 with pytest (apt-get install python3-pytest)" >&2; exit 1; fi

# Type check (strict) when mypy is installed (Debian: python3-mypy).
if "$py" -c 'import mypy' 2>/dev/null; then
  (cd sdk/python && "$py" -m mypy --strict --no-incremental prospect)
else
  echo "test-python-sdk: mypy not installed; type check skipped" >&2
fi

tmp=$(mktemp -d)
pid=""
cleanup() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

go build -o "$tmp/prospectd" ./cmd/prospectd
port=$("$py" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
echo '{"starter":{"credits_per_period":2}}' > "$tmp/plans.json"
small=$("$tmp/prospectd" keys create --org small --plan starter --data-dir "$tmp/data" | tail -n1)
"$tmp/prospectd" serve --demo "${PROSPECT_TEST_DEMO:-500}" --data-dir "$tmp/data" --addr "127.0.0.1:$port" \
  --plans "$tmp/plans.json" --log-format json >"$tmp/server.log" 2>&1 &
pid=$!
base="http://127.0.0.1:$port/v1"
for _ in $(seq 1 600); do
  if "$py" -c "import urllib.request,sys; urllib.request.urlopen(sys.argv[1], timeout=1)" "$base/health" 2>/dev/null; then break; fi
  if ! kill -0 "$pid" 2>/dev/null; then cat "$tmp/server.log" >&2; echo "test-python-sdk: server exited" >&2; exit 1; fi
  sleep 0.2
done

"$py" -m venv --system-site-packages "$tmp/venv"
"$tmp/venv/bin/pip" install -q --no-index ./sdk/python

PROSPECT_BASE_URL="$base" PROSPECT_API_KEY="$(cat "$tmp/data/demo-api-key")" PROSPECT_TEST_SMALL_KEY="$small" \
  "$tmp/venv/bin/python" -m pytest -q -p no:cacheprovider sdk/python/tests "$@" || { status=$?; tail -n 30 "$tmp/server.log" >&2; exit $status; }
