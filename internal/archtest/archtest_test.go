package archtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// pkg is one package of the module as `go list` reports it, without its
// tests: what it imports directly and what it depends on transitively.
type pkg struct {
	ImportPath string
	Dir        string
	Imports    []string
	Deps       []string
	GoFiles    []string
}

// rule forbids the packages under from depending on forbidden.
type rule struct {
	// from is the set of packages the rule applies to (module-relative
	// path prefixes: "query" covers query/ and query/datasets/).
	from []string
	// except are packages of from the rule spares.
	except []string
	// forbidden are module-relative path prefixes none of them may reach.
	forbidden []string
	// direct checks direct imports only; otherwise transitive ones too.
	direct bool
	why    string
}

// rules are the layout's import rules.
//
// The third enforces "api/ holds no task body": a body only runs once
// jobs.New wires it (the runner's register is unexported, so no other
// package can add a handler), jobs/ cannot import api/ (the first rule),
// and api/ cannot even name the jobs types a body is wired with. Put a
// task body back in api/ and it either never runs or this rule fails.
var rules = []rule{
	{from: []string{""}, except: []string{"api", "cmd"}, forbidden: []string{"api"},
		why: "nothing below api/ imports api/ (only cmd/ wires it)"},
	{from: []string{"query"}, forbidden: []string{"ingest"},
		why: "query/ (the read side) does not reach ingest/ (the write side), directly or through another package"},
	{from: []string{"api"}, forbidden: []string{"jobs"},
		why: "api/ submits tasks through its Tasks interface and holds no task body; bodies live in their capability's package, wired by jobs/"},
}

func under(rel string, prefixes []string) bool {
	for _, p := range prefixes {
		if p == "" || rel == p || strings.HasPrefix(rel, p+"/") {
			return true
		}
	}
	return false
}

// violations applies rules to the packages of module.
func violations(module string, pkgs []pkg, rules []rule) []string {
	rel := func(path string) (string, bool) {
		if path == module {
			return "", true
		}
		r, ok := strings.CutPrefix(path, module+"/")
		return r, ok
	}
	var out []string
	for _, p := range pkgs {
		from, ok := rel(p.ImportPath)
		if !ok {
			continue
		}
		for _, r := range rules {
			if !under(from, r.from) || len(r.except) > 0 && under(from, r.except) {
				continue
			}
			deps := p.Deps
			if r.direct {
				deps = p.Imports
			}
			for _, d := range deps {
				if to, ok := rel(d); ok && under(to, r.forbidden) && !under(from, r.forbidden) {
					out = append(out, fmt.Sprintf("%s depends on %s: %s", p.ImportPath, d, r.why))
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// list runs `go list -json ./...` at the module root.
func list(t *testing.T) (module string, pkgs []pkg) {
	t.Helper()
	out, err := exec.Command("go", "list", "-m").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	module = strings.TrimSpace(string(out))
	root, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		t.Fatalf("go list -m -f: %v", err)
	}
	cmd := exec.Command("go", "list", "-json", "./...")
	cmd.Dir = strings.TrimSpace(string(root))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err = cmd.Output()
	if err != nil {
		t.Fatalf("go list ./...: %v\n%s", err, stderr.Bytes())
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) < 10 {
		t.Fatalf("go list found %d packages: not the module", len(pkgs))
	}
	return module, pkgs
}

func TestImportRules(t *testing.T) {
	module, pkgs := list(t)
	for _, v := range violations(module, pkgs, rules) {
		t.Error(v)
	}
}

// TestRulesCatchViolations runs the rules on a made-up module that breaks
// each one, so a rule that stopped matching anything fails here.
func TestRulesCatchViolations(t *testing.T) {
	const m = "example.com/m"
	pkgs := []pkg{
		{ImportPath: m + "/api", Deps: []string{m + "/query", m + "/jobs", "net/http"}},
		{ImportPath: m + "/cmd/prospectd", Deps: []string{m + "/api", m + "/jobs"}},
		{ImportPath: m + "/jobs", Deps: []string{m + "/api"}},
		{ImportPath: m + "/query", Deps: []string{m + "/index"}},
		{ImportPath: m + "/query/datasets", Deps: []string{m + "/other", m + "/ingest/csv"}},
		{ImportPath: m + "/index", Deps: []string{"context"}},
	}
	got := violations(m, pkgs, rules)
	want := []string{
		m + "/api depends on " + m + "/jobs",
		m + "/jobs depends on " + m + "/api",
		m + "/query/datasets depends on " + m + "/ingest/csv",
	}
	if len(got) != len(want) {
		t.Fatalf("violations:\n%s\nwant %d", strings.Join(got, "\n"), len(want))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]+":") {
			t.Errorf("violation %d = %q, want %q", i, got[i], want[i])
		}
	}
}

// TestOnlyJobsRegistersHandlers: no exported function or method of jobs/
// takes a Handler or a *Run-taking function, so a task body can be added
// only by jobs.New — not by api/ or cmd/ (see rules).
func TestOnlyJobsRegistersHandlers(t *testing.T) {
	module, pkgs := list(t)
	var dir string
	var files []string
	for _, p := range pkgs {
		if p.ImportPath == module+"/jobs" {
			dir, files = p.Dir, p.GoFiles
		}
	}
	if dir == "" {
		t.Fatal("no jobs package")
	}
	for _, bad := range exportedRegistrations(t, dir, files) {
		t.Errorf("jobs exports %s: task handlers are registered only inside jobs.New", bad)
	}
	// The check itself finds an exported registration.
	if got := exportedRegistrationsIn(t, "x.go", `package jobs
type Runner struct{}
type Handler func()
func (r *Runner) Register(kind string, h Handler) {}
func (r *Runner) register(kind string, h Handler) {}
func Add(r *Runner, fn func(run *Run) error) {}
func Serve(h http.Handler) {}
`); len(got) != 2 {
		t.Errorf("the check found %v in a file with two exported registrations", got)
	}
}

func exportedRegistrations(t *testing.T, dir string, files []string) []string {
	var out []string
	for _, f := range files {
		src, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, exportedRegistrationsIn(t, f, string(src))...)
	}
	return out
}

func exportedRegistrationsIn(t *testing.T, name, src string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), name, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || !fn.Name.IsExported() {
			continue
		}
		for _, p := range fn.Type.Params.List {
			if takesHandler(p.Type) {
				out = append(out, fn.Name.Name)
				break
			}
		}
	}
	return out
}

// takesHandler reports whether a parameter type is a Handler or a function
// with a *Run parameter.
func takesHandler(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.SelectorExpr:
			return false // another package's type (http.Handler), not jobs'
		case *ast.Ident:
			if x.Name == "Handler" {
				found = true
			}
		case *ast.StarExpr:
			if id, ok := x.X.(*ast.Ident); ok && id.Name == "Run" {
				found = true
			}
		}
		return !found
	})
	return found
}
