// Package scim is the SCIM 2.0 adapter (RFC 7643 and 7644): identity providers such as Okta and
// Entra ID provision the organization's people (Users) and the groups whose names give roles (Groups).
package scim

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/elimity-com/scim"
	scimerrors "github.com/elimity-com/scim/errors"
	"github.com/elimity-com/scim/optional"
	"github.com/elimity-com/scim/schema"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/identity"
	"github.com/workspacebooking/booking/web/kit"
)

// Bounds of SCIM requests: the body of a request, more for a group whose members are listed; the filter;
// the attribute names of attributes and excludedAttributes.
const (
	maxSCIMBody      = 64 << 10
	maxSCIMGroupBody = 1 << 20
	maxSCIMFilter    = 1000
	maxSCIMAttrNames = 50
)

// The schemas the service speaks.
const (
	scimUserSchema  = "urn:ietf:params:scim:schemas:core:2.0:User"
	scimGroupSchema = "urn:ietf:params:scim:schemas:core:2.0:Group"
	scimListSchema  = "urn:ietf:params:scim:api:messages:2.0:ListResponse"
	scimPatchSchema = "urn:ietf:params:scim:api:messages:2.0:PatchOp"
	scimErrorSchema = "urn:ietf:params:scim:api:messages:2.0:Error"
)

func init() {
	// Entra ID sends booleans as strings ("False") in PATCH operations. The library reads this setting
	// from a package variable, so it is set once for the process.
	schema.SetAllowStringValues(true)
}

// scimService answers the SCIM requests of a client named by RequireToken. The library
// (elimity-com/scim) checks bodies against the schemas and routes single resources; the service answers
// lists and ServiceProviderConfig itself, checks PATCH bodies before the library, and honours attributes
// and excludedAttributes on every resource it returns.
type scimService struct {
	people *identity.Service
	log    *slog.Logger
	base   string // the absolute URL of the SCIM service, e.g. https://booking.example.com/scim/v2
	lib    scim.Server
}

// newSCIM returns the SCIM service whose resources live under base.
func newSCIM(people *identity.Service, log *slog.Logger, base string) *scimService {
	users := scimUsers{people: people, log: log}
	groups := scimGroups{people: people, log: log, base: base}
	lib, err := scim.NewServer(&scim.ServerArgs{
		ServiceProviderConfig: &scim.ServiceProviderConfig{SupportFiltering: true, SupportPatch: true, MaxResults: identity.MaxSCIMPage},
		ResourceTypes: []scim.ResourceType{{
			ID: optional.NewString("User"), Name: "User", Endpoint: "/Users",
			Description: optional.NewString("A person of the organization"),
			Schema:      schema.CoreUserSchema(),
			// Entra ID may send attributes of the enterprise extension; they are accepted and ignored.
			SchemaExtensions: []scim.SchemaExtension{{Schema: schema.ExtensionEnterpriseUser()}},
			Handler:          users,
		}, {
			ID: optional.NewString("Group"), Name: "Group", Endpoint: "/Groups",
			Description: optional.NewString("A group of people; its name may give its members a role"),
			Schema:      schema.CoreGroupSchema(),
			Handler:     groups,
		}},
	}, scim.WithLogger(scimLogger{log}), scim.WithBaseURL(base))
	if err != nil {
		panic(fmt.Sprintf("scim server: %v", err)) // the arguments above are constant
	}
	return &scimService{people: people, log: log, base: base, lib: lib}
}

// Handler is the SCIM adapter of the routes: RequireToken checks the client's token, Serve answers.
type Handler struct {
	people *identity.Service
	log    *slog.Logger
	env    *kit.Env
}

// New returns the SCIM adapter.
func New(people *identity.Service, log *slog.Logger, env *kit.Env) *Handler {
	return &Handler{people: people, log: log, env: env}
}

// Serve answers a SCIM request, under the service's public address.
func (s *Handler) Serve(c echo.Context) error {
	newSCIM(s.people, s.log, s.env.PublicBase(c)+kit.SCIMPrefix).ServeHTTP(c.Response(), c.Request())
	return nil
}

func (sv *scimService) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := strings.TrimPrefix(r.URL.Path, kit.SCIMPrefix)
	resource, id, _ := strings.Cut(strings.TrimPrefix(path, "/"), "/")
	if resource == "Users" && r.Method != http.MethodGet && r.Method != http.MethodDelete {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(complexManager(body)))
	}
	switch {
	case r.Method == http.MethodGet && path == "/ServiceProviderConfig":
		sv.serviceProviderConfig(w)
		return
	case r.Method == http.MethodGet && id == "" && (resource == "Users" || resource == "Groups"):
		sv.list(w, r, resource)
		return
	case r.Method == http.MethodPatch && id != "":
		if e := checkPatch(r, resource, id); e != nil {
			writeSCIMError(w, *e)
			return
		}
	}
	// The library's answers are kept, to be trimmed to the attributes asked for. Its lists (/Schemas and
	// /ResourceTypes) give the count asked for as itemsPerPage: it becomes the number returned.
	rec := &scimRecorder{header: http.Header{}, status: http.StatusOK}
	http.StripPrefix("/scim", sv.lib).ServeHTTP(rec, r)
	body := rec.body.Bytes()
	if rec.status < 300 && len(body) > 0 {
		var res map[string]any
		if json.Unmarshal(body, &res) == nil {
			attrs, err := attributesOf(r)
			if err != nil {
				attrs = scimAttributes{}
			}
			if schemas, _ := res["schemas"].([]any); slices.Contains(schemas, any(scimListSchema)) {
				resources, _ := res["Resources"].([]any)
				for _, x := range resources {
					if m, ok := x.(map[string]any); ok {
						attrs.apply(m)
					}
				}
				res["Resources"], res["itemsPerPage"] = append([]any{}, resources...), len(resources)
			} else {
				attrs.apply(res)
			}
			body, _ = json.Marshal(res)
		}
	}
	for k, v := range rec.header {
		w.Header()[k] = v
	}
	w.Header().Set(echo.HeaderContentType, "application/scim+json")
	w.WriteHeader(rec.status)
	_, _ = w.Write(body)
}

// scimRecorder keeps an answer of the library.
type scimRecorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *scimRecorder) Header() http.Header         { return r.header }
func (r *scimRecorder) Write(b []byte) (int, error) { return r.body.Write(b) }
func (r *scimRecorder) WriteHeader(status int)      { r.status = status }

// serviceProviderConfig answers what the service supports (RFC 7643 section 5). It has no documentation
// page on the web, so documentationUri is left out.
func (sv *scimService) serviceProviderConfig(w http.ResponseWriter) {
	writeSCIM(w, http.StatusOK, map[string]any{
		"schemas":        []string{"urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"},
		"patch":          map[string]bool{"supported": true},
		"bulk":           map[string]any{"supported": false, "maxOperations": 0, "maxPayloadSize": 0},
		"filter":         map[string]any{"supported": true, "maxResults": identity.MaxSCIMPage},
		"changePassword": map[string]bool{"supported": false},
		"sort":           map[string]bool{"supported": false},
		"etag":           map[string]bool{"supported": true},
		// The sub-attributes of section 5 only: "primary", in the RFC's example, is not in its schema.
		"authenticationSchemes": []map[string]any{{
			"type": "oauthbearertoken", "name": "Bearer token",
			"description": "A SCIM token that an admin creates on the page /admin/identity.",
			"specUri":     "https://www.rfc-editor.org/rfc/rfc6750",
		}},
		"meta": map[string]any{"resourceType": "ServiceProviderConfig", "location": sv.base + "/ServiceProviderConfig"},
	})
}

// checkPatch checks what the library lets through or calls by another name in a PATCH body (RFC 7644
// section 3.5.2) of the resource with the id: the PatchOp schema and the op names (invalidSyntax), a
// change of id (mutability), and the removal of a required attribute (invalidValue). An id equal to the
// resource's own is no change: Okta repeats it in the value of a group's rename. The body is left for the
// library to read again.
func checkPatch(r *http.Request, resource, id string) *scimerrors.ScimError {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	refuse := func(status int, t scimerrors.ScimType, detail string) *scimerrors.ScimError {
		return &scimerrors.ScimError{Status: status, ScimType: t, Detail: detail}
	}
	var patch struct {
		Schemas    []string
		Operations []struct {
			Op    string
			Path  string
			Value json.RawMessage
		}
	}
	if err := json.Unmarshal(body, &patch); err != nil {
		return refuse(http.StatusBadRequest, scimerrors.ScimTypeInvalidSyntax, "The body is not a PatchOp in JSON.")
	}
	if !slices.Contains(patch.Schemas, scimPatchSchema) {
		return refuse(http.StatusBadRequest, scimerrors.ScimTypeInvalidSyntax, "A PATCH body must carry the schema "+scimPatchSchema+".")
	}
	if len(patch.Operations) == 0 {
		return refuse(http.StatusBadRequest, scimerrors.ScimTypeInvalidSyntax, "A PATCH body must list at least one operation in Operations.")
	}
	required := "username"
	if resource == "Groups" {
		required = "displayname"
	}
	for i, op := range patch.Operations {
		kind := strings.ToLower(op.Op)
		if kind != "add" && kind != "remove" && kind != "replace" {
			return refuse(http.StatusBadRequest, scimerrors.ScimTypeInvalidSyntax,
				fmt.Sprintf("Operations[%d]: op %q is none of add, remove and replace.", i, kit.ClipText(op.Op)))
		}
		path := strings.ToLower(strings.TrimSpace(op.Path))
		if i := strings.LastIndex(path, ":"); i >= 0 {
			path = path[i+1:]
		}
		otherID := func(v json.RawMessage) bool {
			var s string
			return json.Unmarshal(v, &s) != nil || !strings.EqualFold(strings.TrimSpace(s), id)
		}
		var values map[string]json.RawMessage
		_ = json.Unmarshal(op.Value, &values)
		changesID := path == "id" && (kind == "remove" || otherID(op.Value))
		for k, v := range values {
			changesID = changesID || strings.EqualFold(k, "id") && otherID(v)
		}
		if changesID {
			return refuse(http.StatusBadRequest, scimerrors.ScimTypeMutability, fmt.Sprintf("Operations[%d]: id cannot be changed.", i))
		}
		if kind == "remove" && path == required {
			return refuse(http.StatusBadRequest, scimerrors.ScimTypeInvalidValue,
				fmt.Sprintf("Operations[%d]: %s is required and cannot be removed.", i, op.Path))
		}
	}
	return nil
}

// scimEnterpriseUser is the schema of the enterprise extension of Users (RFC 7643 section 4.3).
const scimEnterpriseUser = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"

// complexManager returns a body for /Users with the enterprise extension's manager in the shape RFC 7643
// section 4.3 gives it, {"value": "<id>"}, where the body has the manager's id alone: Entra ID's default
// mappings send it so, in a create, a replace and a PATCH. The service keeps no managers, but the library
// refuses a manager of the wrong shape, and with it the person's other changes. Any other body is
// returned as it is.
func complexManager(body []byte) []byte {
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	var m map[string]any
	if d.Decode(&m) != nil {
		return body
	}
	changed := false
	complexValue := func(v any) any {
		if id, ok := v.(string); ok {
			changed = true
			return map[string]any{"value": id}
		}
		return v
	}
	// inObject fixes a manager in an object of attributes: a User, or the value of a PATCH operation.
	inObject := func(obj map[string]any) {
		for k, v := range obj {
			if strings.EqualFold(k, scimEnterpriseUser+":manager") {
				obj[k] = complexValue(v)
			}
			if ext, ok := v.(map[string]any); ok && strings.EqualFold(k, scimEnterpriseUser) {
				for ek, ev := range ext {
					if strings.EqualFold(ek, "manager") {
						ext[ek] = complexValue(ev)
					}
				}
			}
		}
	}
	inObject(m)
	ops, _ := m["Operations"].([]any)
	for _, o := range ops {
		op, _ := o.(map[string]any)
		var path string
		for k, v := range op {
			if strings.EqualFold(k, "path") {
				path, _ = v.(string)
			}
		}
		for k, v := range op {
			switch value, isObject := v.(map[string]any); {
			case !strings.EqualFold(k, "value"):
			case strings.EqualFold(strings.TrimSpace(path), scimEnterpriseUser+":manager"):
				op[k] = complexValue(v)
			case isObject:
				inObject(value)
			}
		}
	}
	if !changed {
		return body
	}
	out, err := json.Marshal(m)
	if err != nil {
		return body
	}
	return out
}

// writeSCIM writes a SCIM answer.
func writeSCIM(w http.ResponseWriter, status int, body any) {
	w.Header().Set(echo.HeaderContentType, "application/scim+json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}

// writeSCIMError writes a SCIM error (RFC 7644 section 3.12).
func writeSCIMError(w http.ResponseWriter, e scimerrors.ScimError) {
	body := map[string]any{"schemas": []string{scimErrorSchema}, "status": strconv.Itoa(e.Status), "detail": e.Detail}
	if e.ScimType != "" {
		body["scimType"] = e.ScimType
	}
	writeSCIM(w, e.Status, body)
}

// scimErrorOf turns a domain error into a SCIM error: 404 for an unknown person or group, 409 for an
// e-mail address, userName or group name in use, 412 for a stale If-Match, 400 with the message for
// other refusals, and 500 (logged) for anything else.
func scimErrorOf(r *http.Request, log *slog.Logger, err error) scimerrors.ScimError {
	var e *booking.Error
	err = booking.Interpret(err) // text the database cannot store, a database away
	switch {
	case errors.Is(err, identity.ErrPersonExists), errors.Is(err, identity.ErrUserNameTaken), errors.Is(err, identity.ErrGroupExists):
		e, _ = err.(*booking.Error)
		return scimerrors.ScimError{ScimType: scimerrors.ScimTypeUniqueness, Status: http.StatusConflict, Detail: e.Message}
	case errors.As(err, &e) && (e.Code == booking.CodeUserNotFound || e.Code == booking.CodeObjectNotFound):
		return scimerrors.ScimError{Status: http.StatusNotFound, Detail: e.Message}
	case errors.As(err, &e) && e.Code == booking.CodePreconditionFailed:
		return scimerrors.ScimError{Status: http.StatusPreconditionFailed, Detail: e.Message}
	case errors.As(err, &e) && e.Code == booking.CodeInvalidRequest:
		return scimerrors.ScimError{ScimType: scimerrors.ScimTypeInvalidValue, Status: http.StatusBadRequest, Detail: e.Message}
	case errors.As(err, &e) && e.Code == booking.CodeLastAdmin:
		return scimerrors.ScimError{Status: http.StatusConflict, Detail: e.Message}
	case errors.As(err, &e) && e.Code == booking.CodeUnavailable:
		return scimerrors.ScimError{Status: http.StatusServiceUnavailable, Detail: e.Message}
	}
	log.ErrorContext(r.Context(), "scim request failed", slog.String("path", r.URL.Path), slog.Any("error", err))
	return scimerrors.ScimErrorInternal
}

// scimClientKey carries the SCIM client of a request in its context.
type scimClientKey struct{}

// RequireToken lets through requests that carry a SCIM token in use, with its client in the request's
// context, and bounds their bodies. Others get a SCIM error: 401 or 413.
func (s *Handler) RequireToken(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		scheme, raw, _ := strings.Cut(r.Header.Get(echo.HeaderAuthorization), " ")
		raw = strings.TrimSpace(raw)
		if !strings.EqualFold(scheme, "Bearer") || raw == "" {
			return scimRefusal(c, scimerrors.ScimError{Status: http.StatusUnauthorized, Detail: "A SCIM token is required: Authorization: Bearer <token>."})
		}
		client, err := s.people.SCIMClientByToken(r.Context(), raw)
		if booking.ErrorCode(err) == booking.CodeUnauthorized {
			return scimRefusal(c, scimerrors.ScimError{Status: http.StatusUnauthorized, Detail: "The SCIM token is unknown or revoked."})
		}
		if err != nil {
			return err
		}
		limit := int64(maxSCIMBody)
		if strings.HasPrefix(r.URL.Path, kit.SCIMPrefix+"/Groups") {
			limit = maxSCIMGroupBody
		}
		if r.ContentLength > limit {
			return scimRefusal(c, scimerrors.ScimError{Status: http.StatusRequestEntityTooLarge, Detail: fmt.Sprintf("The body is over %d bytes.", limit)})
		}
		// The body is read here, whole, so that text the database cannot store is refused before the
		// SCIM library decodes it (it would turn bytes that are not UTF-8 into U+FFFD).
		body, err := io.ReadAll(http.MaxBytesReader(c.Response(), r.Body, limit))
		if errors.As(err, new(*http.MaxBytesError)) {
			return scimRefusal(c, scimerrors.ScimError{Status: http.StatusRequestEntityTooLarge, Detail: fmt.Sprintf("The body is over %d bytes.", limit)})
		}
		if err != nil {
			return fmt.Errorf("read the scim body: %w", err)
		}
		var de *booking.Error
		if errors.As(kit.CheckText(body), &de) {
			return scimRefusal(c, scimerrors.ScimError{Status: http.StatusBadRequest, Detail: de.Message, ScimType: scimerrors.ScimTypeInvalidValue})
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		c.SetRequest(r.WithContext(context.WithValue(r.Context(), scimClientKey{}, client)))
		return next(c)
	}
}

// scimRefusal answers with a SCIM error (RFC 7644 section 3.12): e's status, detail and, when set, its
// scimType.
func scimRefusal(c echo.Context, e scimerrors.ScimError) error {
	if e.Status == http.StatusUnauthorized {
		c.Response().Header().Set("WWW-Authenticate", `Bearer realm="scim"`)
	}
	writeSCIMError(c.Response(), e)
	return nil
}

// scimClientOf returns the client RequireToken named.
func scimClientOf(r *http.Request) identity.SCIMClient {
	return r.Context().Value(scimClientKey{}).(identity.SCIMClient)
}

// scimLogger passes the SCIM library's error messages to the service's log.
type scimLogger struct{ log *slog.Logger }

func (l scimLogger) Error(args ...any) { l.log.Error("scim", slog.Any("details", args)) }
