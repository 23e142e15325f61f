// Package house holds only a test: the rules of the house (docs/architecture.md, the style guide) that
// the compiler does not check, checked over every package of the module.
package house

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/workspacebooking/booking"

// domainPackages know nothing of HTTP or HTML.
var domainPackages = []string{
	"web/booking", "web/layout", "web/identity", "web/postgres", "web/svgsafe", "web/jsonkind", "web/outbox",
}

// forbiddenInDomain are the imports (and their subpackages) a domain package may not have.
var forbiddenInDomain = []string{"github.com/labstack/echo/v4", "net/http", "github.com/a-h/templ"}

// surfacePackages are the surfaces of the service; none imports another. A package that does not exist
// yet keeps the rule by itself.
var surfacePackages = []string{"web/api", "web/pages", "web/console", "web/scim"}

// Size limits of production code under sizedDirs.
const (
	maxFileLines = 500 // a file is shorter
	maxFuncLines = 80  // a function is at most this long
)

var sizedDirs = []string{"web/", "views/", "cmd/"}

// allowed lists the files and functions that break the size rules today, each with its size then.
// Split them and take them out: the test fails on an entry that no longer breaks its rule, so the list
// only shrinks. Keys are a file's path from the module root, or path:Func (path:Type.Method) for a
// function.
var allowed = map[string]string{}

// pkg is what go list says of a package.
type pkg struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	Imports    []string
}

// file is one parsed production file of a package.
type file struct {
	pkg  *pkg
	path string // from the module root, with slashes
	ast  *ast.File
	fset *token.FileSet
	src  []byte
}

// loadModule lists every package of the module and parses its production files.
func loadModule(t *testing.T) ([]*pkg, []*file) {
	t.Helper()
	root := moduleRoot(t)
	cmd := exec.Command("go", "list", "-json", "./...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	var pkgs []*pkg
	var files []*file
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		p := new(pkg)
		if err := dec.Decode(p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("decode go list: %v", err)
		}
		pkgs = append(pkgs, p)
		for _, name := range p.GoFiles {
			full := filepath.Join(p.Dir, name)
			src, err := os.ReadFile(full)
			if err != nil {
				t.Fatal(err)
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, full, src, parser.ParseComments)
			if err != nil {
				t.Fatalf("parse %s: %v", full, err)
			}
			rel, _ := filepath.Rel(root, full)
			files = append(files, &file{pkg: p, path: filepath.ToSlash(rel), ast: f, fset: fset, src: src})
		}
	}
	return pkgs, files
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	return filepath.Dir(strings.TrimSpace(string(out)))
}

// rel is a package's path inside the module: "web/booking" for module+"/web/booking".
func rel(importPath string) string {
	return strings.TrimPrefix(strings.TrimPrefix(importPath, module), "/")
}

// importsOf maps the names a file gives its imports to their paths.
func importsOf(f *ast.File) map[string]string {
	names := map[string]string{}
	for _, is := range f.Imports {
		path, _ := strconv.Unquote(is.Path.Value)
		name := path[strings.LastIndex(path, "/")+1:]
		if path == "github.com/jackc/pgx/v5" {
			name = "pgx"
		}
		if is.Name != nil {
			name = is.Name.Name
		}
		names[name] = path
	}
	return names
}

// handles are the generated query handles and transactions that no exported signature shows.
var handles = map[string]bool{
	module + "/queries.Queries":  true,
	module + "/queries.DBTX":     true,
	"github.com/jackc/pgx/v5.Tx": true,
}

// TestNoHandlesInExportedSignatures: outside queries, no exported function or method takes or returns
// *queries.Queries, queries.DBTX or pgx.Tx, not even inside a function type. A package that needs
// another's rule inside its own transaction calls a function of plain values. The one exception is
// outbox.Record, which writes events into the transaction of the change, as River's own insert does.
func TestNoHandlesInExportedSignatures(t *testing.T) {
	_, files := loadModule(t)
	var bad []string
	for _, f := range files {
		if f.pkg.ImportPath == module+"/queries" || f.pkg.ImportPath == module+"/web/outbox" {
			continue
		}
		bad = append(bad, exportedHandles(f)...)
	}
	report(t, "exported signatures with a query handle or a transaction", bad)
}

// exportedHandles lists the exported functions and methods of f whose signature names a handle.
func exportedHandles(f *file) []string {
	names := importsOf(f.ast)
	var bad []string
	for _, d := range f.ast.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || !fn.Name.IsExported() || fn.Recv != nil && !ast.IsExported(receiverName(fn)) {
			continue
		}
		ast.Inspect(fn.Type, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok && handles[names[x.Name]+"."+sel.Sel.Name] {
				bad = append(bad, fmt.Sprintf("%s: %s uses %s.%s", f.position(fn.Pos()), funcName(fn), x.Name, sel.Sel.Name))
			}
			return true
		})
	}
	return bad
}

// sqlstateClasses are the classes of SQLSTATE codes a service compares: connection, data, integrity,
// transaction state, authorization, catalog, transaction rollback, syntax and access, resources,
// program limits, object state, intervention, system, PL/pgSQL and internal errors.
var sqlstateClasses = []string{"08", "22", "23", "25", "28", "3D", "40", "42", "53", "54", "55", "57", "58", "P0", "XX"}

var sqlstateShape = regexp.MustCompile(`^[0-9A-Z]{5}$`)

// TestSQLSTATEReadInOneFile: a package reads SQLSTATE codes in one production file at most, through one
// function (interpretError), so that the meaning of each code is decided once.
func TestSQLSTATEReadInOneFile(t *testing.T) {
	_, files := loadModule(t)
	byPkg := map[string][]string{}
	for _, f := range files {
		if what := sqlstates(f); what != "" {
			byPkg[f.pkg.ImportPath] = append(byPkg[f.pkg.ImportPath], f.path+" ("+what+")")
		}
	}
	var bad []string
	for p, fs := range byPkg {
		if len(fs) > 1 {
			bad = append(bad, fmt.Sprintf("%s reads SQLSTATE codes in %d files: %s", rel(p), len(fs), strings.Join(fs, ", ")))
		}
	}
	report(t, "packages that read SQLSTATE codes in more than one file", bad)
}

// sqlstates names the first SQLSTATE code f mentions, or "" if none.
func sqlstates(f *file) string {
	names := importsOf(f.ast)
	found := ""
	ast.Inspect(f.ast, func(n ast.Node) bool {
		if found != "" {
			return false
		}
		switch n := n.(type) {
		case *ast.BasicLit:
			if n.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(n.Value)
			if err == nil && sqlstateShape.MatchString(s) && slices.Contains(sqlstateClasses, s[:2]) {
				found = strconv.Quote(s)
			}
		case *ast.SelectorExpr:
			if x, ok := n.X.(*ast.Ident); ok && names[x.Name] == "github.com/jackc/pgerrcode" {
				found = "pgerrcode." + n.Sel.Name
			}
		}
		return true
	})
	return found
}

// TestDomainKnowsNoHTTP: the domain packages import neither echo, net/http nor templ.
func TestDomainKnowsNoHTTP(t *testing.T) {
	pkgs, _ := loadModule(t)
	var bad []string
	for _, p := range pkgs {
		if !slices.Contains(domainPackages, rel(p.ImportPath)) {
			continue
		}
		for _, imp := range p.Imports {
			for _, no := range forbiddenInDomain {
				if imp == no || strings.HasPrefix(imp, no+"/") {
					bad = append(bad, fmt.Sprintf("%s imports %s", rel(p.ImportPath), imp))
				}
			}
		}
	}
	report(t, "domain packages that import HTTP or HTML", bad)
}

// TestSurfacesApart: no surface package imports another; what they share lives in web/kit or below.
func TestSurfacesApart(t *testing.T) {
	pkgs, _ := loadModule(t)
	var bad []string
	for _, p := range pkgs {
		from := surfaceOf(rel(p.ImportPath))
		if from == "" {
			continue
		}
		for _, imp := range p.Imports {
			if to := surfaceOf(rel(imp)); strings.HasPrefix(imp, module+"/") && to != "" && to != from {
				bad = append(bad, fmt.Sprintf("%s imports %s", rel(p.ImportPath), rel(imp)))
			}
		}
	}
	report(t, "surface packages that import another surface", bad)
}

// surfaceOf returns the surface that holds the package at path, or "".
func surfaceOf(path string) string {
	for _, s := range surfacePackages {
		if path == s || strings.HasPrefix(path, s+"/") {
			return s
		}
	}
	return ""
}

// TestSizes: a production file under web/, views/ and cmd/ is shorter than maxFileLines, and a function
// is at most maxFuncLines long, unless allowed says otherwise for now.
func TestSizes(t *testing.T) {
	_, files := loadModule(t)
	var bad []string
	seen := map[string]bool{}
	for _, f := range files {
		if !sized(f) {
			continue
		}
		if n := f.fset.Position(f.ast.End()).Line; n >= maxFileLines || lineCount(f.src) >= maxFileLines {
			seen[f.path] = true
			if _, ok := allowed[f.path]; !ok {
				bad = append(bad, fmt.Sprintf("%s: %d lines, at most %d", f.path, lineCount(f.src), maxFileLines-1))
			}
		}
		for _, d := range f.ast.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			n := f.fset.Position(fn.End()).Line - f.fset.Position(fn.Pos()).Line + 1
			if n <= maxFuncLines {
				continue
			}
			key := f.path + ":" + funcName(fn)
			seen[key] = true
			if _, ok := allowed[key]; !ok {
				bad = append(bad, fmt.Sprintf("%s: %s is %d lines, at most %d", f.position(fn.Pos()), funcName(fn), n, maxFuncLines))
			}
		}
	}
	for key := range allowed {
		if !seen[key] {
			bad = append(bad, fmt.Sprintf("%s is in allowed but keeps the size rules now: take it out of the list", key))
		}
	}
	report(t, "files and functions too long", bad)
}

// sized reports whether the size rules apply to f: production code written by hand under sizedDirs.
func sized(f *file) bool {
	if strings.HasSuffix(f.path, "_templ.go") || ast.IsGenerated(f.ast) {
		return false
	}
	for _, d := range sizedDirs {
		if strings.HasPrefix(f.path, d) {
			return true
		}
	}
	return false
}

func lineCount(src []byte) int {
	n := bytes.Count(src, []byte("\n"))
	if len(src) > 0 && src[len(src)-1] != '\n' {
		n++
	}
	return n
}

func (f *file) position(p token.Pos) string {
	return fmt.Sprintf("%s:%d", f.path, f.fset.Position(p).Line)
}

// funcName is Func, or Type.Method for a method.
func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil {
		return fn.Name.Name
	}
	return receiverName(fn) + "." + fn.Name.Name
}

// receiverName is the name of a method's receiver type, without * and type parameters.
func receiverName(fn *ast.FuncDecl) string {
	t := fn.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.Ident:
			return x.Name
		default:
			return fmt.Sprint(x)
		}
	}
}

// report fails the test with every offender, one a line, in a stable order.
func report(t *testing.T, what string, bad []string) {
	t.Helper()
	if len(bad) == 0 {
		return
	}
	sort.Strings(bad)
	t.Errorf("%s:\n\t%s", what, strings.Join(bad, "\n\t"))
}
