package query

import "github.com/openprospect/prospectd/index"

// CompanyIndex is the part of an engine company discovery reads: profiles
// and vectors by domain, ranked search and counts, and the metadata that
// names the embedder.
type CompanyIndex interface {
	index.CompanyReader
	index.CompanySearcher
	index.MetaReader
}

// ContactIndex is the part of an engine contact discovery reads.
type ContactIndex interface {
	index.ContactReader
	index.ContactSearcher
}
