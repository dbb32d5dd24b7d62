package saved

import (
	"fmt"
	"strconv"
	"strings"
)

// HeadDomains is how many leading domains the stores keep apart from the
// whole list, so a listing shows some domains of each query without
// reading lists of 250,000.
const HeadDomains = 1000

// The stores keep a list as one text value, one item a line: a 250,000
// domain list is one row written and read in one piece (a few MB), not a
// quarter of a million rows, and every use of a list reads it whole.

// EncodeDomains is the stored form of a domain list.
func EncodeDomains(d []string) string { return strings.Join(d, "\n") }

// DecodeDomains reads EncodeDomains' output.
func DecodeDomains(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// EncodePersonaIDs is the stored form of a persona id list.
func EncodePersonaIDs(ids []int64) string {
	var b strings.Builder
	b.Grow(len(ids) * 10)
	for i, id := range ids {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(strconv.FormatInt(id, 10))
	}
	return b.String()
}

// DecodePersonaIDs reads EncodePersonaIDs' output.
func DecodePersonaIDs(s string) ([]int64, error) {
	if s == "" {
		return nil, nil
	}
	parts := strings.Split(s, "\n")
	out := make([]int64, len(parts))
	for i, p := range parts {
		v, err := strconv.ParseInt(p, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("decode persona ids: %w", err)
		}
		out[i] = v
	}
	return out, nil
}

// Head returns the first n items of a list.
func Head(d []string, n int) []string {
	if len(d) > n {
		return d[:n]
	}
	return d
}
