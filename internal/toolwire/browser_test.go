package toolwire_test

import (
	"context"
	"net"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"golang.org/x/oauth2"

	"github.com/openprospect/prospectd/store"
)

// TestPagesInHeadlessChromium drives the sign-in, key and consent pages in
// a real browser (Debian's chromium, over the DevTools protocol).
func TestPagesInHeadlessChromium(t *testing.T) {
	bin := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			bin = p
			break
		}
	}
	if bin == "" {
		t.Skip("SKIPPED: no chromium on PATH (Debian: apt-get install chromium); the browser test did not run")
	}
	e := newEnv(t, nil)
	e.signUp(t, "eva@acme-corp.com", store.PlanStarter)

	// The client's redirect URI: a loopback server that receives the code.
	codes := make(chan string, 1)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cb := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case codes <- r.URL.Query().Get("code"):
		default:
		}
		_, _ = w.Write([]byte("<!doctype html><title>done</title><p id=done>Authorized</p>"))
	})}
	go func() { _ = cb.Serve(ln) }()
	t.Cleanup(func() { cb.Close() })
	redirect := "http://" + ln.Addr().String() + "/callback"
	conf := e.oauthClientWith(t, redirect, "Browser Agent")

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(bin), chromedp.NoSandbox, chromedp.Flag("headless", true))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 90*time.Second)
	defer cancel()

	if err := chromedp.Do(ctx,
		chromedp.Navigate(e.origin+"/app/"),
		chromedp.WaitVisible(chromedp.CSS("#email")),
		chromedp.SendKeys(chromedp.CSS("#email"), "eva@acme-corp.com"),
		chromedp.SendKeys(chromedp.CSS("#password"), testPassword),
		chromedp.Submit(chromedp.CSS("#password")),
		chromedp.WaitVisible(`//h1[text()="Your account"]`),
	); err != nil {
		t.Fatalf("sign in in the browser: %v", err)
	}
	account, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("body")))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx,
		chromedp.Click(`//button[text()="Issue a new key"]`),
		chromedp.WaitVisible(chromedp.CSS("#new-key")),
	); err != nil {
		t.Fatalf("issue a key in the browser: %v", err)
	}
	key, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#new-key")))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(account, "starter") {
		t.Errorf("account page: %s", account)
	}
	if p, err := e.st.Authenticate(context.Background(), strings.TrimSpace(key)); err != nil || p.User.Email != "eva@acme-corp.com" {
		t.Fatalf("the key the browser showed does not authenticate: %v", err)
	}

	verifier := oauth2.GenerateVerifier()
	if err := chromedp.Do(ctx,
		chromedp.Navigate(conf.AuthCodeURL("browser-state-123", oauth2.S256ChallengeOption(verifier))),
		chromedp.WaitVisible(chromedp.CSS("#approve")),
	); err != nil {
		t.Fatalf("consent page in the browser: %v", err)
	}
	client, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#client-name")))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS("#approve")),
		chromedp.WaitVisible(chromedp.CSS("#done")),
	); err != nil {
		t.Fatalf("approve in the browser: %v", err)
	}
	if client != "Browser Agent" {
		t.Errorf("consent page names %q", client)
	}
	code := <-codes
	tok, err := conf.Exchange(context.Background(), code, oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatalf("exchange the browser's code: %v", err)
	}
	if s := e.mcpStatus(t, tok.AccessToken); s != http.StatusOK {
		t.Errorf("token from the browser flow: %d", s)
	}
}
