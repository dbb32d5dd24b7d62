#!/usr/bin/env bash
# Runs the official MCP conformance suite (npm @modelcontextprotocol/conformance,
# pinned) against the tool server at /v1/mcp of a demo server on loopback.
#
#   bash scripts/mcp-conformance.sh            # the scenarios that apply
#   SCENARIOS="ping tools-list" bash scripts/mcp-conformance.sh
#
# Needs go, node and npm. The suite sends no credentials, so the server runs
# with --mcp-api-keys and scripts/mcpauthproxy adds the demo key as a bearer
# token (the OAuth flow itself is covered by internal/toolwire's Go tests).
# Exit status: non-zero when a scenario fails.
set -euo pipefail

CONFORMANCE_VERSION=0.1.10 # 0.1.11+ need Node 22 (fs.globSync); Debian's node is 20
# The inspector's CLI mode (the last 1.x; 2.x needs Node 22; the separate
# inspector-cli package does not run outside the inspector's own tree).
INSPECTOR_VERSION=1.0.3
# Scenarios that apply to this server: it has tools (no resources, prompts,
# completions, logging, sampling or elicitation), and the tool scenarios
# other than tools-list call the suite's own test tools (test_simple_text,
# ...), which a production server does not have.
SCENARIOS=${SCENARIOS:-"server-initialize ping tools-list"}

root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
pids=()
cleanup() {
	status=$?
	trap - EXIT INT TERM
	# Only the processes this script started, by id.
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
	if [ "$status" -ne 0 ] && [ -s "$work/server.log" ]; then
		echo "--- server log (last 40 lines)" >&2
		tail -n 40 "$work/server.log" >&2
	fi
	rm -rf "$work"
	exit "$status"
}
trap cleanup EXIT
# A signal (CI timeout, ^C) still stops the server through the EXIT trap.
trap 'exit 130' INT TERM

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

(cd "$root" && go build -o "$work/prospectd" ./cmd/prospectd && go build -o "$work/mcpauthproxy" ./scripts/mcpauthproxy)
port=$(free_port)
"$work/prospectd" serve --demo 300 --data-dir "$work/data" --addr "127.0.0.1:$port" --mcp-api-keys >"$work/server.log" 2>&1 &
pids+=($!)
up=0
for _ in $(seq 1 120); do
	if [ -s "$work/data/demo-api-key" ] && curl -sf "http://127.0.0.1:$port/v1/health" >/dev/null; then
		up=1
		break
	fi
	kill -0 "${pids[0]}" 2>/dev/null || { echo "mcp-conformance: the server exited while starting" >&2; exit 1; }
	sleep 1
done
[ "$up" = 1 ] || { echo "mcp-conformance: the server did not answer /v1/health within 120 s" >&2; exit 1; }
key=$(tr -d '\n' <"$work/data/demo-api-key")
pport=$(free_port)
MCP_BEARER_TOKEN="$key" "$work/mcpauthproxy" --listen "127.0.0.1:$pport" --target "http://127.0.0.1:$port" &
pids+=($!)
sleep 1

(cd "$work" && npm install --silent --no-audit --no-fund "@modelcontextprotocol/conformance@$CONFORMANCE_VERSION" >/dev/null)
failed=0
for s in $SCENARIOS; do
	if ! (cd "$work" && npx conformance server --url "http://127.0.0.1:$pport/v1/mcp" --scenario "$s"); then
		echo "mcp-conformance: scenario $s FAILED" >&2
		failed=1
	fi
done

# The inspector CLI, as an agent developer would poke the server: list the
# tools and call a read-only one, with the key as a bearer token.
(cd "$work" && npm install --silent --no-audit --no-fund "@modelcontextprotocol/inspector@$INSPECTOR_VERSION" >/dev/null 2>&1)
inspect() {
	(cd "$work" && node_modules/.bin/mcp-inspector --cli "http://127.0.0.1:$port/v1/mcp" --transport http \
		--header "Authorization: Bearer $key" "$@" 2>&1)
}
if out=$(inspect --method tools/list) && grep -q '"discover_companies"' <<<"$out"; then
	echo "inspector: tools/list lists $(grep -c '"inputSchema"' <<<"$out") tools"
else
	echo "mcp-conformance: inspector tools/list FAILED: $out" >&2
	failed=1
fi
if out=$(inspect --method tools/call --tool-name get_usage) && grep -q '"credits_left"' <<<"$out"; then
	echo "inspector: tools/call get_usage answered"
else
	echo "mcp-conformance: inspector tools/call get_usage FAILED: $out" >&2
	failed=1
fi
exit $failed
