# The README's test command. The Elasticsearch conformance suite runs when
# ELASTICSEARCH_URL is set and skips otherwise; the line below says so.
# The PostgreSQL store suite (store/postgres) runs against
# PROSPECT_TEST_POSTGRES_URL when it is set; otherwise, when the PostgreSQL
# server is installed (Debian: apt-get install postgresql),
# scripts/with-postgres.sh starts a throwaway cluster for the run and deletes
# it afterwards; otherwise it skips, and the script says so.
.PHONY: test run
test:
	@[ -n "$$ELASTICSEARCH_URL" ] || echo "ELASTICSEARCH_URL not set: the Elasticsearch conformance suite (index/elastic) is skipped"
	bash scripts/with-postgres.sh go test -count=1 -timeout 15m ./...

run:
	go run ./cmd/prospectd serve --demo 20000
