package email

import "strings"

// providers maps exchanger host suffixes to the mail provider they belong
// to (docs/decisions.md lists the table).
var providers = []struct{ suffix, name string }{
	{"google.com", "google"}, {"googlemail.com", "google"},
	{"outlook.com", "microsoft365"}, {"office365.us", "microsoft365"}, {"hotmail.com", "microsoft365"},
	{"pphosted.com", "proofpoint"}, {"ppe-hosted.com", "proofpoint"},
	{"mimecast.com", "mimecast"}, {"mimecast.co.za", "mimecast"},
	{"messagelabs.com", "broadcom"},
	{"barracudanetworks.com", "barracuda"},
	{"iphmx.com", "cisco"},
	{"zoho.com", "zoho"}, {"zoho.eu", "zoho"}, {"zoho.in", "zoho"},
	{"yahoodns.net", "yahoo"},
	{"secureserver.net", "godaddy"},
	{"icloud.com", "apple"},
	{"messagingengine.com", "fastmail"},
	{"amazonaws.com", "amazon_ses"},
	{"hornetsecurity.com", "hornetsecurity"},
	{"trendmicro.com", "trendmicro"}, {"trendmicro.eu", "trendmicro"},
	{"sophos.com", "sophos"},
	{"ovh.net", "ovh"},
	{"ionos.com", "ionos"}, {"ionos.de", "ionos"}, {"kundenserver.de", "ionos"},
	{"yandex.net", "yandex"},
	{"mailgun.org", "mailgun"},
	{"forcepoint.com", "forcepoint"},
	{"arsmtp.com", "trustwave"},
	{"protonmail.ch", "proton"},
}

// Provider names the mail provider of an exchanger host, "" when unknown.
func Provider(mxHost string) string {
	h := strings.TrimSuffix(strings.ToLower(mxHost), ".")
	for _, p := range providers {
		if h == p.suffix || strings.HasSuffix(h, "."+p.suffix) {
			return p.name
		}
	}
	return ""
}
