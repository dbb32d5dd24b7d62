package demo

// Web presence: what a company's site runs on and links to. Probabilities
// depend on the archetype (software companies have docs and status pages,
// shops have shop subdomains and Instagram) and on size (bigger companies
// run more of everything).

// archProfile holds the per-archetype probabilities.
type archProfile struct {
	ctas []string
	// social presence: linkedin, x/twitter, facebook, instagram, youtube,
	// tiktok, pinterest, app stores
	linkedin, x, facebook, instagram, youtube, tiktok, pinterest, apps float64
	cms                                                                []string
	extraVendors                                                       []string
	subdomains                                                         map[string]float64
}

var archProfiles = [numArchetypes]archProfile{
	archSoftware: {
		ctas:     []string{"Book a demo", "Start your free trial", "Request a demo", "Get started for free", "Talk to sales"},
		linkedin: 0.92, x: 0.55, facebook: 0.35, instagram: 0.2, youtube: 0.35, tiktok: 0.03, pinterest: 0.01, apps: 0.2,
		cms:          []string{"webflow.com", "wordpress.org", "contentful.com", "hubspot.com", "vercel.com", "netlify.com"},
		extraVendors: []string{"intercom.com", "segment.com", "stripe.com", "sentry.io", "hotjar.com", "drift.com", "g2.com", "zoom.us"},
		subdomains: map[string]float64{"app": 0.6, "docs": 0.4, "api": 0.3, "status": 0.25, "support": 0.3, "help": 0.2,
			"community": 0.1, "login": 0.15, "dev": 0.08, "staging": 0.06},
	},
	archServices: {
		ctas:     []string{"Request a consultation", "Get in touch", "Schedule a call", "Request a proposal", "Contact our team"},
		linkedin: 0.85, x: 0.3, facebook: 0.55, instagram: 0.3, youtube: 0.15, tiktok: 0.04, pinterest: 0.03,
		cms:          []string{"wordpress.org", "wordpress.org", "squarespace.com", "wix.com", "webflow.com", "hubspot.com"},
		extraVendors: []string{"calendly.com", "hubspot.com", "docusign.com", "zoom.us", "typeform.com", "clutch.co"},
		subdomains:   map[string]float64{"portal": 0.1, "support": 0.08, "careers": 0.1},
	},
	archIndustrial: {
		ctas:     []string{"Request a quote", "Get a quote", "Contact our engineers", "Download the catalog", "Send us your drawings"},
		linkedin: 0.8, x: 0.2, facebook: 0.45, instagram: 0.2, youtube: 0.3, tiktok: 0.02, pinterest: 0.01,
		cms:          []string{"wordpress.org", "wordpress.org", "drupal.org", "wix.com", "squarespace.com"},
		extraVendors: []string{"hubspot.com", "salesforce.com", "thomasnet.com", "zoominfo.com", "leadfeeder.com", "youtube.com"},
		subdomains:   map[string]float64{"portal": 0.12, "shop": 0.08, "careers": 0.12, "extranet": 0.04, "b2b": 0.04},
	},
	archFinance: {
		ctas:     []string{"Schedule a consultation", "Open an account", "Talk to an advisor", "Get a quote", "Apply online"},
		linkedin: 0.85, x: 0.35, facebook: 0.55, instagram: 0.25, youtube: 0.2, tiktok: 0.02, pinterest: 0.01, apps: 0.1,
		cms:          []string{"wordpress.org", "sitecore.com", "adobe.com", "squarespace.com", "webflow.com"},
		extraVendors: []string{"salesforce.com", "docusign.com", "onetrust.com", "calendly.com", "adobe.com", "qualtrics.com"},
		subdomains:   map[string]float64{"portal": 0.3, "login": 0.25, "secure": 0.15, "online": 0.12, "my": 0.1},
	},
	archConsumer: {
		ctas:     []string{"Book now", "Reserve your spot", "Order online", "Visit us", "Join today"},
		linkedin: 0.45, x: 0.25, facebook: 0.85, instagram: 0.75, youtube: 0.2, tiktok: 0.3, pinterest: 0.1, apps: 0.05,
		cms:          []string{"wordpress.org", "squarespace.com", "wix.com", "shopify.com", "webflow.com"},
		extraVendors: []string{"facebook.net", "mailchimp.com", "squareup.com", "instagram.com", "tripadvisor.com", "google.com"},
		subdomains:   map[string]float64{"shop": 0.15, "booking": 0.15, "order": 0.1, "events": 0.08, "gift": 0.05},
	},
	archCommerce: {
		ctas:     []string{"Shop now", "Shop the collection", "Sign up for 10% off", "Browse bestsellers", "Find a store"},
		linkedin: 0.4, x: 0.3, facebook: 0.8, instagram: 0.85, youtube: 0.25, tiktok: 0.4, pinterest: 0.3, apps: 0.08,
		cms:          []string{"shopify.com", "shopify.com", "shopify.com", "bigcommerce.com", "woocommerce.com", "magento.com"},
		extraVendors: []string{"klaviyo.com", "paypal.com", "facebook.net", "yotpo.com", "gorgias.com", "afterpay.com", "trustpilot.com"},
		subdomains:   map[string]float64{"shop": 0.5, "store": 0.2, "checkout": 0.15, "returns": 0.1, "wholesale": 0.08},
	},
	archHealth: {
		ctas:     []string{"Book an appointment", "Request an appointment", "Schedule a visit", "Call our office", "Find a location"},
		linkedin: 0.6, x: 0.25, facebook: 0.75, instagram: 0.4, youtube: 0.2, tiktok: 0.05, pinterest: 0.02, apps: 0.05,
		cms:          []string{"wordpress.org", "wordpress.org", "squarespace.com", "wix.com", "drupal.org"},
		extraVendors: []string{"zocdoc.com", "healthgrades.com", "calendly.com", "jotform.com", "weave.com", "google.com"},
		subdomains:   map[string]float64{"portal": 0.3, "patient": 0.12, "booking": 0.1, "careers": 0.1},
	},
	archPublic: {
		ctas:     []string{"Get involved", "Donate today", "Learn more", "Apply now", "Contact us"},
		linkedin: 0.7, x: 0.55, facebook: 0.8, instagram: 0.45, youtube: 0.35, tiktok: 0.05, pinterest: 0.02,
		cms:          []string{"wordpress.org", "drupal.org", "squarespace.com", "wix.com", "granicus.com"},
		extraVendors: []string{"mailchimp.com", "eventbrite.com", "google.com", "youtube.com", "zoom.us", "typeform.com"},
		subdomains:   map[string]float64{"donate": 0.2, "events": 0.15, "portal": 0.12, "learn": 0.1, "my": 0.06},
	},
	archMedia: {
		ctas:     []string{"Subscribe", "Listen now", "Watch the trailer", "Read the latest", "Get tickets"},
		linkedin: 0.65, x: 0.7, facebook: 0.75, instagram: 0.7, youtube: 0.6, tiktok: 0.35, pinterest: 0.05, apps: 0.15,
		cms:          []string{"wordpress.org", "wordpress.org", "ghost.org", "squarespace.com", "arcpublishing.com"},
		extraVendors: []string{"doubleclick.net", "chartbeat.com", "youtube.com", "vimeo.com", "spotify.com", "substack.com"},
		subdomains:   map[string]float64{"news": 0.3, "shop": 0.15, "events": 0.12, "subscribe": 0.1, "media": 0.1},
	},
}

// subdomainOrder is the global popularity order subdomains are listed in.
var subdomainOrder = []string{"www", "mail", "blog", "app", "shop", "support", "help", "docs", "careers", "portal", "api",
	"status", "store", "news", "login", "my", "events", "investors", "community", "booking", "donate", "learn", "patient",
	"secure", "online", "order", "checkout", "returns", "wholesale", "subscribe", "media", "gift", "extranet", "b2b", "dev",
	"staging", "m", "cdn", "partners", "go"}

// subdomainBase are probabilities every archetype shares.
var subdomainBase = map[string]float64{"www": 0.93, "mail": 0.35, "blog": 0.3, "careers": 0.06, "investors": 0.0,
	"m": 0.04, "cdn": 0.05, "partners": 0.04, "go": 0.05, "dev": 0.02, "staging": 0.02, "help": 0.04, "support": 0.05}

// commonVendors are the web's everyday tools, with base probabilities.
var commonVendors = []struct {
	domain string
	p      float64
}{
	{"google-analytics.com", 0.7}, {"googletagmanager.com", 0.55}, {"cloudflare.com", 0.35}, {"amazonaws.com", 0.25},
	{"doubleclick.net", 0.25}, {"facebook.net", 0.22}, {"hotjar.com", 0.15}, {"youtube.com", 0.15}, {"hubspot.com", 0.15},
	{"mailchimp.com", 0.12}, {"salesforce.com", 0.08}, {"zendesk.com", 0.07}, {"typekit.net", 0.08}, {"vimeo.com", 0.06},
	{"bing.com", 0.06}, {"linkedin.com", 0.08}, {"sendgrid.net", 0.05}, {"tawk.to", 0.04}, {"recaptcha.net", 0.1},
	{"jsdelivr.net", 0.08}, {"calendly.com", 0.05}, {"trustpilot.com", 0.04},
}

// euConsent are consent-management vendors, common on European sites.
var euConsent = []string{"cookiebot.com", "onetrust.com", "usercentrics.eu", "iubenda.com", "didomi.io"}

var euCountries = map[string]bool{"AT": true, "BE": true, "BG": true, "HR": true, "CY": true, "CZ": true, "DK": true,
	"EE": true, "FI": true, "FR": true, "DE": true, "GR": true, "HU": true, "IE": true, "IT": true, "LV": true, "LT": true,
	"LU": true, "MT": true, "NL": true, "PL": true, "PT": true, "RO": true, "SK": true, "SI": true, "ES": true, "SE": true,
	"GB": true, "NO": true, "CH": true, "IS": true}

// mxProviders is the mail host distribution; "" stands for the company's
// own domain.
var (
	mxProviders = []string{"google.com", "outlook.com", "zoho.com", "", "proofpoint.com", "mimecast.com", "ionos.com",
		"ovh.net", "yandex.ru", "qq.com", "secureserver.net", "protonmail.ch"}
	mxWeights = newWeighted([]int{420, 380, 40, 70, 20, 15, 0, 0, 0, 0, 30, 5})
	// mxLocal adds country-typical providers.
	mxLocal = map[string]string{"DE": "ionos.com", "AT": "ionos.com", "FR": "ovh.net", "RU": "yandex.ru", "BY": "yandex.ru",
		"KZ": "yandex.ru", "CN": "qq.com"}
)
