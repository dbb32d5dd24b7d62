package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"

	"github.com/openprospect/prospectd/email/mailworld"
	"github.com/openprospect/prospectd/internal/demo"
)

// runOutcome is what a finished run produced: its results and what the
// ledger billed.
type runOutcome struct {
	stop    string
	results []string // "domain" and "domain/name/email" lines, sorted
	billed  map[string]float64
}

// TestKilledServerResumesProspectingRun runs a leads run on the demo
// corpus against the simulated mail world once without interruption, then
// again with the server killed (SIGKILL) at random points at least five
// times, and expects the same results with nothing billed twice.
func TestKilledServerResumesProspectingRun(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test builds and runs the binary")
	}
	w := demoMailWorld(t, 300, 1)
	flags := []string{"--task-lease", "2s", "--email-dns", w.DNSAddr(), "--email-smtp-port", fmt.Sprint(w.SMTPPort()),
		"--email-allow-private", "--email-rate", "60", "--email-sender-domain", "sender.example.com", "--prospecting-batch", "3"}
	bin := buildBinary(t)
	body := map[string]any{"brief": "Find 30 software companies and 2 managers at each", "checkpoints": "auto"}

	// The reference: no interruption.
	ref := func() runOutcome {
		dir, addr := t.TempDir(), freeAddr(t)
		key, _, stop := startServe(t, bin, dir, addr, flags...)
		defer stop()
		id := startAndApprove(t, addr, key, body)
		waitRunStatus(t, addr, key, id, "completed", 90*time.Second)
		return outcome(t, addr, key, id)
	}()
	if ref.stop == "" || len(ref.results) == 0 {
		t.Fatalf("reference run: %+v", ref)
	}

	addr, key, id := killRun(t, bin, flags, body)
	waitRunStatus(t, addr, key, id, "completed", 120*time.Second)
	got := outcome(t, addr, key, id)
	if got.stop != ref.stop || strings.Join(got.results, "\n") != strings.Join(ref.results, "\n") {
		t.Fatalf("after the kills: stop %s, results\n%s\nwant stop %s, results\n%s", got.stop, strings.Join(got.results, "\n"), ref.stop, strings.Join(ref.results, "\n"))
	}
	for _, kind := range []string{"company", "contact", "email"} {
		if got.billed[kind] != ref.billed[kind] {
			t.Fatalf("billed %s: %v after the kills, %v without (%v vs %v)", kind, got.billed[kind], ref.billed[kind], got.billed, ref.billed)
		}
	}
	t.Logf("%d result lines; billed %v", len(got.results), got.billed)
}

// killRun starts and approves a run, then kills the server (SIGKILL) at
// random points at least five times, starting it again each time; a run
// paused at a checkpoint is answered continue.
func killRun(t *testing.T, bin string, flags []string, body map[string]any) (addr, key, id string) {
	t.Helper()
	dir := t.TempDir()
	addr = freeAddr(t)
	key, _, _, proc := startServeCmd(t, bin, dir, addr, flags...)
	id = startAndApprove(t, addr, key, body)
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	kills := 0
	for kills < 5 {
		// Let the run make some progress (the first kill comes early),
		// then kill at a random moment.
		if kills > 0 {
			before := runVersion(t, addr, key, id)
			deadline := time.Now().Add(30 * time.Second)
			for runVersion(t, addr, key, id) == before && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
		}
		time.Sleep(time.Duration(rng.IntN(300)) * time.Millisecond)
		_, st := get(t, addr, key, "/v1/prospecting/runs/"+id)
		if st["status"] == "completed" {
			break
		}
		if st["status"] == "paused" {
			if code, out := researchSend(t, addr, key, "POST", "/v1/prospecting/runs/"+id+"/messages",
				map[string]any{"checkpoint": st["checkpoint"], "action": "continue"}); code != http.StatusAccepted {
				t.Fatalf("reply: %d %v", code, out)
			}
			continue
		}
		proc.Kill()
		proc.Wait()
		kills++
		t.Logf("kill %d at status %v, counts %v", kills, st["status"], st["counts"])
		_, _, _, proc = startServeCmd(t, bin, dir, addr, flags...)
	}
	if kills < 5 {
		t.Fatalf("the run completed after %d kills; it needs to run longer for this test", kills)
	}
	return addr, key, id
}

// TestKilledServerResumesWaveRun: a wave run (early email lookups during
// the people phase, contacts_review answered continue) killed at five
// random points or more still ends, and the ledger bills exactly what its
// results hold: each fit company, index contact and found address once.
// Its rows are not compared with an uninterrupted run's: early lookups
// overlap the people steps, so two runs of one brief may differ.
func TestKilledServerResumesWaveRun(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test builds and runs the binary")
	}
	w := demoMailWorld(t, 300, 1)
	flags := []string{"--task-lease", "2s", "--email-dns", w.DNSAddr(), "--email-smtp-port", fmt.Sprint(w.SMTPPort()),
		"--email-allow-private", "--email-rate", "60", "--email-sender-domain", "sender.example.com", "--prospecting-batch", "3",
		"--prospecting-waves", "all"}
	bin := buildBinary(t)
	body := map[string]any{"brief": "Find 30 software companies and 2 managers at each", "checkpoints": "auto", "max_actions": 300}
	addr, key, id := killRun(t, bin, flags, body)
	var st map[string]any
	for deadline := time.Now().Add(120 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		_, st = get(t, addr, key, "/v1/prospecting/runs/"+id)
		if st["status"] == "completed" || time.Now().After(deadline) {
			break
		}
		if st["status"] == "paused" {
			researchSend(t, addr, key, "POST", "/v1/prospecting/runs/"+id+"/messages", map[string]any{"checkpoint": st["checkpoint"], "action": "continue"})
		}
		if st["status"] == "failed" {
			t.Fatalf("run failed: %v", st["error"])
		}
	}
	if st["status"] != "completed" {
		t.Fatalf("run %v", st["status"])
	}
	if plan, _ := st["plan"].(map[string]any); plan["email_lookup_note"] == nil {
		t.Fatalf("not a wave run: %v", plan)
	}
	got := outcome(t, addr, key, id)
	_, res := get(t, addr, key, "/v1/prospecting/runs/"+id+"/results")
	rows, _ := res["rows"].([]any)
	found, index := 0, 0
	for _, r := range rows {
		cs, _ := r.(map[string]any)["contacts"].([]any)
		for _, c := range cs {
			m := c.(map[string]any)
			if m["email_status"] == "found" {
				found++
			}
			if m["source"] == "index" {
				index++
			}
		}
	}
	if got.billed["company"] != float64(len(rows)) || got.billed["email"] != float64(found) || got.billed["contact"] != float64(index) {
		t.Fatalf("billed %v for %d fit companies, %d index contacts, %d found addresses", got.billed, len(rows), index, found)
	}
	t.Logf("stop %s; %d rows, %d index contacts, %d found; billed %v", got.stop, len(rows), index, found, got.billed)
}

// runVersion changes whenever the run makes progress.
func runVersion(t *testing.T, addr, key, id string) string {
	t.Helper()
	_, st := get(t, addr, key, "/v1/prospecting/runs/"+id)
	return fmt.Sprint(st["counts"], st["status"], st["round"])
}

func startAndApprove(t *testing.T, addr, key string, body map[string]any) string {
	t.Helper()
	id := startRun(t, addr, key, "run-1", body)["run_id"].(string)
	run := waitRunStatus(t, addr, key, id, "proposed", 30*time.Second)
	code, out := researchSend(t, addr, key, "POST", "/v1/prospecting/runs/"+id+"/approve", map[string]any{"plan_version": run["plan_version"]})
	if code != http.StatusAccepted {
		t.Fatalf("approve: %d %v", code, out)
	}
	return id
}

// startRun posts a start request under an idempotency key and returns
// its 202 answer.
func startRun(t *testing.T, addr, key, idem string, body map[string]any) map[string]any {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/v1/prospecting/runs", strings.NewReader(mustJSON(body)))
	req.Header.Set("X-API-Key", key)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", idem)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var st map[string]any
	decodeBody(res, &st)
	if res.StatusCode != http.StatusAccepted {
		t.Fatalf("start: %d %v", res.StatusCode, st)
	}
	return st
}

func waitRunStatus(t *testing.T, addr, key, id, status string, within time.Duration) map[string]any {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		_, st := get(t, addr, key, "/v1/prospecting/runs/"+id)
		if st["status"] == status {
			return st
		}
		if st["status"] == "failed" || time.Now().After(deadline) {
			t.Fatalf("run %s: %v (%v), want %s", id, st["status"], st["error"], status)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func outcome(t *testing.T, addr, key, id string) runOutcome {
	t.Helper()
	_, st := get(t, addr, key, "/v1/prospecting/runs/"+id)
	o := runOutcome{stop: fmt.Sprint(st["stop_reason"])}
	code, res := get(t, addr, key, "/v1/prospecting/runs/"+id+"/results")
	if code != http.StatusOK {
		t.Fatalf("results: %d %v", code, res)
	}
	for _, r := range res["rows"].([]any) {
		row := r.(map[string]any)
		o.results = append(o.results, row["domain"].(string))
		cs, _ := row["contacts"].([]any)
		for _, c := range cs {
			m := c.(map[string]any)
			o.results = append(o.results, fmt.Sprintf("%s/%v/%v", row["domain"], m["name"], m["email"]))
		}
	}
	sort.Strings(o.results)
	_, u := get(t, addr, key, "/v1/usage")
	o.billed = map[string]float64{}
	if b, ok := u["records_billed"].(map[string]any); ok {
		for k, v := range b {
			o.billed[k], _ = v.(float64)
		}
	}
	return o
}

// demoMailWorld serves the demo corpus's domains with a mailbox for each
// contact, named by the company's address pattern.
func demoMailWorld(t *testing.T, n int, seed int64) *mailworld.World {
	t.Helper()
	w, err := mailworld.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	if err := w.AddHost("mx.demo-mail.test", mailworld.Behaviour{Tarpit: 20 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	g := demo.New(demo.Options{Companies: n, Seed: seed})
	fold := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	for i := 0; i < n; i++ {
		pattern := g.EmailPattern(i)
		at := strings.LastIndexByte(pattern, '@')
		tpl, dom := pattern[:at], pattern[at+1:]
		var boxes []string
		for _, p := range g.ContactsOf(i) {
			name, _, _ := transform.String(fold, strings.ToLower(p.Name))
			f := strings.FieldsFunc(name, func(r rune) bool { return r < 'a' || r > 'z' })
			if len(f) < 2 {
				continue
			}
			first, last := f[0], f[len(f)-1]
			boxes = append(boxes, strings.NewReplacer("{first}", first, "{last}", last, "{f}", first[:1], "{l}", last[:1]).Replace(tpl))
		}
		w.AddDomain(mailworld.Domain{Name: dom, MX: []string{"mx.demo-mail.test"}, Mailboxes: boxes})
	}
	return w
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func decodeBody(res *http.Response, out any) {
	defer res.Body.Close()
	json.NewDecoder(res.Body).Decode(out)
}
