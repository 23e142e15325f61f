package scim

import (
	"log/slog"
	"net/http"
	"net/mail"
	"strings"
	"time"

	"github.com/elimity-com/scim"
	scimerrors "github.com/elimity-com/scim/errors"
	"github.com/elimity-com/scim/optional"
	"github.com/elimity-com/scim/schema"
	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/identity"
)

// scimUsers maps SCIM Users to the organization's people. userName is kept as the client sent it; the
// e-mail address is personEmail's (the primary one of emails, else the first work one, and so on);
// name.givenName and name.familyName are the names; displayName is derived from them; active false
// deactivates, and DELETE deactivates the person and hides them from SCIM.
type scimUsers struct {
	people *identity.Service
	log    *slog.Logger
}

// Create provisions a person.
func (h scimUsers) Create(r *http.Request, attrs scim.ResourceAttributes) (scim.Resource, error) {
	f, err := personFields(attrs)
	if err != nil {
		return scim.Resource{}, err
	}
	p, err := h.people.ProvisionPerson(r.Context(), scimClientOf(r), f)
	if err != nil {
		return scim.Resource{}, scimErrorOf(r, h.log, err)
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

// GetAll is never called: scimService.list answers lists, with the filters Okta and Entra ID send.
func (h scimUsers) GetAll(*http.Request, scim.ListRequestParams) (scim.Page, error) {
	return scim.Page{}, scimerrors.ScimErrorInternal
}

// Replace replaces what SCIM manages of a person (PUT), under If-Match when it is sent; active false
// deactivates them.
func (h scimUsers) Replace(r *http.Request, id string, attrs scim.ResourceAttributes) (scim.Resource, error) {
	uid, err := scimID(id)
	if err != nil {
		return scim.Resource{}, err
	}
	f, err := personFields(attrs)
	if err != nil {
		return scim.Resource{}, err
	}
	p, err := h.people.ReplaceProvisionedPerson(r.Context(), scimClientOf(r), uid, f, r.Header.Get("If-Match"))
	if err != nil {
		return scim.Resource{}, scimErrorOf(r, h.log, err)
	}
	return scimResource(p), nil
}

// Delete deactivates a person and hides them from SCIM: their bookings keep their organizer, so the
// person stays, inactive.
func (h scimUsers) Delete(r *http.Request, id string) error {
	uid, err := scimID(id)
	if err != nil {
		return err
	}
	if err := h.people.DeleteProvisionedPerson(r.Context(), scimClientOf(r), uid, r.Header.Get("If-Match")); err != nil {
		return scimErrorOf(r, h.log, err)
	}
	return nil
}

// Patch applies the operations to the person's attributes, with the person locked, and writes the
// result as a PUT would (and under the same If-Match).
func (h scimUsers) Patch(r *http.Request, id string, ops []scim.PatchOperation) (scim.Resource, error) {
	uid, err := scimID(id)
	if err != nil {
		return scim.Resource{}, err
	}
	var refused error // a refusal of the operations, answered as it is
	p, err := h.people.ChangeProvisionedPerson(r.Context(), scimClientOf(r), uid, r.Header.Get("If-Match"),
		func(p identity.ProvisionedPerson) (identity.PersonFields, error) {
			attrs := scimUserAttributes(p)
			attrs["externalId"] = p.ExternalID
			for _, op := range ops {
				if refused = patchAttributes(attrs, op); refused != nil {
					return identity.PersonFields{}, refused
				}
			}
			f, err := personFields(attrs)
			refused = err
			return f, err
		})
	if refused != nil {
		return scim.Resource{}, refused
	}
	if err != nil {
		return scim.Resource{}, scimErrorOf(r, h.log, err)
	}
	return scimResource(p), nil
}

// person returns the person with the SCIM id.
func (h scimUsers) person(r *http.Request, id string) (identity.ProvisionedPerson, error) {
	uid, err := scimID(id)
	if err != nil {
		return identity.ProvisionedPerson{}, err
	}
	p, err := h.people.ProvisionedPerson(r.Context(), scimClientOf(r), uid)
	if err != nil {
		return identity.ProvisionedPerson{}, scimErrorOf(r, h.log, err)
	}
	return p, nil
}

// scimID parses a SCIM id; one that is not a UUID names nothing.
func scimID(id string) (uuid.UUID, error) {
	uid, err := uuid.Parse(id)
	if err != nil {
		return uuid.Nil, scimerrors.ScimErrorResourceNotFound(id)
	}
	return uid, nil
}

// scimUserAttributes are a person's attributes as a SCIM User, without id, externalId, schemas and meta.
func scimUserAttributes(p identity.ProvisionedPerson) scim.ResourceAttributes {
	full := strings.TrimSpace(p.Name + " " + p.Surname)
	return scim.ResourceAttributes{
		"userName":    p.UserName,
		"name":        map[string]any{"givenName": p.Name, "familyName": p.Surname, "formatted": full},
		"displayName": full,
		"emails":      []any{map[string]any{"value": p.Email, "type": "work", "primary": true}},
		"active":      p.Active,
	}
}

// scimResource is a person as a SCIM User, for the library.
func scimResource(p identity.ProvisionedPerson) scim.Resource {
	res := scim.Resource{
		ID: p.ID.String(), Attributes: scimUserAttributes(p),
		Meta: scim.Meta{Created: &p.Created, LastModified: &p.Modified, Version: p.Version()},
	}
	if p.ExternalID != "" {
		res.ExternalID = optional.NewString(p.ExternalID)
	}
	return res
}

// scimUserJSON is a person as a SCIM User in a list, as the library writes a single one.
func scimUserJSON(p identity.ProvisionedPerson, base string) map[string]any {
	res := map[string]any(scimUserAttributes(p))
	res["id"] = p.ID.String()
	if p.ExternalID != "" {
		res["externalId"] = p.ExternalID
	}
	res["schemas"] = []string{scimUserSchema, schema.ExtensionEnterpriseUser().ID}
	res["meta"] = scimMeta("User", base+"/Users/"+p.ID.String(), p.Created, p.Modified, p.Version())
	return res
}

// scimMeta is the meta attribute of a resource (RFC 7643 section 3.1).
func scimMeta(resourceType, location string, created, modified time.Time, version string) map[string]any {
	return map[string]any{
		"resourceType": resourceType, "location": location, "version": version,
		"created": created.UTC().Format(time.RFC3339), "lastModified": modified.UTC().Format(time.RFC3339),
	}
}

// personFields reads a SCIM User. userName is required and kept as sent; the e-mail address is
// personEmail's. Missing names come from displayName; active is true unless given.
func personFields(attrs scim.ResourceAttributes) (identity.PersonFields, error) {
	str := func(v any) string { s, _ := v.(string); return strings.TrimSpace(s) }
	f := identity.PersonFields{UserName: str(attrs["userName"]), ExternalID: str(attrs["externalId"]), Active: true}
	if f.UserName == "" {
		return f, scimerrors.ScimError{Status: http.StatusBadRequest, ScimType: scimerrors.ScimTypeInvalidValue, Detail: "userName is required."}
	}
	if a, ok := attrs["active"].(bool); ok {
		f.Active = a
	}
	if f.Email = personEmail(attrs["emails"], f.UserName); f.Email == "" {
		return f, scimerrors.ScimError{Status: http.StatusBadRequest, ScimType: scimerrors.ScimTypeInvalidValue,
			Detail: "A person needs an e-mail address: in emails, or as a userName that is one."}
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

// personEmail returns the person's e-mail address, of a SCIM emails list and userName: the primary one
// of emails, else the first work one, else userName when it is an address, else the first of emails;
// "" when there is none.
func personEmail(emails any, userName string) string {
	list, _ := emails.([]any)
	var work, first string
	for _, item := range list {
		m, _ := item.(map[string]any)
		value, _ := m["value"].(string)
		if value = strings.TrimSpace(value); value == "" {
			continue
		}
		if primary, _ := m["primary"].(bool); primary {
			return value
		}
		if kind, _ := m["type"].(string); work == "" && strings.EqualFold(kind, "work") {
			work = value
		}
		if first == "" {
			first = value
		}
	}
	if work != "" {
		return work
	}
	if addr, err := mail.ParseAddress(userName); err == nil && addr.Address == userName {
		return userName
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
	if op.Path.AttributePath.URIPrefix != nil && !strings.EqualFold(*op.Path.AttributePath.URIPrefix, scimUserSchema) {
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
		case []any:
			if personEmail(x, "") != "" {
				attrs["emails"] = x
			}
		case map[string]any:
			if personEmail([]any{x}, "") != "" {
				attrs["emails"] = []any{x}
			}
		}
	}
}
