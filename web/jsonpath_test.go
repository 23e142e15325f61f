package web_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The helpers here read a decoded JSON body (objects as map[string]any, numbers as json.Number) by
// dotted paths such as "resource.floor.name", so that a test states the values it wants as one map and
// compares them with cmp.Diff.

// field gives the value at the dotted path, or nil when a step of it is missing.
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

// fields gives the value at each path, keyed by the path.
func fields(v any, paths ...string) map[string]any {
	out := make(map[string]any, len(paths))
	for _, p := range paths {
		out[p] = field(v, p)
	}
	return out
}

// num is an integer as a decoded body holds it.
func num(n int64) json.Number { return json.Number(strconv.FormatInt(n, 10)) }

// idObject is {"id": id}, as the body names another object.
func idObject(id string) map[string]any { return map[string]any{"id": id} }

// wantFields compares the values at want's paths of v with want.
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
