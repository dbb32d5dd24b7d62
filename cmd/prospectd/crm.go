package main

import (
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/crm"
	"github.com/openprospect/prospectd/secrets"
	"github.com/openprospect/prospectd/store"
)

// crmFlags are the serve flags of the CRM providers' OAuth applications.
// Client secrets come from the environment only, so they never show in
// --help or ps.
type crmFlags map[string]struct{ clientID, authURL, tokenURL, apiURL *string }

func addCRMFlags(fs *flagSet) crmFlags {
	out := crmFlags{}
	for _, p := range crm.ProviderNames {
		up := strings.ToUpper(p)
		out[p] = struct{ clientID, authURL, tokenURL, apiURL *string }{
			clientID: fs.String("crm-"+p+"-client-id", "PROSPECT_CRM_"+up+"_CLIENT_ID", "",
				p+" OAuth app client id (its secret from PROSPECT_CRM_"+up+"_CLIENT_SECRET); empty leaves "+p+" unconfigured (503)"),
			authURL:  fs.String("crm-"+p+"-auth-url", "PROSPECT_CRM_"+up+"_AUTH_URL", "", p+" authorize endpoint (default: the provider's)"),
			tokenURL: fs.String("crm-"+p+"-token-url", "PROSPECT_CRM_"+up+"_TOKEN_URL", "", p+" token endpoint (default: the provider's)"),
			apiURL:   fs.String("crm-"+p+"-api-url", "PROSPECT_CRM_"+up+"_API_URL", "", p+" API base URL when the token answer names none (default: the provider's)"),
		}
	}
	return out
}

// service builds the CRM service over the state store.
func (f crmFlags) service(st store.Store, box *secrets.Box, publicURL string, log zerolog.Logger) (*crm.Service, error) {
	cs, ok := st.(crm.Store)
	if !ok {
		return nil, fmt.Errorf("this state store keeps no CRM connections")
	}
	providers := map[string]crm.ProviderConfig{}
	for p, v := range f {
		if *v.clientID == "" {
			continue
		}
		secret := os.Getenv("PROSPECT_CRM_" + strings.ToUpper(p) + "_CLIENT_SECRET")
		if secret == "" {
			return nil, fmt.Errorf("--crm-%s-client-id is set but PROSPECT_CRM_%s_CLIENT_SECRET is empty", p, strings.ToUpper(p))
		}
		providers[p] = crm.ProviderConfig{ClientID: *v.clientID, ClientSecret: secret, AuthURL: *v.authURL, TokenURL: *v.tokenURL, APIBase: *v.apiURL}
	}
	return crm.NewService(cs, box, crm.Config{Providers: providers, PublicURL: publicURL, Log: log,
		HTTP: &http.Client{Timeout: 60 * time.Second}}), nil
}
