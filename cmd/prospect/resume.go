package main

import (
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
)

// A long email job: a CSV of people is cut into batches within the
// spec's cap (500 lookups a batch), at most --max-active batches are
// queued at once (the account's cap on queued lookups is two full
// batches by default), and a state file records each chunk's batch id
// and completed rows, written before and after each submission, so
// --resume continues where an interrupted run stopped without submitting
// a chunk again.

const emailBatchCap = 500 // the spec's 1-500 requests a batch

// chunkState is one chunk of the input: rows [Start, End).
type chunkState struct {
	Start int `json:"start"`
	End   int `json:"end"`
	// Status: pending, submitting (the POST may have reached the server:
	// written before it is sent), submitted, done.
	Status    string `json:"status"`
	BatchID   string `json:"batch_id,omitempty"`
	Completed int    `json:"completed"`
	Failed    int    `json:"failed"`
}

// jobState is the state file of a chunked run.
type jobState struct {
	Kind        string       `json:"kind"`
	Input       string       `json:"input"`
	InputSHA256 string       `json:"input_sha256"`
	Rows        int          `json:"rows"`
	ChunkSize   int          `json:"chunk_size"`
	Chunks      []chunkState `json:"chunks"`
}

func (s *jobState) save(path string) error {
	b, _ := json.MarshalIndent(s, "", " ")
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("write state: %w", err)
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return fmt.Errorf("write state: %w", err)
	}
	// The record of a submission must be on disk before anything else
	// happens: a lost record means a chunk submitted twice.
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("write state: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write state: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("write state: %w", err)
	}
	return nil
}

func loadJobState(path string) (*jobState, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read state: %w", err)
	}
	var s jobState
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("read state %s: %w", path, err)
	}
	return &s, nil
}

// emailRows reads the people of a CSV as email-find requests.
func emailRows(b []byte, firstCol, lastCol, domainCol string) ([]map[string]string, error) {
	r := csv.NewReader(strings.NewReader(string(b)))
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if err != nil {
		return nil, withCode(exitUsage, fmt.Errorf("--file: read the header: %w", err))
	}
	idx := map[string]int{}
	for i, h := range header {
		idx[strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))] = i
	}
	cols := [3]int{}
	for i, name := range []string{firstCol, lastCol, domainCol} {
		c, ok := idx[name]
		if !ok {
			return nil, withCode(exitUsage, fmt.Errorf("--file: no column %q in the header (%s)", name, strings.Join(header, ", ")))
		}
		cols[i] = c
	}
	var rows []map[string]string
	for line := 2; ; line++ {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, withCode(exitUsage, fmt.Errorf("--file: %w", err))
		}
		get := func(i int) string {
			if cols[i] < len(rec) {
				return strings.TrimSpace(rec[cols[i]])
			}
			return ""
		}
		rows = append(rows, map[string]string{"first_name": get(0), "last_name": get(1), "domain": get(2)})
	}
	if len(rows) == 0 {
		return nil, withCode(exitUsage, errors.New("--file: no rows after the header"))
	}
	return rows, nil
}

func (a *app) emailCSVCommand() *cobra.Command {
	var file, statePath, firstCol, lastCol, domainCol string
	var resume, evidence bool
	var chunk, maxActive int
	cmd := &cobra.Command{
		Use:     "email-find-csv",
		GroupID: "long",
		Short:   "Find the email addresses of a CSV of people, in resumable batches of up to 500",
		Long: `email-find-csv reads people (first name, last name, company domain) from a CSV,
submits them as email batches of up to --chunk-size rows (POST /v1/email/find/batch),
keeping at most --max-active batches queued, waits for each, and prints every
job in input order. A state file (--state, default FILE.prospect-state.json)
records each chunk's batch id and completed rows. After an interruption, run
the same command with --resume: chunks already submitted are only followed,
never submitted again. Found addresses cost one credit each, and an address
already paid for in the last 90 days is free.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if file == "" {
				return withCode(exitUsage, errors.New("--file is required"))
			}
			if chunk < 1 || chunk > emailBatchCap {
				return withCode(exitUsage, fmt.Errorf("--chunk-size %d: want 1-%d (the batch cap)", chunk, emailBatchCap))
			}
			if maxActive < 1 {
				return withCode(exitUsage, fmt.Errorf("--max-active %d: want at least 1", maxActive))
			}
			b, err := os.ReadFile(file)
			if err != nil {
				return withCode(exitUsage, fmt.Errorf("--file: %w", err))
			}
			rows, err := emailRows(b, firstCol, lastCol, domainCol)
			if err != nil {
				return err
			}
			if statePath == "" {
				statePath = file + ".prospect-state.json"
			}
			sum := sha256.Sum256(b)
			st, err := a.openJobState(statePath, resume, "email-find-batch", file, hex.EncodeToString(sum[:]), len(rows), chunk)
			if err != nil {
				return err
			}
			c, err := a.client()
			if err != nil {
				return err
			}
			if a.dryRun {
				return a.dryRunChunks(cmd.Context(), c, st, rows)
			}
			return a.runEmailChunks(cmd.Context(), c, st, statePath, rows, maxActive, evidence)
		},
	}
	f := cmd.Flags()
	f.StringVar(&file, "file", "", "CSV of people with a header row (required)")
	f.StringVar(&statePath, "state", "", "state file of the run (default FILE.prospect-state.json)")
	f.BoolVar(&resume, "resume", false, "continue the run recorded in the state file")
	f.BoolVar(&evidence, "evidence", false, "keep each result's evidence (the SMTP session; kilobytes a row) in the output")
	f.IntVar(&chunk, "chunk-size", emailBatchCap, "rows per batch (1-500)")
	f.IntVar(&maxActive, "max-active", 2, "batches queued or running at once (the account caps queued lookups)")
	f.StringVar(&firstCol, "first-name-column", "first_name", "column of first names")
	f.StringVar(&lastCol, "last-name-column", "last_name", "column of last names")
	f.StringVar(&domainCol, "domain-column", "domain", "column of company domains")
	return cmd
}

// openJobState starts a new state file or, with resume, reads the one
// of an earlier run of the same input.
func (a *app) openJobState(path string, resume bool, kind, input, sum string, rows, chunk int) (*jobState, error) {
	if resume {
		st, err := loadJobState(path)
		if err != nil {
			return nil, withCode(exitUsage, fmt.Errorf("--resume: %w", err))
		}
		if st.Kind != kind || st.InputSHA256 != sum || st.Rows != rows {
			return nil, withCode(exitUsage, fmt.Errorf("--resume: the state file %s records another input (%s, %d rows)", path, st.Input, st.Rows))
		}
		return st, nil
	}
	if _, err := os.Stat(path); err == nil {
		return nil, withCode(exitUsage, fmt.Errorf("the state file %s exists: pass --resume to continue that run, or remove it to start again (and pay again for what it did)", path))
	}
	st := &jobState{Kind: kind, Input: input, InputSHA256: sum, Rows: rows, ChunkSize: chunk}
	for start := 0; start < rows; start += chunk {
		st.Chunks = append(st.Chunks, chunkState{Start: start, End: min(start+chunk, rows), Status: "pending"})
	}
	if a.dryRun {
		return st, nil
	}
	return st, st.save(path)
}

// dryRunChunks shows what the run would submit and the most it would
// cost: the server's estimate of each chunk left (which also checks its
// rows), summed.
func (a *app) dryRunChunks(ctx context.Context, c *client, st *jobState, rows []map[string]string) error {
	var left []chunkState
	for _, ch := range st.Chunks {
		if ch.Status == "pending" || ch.Status == "submitting" {
			left = append(left, ch)
		}
	}
	fmt.Fprintf(a.stdout, "POST %s/email/find/batch ×%d (%d of %d chunks left; up to %d rows each)\n",
		strings.TrimRight(c.base, "/"), len(left), len(left), len(st.Chunks), st.ChunkSize)
	var sum serverEstimate
	for _, ch := range left {
		body, _ := json.Marshal(map[string]any{"operation": "email-find-batch", "arguments": map[string]any{"requests": rows[ch.Start:ch.End]}})
		res, err := c.do(ctx, http.MethodPost, "/v1/estimate", nil, "application/json", body)
		if err != nil {
			fmt.Fprintf(a.stdout, "estimated credits: unavailable for rows %d-%d (%v)\n", ch.Start+1, ch.End, err)
			return nil
		}
		var e serverEstimate
		if err := json.Unmarshal(res.body, &e); err != nil {
			return fmt.Errorf("read estimate: %w", err)
		}
		sum.Records += e.Records
		sum.Credits += e.Credits
		sum.PriceUSD += e.PriceUSD
		sum.CreditsLeft, sum.Note = e.CreditsLeft, e.Note
	}
	fmt.Fprintf(a.stdout, "estimated credits: at most %d for %d rows, $%.2f at the plan's price; %d credits left\n",
		sum.Credits, sum.Records, sum.PriceUSD, sum.CreditsLeft)
	if sum.Note != "" {
		fmt.Fprintf(a.stdout, "note: %s\n", sum.Note)
	}
	return nil
}

// batchAnswer is the part of a batch results answer the run reads.
type batchAnswer struct {
	Total     int               `json:"total"`
	Completed int               `json:"completed"`
	Failed    int               `json:"failed"`
	Results   []json.RawMessage `json:"results"`
}

func (a *app) runEmailChunks(ctx context.Context, c *client, st *jobState, path string, rows []map[string]string, maxActive int, evidence bool) error {
	save := func() error { return st.save(path) }
	active := func() []int {
		var ids []int
		for i, ch := range st.Chunks {
			if ch.Status == "submitted" {
				ids = append(ids, i)
			}
		}
		return ids
	}
	// poll reads the oldest submitted chunk's batch once and returns how
	// many chunks ended (0 or 1). Only the oldest: a batch's results carry
	// every job with its evidence (kilobytes each), batches run in
	// submission order, and the oldest is the one to end first.
	poll := func() (int, error) {
		ended := 0
		for _, i := range active()[:min(1, len(active()))] {
			ch := &st.Chunks[i]
			res, err := c.do(ctx, http.MethodGet, "/v1/email/batch/"+ch.BatchID+"/results", nil, "", nil)
			if err != nil {
				return ended, err
			}
			var ba batchAnswer
			if err := json.Unmarshal(res.body, &ba); err != nil {
				return ended, fmt.Errorf("read batch %s: %w", ch.BatchID, err)
			}
			ch.Completed, ch.Failed = ba.Completed, ba.Failed
			if ba.Completed+ba.Failed >= ba.Total {
				ch.Status = "done"
				ended++
			}
		}
		return ended, save()
	}
	progress := func() {
		done, sub := 0, 0
		for _, ch := range st.Chunks {
			done += ch.Completed + ch.Failed
			if ch.Status != "pending" {
				sub++
			}
		}
		fmt.Fprintf(a.stderr, "email-find-csv: %d/%d chunks submitted, %d/%d rows done\n", sub, len(st.Chunks), done, st.Rows)
	}
	noRetry := *c
	noRetry.retries = 0
	for i := range st.Chunks {
		ch := &st.Chunks[i]
		if ch.Status != "pending" && ch.Status != "submitting" {
			continue
		}
		for len(active()) >= maxActive {
			if err := a.pause(ctx); err != nil {
				return a.interrupted(path, err)
			}
			if _, err := poll(); err != nil {
				return a.interrupted(path, err)
			}
		}
		// A chunk left "submitting" by a crash between the POST and the
		// record of its answer is submitted again: the one window where
		// lookups can repeat (the server does not bill a found address
		// twice within 90 days).
		if err := ctx.Err(); err != nil {
			return a.interrupted(path, err)
		}
		ch.Status = "submitting"
		if err := save(); err != nil {
			return err
		}
		// refused puts the chunk back when the server refused it whole
		// (429: nothing recorded) and the run stops before it is retried.
		refused := func(err error) error {
			ch.Status = "pending"
			if serr := save(); serr != nil {
				return serr
			}
			return a.interrupted(path, err)
		}
		body, _ := json.Marshal(map[string]any{"requests": rows[ch.Start:ch.End]})
		for {
			// An interruption (Ctrl-C) does not cut a submission short: its
			// answer is recorded first, or the chunk would be submitted
			// again on --resume. Only a killed process leaves "submitting".
			postCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Minute)
			res, err := noRetry.do(postCtx, http.MethodPost, "/v1/email/find/batch", nil, "application/json", body)
			cancel()
			if exitCode(err) == exitRateLimit && ctx.Err() == nil && res != nil {
				// Over the account's cap of queued lookups: wait for one
				// of ours to end, or the Retry-After when none is ours.
				if len(active()) > 0 {
					for {
						if err := a.pause(ctx); err != nil {
							return refused(err)
						}
						n, err := poll()
						if err != nil {
							return refused(err)
						}
						if n > 0 || len(active()) == 0 {
							break
						}
					}
				} else if err := c.sleep(ctx, retryAfter(res.header, time.Minute)); err != nil {
					return refused(err)
				}
				continue
			}
			if err != nil && res != nil && res.status < 500 {
				return refused(err) // refused as a whole: nothing recorded
			}
			if err != nil {
				return a.interrupted(path, err)
			}
			var acc struct {
				BatchID string `json:"batch_id"`
			}
			if err := json.Unmarshal(res.body, &acc); err != nil || acc.BatchID == "" {
				return fmt.Errorf("email batch answer without batch_id: %s", res.body)
			}
			ch.BatchID, ch.Status = acc.BatchID, "submitted"
			if err := save(); err != nil {
				return err
			}
			break
		}
		progress()
		if err := ctx.Err(); err != nil {
			return a.interrupted(path, err)
		}
	}
	for len(active()) > 0 {
		if err := a.pause(ctx); err != nil {
			return a.interrupted(path, err)
		}
		n, err := poll()
		if err != nil {
			return a.interrupted(path, err)
		}
		if n > 0 {
			progress()
		}
	}
	// Every chunk ended: print the jobs in input order.
	var all []json.RawMessage
	failed := 0
	for _, ch := range st.Chunks {
		res, err := c.do(ctx, http.MethodGet, "/v1/email/batch/"+ch.BatchID+"/results", nil, "", nil)
		if err != nil {
			return a.interrupted(path, err)
		}
		var ba batchAnswer
		if err := json.Unmarshal(res.body, &ba); err != nil {
			return fmt.Errorf("read batch %s: %w", ch.BatchID, err)
		}
		for _, j := range ba.Results {
			if !evidence {
				j = dropEvidence(j)
			}
			all = append(all, j)
		}
		failed += ba.Failed
	}
	out, _ := json.Marshal(map[string]any{"total": st.Rows, "failed": failed, "results": all})
	if err := a.print(out); err != nil {
		return err
	}
	if failed > 0 {
		return withCode(exitPartial, fmt.Errorf("%d of %d lookups failed", failed, st.Rows))
	}
	return nil
}

// dropEvidence removes result.evidence from a job: the SMTP transcript is
// most of a job's size, and a run's output holds every row.
func dropEvidence(job json.RawMessage) json.RawMessage {
	var m map[string]any
	if json.Unmarshal(job, &m) != nil {
		return job
	}
	if r, ok := m["result"].(map[string]any); ok {
		delete(r, "evidence")
	}
	b, err := json.Marshal(m)
	if err != nil {
		return job
	}
	return b
}

func (a *app) pause(ctx context.Context) error { return sleepCtx(ctx, a.pollInterval) }

// interrupted says how to continue after err stopped the run.
func (a *app) interrupted(path string, err error) error {
	fmt.Fprintf(a.stderr, "stopped; continue with the same command and --resume (state in %s)\n", path)
	return err
}
