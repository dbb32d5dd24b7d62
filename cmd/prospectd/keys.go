package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/openprospect/prospectd/store"
)

func runKeys(ctx context.Context, args []string) error {
	if len(args) == 0 || args[0] != "create" {
		return fmt.Errorf("usage: prospectd keys create --org NAME [--admin] [--plan none|starter|team] [--email E]")
	}
	fs := newFlagSet("keys create")
	org := fs.String("org", "PROSPECT_ORG", "", "organization name (created when new)")
	admin := fs.Bool("admin", "PROSPECT_ADMIN", false, "the key's user gets the admin role")
	plan := fs.String("plan", "PROSPECT_PLAN", "", "set the organization's plan: none, starter or team (new organizations default to starter)")
	email := fs.String("email", "PROSPECT_EMAIL", "", "user the key belongs to (default: a service user of the organization)")
	b := addBackendFlags(fs)
	if _, err := fs.parse(args[1:]); err != nil {
		return err
	}
	if strings.TrimSpace(*org) == "" {
		return fmt.Errorf("--org: required")
	}
	st, err := b.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	role := store.RoleMember
	if *admin {
		role = store.RoleAdmin
	}
	secret, err := createKey(ctx, st, *org, *plan, *email, role)
	if err != nil {
		return err
	}
	fmt.Println(secret)
	return nil
}

// createKey creates (or reuses) the organization and user and issues a key.
func createKey(ctx context.Context, st store.Accounts, orgName, planName, email string, role store.Role) (string, error) {
	o, err := st.OrgByName(ctx, orgName)
	switch {
	case errors.Is(err, store.ErrNotFound):
		p := store.PlanStarter
		if planName != "" {
			if p, err = store.ParsePlan(planName); err != nil {
				return "", fmt.Errorf("--plan: %w", err)
			}
		}
		if o, err = st.CreateOrg(ctx, orgName, p); err != nil {
			return "", fmt.Errorf("create organization: %w", err)
		}
	case err != nil:
		return "", fmt.Errorf("look up organization: %w", err)
	case planName != "":
		p, err := store.ParsePlan(planName)
		if err != nil {
			return "", fmt.Errorf("--plan: %w", err)
		}
		if err := st.SetOrgPlan(ctx, o.ID, p); err != nil {
			return "", fmt.Errorf("set plan: %w", err)
		}
	}
	if email == "" {
		email = fmt.Sprintf("%s+%s@service.invalid", string(role), slug(orgName))
	}
	u, err := st.UserByEmail(ctx, email)
	switch {
	case errors.Is(err, store.ErrNotFound):
		if u, err = st.CreateUser(ctx, o.ID, email, role); err != nil {
			return "", fmt.Errorf("create user: %w", err)
		}
	case err != nil:
		return "", fmt.Errorf("look up user: %w", err)
	case u.OrgID != o.ID:
		return "", fmt.Errorf("--email: %s belongs to another organization", email)
	}
	secret, _, err := st.CreateAPIKey(ctx, u.ID)
	if err != nil {
		return "", fmt.Errorf("create key: %w", err)
	}
	return secret, nil
}

func slug(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	return strings.Trim(b.String(), "-")
}
