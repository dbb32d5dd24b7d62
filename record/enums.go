package record

import (
	"cmp"
	"math"
	"net/url"
	"slices"
	"strings"
)

// Company status values.
const (
	StatusActive = "active"
	StatusClosed = "closed"
)

// Industries is the closed list of 53 industry labels. The first seven are
// the spec's own examples; the rest complete a taxonomy that covers the
// economy without overlapping much, so a company's top two labels say
// something.
var Industries = []string{
	"SAAS", "SOFTWARE", "FINANCIAL_SERVICES", "HEALTHCARE", "CLOUD_COMPUTING", "CYBERSECURITY", "IT_SERVICES",
	"ARTIFICIAL_INTELLIGENCE", "DATA_ANALYTICS", "FINTECH", "BANKING", "INSURANCE", "INVESTMENT_MANAGEMENT",
	"REAL_ESTATE", "CONSTRUCTION", "ARCHITECTURE_DESIGN", "MANUFACTURING", "INDUSTRIAL_AUTOMATION",
	"AEROSPACE_DEFENSE", "AUTOMOTIVE", "SEMICONDUCTORS", "HARDWARE_ELECTRONICS", "TELECOMMUNICATIONS",
	"ENERGY", "RENEWABLE_ENERGY", "OIL_GAS", "UTILITIES", "MINING_METALS", "CHEMICALS", "AGRICULTURE",
	"FOOD_BEVERAGE", "CONSUMER_GOODS", "RETAIL", "E_COMMERCE", "FASHION_APPAREL", "HOSPITALITY",
	"TRAVEL_TOURISM", "TRANSPORTATION_LOGISTICS", "PHARMACEUTICALS", "BIOTECHNOLOGY", "MEDICAL_DEVICES",
	"EDUCATION", "MEDIA_PUBLISHING", "ENTERTAINMENT", "GAMING", "ADVERTISING_MARKETING", "CONSULTING",
	"LEGAL_SERVICES", "HUMAN_RESOURCES", "GOVERNMENT", "NONPROFIT", "ENVIRONMENTAL_SERVICES", "SPORTS_FITNESS",
}

// EmployeeBuckets are the company size buckets, smallest first.
var EmployeeBuckets = []string{"1-10", "11-50", "51-200", "201-500", "501-1000", "1001-5000", "5001-10000", "10001+"}

// employeeBounds holds the inclusive head-count range of each bucket; the
// last bucket is open-ended.
var employeeBounds = [][2]int{{1, 10}, {11, 50}, {51, 200}, {201, 500}, {501, 1000}, {1001, 5000}, {5001, 10000}, {10001, math.MaxInt}}

// RevenueBuckets are the annual revenue buckets in USD, smallest first.
var RevenueBuckets = []string{"<1M", "1-10M", "10-100M", "100M-1B", ">1B"}

var revenueBounds = [][2]int64{{0, 1e6 - 1}, {1e6, 1e7 - 1}, {1e7, 1e8 - 1}, {1e8, 1e9 - 1}, {1e9, 1 << 62}}

// BusinessModels are the accepted business model labels.
var BusinessModels = []string{"B2B", "B2C", "B2G", "G2B", "G2C", "D2C", "C2C", "C2B"}

// SocialNetworks are the social networks a company profile may link to.
var SocialNetworks = []string{"facebook", "instagram", "linkedin", "twitter", "x", "youtube", "tiktok", "pinterest", "threads", "yelp", "googleplay", "applestore", "amazon", "vk", "bluesky", "xing"}

// socialHosts maps the registrable host of a profile URL to its network.
var socialHosts = map[string]string{
	"facebook.com": "facebook", "fb.com": "facebook", "instagram.com": "instagram",
	"linkedin.com": "linkedin", "twitter.com": "twitter", "x.com": "x", "youtube.com": "youtube",
	"youtu.be": "youtube", "tiktok.com": "tiktok", "pinterest.com": "pinterest", "threads.net": "threads",
	"yelp.com": "yelp", "play.google.com": "googleplay", "apps.apple.com": "applestore",
	"itunes.apple.com": "applestore", "amazon.com": "amazon", "vk.com": "vk", "bsky.app": "bluesky",
	"xing.com": "xing",
}

// SocialNetworkOf returns the network a profile URL belongs to, or "" when
// it is not one of SocialNetworks.
func SocialNetworkOf(raw string) string {
	host, ok := plainURLHost(raw)
	if !ok {
		if !strings.Contains(raw, "://") {
			raw = "https://" + raw
		}
		u, err := url.Parse(raw)
		if err != nil {
			return ""
		}
		host = u.Hostname()
	}
	return socialNetworkOfHost(host)
}

// socialNetworkOfHost returns the network a URL's host belongs to.
func socialNetworkOfHost(host string) string {
	host = strings.TrimPrefix(strings.ToLower(host), "www.")
	if n, ok := socialHosts[host]; ok {
		return n
	}
	// Country subdomains such as de.linkedin.com or m.facebook.com.
	if i := strings.IndexByte(host, '.'); i > 0 {
		if n, ok := socialHosts[host[i+1:]]; ok {
			return n
		}
	}
	return ""
}

// plainURLHost returns the host of an http(s) URL whose host is plain
// letters, digits, dots and hyphens (what url.Parse would return), without
// parsing the URL: entries of every company call SocialNetworkOf, and
// nearly all its URLs are that plain. ok is false for anything else.
func plainURLHost(raw string) (host string, ok bool) {
	rest, found := strings.CutPrefix(raw, "https://")
	if !found {
		if rest, found = strings.CutPrefix(raw, "http://"); !found {
			return "", false
		}
	}
	end := len(rest)
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '.', c == '-':
			continue
		case c == '/' || c == '?' || c == '#':
			end = i
		default:
			return "", false
		}
		break
	}
	if end == 0 {
		return "", false
	}
	// url.Parse refuses some of what follows the host (control bytes,
	// bad escapes); leave those to it.
	for i := end; i < len(rest); i++ {
		if c := rest[i]; c < 0x21 || c == 0x7f || c == '%' {
			return "", false
		}
	}
	return rest[:end], true
}

// EmployeeBucket returns the bucket a head count falls in ("" for n < 1).
func EmployeeBucket(n int) string {
	for i, b := range employeeBounds {
		if n >= b[0] && n <= b[1] {
			return EmployeeBuckets[i]
		}
	}
	return ""
}

// EmployeeBucketRange returns the inclusive head-count bounds of a bucket.
func EmployeeBucketRange(bucket string) (lo, hi int, ok bool) {
	i := indexOf(EmployeeBuckets, bucket)
	if i < 0 {
		return 0, 0, false
	}
	return employeeBounds[i][0], employeeBounds[i][1], true
}

// RevenueBucket returns the bucket an annual revenue in USD falls in.
func RevenueBucket(usd int64) string {
	for i, b := range revenueBounds {
		if usd >= b[0] && usd <= b[1] {
			return RevenueBuckets[i]
		}
	}
	return ""
}

// RevenueBucketRange returns the inclusive USD bounds of a revenue bucket.
func RevenueBucketRange(bucket string) (lo, hi int64, ok bool) {
	i := indexOf(RevenueBuckets, bucket)
	if i < 0 {
		return 0, 0, false
	}
	return revenueBounds[i][0], revenueBounds[i][1], true
}

// IsIndustry, IsEmployeeBucket, IsRevenueBucket, IsBusinessModel and
// IsSocialNetwork report membership of the closed vocabularies (exact,
// case-sensitive: callers normalize case where the spec allows it).
func IsIndustry(s string) bool       { return indexOf(Industries, s) >= 0 }
func IsEmployeeBucket(s string) bool { return indexOf(EmployeeBuckets, s) >= 0 }
func IsRevenueBucket(s string) bool  { return indexOf(RevenueBuckets, s) >= 0 }
func IsBusinessModel(s string) bool  { return indexOf(BusinessModels, s) >= 0 }
func IsSocialNetwork(s string) bool  { return indexOf(SocialNetworks, s) >= 0 }

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}

// KeysByWeight returns the keys of m by descending weight, ties by key, so
// a map always gives the same slice; nil for an empty map.
func KeysByWeight(m map[string]float64) []string {
	if len(m) == 0 {
		return nil
	}
	type kw struct {
		k string
		w float64
	}
	// The pairs are sorted, not the keys: a comparison that looked both
	// weights up in m cost more than the rest.
	pairs := make([]kw, 0, len(m))
	for k, w := range m {
		pairs = append(pairs, kw{k, w})
	}
	slices.SortFunc(pairs, func(a, b kw) int {
		if c := cmp.Compare(b.w, a.w); c != 0 {
			return c
		}
		return strings.Compare(a.k, b.k)
	})
	keys := make([]string, len(pairs))
	for i, p := range pairs {
		keys[i] = p.k
	}
	return keys
}
