package lang_test

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/text/language"

	"github.com/workspacebooking/booking/web/lang"
)

func TestChoose(t *testing.T) {
	for _, c := range []struct{ own, accept, want string }{
		{"", "", "en"},
		{"es", "", "es"},
		{"ES", "en", "es"},
		{"es-ES", "", "es"},
		{"en", "es", "en"},             // the person's own language comes first
		{"fr", "es-ES,es;q=0.9", "es"}, // a language the service does not speak is passed over
		{"", "es-AR", "es"},
		{"", "de, fr;q=0.8", "en"},
		{"", "fr, es;q=0.1", "es"},
		{"", "*", "en"},
		{"not a language", "nor;this", "en"},
	} {
		if got := lang.Code(lang.Choose(c.own, c.accept)); got != c.want {
			t.Errorf("Choose(%q, %q) = %s, want %s", c.own, c.accept, got, c.want)
		}
	}
}

func TestT(t *testing.T) {
	es := lang.With(context.Background(), language.Spanish)
	en := lang.With(context.Background(), language.English)
	for _, c := range []struct {
		ctx  context.Context
		id   string
		data map[string]any
		want string
	}{
		{en, "nav.bookings", nil, "My bookings"},
		{es, "nav.bookings", nil, "Mis reservas"},
		{context.Background(), "nav.bookings", nil, "My bookings"}, // no language chosen: English
		{es, "kiosk.signOutPerson", map[string]any{"Name": "Ana Ruiz"}, "Cerrar la sesión de Ana Ruiz"},
		{en, "kiosk.signOutPerson", map[string]any{"Name": "Ana Ruiz"}, "Sign out Ana Ruiz"},
		{es, "no.such.message", nil, "no.such.message"},
	} {
		var got string
		if c.data == nil {
			got = lang.T(c.ctx, c.id)
		} else {
			got = lang.T(c.ctx, c.id, c.data)
		}
		if got != c.want {
			t.Errorf("T(%s, %q) = %q, want %q", lang.Code(lang.Of(c.ctx)), c.id, got, c.want)
		}
	}
	if got := lang.Codes(); !cmp.Equal(got, []string{"en", "es"}) {
		t.Errorf("Codes() = %v, want [en es]", got)
	}
}

// TestEveryMessageIsUsedAndTranslated lists the message ids the code uses (every call of lang.T, lang.N,
// booking.Refuse, booking.FieldRefuse, kit.Refuse and kit.FieldRefuse in the Go files, the code templ generates from the pages
// included) and holds each language's file to them:
// no id may lack a text in any language, and no file may keep an id nothing uses. An id must be a
// string literal, so that this list is complete.
func TestEveryMessageIsUsedAndTranslated(t *testing.T) {
	used := map[string]string{} // id → where first used
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			at := idArg(call.Fun, f.Name.Name)
			if at < 0 {
				return true
			}
			where := fset.Position(call.Pos()).String()
			if len(call.Args) <= at {
				t.Errorf("%s: a call without its message id", where)
				return true
			}
			lit, ok := call.Args[at].(*ast.BasicLit)
			if !ok && forwarders[filepath.ToSlash(path)] {
				return true // a function that passes its caller's id on, whose callers are checked
			}
			if !ok || lit.Kind != token.STRING {
				t.Errorf("%s: the message id is not a string literal", where)
				return true
			}
			id, _ := strconv.Unquote(lit.Value)
			if _, seen := used[id]; !seen {
				used[id] = where
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(used) == 0 {
		t.Fatal("found no call of lang.T: the walk is broken")
	}
	for _, code := range lang.Codes() {
		ids := lang.IDs(code)
		for id, where := range used {
			if !slices.Contains(ids, id) {
				t.Errorf("%s: message %q has no text in %s", where, id, code)
			}
		}
		for _, id := range ids {
			if _, ok := used[id]; !ok {
				t.Errorf("messages/%s.json: %q is used nowhere", code, id)
			}
		}
	}
}

// forwarders are the files whose functions take a message id and pass it on (booking.Refuse to lang.T):
// there an id need not be a literal, since their callers' ids are checked.
var forwarders = map[string]bool{"../../web/booking/errors.go": true, "../../web/kit/kit.go": true}

// idArg returns the position of the message id among the arguments of a call of fun, -1 when fun does
// not take one: lang.T and lang.N (T and N inside package lang), and the domain's refusals
// booking.Refuse and booking.FieldRefuse (Refuse and FieldRefuse inside package booking), and the
// request's refusals kit.Refuse and kit.FieldRefuse (likewise inside package kit).
func idArg(fun ast.Expr, pkg string) int {
	positions := map[string]map[string]int{
		"lang":    {"T": 1, "N": 1},
		"booking": {"Refuse": 1, "FieldRefuse": 2},
		"kit":     {"Refuse": 0, "FieldRefuse": 1},
	}
	switch f := fun.(type) {
	case *ast.SelectorExpr:
		if x, ok := f.X.(*ast.Ident); ok {
			if i, ok := positions[x.Name][f.Sel.Name]; ok {
				return i
			}
		}
	case *ast.Ident:
		if i, ok := positions[pkg][f.Name]; ok {
			return i
		}
	}
	return -1
}
