package embedding

import "github.com/openprospect/prospectd/record"

// ContactDocOf returns the embedder's view of a contact: the title counts
// as the name would for a company, the summary as its description, skills
// as keywords and the employer's industries as industry labels, so
// contacts and ICP texts share the companies' vector space.
func ContactDocOf(c record.Contact) Doc {
	return Doc{
		Name:        c.Title,
		Description: c.Summary,
		SiteText:    c.Department,
		Keywords:    c.Skills,
		Industries:  c.Industry,
	}
}
