package web_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// These helpers read values from a decoded JSON body (objects as map[string]any, numbers as json.Number)
// by dotted paths such as "resource.floor.name". A test can then list the values it wants in one map and
// compare them with cmp.Diff.

// field returns the value at the dotted path, or nil if any step of the path is missing.
func field(v any, path string) any {
	for _, step := range strings.Split(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[step]
	}
	return v
}

// fields returns the value at each path, keyed by path.
func fields(v any, paths ...string) map[string]any {
	out := make(map[string]any, len(paths))
	for _, p := range paths {
		out[p] = field(v, p)
	}
	return out
}

// num returns n as a decoded body holds an integer: a json.Number.
func num(n int64) json.Number { return json.Number(strconv.FormatInt(n, 10)) }

// idObject returns {"id": id}, the form in which a body refers to another object.
func idObject(id string) map[string]any { return map[string]any{"id": id} }

// wantFields checks that, for each path in want, v has the value want gives.
func wantFields(t *testing.T, where string, v any, want map[string]any) {
	t.Helper()
	paths := make([]string, 0, len(want))
	for p := range want {
		paths = append(paths, p)
	}
	if diff := cmp.Diff(want, fields(v, paths...)); diff != "" {
		t.Errorf("%s (-want +got):\n%s", where, diff)
	}
}
