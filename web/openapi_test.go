package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"mime"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/google/go-cmp/cmp"

	"github.com/workspacebooking/booking/web"
	webapi "github.com/workspacebooking/booking/web/api"
	"github.com/workspacebooking/booking/web/booking"
)

// Two checks keep web/openapi.yaml in line with the code. validateAPI checks every response the API
// tests receive against the documented operation. TestOpenAPIDocument checks that the document describes
// exactly the routes the server registers.

// apiSpec is openapi.yaml, loaded and validated once for all tests, with a router that finds the
// operation for a request.
type apiSpec struct {
	doc      *openapi3.T
	router   routers.Router
	opts     *openapi3filter.Options
	json2020 sync.Map // *openapi3.Schema → bool: whether to validate with the JSON Schema 2020-12 validator
}

var loadAPISpec = sync.OnceValues(func() (*apiSpec, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(webapi.OpenAPIYAML)
	if err != nil {
		return nil, fmt.Errorf("load openapi.yaml: %w", err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		return nil, fmt.Errorf("validate openapi.yaml: %w", err)
	}
	doc.Servers = nil // the paths include /api/v1, so match them on any host, such as the test server's
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("route openapi.yaml: %w", err)
	}
	// With IncludeResponseStatus, a status the operation does not document is an error instead of being
	// accepted. Bodies are checked separately, by checkBody.
	opts := &openapi3filter.Options{IncludeResponseStatus: true, ExcludeResponseBody: true}
	opts.WithCustomSchemaErrorFunc(schemaError)
	return &apiSpec{doc: doc, router: router, opts: opts}, nil
})

// schemaError formats a schema violation briefly: the reason, where in the body it is, and, for allOf
// and oneOf, the violations inside them.
func schemaError(e *openapi3.SchemaError) string {
	msg := e.Reason
	if p := e.JSONPointer(); len(p) > 0 {
		msg += " (at /" + strings.Join(p, "/") + ")"
	}
	if e.Origin != nil {
		msg += ": " + e.Origin.Error()
	}
	return msg
}

// validateAPI wraps h so that the response to every /api/v1 request is checked against openapi.yaml
// before the client gets it. Each mismatch fails t, the test that built the server; subtests that share
// one server report on their parent. A request that matches no documented operation fails too, unless
// the response is the 404 or 405 problem for an unknown route or method.
func validateAPI(t testing.TB, h http.Handler) http.Handler {
	t.Helper()
	spec, err := loadAPISpec()
	if err != nil {
		t.Fatal(err)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/v1" && !strings.HasPrefix(r.URL.Path, "/api/v1/") {
			h.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		res := rec.Result()
		body := rec.Body.Bytes()
		if err := spec.check(r, res.StatusCode, res.Header, body); err != nil {
			t.Errorf("openapi.yaml: %s %s → %d: %v\nbody: %s", r.Method, r.URL.RequestURI(), res.StatusCode, err, clip(body))
		}
		maps.Copy(w.Header(), res.Header)
		w.WriteHeader(res.StatusCode)
		_, _ = w.Write(body)
	})
}

// check validates one response to r against the documented operation.
func (s *apiSpec) check(r *http.Request, status int, header http.Header, body []byte) error {
	route, params, err := s.router.FindRoute(r)
	switch {
	case errors.Is(err, routers.ErrPathNotFound):
		return s.checkNoRoute(r, http.StatusNotFound, status, header, body)
	case errors.Is(err, routers.ErrMethodNotAllowed):
		return s.checkNoRoute(r, http.StatusMethodNotAllowed, status, header, body)
	case err != nil:
		return err
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: r, PathParams: params, Route: route},
		Status:                 status,
		Header:                 header,
		Options:                s.opts,
	}
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		return err
	}
	return s.checkBody(r, route.Operation, status, header, body)
}

// checkBody validates a response body the way openapi3filter.ValidateResponse does: first the content
// type, then the schema. It also picks the same validator: the JSON Schema 2020-12 validator for a schema
// that uses a keyword only 2020-12 has or that refers to no component, and kin-openapi's own validator
// otherwise.
//
// ValidateResponse compiles the 2020-12 validator for every response and then, for every body of this
// API, discards it. Making the choice once per schema keeps the whole suite fast.
func (s *apiSpec) checkBody(r *http.Request, op *openapi3.Operation, status int, header http.Header, body []byte) error {
	ref := op.Responses.Status(status)
	if ref == nil {
		ref = op.Responses.Default()
	}
	if r.Method == http.MethodHead || ref == nil || len(ref.Value.Content) == 0 {
		return nil
	}
	media := ref.Value.Content.Get(header.Get("Content-Type"))
	if media == nil {
		return fmt.Errorf("response Content-Type %q is not documented", header.Get("Content-Type"))
	}
	if media.Schema == nil {
		return nil
	}
	value, err := openapi3filter.JSONBodyDecoder(bytes.NewReader(body), header, media.Schema, nil)
	if err != nil {
		return fmt.Errorf("response body: %w", err)
	}
	opts := []openapi3.SchemaValidationOption{openapi3.VisitAsResponse(), openapi3.SetSchemaErrorMessageCustomizer(schemaError)}
	if s.useJSONSchema2020(media.Schema.Value) {
		opts = append(opts, openapi3.EnableJSONSchema2020())
	}
	if err := media.Schema.Value.VisitJSON(value, opts...); err != nil {
		return fmt.Errorf("response body doesn't match schema%s: %w", strings.TrimSuffix(" "+media.Schema.Ref, " "), err)
	}
	return nil
}

// useJSONSchema2020 reports whether kin-openapi would validate values of schema with the JSON Schema
// 2020-12 validator instead of its own. It does when the schema refers to no component, or when the
// schema or one nested in it uses a keyword that only 2020-12 has. The keyword list copies kin-openapi
// v0.152.0 (schemaHasJSONSchema2020FallbackGuardKeyword); check it there when upgrading.
func (s *apiSpec) useJSONSchema2020(schema *openapi3.Schema) bool {
	if use, ok := s.json2020.Load(schema); ok {
		return use.(bool)
	}
	refers, only2020 := false, false
	_ = openapi3.NewSchemaRef("", schema).WalkSubtree(func(_ string, ref *openapi3.SchemaRef) error {
		refers = refers || strings.HasPrefix(ref.Ref, "#/components/schemas/")
		if v := ref.Value; v != nil && (v.Const != nil || len(v.PrefixItems) != 0 || v.Contains != nil ||
			len(v.PatternProperties) != 0 || len(v.DependentSchemas) != 0 || v.PropertyNames != nil ||
			v.UnevaluatedItems.Has != nil || v.UnevaluatedItems.Schema != nil ||
			v.UnevaluatedProperties.Has != nil || v.UnevaluatedProperties.Schema != nil ||
			v.If != nil || v.Then != nil || v.Else != nil || len(v.DependentRequired) != 0 ||
			len(v.Defs) != 0 || v.ContentSchema != nil) {
			only2020 = true
		}
		return nil
	})
	use := !refers || only2020
	s.json2020.Store(schema, use)
	return use
}

// checkNoRoute handles a request that matches no documented operation. It accepts the response only if
// the status is want (404 for an unknown path, 405 for a method the path does not have) and the body is
// the RouteProblem body.
func (s *apiSpec) checkNoRoute(r *http.Request, want, status int, header http.Header, body []byte) error {
	if status != want {
		return fmt.Errorf("no documented operation matches (want %d for it)", want)
	}
	if mt, _, err := mime.ParseMediaType(header.Get("Content-Type")); err != nil || mt != "application/problem+json" {
		return fmt.Errorf("no documented operation matches; Content-Type %q, want application/problem+json", header.Get("Content-Type"))
	}
	if r.Method == http.MethodHead {
		return nil
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return fmt.Errorf("no documented operation matches; body: %w", err)
	}
	err := s.doc.Components.Schemas["RouteProblem"].Value.VisitJSON(v,
		openapi3.EnableJSONSchema2020(), openapi3.SetSchemaErrorMessageCustomizer(schemaError))
	if err != nil {
		return fmt.Errorf("no documented operation matches; body is not a RouteProblem: %w", err)
	}
	return nil
}

// clip shortens a body for use in a failure message.
func clip(body []byte) string {
	const n = 600
	if len(body) > n {
		return string(body[:n]) + "…"
	}
	return string(body)
}

// TestOpenAPIDocument checks the served document, and that it describes exactly the server's routes.
func TestOpenAPIDocument(t *testing.T) {
	t.Parallel()
	// openapi.json needs no database and no token.
	s := web.NewServer(web.Deps{Logger: slog.New(slog.DiscardHandler)})
	srv := httptest.NewServer(validateAPI(t, s))
	t.Cleanup(srv.Close)

	res, err := srv.Client().Get(srv.URL + api + "/openapi.json")
	if err != nil {
		t.Fatalf("GET openapi.json: %v", err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("read openapi.json: %v", err)
	}
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status = %d, want 200; body: %s", res.StatusCode, clip(body))
	}
	if mt, _, _ := mime.ParseMediaType(res.Header.Get("Content-Type")); mt != "application/json" {
		t.Errorf("Content-Type = %q, want application/json", res.Header.Get("Content-Type"))
	}
	var top struct {
		OpenAPI string `json:"openapi"`
	}
	if err := json.Unmarshal(body, &top); err != nil {
		t.Fatalf("openapi.json is not JSON: %v", err)
	}
	if top.OpenAPI != "3.1.0" {
		t.Errorf("openapi = %q, want 3.1.0", top.OpenAPI)
	}
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(body)
	if err != nil {
		t.Fatalf("load openapi.json: %v", err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		t.Fatalf("validate openapi.json: %v", err)
	}

	t.Run("SameRoutes", func(t *testing.T) {
		param := regexp.MustCompile(`:([^/]+)`)
		var routed []string
		for _, r := range s.Routes() {
			if strings.HasPrefix(r.Path, api+"/") {
				routed = append(routed, r.Method+" "+param.ReplaceAllString(r.Path, "{$1}"))
			}
		}
		var documented []string
		for path, item := range doc.Paths.Map() {
			for method := range item.Operations() {
				documented = append(documented, method+" "+path)
			}
		}
		slices.Sort(routed)
		slices.Sort(documented)
		for _, r := range routed {
			if !slices.Contains(documented, r) {
				t.Errorf("%s is routed (routes.go) but not documented (openapi.yaml)", r)
			}
		}
		for _, d := range documented {
			if !slices.Contains(routed, d) {
				t.Errorf("%s is documented (openapi.yaml) but not routed (routes.go)", d)
			}
		}
		if len(routed) == 0 {
			t.Error("the server routes nothing under " + api)
		}
	})

	t.Run("EveryOperation", func(t *testing.T) {
		for path, item := range doc.Paths.Map() {
			for method, op := range item.Operations() {
				name := method + " " + path
				if op.OperationID == "" || op.Summary == "" || op.Description == "" {
					t.Errorf("%s: want an operationId, a summary and a description", name)
				}
				public := path == api+"/openapi.json"
				secured := op.Security != nil && slices.ContainsFunc(*op.Security, func(r openapi3.SecurityRequirement) bool {
					_, ok := r["bearerAuth"]
					return ok
				})
				if secured == public {
					t.Errorf("%s: bearerAuth security = %v, want %v", name, secured, !public)
				}
				if !slices.ContainsFunc(append(item.Parameters, op.Parameters...), func(p *openapi3.ParameterRef) bool {
					return p.Value.In == "header" && p.Value.Name == "app-version"
				}) {
					t.Errorf("%s: the app-version header is not documented", name)
				}
				// Every operation documents 500, and 429 because every request counts against its address's
				// rate limit. Secured operations also document 401. Every POST, and only a POST, takes an
				// Idempotency-Key and then also documents 422.
				statuses := []string{"500", "429"}
				if !public {
					statuses = append(statuses, "401")
				}
				idempotent := slices.ContainsFunc(op.Parameters, func(p *openapi3.ParameterRef) bool {
					return p.Ref == "#/components/parameters/IdempotencyKey"
				})
				if want := method == http.MethodPost; idempotent != want {
					t.Errorf("%s: the Idempotency-Key parameter documented = %v, want %v", name, idempotent, want)
				}
				if idempotent {
					statuses = append(statuses, "422")
					for st, ref := range op.Responses.Map() {
						if _, ok := ref.Value.Headers[web.ReplayedHeader]; st[0] == '2' && !ok {
							t.Errorf("%s %s: %s is not documented (a retry's answer carries it)", name, st, web.ReplayedHeader)
						}
					}
				}
				for _, st := range statuses {
					if op.Responses.Value(st) == nil {
						t.Errorf("%s: no %s response", name, st)
					}
				}
				deprecationHeader := false
				for st, ref := range op.Responses.Map() {
					resp := ref.Value
					if _, ok := resp.Headers["X-Request-Id"]; !ok {
						t.Errorf("%s %s: X-Request-Id is not documented", name, st)
					}
					if _, ok := resp.Headers["Deprecation"]; ok {
						deprecationHeader = true
					}
					if st[0] == '4' || st[0] == '5' {
						if got := slices.Collect(maps.Keys(resp.Content)); !slices.Equal(got, []string{"application/problem+json"}) {
							t.Errorf("%s %s: content %v, want application/problem+json only", name, st, got)
						}
					}
				}
				if op.Deprecated != deprecationHeader {
					t.Errorf("%s: deprecated = %v but a Deprecation header documented = %v", name, op.Deprecated, deprecationHeader)
				}
			}
		}
	})
}

// TestOpenAPIErrorCodes checks the error codes in openapi.yaml against booking's code table:
//   - each code in a problem response has the status the table gives it;
//   - each "`CODE` NAME" in a description uses the table's name for the code;
//   - each "STATUS `CODE`" in an operation's "Codes:" list is one of the operation's responses;
//   - every code in the table is documented somewhere.
func TestOpenAPIErrorCodes(t *testing.T) {
	t.Parallel()
	spec, err := loadAPISpec()
	if err != nil {
		t.Fatal(err)
	}
	table := map[booking.Code]booking.CodeInfo{}
	for _, info := range booking.CodeTable() {
		table[info.Code] = info
	}
	documented := map[booking.Code]bool{}
	for path, item := range spec.doc.Paths.Map() {
		for method, op := range item.Operations() {
			name := method + " " + path
			answers := map[statusCode]bool{}
			for st, ref := range op.Responses.Map() {
				checkCodeNames(t, name+" "+st, deref(ref.Value.Description), table)
				for _, sc := range problemCodes(t, name+" "+st, ref.Value) {
					documented[sc.code] = true
					answers[sc] = true
					if got, want := sc.status, table[sc.code].Status; got != want {
						t.Errorf("%s %s: code %d answers %d, the code table says %d", name, st, sc.code, got, want)
					}
				}
			}
			for _, sc := range listedCodes(op.Description) {
				if !answers[sc] {
					t.Errorf("%s: its description lists %d `%d`, which no response of it documents", name, sc.status, sc.code)
				}
			}
		}
	}
	for _, info := range booking.CodeTable() {
		if !documented[info.Code] {
			t.Errorf("%v: no response of openapi.yaml documents it", info.Code)
		}
	}
}

// statusCode is an HTTP status paired with an error code that can come with it.
type statusCode struct {
	status int
	code   booking.Code
}

// problemCodes returns the statuses and codes that a problem+json response documents. Its schema is an
// allOf of the Problem schema and a schema that lists them, such as
// {status: {enum: [409]}, code: {enum: [4001, 4002]}}.
func problemCodes(t *testing.T, name string, resp *openapi3.Response) []statusCode {
	t.Helper()
	media := resp.Content.Get("application/problem+json")
	if media == nil || media.Schema == nil {
		return nil
	}
	var statuses, codes []int
	for _, sub := range media.Schema.Value.AllOf {
		if p := sub.Value.Properties["status"]; p != nil {
			statuses = append(statuses, enumInts(t, name, p.Value.Enum)...)
		}
		if p := sub.Value.Properties["code"]; p != nil {
			codes = append(codes, enumInts(t, name, p.Value.Enum)...)
		}
	}
	if len(statuses) != 1 || len(codes) == 0 {
		t.Errorf("%s: a problem response should list one status and its codes; it lists %v and %v", name, statuses, codes)
		return nil
	}
	var scs []statusCode
	for _, c := range codes {
		scs = append(scs, statusCode{statuses[0], booking.Code(c)})
	}
	return scs
}

// enumInts returns the values of an enum of integers.
func enumInts(t *testing.T, name string, enum []any) []int {
	t.Helper()
	var ints []int
	for _, v := range enum {
		n, err := strconv.Atoi(fmt.Sprint(v))
		if err != nil {
			t.Errorf("%s: enum value %v is not an integer", name, v)
			continue
		}
		ints = append(ints, n)
	}
	return ints
}

// codeName matches a code and the name after it in a description, such as "`1002` RESOURCE_NOT_FOUND".
var codeName = regexp.MustCompile("`(\\d{4})` ([A-Z][A-Z_]+[A-Z])")

// checkCodeNames checks that each code mentioned in a description has the name the code table gives it.
func checkCodeNames(t *testing.T, name, description string, table map[booking.Code]booking.CodeInfo) {
	t.Helper()
	for _, m := range codeName.FindAllStringSubmatch(description, -1) {
		code, _ := strconv.Atoi(m[1])
		if want := table[booking.Code(code)].Name; m[2] != want {
			t.Errorf("%s: the description names %d %s, the code table %q", name, code, m[2], want)
		}
	}
}

// listedToken matches one item of an operation's "Codes:" list: a status followed by a code
// ("404 `1002`"), or another code with the same status ("`1003`").
var listedToken = regexp.MustCompile("(?:\\b([1-5]\\d\\d)\\s+)?`(\\d{4})`")

// listedCodes returns the statuses and codes listed in an operation's description, in the form
// "Codes: 400 `2000` (why); 404 `1003` (why), `1002` (why); …". Each code takes the status before it.
func listedCodes(description string) []statusCode {
	_, list, ok := strings.Cut(description, "Codes")
	if !ok {
		return nil
	}
	var scs []statusCode
	status := 0
	for _, m := range listedToken.FindAllStringSubmatch(list, -1) {
		if m[1] != "" {
			status, _ = strconv.Atoi(m[1])
		}
		code, _ := strconv.Atoi(m[2])
		if status != 0 {
			scs = append(scs, statusCode{status, booking.Code(code)})
		}
	}
	return scs
}

// docsOperation matches an operation as docs/api.md writes it, such as `PATCH /api/v1/bookings/{bookingId}`.
var docsOperation = regexp.MustCompile(`\b(GET|HEAD|POST|PUT|PATCH|DELETE) +(/api/v1/[^\s` + "`" + `?]*)`)

// TestAPIDocsOperations checks that docs/api.md mentions every operation in openapi.yaml, and no other.
func TestAPIDocsOperations(t *testing.T) {
	t.Parallel()
	spec, err := loadAPISpec()
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join("..", "docs", "api.md"))
	if err != nil {
		t.Fatal(err)
	}
	var inDocs []string
	for _, m := range docsOperation.FindAllStringSubmatch(string(raw), -1) {
		inDocs = append(inDocs, m[1]+" "+m[2])
	}
	var inSpec []string
	for path, item := range spec.doc.Paths.Map() {
		for method := range item.Operations() {
			inSpec = append(inSpec, method+" "+path)
		}
	}
	slices.Sort(inDocs)
	slices.Sort(inSpec)
	if diff := cmp.Diff(inSpec, slices.Compact(inDocs)); diff != "" {
		t.Errorf("the operations docs/api.md mentions differ from openapi.yaml's (-openapi.yaml +docs/api.md):\n%s", diff)
	}
}

// deref returns the string s points to, or "" for nil.
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
