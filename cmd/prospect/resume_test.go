package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/api"
	"github.com/openprospect/prospectd/email"
	"github.com/openprospect/prospectd/email/mailworld"
	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/embedded"
	"github.com/openprospect/prospectd/index/enginetest"
	"github.com/openprospect/prospectd/internal/toolwire"
	"github.com/openprospect/prospectd/jobs"
	"github.com/openprospect/prospectd/store"
	"github.com/openprospect/prospectd/store/sqlite"
)

// emailWorld is a server whose email lookups ask a simulated mail world.
type emailWorld struct {
	base, key, dbPath string
	orgID             string
}

func startEmailWorld(t *testing.T, w *mailworld.World) *emailWorld {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	eng, err := embedded.Open(filepath.Join(dir, "index"), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	if err := eng.SetMeta(ctx, index.Meta{EmbedderID: "test", Dimension: enginetest.Dim}); err != nil {
		t.Fatal(err)
	}
	dbPath := filepath.Join(dir, "state.db")
	st, err := sqlite.Open(ctx, dbPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	org, err := st.CreateOrg(ctx, "mailers", store.PlanTeam)
	if err != nil {
		t.Fatal(err)
	}
	u, err := st.CreateUser(ctx, org.ID, "ops@mailers.example.com", store.RoleAdmin)
	if err != nil {
		t.Fatal(err)
	}
	key, _, err := st.CreateAPIKey(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	log := zerolog.Nop()
	cfg := email.Config{DNSServer: w.DNSAddr(), SMTPPort: w.SMTPPort(), SenderDomain: "sender.example.com", AllowPrivate: true,
		RatePerMinute: -1, CommandTimeout: 5 * time.Second, Parallel: 16}
	emailTasks, emails, err := jobs.NewEmail(jobs.Config{Engine: eng, Log: log}, st, cfg)
	if err != nil {
		t.Fatal(err)
	}
	tasks := jobs.New(jobs.Config{State: st, Engine: eng, Log: log, Workers: 1})
	srv := api.New(api.Deps{Engine: eng, Store: st, Tasks: tasks, Email: emails, EmailTasks: emailTasks, Log: log})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	origin := "http://" + ln.Addr().String()
	// The tool server's rules answer POST /v1/estimate (the dry run).
	if _, err := toolwire.Mount(srv, toolwire.Config{PublicURL: origin + "/v1", Secret: []byte("an auth secret of at least 32 bytes!"),
		State: st, Engine: eng, Tasks: tasks, Email: emails, Log: log}); err != nil {
		t.Fatal(err)
	}
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(runCtx, ln) }()
	t.Cleanup(func() { cancel(); <-done })
	return &emailWorld{base: origin + "/v1", key: key, dbPath: dbPath, orgID: org.ID}
}

// TestEmailCSVResume: a 20,000-row email batch against the simulated mail
// world, interrupted (the CLI's context cancelled) once several chunks
// are submitted and resumed with --resume, submits every row once and
// bills each found address once.
func TestEmailCSVResume(t *testing.T) {
	if testing.Short() {
		t.Skip("a 20,000-row email run against a loopback mail world")
	}
	w, err := mailworld.New()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	// 20,000 rows naming 4,000 people (80 domains of 50), each listed 5
	// times a chunk apart or more, as merged source lists do: a repeat is
	// answered from the lookup cache and its address is not billed again,
	// on either side of the interruption.
	hosts, domains, perDomain, repeats := 40, 80, 50, 5
	if os.Getenv("RESUME_SMALL") != "" { // a 2,000-row run for quick local checks
		domains, repeats = 20, 2
	}
	for h := 0; h < hosts; h++ {
		if err := w.AddHost(fmt.Sprintf("mx%d.hosting.example.net", h), mailworld.Behaviour{}); err != nil {
			t.Fatal(err)
		}
	}
	firsts := []string{"ann", "bob", "cara", "dan", "eve", "finn", "gail", "hugo", "ida", "jon"}
	lasts := []string{"ames", "baker", "cole", "dunn", "ellis"}
	var people strings.Builder
	found := map[string]bool{}
	for d := 0; d < domains; d++ {
		dom := fmt.Sprintf("co%03d.example.com", d)
		var boxes []string
		for i := 0; i < perDomain; i++ {
			first, last := firsts[i%10], lasts[i/10]+fmt.Sprint(string(rune('a'+d%26)))
			// Four in five people have a mailbox; the rest are not found.
			if i%5 != 4 {
				boxes = append(boxes, first+"."+last)
				found[first+"."+last+"@"+dom] = true
			}
			fmt.Fprintf(&people, "%s,%s,%s,engineer\n", strings.ToUpper(first[:1])+first[1:], strings.ToUpper(last[:1])+last[1:], dom)
		}
		w.AddDomain(mailworld.Domain{Name: dom, MX: []string{fmt.Sprintf("mx%d.hosting.example.net", d%hosts)}, Mailboxes: boxes})
	}
	csvb := "first_name,last_name,domain,title\n" + strings.Repeat(people.String(), repeats)
	distinct := domains * perDomain
	srv := startEmailWorld(t, w)
	dir := t.TempDir()
	in := filepath.Join(dir, "people.csv")
	if err := os.WriteFile(in, []byte(csvb), 0o600); err != nil {
		t.Fatal(err)
	}
	statePath := in + ".prospect-state.json"
	env := map[string]string{"PROSPECT_API_KEY": srv.key, "PROSPECT_BASE_URL": srv.base, "XDG_CONFIG_HOME": dir}
	start := time.Now()

	// The dry run: the chunks and the server's estimate, no state file.
	rows := distinct * repeats
	chunks := (rows + emailBatchCap - 1) / emailBatchCap
	r := runCLI(t, env, "", "email-find-csv", "--file", in, "--dry-run")
	if r.code != 0 || !strings.Contains(r.stdout, fmt.Sprintf("×%d (%d of %d chunks left", chunks, chunks, chunks)) ||
		!strings.Contains(r.stdout, fmt.Sprintf("at most %d for %d rows", rows, rows)) {
		t.Fatalf("dry run: %+v", r)
	}
	if _, err := os.Stat(statePath); !os.IsNotExist(err) {
		t.Fatalf("the dry run wrote a state file: %v", err)
	}

	// The first run is interrupted once a fifth of the chunks (8 of 40)
	// are submitted.
	interruptAt := max(1, chunks/5)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		defer cancel()
		for ctx.Err() == nil {
			if st, err := loadJobState(statePath); err == nil {
				n := 0
				for _, ch := range st.Chunks {
					if ch.Status == "submitted" || ch.Status == "done" {
						n++
					}
				}
				if n >= interruptAt {
					return
				}
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	var out, errb bytes.Buffer
	a := &app{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(k string) string { return env[k] }}
	code := a.run(ctx, []string{"email-find-csv", "--file", in, "--poll-interval", "1s", "-o", "json"})
	if code == 0 || !strings.Contains(errb.String(), "--resume") {
		t.Fatalf("interrupted run: exit %d, %s", code, errb.String())
	}
	st, err := loadJobState(statePath)
	if err != nil {
		t.Fatal(err)
	}
	submitting, recorded := 0, 0
	for _, ch := range st.Chunks {
		switch ch.Status {
		case "submitting":
			submitting++
		case "submitted", "done":
			recorded++
		}
	}
	// The interruption does not cut a submission short: none is left
	// without its batch id.
	if len(st.Chunks) != chunks || recorded < interruptAt || recorded == chunks || submitting != 0 {
		t.Fatalf("state after the interruption: %d chunks, %d recorded, %d submitting", len(st.Chunks), recorded, submitting)
	}

	// Without --resume the run refuses to start over.
	if r := runCLI(t, env, "", "email-find-csv", "--file", in); r.code != exitUsage || !strings.Contains(r.stderr, "--resume") {
		t.Fatalf("second run without --resume: %+v", r)
	}

	out.Reset()
	errb.Reset()
	a = &app{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(k string) string { return env[k] }}
	if code := a.run(context.Background(), []string{"email-find-csv", "--file", in, "--resume", "--poll-interval", "1s", "-o", "json"}); code != 0 {
		t.Fatalf("resumed run: exit %d, %s", code, errb.String())
	}
	var answer struct {
		Total   int `json:"total"`
		Results []struct {
			Status string `json:"status"`
			Result struct {
				Status string `json:"status"`
				Domain string `json:"domain"`
				Result *struct {
					Email string `json:"email"`
				} `json:"result"`
			} `json:"result"`
		} `json:"results"`
	}
	if err := json.Unmarshal(out.Bytes(), &answer); err != nil {
		t.Fatalf("answer: %v", err)
	}
	if answer.Total != rows || len(answer.Results) != rows {
		t.Fatalf("answer: total %d, %d results", answer.Total, len(answer.Results))
	}
	gotFound := map[string]bool{}
	for i, r := range answer.Results {
		if r.Result.Status == email.StatusFound && r.Result.Result != nil {
			gotFound[r.Result.Result.Email] = true
		}
		if want := fmt.Sprintf("co%03d.example.com", i%distinct/perDomain); r.Result.Domain != want {
			t.Fatalf("result %d is for %s, want %s (input order)", i, r.Result.Domain, want)
		}
	}
	if len(gotFound) != len(found) {
		t.Errorf("found %d addresses, the world has %d", len(gotFound), len(found))
	}
	elapsed := time.Since(start)

	// The ledger: each found address billed once, and no chunk submitted
	// twice.
	db, err := sql.Open("sqlite", "file:"+srv.dbPath+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var jobsN, billedKeys, credits int
	if err := db.QueryRow(`SELECT count(*) FROM email_jobs`).Scan(&jobsN); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(`SELECT count(*) FROM billed_records WHERE org_id = ? AND kind = 'email'`, srv.orgID).Scan(&billedKeys); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(`SELECT coalesce(sum(credits), 0) FROM ledger WHERE org_id = ? AND kind = 'email'`, srv.orgID).Scan(&credits); err != nil {
		t.Fatal(err)
	}
	if jobsN != rows {
		t.Errorf("%d email jobs submitted, want %d", jobsN, rows)
	}
	if credits != len(found) || billedKeys != len(found) {
		t.Errorf("billed %d credits for %d keys; %d addresses were found", credits, billedKeys, len(found))
	}
	t.Logf("%d rows, %d found, %d jobs, %d credits; interrupted after %d chunks; %s in all", rows, len(found), jobsN, credits, recorded, elapsed)
}
