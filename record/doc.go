// Package record owns the record types every layer shares: the company
// profile as stored and served, and the closed vocabularies (industries,
// size and revenue buckets, business models, social networks, status) that
// filters and ingestion validate against. It imports nothing of the project.
package record
