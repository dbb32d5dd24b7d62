// Command prospect is the command-line client of the prospecting API: one
// command per REST operation, built from the server's OpenAPI document,
// plus login, logout and whoami. Output is a table on a terminal and JSON
// when piped; exit codes say what went wrong (see exitUsage and friends).
package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/cli/browser"
	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"
)

const defaultBaseURL = "http://127.0.0.1:8080/v1"

// app is one invocation: its streams, environment and the parsed document.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	stdoutTTY      bool
	stderrTTY      bool
	spec           *spec
	ops            []*operation
	waiters        map[string]waiter // the table and the inferred ones
	httpClient     *http.Client

	apiKey, baseURL, output string
	retries                 int
	dryRun                  bool
	timeout, pollInterval   time.Duration

	// openBrowser shows the login page (browser.OpenURL; tests play the
	// browser); loginTimeout bounds the wait for it (10 minutes when 0).
	openBrowser  func(url string) error
	loginTimeout time.Duration
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	// The browser launcher's own output would mix with ours.
	browser.Stdout, browser.Stderr = io.Discard, io.Discard
	a := &app{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv,
		stdoutTTY: isatty.IsTerminal(os.Stdout.Fd()), stderrTTY: isatty.IsTerminal(os.Stderr.Fd()),
		openBrowser: browser.OpenURL}
	os.Exit(a.run(ctx, os.Args[1:]))
}

// run executes the command line and returns the exit code.
func (a *app) run(ctx context.Context, args []string) int {
	root, err := a.root()
	if err != nil {
		fmt.Fprintln(a.stderr, "prospect:", err)
		return exitError
	}
	root.SetArgs(args)
	root.SetIn(a.stdin)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	err = root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	code := exitCode(err)
	var ce *codeError
	if !errors.As(err, &ce) {
		// cobra's own errors: unknown command or flag, bad arguments.
		code = exitUsage
	}
	fmt.Fprintln(a.stderr, "prospect:", err)
	return code
}

func (a *app) root() (*cobra.Command, error) {
	s, ops, err := parseSpec(openapiDoc)
	if err != nil {
		return nil, err
	}
	a.spec, a.ops = s, ops
	a.waiters = resolveWaiters(s, ops)
	root := &cobra.Command{
		Use:   "prospect",
		Short: "Command-line client of the prospecting API",
		Long: `prospect calls the prospecting API: one command per REST operation, named
after its operation id, with flags named after its parameters (icp_text is
--icp-text). The key comes from --api-key, PROSPECT_API_KEY or ` + "`prospect login`" + `;
the server from --base-url, PROSPECT_BASE_URL (the REST root with /v1) or the
login, else ` + defaultBaseURL + `.

Exit codes: 0 ok, 1 other error, 2 usage or input refused (400/413/422),
3 auth (401/403), 4 payment (402), 5 rate limited (429 after retries),
6 server error or unreachable, 7 partial (task failed or cancelled, failed
email jobs, rows withheld for credits).`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	pf := root.PersistentFlags()
	pf.StringVar(&a.apiKey, "api-key", "", "API key (default $PROSPECT_API_KEY, then the stored login)")
	pf.StringVar(&a.baseURL, "base-url", "", "REST root including /v1 (default $PROSPECT_BASE_URL, then the stored login, then "+defaultBaseURL+")")
	pf.StringVarP(&a.output, "output", "o", "", "table, json, jsonl or csv (default table on a terminal, json otherwise)")
	pf.BoolVar(&a.dryRun, "dry-run", false, "print the request (key masked) instead of sending it")
	pf.IntVar(&a.retries, "retries", 5, "retries of a rate-limited (429) request, each after Retry-After")
	pf.DurationVar(&a.timeout, "timeout", 0, "with --wait: give up after this long (0 waits forever)")
	pf.DurationVar(&a.pollInterval, "poll-interval", time.Second, "with --wait: time between status polls")

	groups := map[string]bool{}
	for _, op := range ops {
		for _, t := range op.Tags[:min(1, len(op.Tags))] {
			if !groups[t] {
				groups[t] = true
				root.AddGroup(&cobra.Group{ID: t, Title: t + ":"})
			}
		}
		root.AddCommand(a.opCommand(op))
	}
	root.AddGroup(&cobra.Group{ID: "long", Title: "Long jobs (chunked, resumable):"})
	root.AddCommand(a.emailCSVCommand())
	root.AddGroup(&cobra.Group{ID: "session", Title: "Session:"})
	root.AddCommand(a.loginCommand(), a.logoutCommand(), a.whoamiCommand())
	return root, nil
}

// settings resolves key and server: flag, environment, stored login (a
// key, or the browser login's tokens when they are for the same server).
func (a *app) settings() (key, base string, tokens *storedTokens, err error) {
	key, base = a.apiKey, a.baseURL
	if key == "" {
		key = a.getenv("PROSPECT_API_KEY")
	}
	if base == "" {
		base = a.getenv("PROSPECT_BASE_URL")
	}
	if key == "" || base == "" {
		path, err := configPath(a.getenv)
		if err != nil {
			return "", "", nil, err
		}
		c, err := loadConfig(path)
		if err != nil {
			return "", "", nil, err
		}
		if base == "" {
			base = c.BaseURL
		}
		if key == "" {
			key = c.APIKey
			if key == "" && c.OAuth != nil && c.OAuth.Token != nil && sameBase(base, c.BaseURL) {
				tokens = a.tokenSource(path, c.BaseURL, c.OAuth)
			}
		}
	}
	if base == "" {
		base = defaultBaseURL
	}
	return key, base, tokens, nil
}

func sameBase(a, b string) bool { return strings.TrimRight(a, "/") == strings.TrimRight(b, "/") }

func (a *app) client() (*client, error) {
	key, base, tokens, err := a.settings()
	if err != nil {
		return nil, err
	}
	hc := a.httpClient
	if hc == nil {
		hc = &http.Client{Timeout: 10 * time.Minute}
	}
	c := &client{base: base, key: key, http: hc, retries: a.retries, stderr: a.stderr, sleep: sleepCtx}
	if tokens != nil {
		c.tokens = tokens
	}
	return c, nil
}

// call sends an operation's request, prints the answer and waits for a
// task when asked.
func (a *app) call(cmd *cobra.Command, op *operation, req *request) error {
	c, err := a.client()
	if err != nil {
		return err
	}
	if a.dryRun {
		return a.printDryRun(cmd.Context(), c, req)
	}
	ctx := cmd.Context()
	if w, _ := cmd.Flags().GetBool("wait"); w && a.statusRoute(op) {
		return a.follow(ctx, c, op.ID, req.path, req.path)
	}
	res, err := c.do(ctx, req.method, req.path, req.query, req.contentType, req.body)
	if err != nil {
		return err
	}
	if w, _ := cmd.Flags().GetBool("wait"); w {
		return a.wait(ctx, c, op.ID, res)
	}
	if err := a.print(res.body); err != nil {
		return err
	}
	return withheld(res)
}

// withheld is the partial exit when the server nulled rows for credits.
func withheld(res *response) error {
	if v := res.header.Get("X-Records-Withheld"); v != "" && v != "0" {
		return withCode(exitPartial, fmt.Errorf("%s records withheld: the period's credits ran out", v))
	}
	return nil
}

func (a *app) loginCommand() *cobra.Command {
	var withKey, noBrowser bool
	cmd := &cobra.Command{
		Use:     "login",
		GroupID: "session",
		Short:   "Sign in through the browser (OAuth) or store an API key, in a 0600 config file",
		Long: `login signs in through the browser: it registers this client with the
server's authorization server, listens on a random port of 127.0.0.1 for the
browser's redirect, opens the sign-in page (the address is printed too; with
--no-browser it is only printed, to open on this machine), checks the state
of the answer and exchanges the code with its PKCE verifier. The access and
refresh tokens are stored in prospect/config.json under the user's
configuration directory (mode 0600) and refreshed when they expire.

With --api-key KEY, or --with-key to read the key from stdin, login checks
the key (GET /v1/usage) and stores it instead.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if a.apiKey == "" && !withKey {
				_, base, _, err := a.settings()
				if err != nil {
					return err
				}
				return a.loginBrowser(cmd.Context(), base, noBrowser)
			}
			if a.apiKey == "" {
				if f, ok := a.stdin.(*os.File); ok && isatty.IsTerminal(f.Fd()) {
					fmt.Fprint(a.stderr, "API key: ")
				}
				line, err := bufio.NewReader(a.stdin).ReadString('\n')
				if err != nil && line == "" {
					return withCode(exitUsage, errors.New("no key: pass --api-key or type it on stdin"))
				}
				a.apiKey = strings.TrimSpace(line)
			}
			c, err := a.client()
			if err != nil {
				return err
			}
			if _, err := c.do(cmd.Context(), http.MethodGet, "/v1/usage", nil, "", nil); err != nil {
				return fmt.Errorf("check key: %w", err)
			}
			path, err := configPath(a.getenv)
			if err != nil {
				return err
			}
			if err := saveConfig(path, config{APIKey: c.key, BaseURL: c.base}); err != nil {
				return err
			}
			fmt.Fprintf(a.stderr, "logged in to %s; key stored in %s\n", c.base, path)
			return nil
		},
	}
	cmd.Flags().BoolVar(&withKey, "with-key", false, "read an API key from stdin and store it (no browser)")
	cmd.Flags().BoolVar(&noBrowser, "no-browser", false, "print the sign-in address without opening a browser")
	return cmd
}

func (a *app) logoutCommand() *cobra.Command {
	return &cobra.Command{
		Use:     "logout",
		GroupID: "session",
		Short:   "Revoke the browser login's tokens and remove the stored login",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			path, err := configPath(a.getenv)
			if err != nil {
				return err
			}
			if c, err := loadConfig(path); err == nil && c.OAuth != nil {
				if err := a.revoke(cmd.Context(), c.OAuth); err != nil {
					fmt.Fprintf(a.stderr, "%v; removing the stored tokens anyway\n", err)
				}
			}
			if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("remove %s: %w", path, err)
			}
			fmt.Fprintln(a.stderr, "logged out")
			return nil
		},
	}
}

func (a *app) whoamiCommand() *cobra.Command {
	return &cobra.Command{
		Use:     "whoami",
		GroupID: "session",
		Short:   "Show the server, the key in use and the organization's plan and credits",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := a.client()
			if err != nil {
				return err
			}
			res, err := c.do(cmd.Context(), http.MethodGet, "/v1/usage", nil, "", nil)
			if err != nil {
				return err
			}
			fmt.Fprintf(a.stderr, "server %s, %s\n", c.base, c.credentialText())
			return a.print(res.body)
		},
	}
}

// printDryRun shows what call would send, and what it would cost at
// most (POST /v1/estimate, which runs nothing and bills nothing).
func (a *app) printDryRun(ctx context.Context, c *client, req *request) error {
	u := strings.TrimRight(c.base, "/") + strings.TrimPrefix(req.path, "/v1")
	if len(req.query) > 0 {
		u += "?" + encodeQuery(req.query)
	}
	fmt.Fprintf(a.stdout, "%s %s\n", req.method, u)
	if c.tokens != nil {
		fmt.Fprintln(a.stdout, "Authorization: Bearer (the browser login's access token)")
	} else {
		fmt.Fprintf(a.stdout, "X-API-Key: %s\n", maskKey(c.key))
	}
	switch {
	case req.contentType == "application/json":
		fmt.Fprintf(a.stdout, "Content-Type: %s\n\n%s\n", req.contentType, req.body)
	case req.contentType != "":
		fmt.Fprintf(a.stdout, "Content-Type: %s\n\n(%d bytes)\n", req.contentType, len(req.body))
	}
	fmt.Fprintln(a.stdout)
	a.printServerEstimate(ctx, c, req)
	return nil
}

func maskKey(k string) string {
	if len(k) <= 12 {
		return strings.Repeat("*", len(k))
	}
	return k[:8] + "…" + k[len(k)-4:]
}
