package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/mail"
	"strconv"
	"strings"

	"github.com/elimity-com/scim"
	scimerrors "github.com/elimity-com/scim/errors"
	"github.com/elimity-com/scim/optional"
	"github.com/elimity-com/scim/schema"
	"github.com/google/uuid"
	"github.com/labstack/echo/v4"
	filter "github.com/scim2/filter-parser/v2"

	"github.com/workspacebooking/booking/web/booking"
)

// scimPrefix is where the SCIM 2.0 service (RFC 7643 and 7644) answers identity providers such as Okta
// and Entra ID. It serves Users only: roles come from the groups claim at sign-in, not from SCIM groups.
const scimPrefix = "/scim/v2"

// maxSCIMBody bounds the body of a SCIM request; a person is far smaller.
const maxSCIMBody = 64 << 10

func init() {
	// Entra ID sends booleans as strings ("False") in PATCH operations. The library reads this setting
	// from a package variable, so it is set once for the process.
	schema.SetAllowStringValues(true)
}

// newSCIM returns the SCIM handler, which expects requireSCIMToken to have named the client.
func newSCIM(bookings *booking.Service, log *slog.Logger) http.Handler {
	srv, err := scim.NewServer(&scim.ServerArgs{
		ServiceProviderConfig: &scim.ServiceProviderConfig{
			SupportFiltering: true, SupportPatch: true, MaxResults: booking.MaxSCIMPage,
			AuthenticationSchemes: []scim.AuthenticationScheme{{
				Type: scim.AuthenticationTypeOauthBearerToken, Name: "Bearer token", Primary: true,
				Description: "A SCIM token that an admin creates on the page /admin/identity.",
			}},
		},
		ResourceTypes: []scim.ResourceType{{
			ID: optional.NewString("User"), Name: "User", Endpoint: "/Users",
			Description: optional.NewString("A person of the organization"),
			Schema:      schema.CoreUserSchema(),
			// Entra ID may send attributes of the enterprise extension; they are accepted and ignored.
			SchemaExtensions: []scim.SchemaExtension{{Schema: schema.ExtensionEnterpriseUser()}},
			Handler:          scimUsers{bookings: bookings, log: log},
		}},
	}, scim.WithLogger(scimLogger{log}))
	if err != nil {
		panic(fmt.Sprintf("scim server: %v", err)) // the arguments above are constant
	}
	// The library routes paths that start with /v2; finishSCIM completes its answers.
	lib := http.StripPrefix("/scim", srv)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a := newSCIMAnswer()
		lib.ServeHTTP(a, r)
		finishSCIM(w, a)
	})
}

// scimClientKey carries the SCIM client of a request in its context.
type scimClientKey struct{}

// requireSCIMToken lets through requests that carry a SCIM token in use, with its client in the request's
// context, and bounds their bodies. Others get a SCIM error: 401 or 413.
func (s *Server) requireSCIMToken(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		scheme, raw, _ := strings.Cut(r.Header.Get(echo.HeaderAuthorization), " ")
		raw = strings.TrimSpace(raw)
		if !strings.EqualFold(scheme, "Bearer") || raw == "" {
			return scimRefusal(c, scimerrors.ScimError{Status: http.StatusUnauthorized, Detail: "A SCIM token is required: Authorization: Bearer <token>."})
		}
		client, err := s.bookings.SCIMClientByToken(r.Context(), raw)
		if booking.ErrorCode(err) == booking.CodeUnauthorized {
			return scimRefusal(c, scimerrors.ScimError{Status: http.StatusUnauthorized, Detail: "The SCIM token is unknown or revoked."})
		}
		if err != nil {
			return err
		}
		if r.ContentLength > maxSCIMBody {
			return scimRefusal(c, scimerrors.ScimError{Status: http.StatusRequestEntityTooLarge, Detail: fmt.Sprintf("The body is over %d bytes.", maxSCIMBody)})
		}
		// The body is read here, whole, so that text the database cannot store is refused before the
		// SCIM library decodes it (it would turn bytes that are not UTF-8 into U+FFFD).
		body, err := io.ReadAll(http.MaxBytesReader(c.Response(), r.Body, maxSCIMBody))
		if errors.As(err, new(*http.MaxBytesError)) {
			return scimRefusal(c, scimerrors.ScimError{Status: http.StatusRequestEntityTooLarge, Detail: fmt.Sprintf("The body is over %d bytes.", maxSCIMBody)})
		}
		if err != nil {
			return fmt.Errorf("read the scim body: %w", err)
		}
		var de *booking.Error
		if errors.As(checkText(body), &de) {
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
	c.Response().Header().Set(echo.HeaderContentType, "application/scim+json")
	c.Response().WriteHeader(e.Status)
	body := map[string]any{
		"schemas": []string{"urn:ietf:params:scim:api:messages:2.0:Error"},
		"status":  strconv.Itoa(e.Status), "detail": e.Detail,
	}
	if e.ScimType != "" {
		body["scimType"] = e.ScimType
	}
	return json.NewEncoder(c.Response()).Encode(body)
}

// scimClientOf returns the client requireSCIMToken named.
func scimClientOf(r *http.Request) booking.SCIMClient {
	return r.Context().Value(scimClientKey{}).(booking.SCIMClient)
}

// scimUsers maps SCIM Users to the organization's people. userName is the e-mail address; name.givenName
// and name.familyName the names; displayName is derived from them; active false deactivates.
type scimUsers struct {
	bookings *booking.Service
	log      *slog.Logger
}

// Create provisions a person.
func (h scimUsers) Create(r *http.Request, attrs scim.ResourceAttributes) (scim.Resource, error) {
	f, err := personFields(attrs)
	if err != nil {
		return scim.Resource{}, err
	}
	p, err := h.bookings.ProvisionPerson(r.Context(), scimClientOf(r), f)
	if err != nil {
		return scim.Resource{}, h.scimError(r, err)
	}
	return scimResource(p), nil
}

// Get returns one person.
func (h scimUsers) Get(r *http.Request, id string) (scim.Resource, error) {
	p, err := h.person(r, id)
	if err != nil {
		return scim.Resource{}, err
	}
	return scimResource(p), nil
}

// GetAll lists people, filtered only by `userName eq "…"` or `externalId eq "…"`: what Okta and Entra
// send. Any other filter is refused as too costly.
func (h scimUsers) GetAll(r *http.Request, params scim.ListRequestParams) (scim.Page, error) {
	var f booking.PeopleFilter
	if params.FilterValidator != nil {
		var ok bool
		if f, ok = peopleFilter(params.FilterValidator.GetFilter()); !ok {
			return scim.Page{}, scimerrors.ScimError{
				ScimType: scimerrors.ScimTypeInvalidFilter, Status: http.StatusBadRequest,
				Detail: `Only the filters userName eq "…" and externalId eq "…" are supported.`,
			}
		}
	}
	people, total, err := h.bookings.ProvisionedPeople(r.Context(), scimClientOf(r), f, params.StartIndex, params.Count)
	if err != nil {
		return scim.Page{}, h.scimError(r, err)
	}
	page := scim.Page{TotalResults: total, Resources: make([]scim.Resource, len(people))}
	for i, p := range people {
		page.Resources[i] = scimResource(p)
	}
	return page, nil
}

// Replace replaces what SCIM manages of a person (PUT); active false deactivates them.
func (h scimUsers) Replace(r *http.Request, id string, attrs scim.ResourceAttributes) (scim.Resource, error) {
	uid, err := scimID(id)
	if err != nil {
		return scim.Resource{}, err
	}
	f, err := personFields(attrs)
	if err != nil {
		return scim.Resource{}, err
	}
	p, err := h.bookings.ReplaceProvisionedPerson(r.Context(), scimClientOf(r), uid, f)
	if err != nil {
		return scim.Resource{}, h.scimError(r, err)
	}
	return scimResource(p), nil
}

// Delete deactivates a person: their bookings keep their organizer, so the person stays, inactive.
func (h scimUsers) Delete(r *http.Request, id string) error {
	uid, err := scimID(id)
	if err != nil {
		return err
	}
	if err := h.bookings.SetProvisionedPersonActive(r.Context(), scimClientOf(r), uid, false); err != nil {
		return h.scimError(r, err)
	}
	return nil
}

// Patch applies the operations to the person's attributes and replaces the person with the result, so
// that a PATCH and a PUT go through the same domain method.
func (h scimUsers) Patch(r *http.Request, id string, ops []scim.PatchOperation) (scim.Resource, error) {
	p, err := h.person(r, id)
	if err != nil {
		return scim.Resource{}, err
	}
	attrs := scimResource(p).Attributes
	attrs["externalId"] = p.ExternalID
	for _, op := range ops {
		if err := patchAttributes(attrs, op); err != nil {
			return scim.Resource{}, err
		}
	}
	f, err := personFields(attrs)
	if err != nil {
		return scim.Resource{}, err
	}
	p, err = h.bookings.ReplaceProvisionedPerson(r.Context(), scimClientOf(r), p.ID, f)
	if err != nil {
		return scim.Resource{}, h.scimError(r, err)
	}
	return scimResource(p), nil
}

// person returns the person with the SCIM id.
func (h scimUsers) person(r *http.Request, id string) (booking.ProvisionedPerson, error) {
	uid, err := scimID(id)
	if err != nil {
		return booking.ProvisionedPerson{}, err
	}
	p, err := h.bookings.ProvisionedPerson(r.Context(), scimClientOf(r), uid)
	if err != nil {
		return booking.ProvisionedPerson{}, h.scimError(r, err)
	}
	return p, nil
}

// scimID parses a person's SCIM id; one that is not a UUID names nobody.
func scimID(id string) (uuid.UUID, error) {
	uid, err := uuid.Parse(id)
	if err != nil {
		return uuid.Nil, scimerrors.ScimErrorResourceNotFound(id)
	}
	return uid, nil
}

// scimError turns a domain error into a SCIM error: 404 for an unknown person, 409 for an e-mail address
// in use, 400 with the message for other refusals, and 500 (logged) for anything else.
func (h scimUsers) scimError(r *http.Request, err error) error {
	var e *booking.Error
	err = booking.Interpret(err) // text the database cannot store, a database away
	switch {
	case errors.Is(err, booking.ErrPersonExists):
		return scimerrors.ScimError{ScimType: scimerrors.ScimTypeUniqueness, Status: http.StatusConflict, Detail: booking.ErrPersonExists.Message}
	case errors.As(err, &e) && e.Code == booking.CodeUserNotFound:
		return scimerrors.ScimError{Status: http.StatusNotFound, Detail: e.Message}
	case errors.As(err, &e) && e.Code == booking.CodeInvalidRequest:
		return scimerrors.ScimError{ScimType: scimerrors.ScimTypeInvalidValue, Status: http.StatusBadRequest, Detail: e.Message}
	case errors.As(err, &e) && e.Code == booking.CodeLastAdmin:
		return scimerrors.ScimError{Status: http.StatusConflict, Detail: e.Message}
	case errors.As(err, &e) && e.Code == booking.CodeUnavailable:
		return scimerrors.ScimError{Status: http.StatusServiceUnavailable, Detail: e.Message}
	}
	h.log.ErrorContext(r.Context(), "scim request failed", slog.String("path", r.URL.Path), slog.Any("error", err))
	return scimerrors.ScimErrorInternal
}

// scimResource is a person as a SCIM User.
func scimResource(p booking.ProvisionedPerson) scim.Resource {
	full := strings.TrimSpace(p.Name + " " + p.Surname)
	res := scim.Resource{
		ID: p.ID.String(),
		Attributes: scim.ResourceAttributes{
			"userName":    p.Email,
			"name":        map[string]any{"givenName": p.Name, "familyName": p.Surname, "formatted": full},
			"displayName": full,
			"emails":      []any{map[string]any{"value": p.Email, "type": "work", "primary": true}},
			"active":      p.Active,
		},
	}
	if p.ExternalID != "" {
		res.ExternalID = optional.NewString(p.ExternalID)
	}
	return res
}

// personFields reads a SCIM User. The e-mail address is userName, or the primary (else the first) of
// emails when userName is not an address. Missing names come from displayName; active is true unless
// given.
func personFields(attrs scim.ResourceAttributes) (booking.PersonFields, error) {
	str := func(v any) string { s, _ := v.(string); return strings.TrimSpace(s) }
	f := booking.PersonFields{Email: str(attrs["userName"]), ExternalID: str(attrs["externalId"]), Active: true}
	if a, ok := attrs["active"].(bool); ok {
		f.Active = a
	}
	if addr, err := mail.ParseAddress(f.Email); err != nil || addr.Address != f.Email {
		if e := primaryEmail(attrs["emails"]); e != "" {
			f.Email = e
		}
	}
	if name, ok := attrs["name"].(map[string]any); ok {
		f.Name, f.Surname = str(name["givenName"]), str(name["familyName"])
	}
	if f.Name == "" && f.Surname == "" {
		first, rest, _ := strings.Cut(str(attrs["displayName"]), " ")
		f.Name, f.Surname = first, strings.TrimSpace(rest)
	}
	return f, nil
}

// primaryEmail returns the primary e-mail address of a SCIM emails list, or else its first one.
func primaryEmail(v any) string {
	list, _ := v.([]any)
	first := ""
	for _, item := range list {
		m, _ := item.(map[string]any)
		value, _ := m["value"].(string)
		if primary, _ := m["primary"].(bool); primary && value != "" {
			return value
		}
		if first == "" {
			first = value
		}
	}
	return first
}

// patchAttributes applies one PATCH operation to a person's SCIM attributes (names in any case). Only
// the attributes the service keeps change; others (title, the enterprise extension) are ignored.
func patchAttributes(attrs scim.ResourceAttributes, op scim.PatchOperation) error {
	if op.Path == nil {
		values, ok := op.Value.(map[string]any)
		if !ok || op.Op == scim.PatchOperationRemove {
			return scimerrors.ScimErrorInvalidValue
		}
		for k, v := range values {
			attr, sub, _ := strings.Cut(k, ".")
			setAttribute(attrs, attr, sub, v)
		}
		return nil
	}
	attr, sub := op.Path.AttributePath.AttributeName, op.Path.AttributePath.SubAttributeName()
	if op.Path.AttributePath.URIPrefix != nil && !strings.EqualFold(*op.Path.AttributePath.URIPrefix, schema.CoreUserSchema().ID) {
		return nil // an extension's attribute
	}
	if strings.EqualFold(attr, "emails") && op.Path.ValueExpression != nil {
		// emails[type eq "work"].value: the person has one address.
		attr, sub = "emails", "value"
	}
	value := op.Value
	if op.Op == scim.PatchOperationRemove {
		value = ""
	}
	setAttribute(attrs, attr, sub, value)
	return nil
}

// setAttribute sets one attribute, or one sub-attribute of name, of a person's SCIM attributes.
func setAttribute(attrs scim.ResourceAttributes, attr, sub string, v any) {
	switch strings.ToLower(attr) {
	case "active":
		if b, ok := v.(bool); ok {
			attrs["active"] = b
		}
	case "username":
		attrs["userName"] = v
	case "externalid":
		attrs["externalId"] = v
	case "displayname":
		attrs["displayName"] = v
	case "name":
		name, _ := attrs["name"].(map[string]any)
		if sub != "" {
			name[sub] = v
			return
		}
		if m, ok := v.(map[string]any); ok {
			for k, x := range m {
				name[k] = x
			}
		}
	case "emails":
		switch x := v.(type) {
		case string:
			attrs["emails"] = []any{map[string]any{"value": x, "primary": true}}
			attrs["userName"] = x
		case []any:
			if e := primaryEmail(x); e != "" {
				attrs["emails"], attrs["userName"] = x, e
			}
		case map[string]any:
			if e := primaryEmail([]any{x}); e != "" {
				attrs["emails"], attrs["userName"] = []any{x}, e
			}
		}
	}
}

// peopleFilter turns a filter `userName eq "…"` or `externalId eq "…"` into a PeopleFilter; ok is false
// for any other filter.
func peopleFilter(e filter.Expression) (f booking.PeopleFilter, ok bool) {
	a, isAttribute := e.(*filter.AttributeExpression)
	if !isAttribute {
		return f, false
	}
	value, isString := a.CompareValue.(string)
	if a.Operator != filter.EQ || !isString || a.AttributePath.SubAttribute != nil {
		return f, false
	}
	switch strings.ToLower(a.AttributePath.AttributeName) {
	case "username":
		f.Email = &value
	case "externalid":
		f.ExternalID = &value
	default:
		return f, false
	}
	return f, true
}

// scimLogger passes the SCIM library's error messages to the service's log.
type scimLogger struct{ log *slog.Logger }

func (l scimLogger) Error(args ...any) { l.log.Error("scim", slog.Any("details", args)) }
