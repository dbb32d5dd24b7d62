package embedded

import gojson "github.com/goccy/go-json"

// decodeStored decodes a stored profile (p/ or cp/): json.Marshal's bytes
// (or marshalProfile's, the same), read back for every hit, every group's
// employer and every contact an email pattern is inferred from.
// goccy/go-json decodes these canonical shapes several times faster than
// encoding/json; TestDecodeStoredMatchesJSON holds it to encoding/json
// for every field of record.Company and record.Contact.
func decodeStored(b []byte, v any) error {
	return gojson.Unmarshal(b, v)
}
