// Package admin is the admin domain: it lists, reads, creates, updates and deletes the objects of an
// organization's office, one at a time, in the format of the layout document, and exports the whole
// organization as one. Every change goes through Write, the code path of `booking import`,
// in a transaction that also writes the audit log. It knows nothing of HTTP.
package layout

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/outbox"
)

// MaxBody is the largest object Put accepts, in bytes.
const MaxBody = 1 << 20

// Object is one object of a collection, in the layout document's format with its organizationId.
// ETag is a strong entity tag, quoted, that changes whenever JSON does.
type Object struct {
	Collection Collection
	ID         uuid.UUID
	JSON       json.RawMessage
	ETag       string
}

// List returns the organization's objects of collection c, in id order.
// Codes: 1001, 1013 (no such collection).
func (s *Service) List(ctx context.Context, actor booking.User, c Collection) ([]Object, error) {
	k, err := lookup(actor, c)
	if err != nil {
		return nil, err
	}
	var objs []Object
	err = s.read(ctx, func(q *queries.Queries) error {
		objs, err = read(ctx, q, k, c, Scope{Organization: &actor.OrganizationID})
		return err
	})
	return objs, err
}

// Get returns one object of the organization.
// Codes: 1001, 1013.
func (s *Service) Get(ctx context.Context, actor booking.User, c Collection, id uuid.UUID) (Object, error) {
	k, err := lookup(actor, c)
	if err != nil {
		return Object{}, err
	}
	var objs []Object
	err = s.read(ctx, func(q *queries.Queries) error {
		objs, err = read(ctx, q, k, c, Scope{Organization: &actor.OrganizationID, ID: &id})
		return err
	})
	if err != nil {
		return Object{}, err
	}
	if len(objs) == 0 {
		return Object{}, notFound(k, id)
	}
	return objs[0], nil
}

// Put creates or updates one object from body, the object in the layout document's format. Its id may
// be left out (the path's is used) and so may its organizationId (the admin's). It writes through the
// code path of `booking import`, so it validates alike, in one transaction that also writes the audit
// entry. ifMatch "" writes unconditionally; otherwise it must match the object's current ETag.
// Codes: 1001, 1013 (no such collection, or the id is another organization's), 2000 (the same messages
// as `booking import`), 4120 (stale ifMatch; nothing changed).
func (s *Service) Put(ctx context.Context, actor booking.User, c Collection, id uuid.UUID, body []byte, ifMatch string) (obj Object, created bool, err error) {
	k, err := lookup(actor, c)
	if err != nil {
		return Object{}, false, err
	}
	doc, err := document(c, id, actor.OrganizationID, body)
	if err != nil {
		return Object{}, false, err
	}
	err = s.change(ctx, func(q *queries.Queries, ev *outbox.Batch) error {
		before, err := current(ctx, q, k, c, actor.OrganizationID, id)
		if err != nil {
			return err
		}
		if err := checkIfMatch(before, ifMatch); err != nil {
			return err
		}
		if err := write(ctx, s.svc, q, ev, doc, booking.By(actor)); err != nil {
			return err
		}
		after, err := current(ctx, q, k, c, actor.OrganizationID, id)
		if err != nil {
			return err
		}
		obj, created = *after, before == nil
		return record(ctx, q, actor, before, after)
	})
	if err != nil {
		return Object{}, false, err
	}
	return obj, created, nil
}

// Delete deletes one object that nothing refers to, in a transaction that also writes the audit entry.
// An admin never deletes their own account, nor the organization's last active admin.
// Codes: 1001, 1013, 2000 (one's own account), 4015 (something refers to it; deactivate it instead),
// 4017, 4120.
func (s *Service) Delete(ctx context.Context, actor booking.User, c Collection, id uuid.UUID, ifMatch string) error {
	k, err := lookup(actor, c)
	if err != nil {
		return err
	}
	return s.change(ctx, func(q *queries.Queries, ev *outbox.Batch) error {
		before, err := current(ctx, q, k, c, actor.OrganizationID, id)
		if err != nil {
			return err
		}
		if before == nil {
			return notFound(k, id)
		}
		if err := checkIfMatch(before, ifMatch); err != nil {
			return err
		}
		if c == Users && id == actor.ID {
			return booking.Refuse(booking.CodeInvalidRequest, "refusal.layout.deleteSelf")
		}
		if err := remove(ctx, q, k, key{actor.OrganizationID, id}); err != nil {
			return err
		}
		if c == Users {
			if err := keepAnAdmin(ctx, q, actor.OrganizationID); err != nil {
				return err
			}
		}
		return record(ctx, q, actor, before, nil)
	})
}

// Export returns the organization's whole layout, without bookings, as a document that `booking import`
// loads back without changing anything.
// Codes: 1001.
func (s *Service) Export(ctx context.Context, actor booking.User) (Layout, error) {
	if err := requireAdmin(actor); err != nil {
		return Layout{}, err
	}
	var l Layout
	err := s.read(ctx, func(q *queries.Queries) error {
		var err error
		l, err = exportLayout(ctx, q, actor.OrganizationID)
		return err
	})
	return l, err
}

// MaxAuditEntries is the most entries Audit returns at once.
const MaxAuditEntries = 500

// Audit returns the organization's audit entries that f chooses, newest first. A Limit of 0 means 100.
// Codes: 1001, 2000 (a limit outside 0 to MaxAuditEntries).
func (s *Service) Audit(ctx context.Context, actor booking.User, f booking.AuditFilter) ([]booking.AuditEntry, error) {
	if err := requireAdmin(actor); err != nil {
		return nil, err
	}
	if f.Limit < 0 || f.Limit > MaxAuditEntries {
		return nil, booking.FieldRefuse(booking.CodeInvalidRequest, "limit", "refusal.layout.auditLimit", map[string]any{"Max": fmt.Sprint(MaxAuditEntries)})
	}
	if f.Limit == 0 {
		f.Limit = 100
	}
	return s.svc.ListAudit(ctx, actor.OrganizationID, f)
}

// MaxAuditNames is the most ids AuditNames names at once.
const MaxAuditNames = 5000

// AuditNames names the objects of the organization with the given ids, for reading its audit log: each
// by its name now, or by the name the log last recorded when it is deleted, with the time zone of its
// building (booking.AuditNames). Another organization's ids are left out.
// Codes: 1001, 2000 (more than MaxAuditNames ids).
func (s *Service) AuditNames(ctx context.Context, actor booking.User, ids []uuid.UUID) (map[uuid.UUID]booking.ObjectName, error) {
	if err := requireAdmin(actor); err != nil {
		return nil, err
	}
	if len(ids) > MaxAuditNames {
		return nil, booking.FieldRefuse(booking.CodeInvalidRequest, "ids", "refusal.layout.auditIDs", map[string]any{"Max": fmt.Sprint(MaxAuditNames)})
	}
	return s.svc.AuditNames(ctx, actor.OrganizationID, ids)
}

func requireAdmin(actor booking.User) error {
	if actor.Role != booking.RoleAdmin {
		return booking.Refuse(booking.CodeForbidden, "refusal.layout.forbidden")
	}
	return nil
}

// lookup refuses a non-admin and an unknown collection.
func lookup(actor booking.User, c Collection) (kind, error) {
	if err := requireAdmin(actor); err != nil {
		return kind{}, err
	}
	k, ok := kinds[c]
	if !ok {
		return kind{}, booking.Refuse(booking.CodeObjectNotFound, "refusal.layout.noCollection", map[string]any{"Name": strconv.Quote(string(c))})
	}
	return k, nil
}

func notFound(k kind, id uuid.UUID) error {
	return booking.Refuse(booking.CodeObjectNotFound, "refusal.layout.notFound", map[string]any{"Noun": nounOf(k.noun), "ID": id.String()})
}

// read returns the objects of collection c that scope chooses.
func read(ctx context.Context, q *queries.Queries, k kind, c Collection, scope Scope) ([]Object, error) {
	l, err := k.export(ctx, q, scope)
	if err != nil {
		return nil, err
	}
	doc, err := json.Marshal(l)
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", c, err)
	}
	var arrays map[Collection][]json.RawMessage
	if err := json.Unmarshal(doc, &arrays); err != nil {
		return nil, fmt.Errorf("decode %s: %w", c, err)
	}
	objs := make([]Object, 0, len(arrays[c]))
	for _, raw := range arrays[c] {
		var ids struct {
			ID uuid.UUID `json:"id"`
		}
		if err := json.Unmarshal(raw, &ids); err != nil {
			return nil, fmt.Errorf("decode %s id: %w", c, err)
		}
		objs = append(objs, Object{Collection: c, ID: ids.ID, JSON: raw, ETag: etag(raw)})
	}
	return objs, nil
}

// etag returns a strong entity tag of j: the quoted hex of the first 16 bytes of its SHA-256.
func etag(j []byte) string {
	sum := sha256.Sum256(j)
	return `"` + hex.EncodeToString(sum[:16]) + `"`
}

// CheckWrite refuses a write before its body is read: 1001 for anyone but an admin, 1013 for an unknown
// collection or an id another organization uses. With mustExist, an id the organization does not use
// in c is 1013 too. Put and Delete check again under their locks; this only spares reading a body that
// would be refused.
// Codes: 1001, 1013.
func (s *Service) CheckWrite(ctx context.Context, actor booking.User, c Collection, id uuid.UUID, mustExist bool) error {
	k, err := lookup(actor, c)
	if err != nil {
		return err
	}
	return s.read(ctx, func(q *queries.Queries) error {
		obj, err := existing(ctx, q, k, c, actor.OrganizationID, id)
		if err == nil && obj == nil && mustExist {
			return notFound(k, id)
		}
		return err
	})
}

// current takes the locks of an admin change and returns the object as it is now, or nil if there is
// none. An id any other object holds, of another collection or organization, is 1013: ids are global,
// and no object is created with one another holds.
func current(ctx context.Context, q *queries.Queries, k kind, c Collection, org, id uuid.UUID) (*Object, error) {
	// The locks in the order every writer takes them: the object ids' (which an import takes first), then
	// the organization's admin lock (which the rules of people's accounts take), then the id's.
	if err := q.ObjectIDsLock(ctx); err != nil {
		return nil, fmt.Errorf("lock object ids: %w", err)
	}
	if err := q.OrganizationAdminLock(ctx, org); err != nil {
		return nil, fmt.Errorf("lock admin changes: %w", err)
	}
	if err := q.ObjectIDLock(ctx, id); err != nil {
		return nil, fmt.Errorf("lock object id: %w", err)
	}
	return existing(ctx, q, k, c, org, id)
}

// existing returns the organization's object of c with the id, or nil if there is none; 1013 when any
// other object holds the id, of another collection or organization, without saying which.
func existing(ctx context.Context, q *queries.Queries, k kind, c Collection, org, id uuid.UUID) (*Object, error) {
	holders, err := q.ObjectIDHolders(ctx, []uuid.UUID{id})
	if err != nil {
		return nil, fmt.Errorf("find object id: %w", err)
	}
	for _, h := range holders {
		if h.Collection != string(c) || h.OrganizationID != org {
			return nil, notFound(k, id)
		}
	}
	objs, err := read(ctx, q, k, c, Scope{ID: &id})
	if err != nil {
		return nil, err
	}
	var mine *Object
	for i, obj := range objs {
		var o struct {
			OrganizationID uuid.UUID `json:"organizationId"`
		}
		if err := json.Unmarshal(obj.JSON, &o); err != nil {
			return nil, fmt.Errorf("decode %s organization: %w", c, err)
		}
		if o.OrganizationID != org {
			return nil, notFound(k, id)
		}
		mine = &objs[i]
	}
	return mine, nil
}

// checkIfMatch refuses a write whose If-Match does not name the current version. "*" matches any
// existing object; a list matches if one of its tags does.
func checkIfMatch(cur *Object, ifMatch string) error {
	if ifMatch == "" || cur != nil && booking.MatchesVersion(ifMatch, cur.ETag) {
		return nil
	}
	return booking.Refuse(booking.CodePreconditionFailed, "refusal.layout.ifMatch", map[string]any{"Tag": ifMatch})
}

// document turns body into a layout document holding that one object, with id and organizationId set.
func document(c Collection, id, org uuid.UUID, body []byte) (Layout, error) {
	if len(body) > MaxBody {
		return Layout{}, booking.Refuse(booking.CodeInvalidRequest, "refusal.layout.bodyTooLarge", map[string]any{"Max": fmt.Sprint(MaxBody)})
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil || fields == nil {
		return Layout{}, booking.Refuse(booking.CodeInvalidRequest, "refusal.layout.bodyNotObject")
	}
	if !sameID(fields, "id", id) {
		return Layout{}, booking.FieldRefuse(booking.CodeInvalidRequest, "id", "refusal.layout.notPathID", map[string]any{"ID": id.String()})
	}
	if !sameID(fields, "organizationId", org) {
		return Layout{}, booking.FieldRefuse(booking.CodeInvalidRequest, "organizationId", "refusal.layout.notOrganizationID",
			map[string]any{"ID": org.String()})
	}
	fields["id"], _ = json.Marshal(id.String())
	fields["organizationId"], _ = json.Marshal(org.String())
	// A person's oidcSubject of null unbinds their sign-in, as "" does; left out, it stays.
	if raw, ok := fields["oidcSubject"]; ok && c == Users && string(bytes.TrimSpace(raw)) == "null" {
		fields["oidcSubject"] = json.RawMessage(`""`)
	}
	obj, _ := json.Marshal(fields)
	doc, _ := json.Marshal(map[Collection][]json.RawMessage{c: {obj}})
	l, err := DecodeLayout(bytes.NewReader(doc))
	if d := (documentError{}); errors.As(err, &d) {
		return Layout{}, booking.InField(d.refusal, fmt.Sprintf("%s[0]", c))
	}
	if err != nil {
		return Layout{}, booking.FieldErrorf(booking.CodeInvalidRequest, fmt.Sprintf("%s[0]", c), "%v", err)
	}
	return l, nil
}

// sameID tells whether the field is left out or is want.
func sameID(fields map[string]json.RawMessage, name string, want uuid.UUID) bool {
	raw, ok := fields[name]
	if !ok {
		return true
	}
	var s string
	err := json.Unmarshal(raw, &s)
	return err == nil && strings.EqualFold(s, want.String())
}

// remove deletes the object, or refuses with 4015 naming what refers to it.
func remove(ctx context.Context, q *queries.Queries, k kind, obj key) error {
	if k.inUse != nil {
		n, err := k.inUse(ctx, q, obj)
		if err != nil {
			return fmt.Errorf("check %s in use: %w", k.noun, err)
		}
		if n > 0 {
			return inUse(k, obj.ID, resourcesOf(n))
		}
	}
	_, err := k.remove(ctx, q, obj)
	if e := interpretError(err); e.kind == failForeignKey {
		return inUse(k, obj.ID, strings.ReplaceAll(e.table, "_", " "))
	}
	if err != nil {
		return fmt.Errorf("delete %s: %w", k.noun, err)
	}
	return nil
}

// inUse refuses to delete the object id of kind k that by refers to: a table's name ("floors") or a
// phrase (resourcesOf).
func inUse(k kind, id uuid.UUID, by any) error {
	data := map[string]any{"Noun": nounOf(k.noun), "ID": id.String(), "By": by, "Instead": k.instead}
	switch k.instead {
	case deactivateIt:
		return booking.Refuse(booking.CodeObjectInUse, "refusal.layout.inUseDeactivate", data)
	case changeUsersOf:
		return booking.Refuse(booking.CodeObjectInUse, "refusal.layout.inUseRepoint", data)
	case deactivateUser:
		return booking.Refuse(booking.CodeObjectInUse, "refusal.layout.inUseDeactivateUser", data)
	}
	return booking.Refuse(booking.CodeObjectInUse, "refusal.layout.inUse", data)
}

// record writes the audit entry of a change from before to after (nil for none). A write that changed
// nothing is not recorded.
func record(ctx context.Context, q *queries.Queries, actor booking.User, before, after *Object) error {
	e := booking.AuditEntry{OrganizationID: actor.OrganizationID}
	e.ActorID, e.ActorName = booking.AuditActor(actor)
	switch {
	case before == nil:
		e.Action, e.Collection, e.ObjectID, e.After = booking.AuditCreate, string(after.Collection), after.ID, after.JSON
	case after == nil:
		e.Action, e.Collection, e.ObjectID, e.Before = booking.AuditDelete, string(before.Collection), before.ID, before.JSON
	case before.ETag == after.ETag:
		return nil
	default:
		e.Action, e.Collection, e.ObjectID, e.Before, e.After = booking.AuditUpdate, string(after.Collection), after.ID, before.JSON, after.JSON
	}
	return insertAudit(ctx, q, e)
}
