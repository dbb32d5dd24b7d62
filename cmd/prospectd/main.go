// Command prospectd runs the prospecting service and its operator tasks:
// serve the API, build a demo corpus, ingest company files, crawl company
// sites, create API keys.
// Every flag has an environment variable (shown in -h output).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	"github.com/rs/zerolog"

	"github.com/openprospect/prospectd/index/embedded"
)

const usage = `prospectd — self-hostable B2B prospecting service

Usage:
  prospectd serve  [--addr 127.0.0.1:8080] [--data-dir ./data] [--engine embedded|elasticsearch] [--elasticsearch-url URL] [--demo N]
  prospectd demo   --companies N [--contacts M] [--seed S] [--data-dir DIR]
  prospectd ingest companies|contacts FILE [--data-dir DIR] [--rejects FILE]
  prospectd crawl  --all | --domains FILE | DOMAIN... [--crawl-concurrency N] [--crawl-delay D] [--crawl-allow-private]
  prospectd refit  [--check] [--force] [--embeddings-url URL --embeddings-model M] [--data-dir DIR]
  prospectd keys   create --org NAME [--admin] [--plan none|starter|team] [--email E] [--data-dir DIR]
  prospectd refresh status [NAME] | run NAME [--wait]  --refresh-config FILE [--data-dir DIR]

Run "prospectd COMMAND -h" for the flags of a command and their environment variables.
`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	limitMemory(os.Getenv, embedded.PhysicalMemory())

	// PROSPECT_CPUPROFILE=FILE writes a CPU profile of the command, for
	// performance work on ingest and serve.
	if path := os.Getenv("PROSPECT_CPUPROFILE"); path != "" {
		if f, err := os.Create(path); err == nil {
			if pprof.StartCPUProfile(f) == nil {
				defer pprof.StopCPUProfile()
			}
		}
	}

	var err error
	switch cmd, args := os.Args[1], os.Args[2:]; cmd {
	case "serve":
		err = runServe(ctx, args)
	case "demo":
		err = runDemo(ctx, args)
	case "ingest":
		err = runIngest(ctx, args)
	case "keys":
		err = runKeys(ctx, args)
	case "refresh":
		err = runRefresh(ctx, args)
	case "crawl":
		err = runCrawl(ctx, args)
	case "refit":
		err = runRefit(ctx, args)
	case "help", "-h", "--help":
		fmt.Print(usage)
		return
	default:
		fmt.Fprintf(os.Stderr, "prospectd: unknown command %q\n\n%s", cmd, usage)
		os.Exit(2)
	}
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "prospectd %s: %v\n", os.Args[1], err)
		pprof.StopCPUProfile()
		os.Exit(1)
	}
}

// flagSet returns a FlagSet whose flags fall back to environment variables.
// Precedence: flag, then environment, then default.
type flagSet struct {
	*flag.FlagSet
	env map[string]string // flag name -> variable
}

func newFlagSet(name string) *flagSet {
	fs := &flagSet{FlagSet: flag.NewFlagSet(name, flag.ContinueOnError), env: map[string]string{}}
	return fs
}

func (fs *flagSet) String(name, env, def, help string) *string {
	fs.env[name] = env
	return fs.FlagSet.String(name, envOr(env, def), help+" (env "+env+")")
}

func (fs *flagSet) Int(name, env string, def int, help string) *int {
	fs.env[name] = env
	if v, ok := os.LookupEnv(env); ok {
		fmt.Sscan(v, &def)
	}
	return fs.FlagSet.Int(name, def, help+" (env "+env+")")
}

func (fs *flagSet) Duration(name, env string, def time.Duration, help string) *time.Duration {
	fs.env[name] = env
	if v, ok := os.LookupEnv(env); ok {
		if d, err := time.ParseDuration(v); err == nil {
			def = d
		}
	}
	return fs.FlagSet.Duration(name, def, help+" (env "+env+")")
}

func (fs *flagSet) Bool(name, env string, def bool, help string) *bool {
	fs.env[name] = env
	if v, ok := os.LookupEnv(env); ok {
		def = v == "1" || strings.EqualFold(v, "true") || strings.EqualFold(v, "yes")
	}
	return fs.FlagSet.Bool(name, def, help+" (env "+env+")")
}

// parse parses args, allowing flags after positional arguments
// ("ingest companies FILE --data-dir X").
func (fs *flagSet) parse(args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

func envOr(name, def string) string {
	if v, ok := os.LookupEnv(name); ok && v != "" {
		return v
	}
	return def
}

func newLogger(format string) zerolog.Logger {
	zerolog.TimeFieldFormat = time.RFC3339Nano
	if format == "json" {
		return zerolog.New(os.Stderr).With().Timestamp().Logger()
	}
	return zerolog.New(zerolog.ConsoleWriter{Out: os.Stderr, TimeFormat: "15:04:05"}).With().Timestamp().Logger()
}
