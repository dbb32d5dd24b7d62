package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/openprospect/prospectd/crm"
	"github.com/openprospect/prospectd/store"
)

// CRM is the CRM connection service the account page lists and an admin
// disconnects with (*crm.Service).
type CRM interface {
	List(ctx context.Context, orgID string, probe bool) ([]crm.Status, error)
	Delete(ctx context.Context, orgID, provider string) (crm.Revocation, error)
}

// SetCRM lets the account page list CRM connections and admins remove
// them (the spec's "admin app session" for deleting a connection).
func (a *App) SetCRM(c CRM) { a.cfg.CRM = c }

func (a *App) disconnectCRM(w http.ResponseWriter, r *http.Request) {
	_, u, ok := a.session(r)
	if !ok || !a.ValidCSRF(r) {
		a.message(w, r, http.StatusForbidden, "Form expired", "The form expired or did not come from this site; sign in again.", "/app/login", "Sign in")
		return
	}
	if a.cfg.CRM == nil {
		a.message(w, r, http.StatusNotFound, "No CRM connections", "This server has no CRM connections.", "/app/", "Back")
		return
	}
	if u.Role != store.RoleAdmin {
		a.message(w, r, http.StatusForbidden, "Admins only", "Removing a CRM connection needs the admin role.", "/app/", "Back")
		return
	}
	provider := r.PostFormValue("provider")
	rev, err := a.cfg.CRM.Delete(r.Context(), u.OrgID, provider)
	if errors.Is(err, crm.ErrNoConnection) || errors.Is(err, crm.ErrUnknownProvider) {
		a.message(w, r, http.StatusNotFound, "No such connection", "Your organization has no such CRM connection.", "/app/", "Back")
		return
	}
	if err != nil {
		a.fail(w, r, "disconnect crm", err)
		return
	}
	a.cfg.Log.Info().Str("user_id", u.ID).Str("provider", provider).Bool("revoked", rev.Revoked).Msg("CRM connection removed in the web app")
	if !rev.Revoked {
		a.message(w, r, http.StatusOK, "Disconnected", fmt.Sprintf("The %s connection is removed, but %s could not be asked to revoke its access (%s). Remove the app in %s's connected apps too.", provider, provider, rev.Detail, provider), "/app/", "Back")
		return
	}
	http.Redirect(w, r, "/app/", http.StatusSeeOther)
}
