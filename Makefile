# The README's test command. The Elasticsearch conformance suite runs when
# ELASTICSEARCH_URL is set and skips, saying so, otherwise.
.PHONY: test run
test:
	go test -count=1 -timeout 15m ./...

run:
	go run ./cmd/prospectd serve --demo 20000
