# The README's test command. The Elasticsearch conformance suite runs when
# ELASTICSEARCH_URL is set and skips otherwise; the line below says so.
.PHONY: test run
test:
	@[ -n "$$ELASTICSEARCH_URL" ] || echo "ELASTICSEARCH_URL not set: the Elasticsearch conformance suite (index/elastic) is skipped"
	go test -count=1 -timeout 15m ./...

run:
	go run ./cmd/prospectd serve --demo 20000
