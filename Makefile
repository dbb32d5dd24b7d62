# The test command of the README. It starts a throwaway PostgreSQL on
# loopback for the PostgreSQL store suite (see .ci/postgres.sh); the
# Elasticsearch suite runs when ELASTICSEARCH_URL is set.
.PHONY: test bench run
test:
	PROSPECT_POSTGRES_URL="$$(.ci/postgres.sh)" go test -count=1 -timeout 15m ./...

run:
	go run ./cmd/prospectd serve --demo 20000

bench:
	go test -run '^$$' -bench . -benchtime 3x ./...
