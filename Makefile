# The README's test command. The Elasticsearch conformance suite runs when
# ELASTICSEARCH_URL is set and skips otherwise; the line below says so.
# The PostgreSQL store suite (store/postgres) runs against
# PROSPECT_TEST_POSTGRES_URL when it is set; otherwise, when the PostgreSQL
# server is installed (Debian: apt-get install postgresql),
# scripts/with-postgres.sh starts a throwaway cluster for the run and deletes
# it afterwards; otherwise it skips, and the script says so.
.PHONY: test run
#
# Then the Python SDK's pytest suite and the official MCP conformance suite
# run against a demo server on loopback; each needs tools from outside Go
# (python3-pytest; node and npm) and says so and skips when they are
# missing (.ci/run installs them).
test:
	@[ -n "$$ELASTICSEARCH_URL" ] || echo "ELASTICSEARCH_URL not set: the Elasticsearch conformance suite (index/elastic) is skipped"
	bash scripts/with-postgres.sh go test -count=1 -timeout 15m ./...
	@if /usr/bin/python3 -c 'import pytest, venv, ensurepip' 2>/dev/null; then \
		PYTHON=/usr/bin/python3 bash scripts/test-python-sdk.sh; \
	else echo "Python SDK suite SKIPPED: /usr/bin/python3 has no pytest or venv (apt-get install python3-pytest python3-venv)"; fi
	@if command -v node >/dev/null && command -v npm >/dev/null; then \
		bash scripts/mcp-conformance.sh; \
	else echo "MCP conformance suite SKIPPED: no node/npm on this machine"; fi

run:
	go run ./cmd/prospectd serve --demo 20000
