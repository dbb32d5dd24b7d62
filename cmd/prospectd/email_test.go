package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/openprospect/prospectd/email/mailworld"
)

// TestKilledServerEmailBatch submits an email batch against a loopback mail
// world, kills the server with SIGKILL once some lookups are recorded,
// restarts it, and expects every job to end found, with no mailbox asked
// again after the kill for a lookup whose result was already recorded.
func TestKilledServerEmailBatch(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test builds and runs the binary")
	}
	w, err := mailworld.New()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	const n = 60
	var items []string
	for i := 0; i < n; i++ {
		host := fmt.Sprintf("mx%d.hosting.example.net", i%8)
		if i < 8 {
			if err := w.AddHost(host, mailworld.Behaviour{Tarpit: 15 * time.Millisecond}); err != nil {
				t.Fatal(err)
			}
		}
		d := fmt.Sprintf("co%d.example.com", i)
		w.AddDomain(mailworld.Domain{Name: d, MX: []string{host}, Mailboxes: []string{"jane.doe"}})
		items = append(items, fmt.Sprintf(`{"first_name": "Jane", "last_name": "Doe", "domain": %q}`, d))
	}
	flags := []string{"--task-lease", "2s", "--email-dns", w.DNSAddr(), "--email-smtp-port", fmt.Sprint(w.SMTPPort()),
		"--email-allow-private", "--email-rate", "0", "--email-sender-domain", "sender.example.com"}
	bin := buildBinary(t)
	dir := t.TempDir()
	addr := freeAddr(t)
	key, _, _, proc := startServeCmd(t, bin, dir, addr, flags...)

	req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/v1/email/find/batch", strings.NewReader(`{"requests": [`+strings.Join(items, ",")+`]}`))
	req.Header.Set("X-API-Key", key)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var acc struct {
		BatchID string   `json:"batch_id"`
		JobIDs  []string `json:"job_ids"`
	}
	json.NewDecoder(res.Body).Decode(&acc)
	res.Body.Close()
	if res.StatusCode != http.StatusAccepted || acc.BatchID == "" || len(acc.JobIDs) != n {
		t.Fatalf("submit: %d %+v", res.StatusCode, acc)
	}
	results := func() (done int, recorded map[string]bool, body map[string]any) {
		status, body := get(t, addr, key, "/v1/email/batch/"+acc.BatchID+"/results")
		if status != http.StatusOK {
			t.Fatalf("results: %d %v", status, body)
		}
		recorded = map[string]bool{}
		jobs, _ := body["results"].([]any)
		for _, j := range jobs {
			j := j.(map[string]any)
			if j["status"] == "completed" {
				r := j["result"].(map[string]any)
				recorded[r["domain"].(string)] = true
			}
		}
		c, _ := body["completed"].(float64)
		f, _ := body["failed"].(float64)
		return int(c + f), recorded, body
	}
	// Kill once some results are recorded, before the batch ends.
	var recorded map[string]bool
	for deadline := time.Now().Add(30 * time.Second); ; {
		var done int
		done, recorded, _ = results()
		if done >= 8 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("only %d jobs done", done)
		}
		time.Sleep(10 * time.Millisecond)
	}
	proc.Kill()
	proc.Wait()
	killedAt := time.Now()
	// Results recorded between the last read and the kill are read again
	// after the restart; only those seen before it are checked.
	if len(recorded) == n {
		t.Fatal("the batch finished before the kill; the test needs a slower world")
	}

	_, _, stop := startServe(t, bin, dir, addr, flags...)
	defer stop()
	var body map[string]any
	for deadline := time.Now().Add(60 * time.Second); ; {
		var done int
		done, _, body = results()
		if done == n {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d jobs done after the restart", done, n)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if body["completed"].(float64) != n {
		t.Fatalf("after the restart: %v", body)
	}
	for _, j := range body["results"].([]any) {
		r := j.(map[string]any)["result"].(map[string]any)
		found, _ := r["result"].(map[string]any)
		if r["status"] != "found" || found["email"] != "jane.doe@"+r["domain"].(string) {
			t.Fatalf("job result %v", r)
		}
	}
	again := 0
	for _, ev := range w.Rcpts() {
		_, dom, _ := strings.Cut(ev.Address, "@")
		if ev.At.After(killedAt) && recorded[dom] {
			again++
		}
	}
	if again > 0 {
		t.Fatalf("%d RCPTs after the kill for lookups recorded before it", again)
	}
	if n := w.DataCommands(); n != 0 {
		t.Fatalf("%d DATA commands", n)
	}
	t.Logf("killed with %d of %d recorded; all %d completed after the restart", len(recorded), n, n)
}
