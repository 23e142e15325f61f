package scim

import (
	"log/slog"
	"net/http"
	"slices"
	"strings"

	"github.com/elimity-com/scim"
	scimerrors "github.com/elimity-com/scim/errors"
	"github.com/elimity-com/scim/optional"
	"github.com/google/uuid"
	filter "github.com/scim2/filter-parser/v2"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/identity"
	"github.com/workspacebooking/booking/web/kit"
)

// scimGroups maps SCIM Groups (RFC 7643 section 4.2) to the organization's groups: displayName and
// members, whose value is a person's SCIM id. Okta's "Push Groups" and Entra ID's group provisioning
// change members with PATCH.
type scimGroups struct {
	people *identity.Service
	log    *slog.Logger
	base   string // the SCIM service's address, for the members' $ref
}

// Create creates a group.
func (h scimGroups) Create(r *http.Request, attrs scim.ResourceAttributes) (scim.Resource, error) {
	f, err := groupFields(attrs)
	if err != nil {
		return scim.Resource{}, err
	}
	g, err := h.people.ProvisionGroup(r.Context(), scimClientOf(r), f)
	if err != nil {
		return scim.Resource{}, scimErrorOf(r, h.log, err)
	}
	return scimGroupResource(g, h.base), nil
}

// Get returns one group with its members.
func (h scimGroups) Get(r *http.Request, id string) (scim.Resource, error) {
	gid, err := scimID(id)
	if err != nil {
		return scim.Resource{}, err
	}
	g, err := h.people.ProvisionedGroup(r.Context(), scimClientOf(r), gid)
	if err != nil {
		return scim.Resource{}, scimErrorOf(r, h.log, err)
	}
	return scimGroupResource(g, h.base), nil
}

// GetAll is never called: scimService.list answers lists.
func (h scimGroups) GetAll(*http.Request, scim.ListRequestParams) (scim.Page, error) {
	return scim.Page{}, scimerrors.ScimErrorInternal
}

// Replace replaces a group's name, external id and members (PUT), under If-Match when it is sent.
func (h scimGroups) Replace(r *http.Request, id string, attrs scim.ResourceAttributes) (scim.Resource, error) {
	gid, err := scimID(id)
	if err != nil {
		return scim.Resource{}, err
	}
	f, err := groupFields(attrs)
	if err != nil {
		return scim.Resource{}, err
	}
	g, err := h.people.ChangeProvisionedGroup(r.Context(), scimClientOf(r), gid, r.Header.Get("If-Match"),
		func(g *identity.GroupFields) error { *g = f; return nil })
	if err != nil {
		return scim.Resource{}, scimErrorOf(r, h.log, err)
	}
	return scimGroupResource(g, h.base), nil
}

// Delete deletes a group.
func (h scimGroups) Delete(r *http.Request, id string) error {
	gid, err := scimID(id)
	if err != nil {
		return err
	}
	if err := h.people.DeleteProvisionedGroup(r.Context(), scimClientOf(r), gid, r.Header.Get("If-Match")); err != nil {
		return scimErrorOf(r, h.log, err)
	}
	return nil
}

// Patch applies the operations to the group, with the group locked, so that two clients' changes of
// its members never undo each other.
func (h scimGroups) Patch(r *http.Request, id string, ops []scim.PatchOperation) (scim.Resource, error) {
	gid, err := scimID(id)
	if err != nil {
		return scim.Resource{}, err
	}
	g, err := h.people.ChangeProvisionedGroup(r.Context(), scimClientOf(r), gid, r.Header.Get("If-Match"),
		func(f *identity.GroupFields) error {
			for _, op := range ops {
				if err := patchGroup(f, op); err != nil {
					return err
				}
			}
			return nil
		})
	if err != nil {
		return scim.Resource{}, scimErrorOf(r, h.log, err)
	}
	return scimGroupResource(g, h.base), nil
}

// patchGroup applies one PATCH operation to a group: displayName and externalId, and members added,
// removed (all, those listed in value, or the one of a path members[value eq "…"]) or replaced.
func patchGroup(f *identity.GroupFields, op scim.PatchOperation) error {
	if op.Path == nil {
		values, ok := op.Value.(map[string]any)
		if !ok {
			return booking.Errorf(booking.CodeInvalidRequest, "an operation without a path needs an object as its value")
		}
		for k, v := range values {
			if err := patchGroupAttribute(f, op.Op, strings.ToLower(k), v, nil); err != nil {
				return err
			}
		}
		return nil
	}
	return patchGroupAttribute(f, op.Op, strings.ToLower(op.Path.AttributePath.AttributeName), op.Value, op.Path.ValueExpression)
}

// patchGroupAttribute applies op to one attribute of a group; where narrows members to the one it names.
func patchGroupAttribute(f *identity.GroupFields, op, attr string, value any, where filter.Expression) error {
	switch attr {
	case "displayname":
		s, _ := value.(string)
		f.DisplayName = s
	case "externalid":
		s, _ := value.(string)
		if op == scim.PatchOperationRemove {
			s = ""
		}
		f.ExternalID = s
	case "members":
		ids, err := memberIDs(value)
		if err != nil {
			return err
		}
		if where != nil {
			id, ok := memberOfFilter(where)
			if !ok {
				return booking.Errorf(booking.CodeInvalidRequest, `members: a path names one member as members[value eq "<id>"]`)
			}
			ids = []uuid.UUID{id}
		}
		switch {
		case op == scim.PatchOperationAdd:
			f.Members = append(f.Members, ids...)
		case op == scim.PatchOperationReplace:
			f.Members = ids
		case op == scim.PatchOperationRemove && where == nil && value == nil:
			f.Members = nil
		default: // remove
			f.Members = slices.DeleteFunc(f.Members, func(m uuid.UUID) bool { return slices.Contains(ids, m) })
		}
	}
	return nil
}

// memberIDs reads the members of a value: a list of {"value": "<id>"}, or one of them.
// Codes: 2000 for a member that is not a SCIM id.
func memberIDs(value any) ([]uuid.UUID, error) {
	var list []any
	switch v := value.(type) {
	case nil:
	case []any:
		list = v
	case map[string]any:
		list = []any{v}
	default:
		return nil, booking.Errorf(booking.CodeInvalidRequest, `members: a list of {"value": "<id>"} is expected`)
	}
	ids := make([]uuid.UUID, 0, len(list))
	for _, item := range list {
		m, _ := item.(map[string]any)
		s, _ := m["value"].(string)
		id, err := uuid.Parse(s)
		if err != nil {
			return nil, booking.Errorf(booking.CodeInvalidRequest, "members: %q is not the id of a person", kit.ClipText(s))
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// memberOfFilter reads the id of a filter value eq "<id>".
func memberOfFilter(e filter.Expression) (uuid.UUID, bool) {
	a, ok := e.(*filter.AttributeExpression)
	if !ok || a.Operator != filter.EQ || !strings.EqualFold(a.AttributePath.AttributeName, "value") {
		return uuid.Nil, false
	}
	s, _ := a.CompareValue.(string)
	id, err := uuid.Parse(s)
	return id, err == nil
}

// groupFields reads a SCIM Group.
func groupFields(attrs scim.ResourceAttributes) (identity.GroupFields, error) {
	name, _ := attrs["displayName"].(string)
	external, _ := attrs["externalId"].(string)
	ids, err := memberIDs(attrs["members"])
	if err != nil {
		return identity.GroupFields{}, scimerrors.ScimError{Status: http.StatusBadRequest, ScimType: scimerrors.ScimTypeInvalidValue, Detail: err.(*booking.Error).Message}
	}
	return identity.GroupFields{DisplayName: name, ExternalID: external, Members: ids}, nil
}

// scimGroupAttributes are a group's attributes, without id, externalId, schemas and meta. base is the
// SCIM service's address, for each member's $ref.
func scimGroupAttributes(g identity.ProvisionedGroup, base string) scim.ResourceAttributes {
	members := make([]any, len(g.Members))
	for i, m := range g.Members {
		members[i] = map[string]any{"value": m.ID.String(), "display": m.Display, "type": "User", "$ref": base + "/Users/" + m.ID.String()}
	}
	return scim.ResourceAttributes{"displayName": g.DisplayName, "members": members}
}

// scimGroupResource is a group for the library, which adds id, schemas and meta.
func scimGroupResource(g identity.ProvisionedGroup, base string) scim.Resource {
	res := scim.Resource{
		ID: g.ID.String(), Attributes: scimGroupAttributes(g, base),
		Meta: scim.Meta{Created: &g.Created, LastModified: &g.Modified, Version: g.Version()},
	}
	if g.ExternalID != "" {
		res.ExternalID = optional.NewString(g.ExternalID)
	}
	return res
}

// scimGroupJSON is a group in a list, as the library writes a single one.
func scimGroupJSON(g identity.ProvisionedGroup, base string) map[string]any {
	res := map[string]any(scimGroupAttributes(g, base))
	res["id"] = g.ID.String()
	if g.ExternalID != "" {
		res["externalId"] = g.ExternalID
	}
	res["schemas"] = []string{scimGroupSchema}
	res["meta"] = scimMeta("Group", base+"/Groups/"+g.ID.String(), g.Created, g.Modified, g.Version())
	return res
}
