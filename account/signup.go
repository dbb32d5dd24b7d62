package account

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"net/mail"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	emailverifier "github.com/AfterShip/email-verifier"
	gomail "github.com/wneessen/go-mail"

	"github.com/openprospect/prospectd/record/domain"
	"github.com/openprospect/prospectd/store"
)

// Signup errors callers branch on.
var (
	ErrSignupInvalid  = errors.New("invalid signup")
	ErrFreeMail       = errors.New("free-mail address")
	ErrDisposable     = errors.New("disposable address")
	ErrAccountExists  = errors.New("an account with this email exists")
	ErrNoMailer       = errors.New("signup is not configured on this server: no SMTP relay")
	ErrTokenNotFound  = errors.New("unknown, used or expired confirmation token")
	verifier          = emailverifier.NewVerifier()
	signupTokenPrefix = "su_"
)

// SignupTTL is how long a confirmation link stays valid.
const SignupTTL = 48 * time.Hour

// SignupRequest is the body of POST /v1/public/signup.
type SignupRequest struct {
	Email, FirstName, LastName, Agent string
}

// Mailer sends one plain-text email.
type Mailer interface {
	Send(ctx context.Context, to, subject, body string) error
}

// Signups runs self-service signup: validate, remember, email a
// confirmation link. It never hands out a credential.
type Signups struct {
	Store  store.Signups
	Mailer Mailer // nil: signup refused with ErrNoMailer
	// PublicURL is the service's external base URL ("https://api.example.com");
	// the confirmation link is PublicURL + "/v1/public/signup/confirm?token=...".
	PublicURL string
	// WebApp is the web app's confirmation page path ("/app/confirm"):
	// when set, the link opens it, and the person sets a password, signs
	// in and issues keys or authorizes clients there.
	WebApp string
}

// Start validates a signup, stores it pending and sends the confirmation
// email. It returns the next-step text to relay to the person.
func (s *Signups) Start(ctx context.Context, r SignupRequest) (nextStep string, err error) {
	addr, err := validateSignup(&r)
	if err != nil {
		return "", err
	}
	if s.Mailer == nil {
		return "", ErrNoMailer
	}
	var raw [24]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", fmt.Errorf("signup token: %w", err)
	}
	token := signupTokenPrefix + base64.RawURLEncoding.EncodeToString(raw[:])
	err = s.Store.SaveSignup(ctx, store.Signup{Email: addr, FirstName: r.FirstName, LastName: r.LastName, Agent: r.Agent}, store.HashSecret(token))
	if errors.Is(err, store.ErrConflict) {
		return "", ErrAccountExists
	}
	if err != nil {
		return "", err
	}
	path, after := "/v1/public/signup/confirm", "an administrator of this service issues your API key"
	if s.WebApp != "" {
		path, after = s.WebApp, "you set a password, sign in, and issue an API key or authorize your agent there"
	}
	link := strings.TrimRight(s.PublicURL, "/") + path + "?token=" + url.QueryEscape(token)
	body := fmt.Sprintf("Hello %s,\n\nplease confirm your email address for the prospecting API by opening this link within %d hours:\n\n%s\n\n"+
		"After you confirm, %s.\nIf you did not ask for an account (the request came from %q), ignore this email.\n",
		r.FirstName, int(SignupTTL.Hours()), link, after, r.Agent)
	if err := s.Mailer.Send(ctx, addr, "Confirm your email address", body); err != nil {
		return "", fmt.Errorf("send confirmation email: %w", err)
	}
	next := "an administrator of this service issues the API key"
	if s.WebApp != "" {
		next = "they set a password in the web app, sign in, and issue an API key or authorize this agent there"
	}
	return fmt.Sprintf("A confirmation email was sent to %s. Ask %s to open the link in it within %d hours; once confirmed, "+
		"%s. No credential is returned here.", addr, r.FirstName, int(SignupTTL.Hours()), next), nil
}

// Confirm confirms a signup by its token: the person's organization (on
// no plan) and admin user now exist.
func (s *Signups) Confirm(ctx context.Context, token string) (store.User, error) {
	token = strings.TrimSpace(token)
	if !strings.HasPrefix(token, signupTokenPrefix) || len(token) > 100 {
		return store.User{}, ErrTokenNotFound
	}
	u, err := s.Store.ConfirmSignup(ctx, store.HashSecret(token), SignupTTL)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return u, ErrTokenNotFound
	case errors.Is(err, store.ErrConflict):
		return u, ErrAccountExists
	}
	return u, err
}

// validateSignup checks the fields and the email's domain; it returns the
// normalized address.
func validateSignup(r *SignupRequest) (string, error) {
	r.FirstName, r.LastName, r.Agent = strings.TrimSpace(r.FirstName), strings.TrimSpace(r.LastName), strings.TrimSpace(r.Agent)
	for _, f := range []struct{ name, v string }{{"first_name", r.FirstName}, {"last_name", r.LastName}, {"agent", r.Agent}} {
		if n := utf8.RuneCountInString(f.v); n < 1 || n > 200 {
			return "", fmt.Errorf("%w: %s must be 1-200 characters", ErrSignupInvalid, f.name)
		}
	}
	a, err := mail.ParseAddress(strings.TrimSpace(r.Email))
	if err != nil || a.Name != "" || len(a.Address) > 254 {
		return "", fmt.Errorf("%w: email: not a plain email address", ErrSignupInvalid)
	}
	addr := strings.ToLower(a.Address)
	at := strings.LastIndexByte(addr, '@')
	host := addr[at+1:]
	root, err := domain.Normalize(host)
	if err != nil {
		return "", fmt.Errorf("%w: email: %v", ErrSignupInvalid, err)
	}
	// The lists know registrable domains; subdomains of a disposable
	// service are disposable too.
	for _, d := range []string{host, root} {
		if verifier.IsDisposable(d) {
			return "", fmt.Errorf("%w: %s is a disposable email service; use your work address", ErrDisposable, d)
		}
		if verifier.IsFreeDomain(d) {
			return "", fmt.Errorf("%w: %s is a free email provider; use your work address", ErrFreeMail, d)
		}
	}
	return addr, nil
}

// SMTPMailer sends through an SMTP relay given as a URL:
// smtp://user:pass@host:587 (STARTTLS when offered), smtps://... (TLS)
// or smtp://host:25 without authentication.
type SMTPMailer struct {
	URL  string
	From string
}

// Send implements Mailer.
func (m *SMTPMailer) Send(ctx context.Context, to, subject, body string) error {
	u, err := url.Parse(m.URL)
	if err != nil || (u.Scheme != "smtp" && u.Scheme != "smtps") || u.Hostname() == "" {
		return fmt.Errorf("SMTP relay URL %q: want smtp://[user:pass@]host[:port] or smtps://", m.URL)
	}
	opts := []gomail.Option{gomail.WithTimeout(20 * time.Second)}
	if p := u.Port(); p != "" {
		port := 0
		fmt.Sscan(p, &port)
		opts = append(opts, gomail.WithPort(port))
	}
	if u.Scheme == "smtps" {
		opts = append(opts, gomail.WithSSL())
	} else {
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSOpportunistic))
	}
	if u.User != nil {
		pass, _ := u.User.Password()
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthPlain), gomail.WithUsername(u.User.Username()), gomail.WithPassword(pass))
	}
	c, err := gomail.NewClient(u.Hostname(), opts...)
	if err != nil {
		return fmt.Errorf("SMTP client: %w", err)
	}
	msg := gomail.NewMsg()
	if err := msg.From(m.From); err != nil {
		return fmt.Errorf("mail from %q: %w", m.From, err)
	}
	if err := msg.To(to); err != nil {
		return fmt.Errorf("mail to %q: %w", to, err)
	}
	msg.Subject(subject)
	msg.SetBodyString(gomail.TypeTextPlain, body)
	return c.DialAndSendWithContext(ctx, msg)
}
