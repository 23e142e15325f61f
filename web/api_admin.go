package web

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/layout"
)

// The Admin API: the objects of the caller's organization, one at a time, in the format of the layout
// document; the whole organization as one document; the audit log. Admins only (web/layout refuses others).

// currentAdmin reads the actor of an Admin API write again from the database, so that a role change or
// a deactivation made on any instance counts at once, whatever the token cache remembers. It refuses a
// deactivated or unknown person with 1000 and anyone but an admin with 1001, before the body is read.
func (s *Server) currentAdmin(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		actor := actorFrom(c)
		u, err := s.bookings.UserByID(c.Request().Context(), actor.OrganizationID, actor.ID)
		if err != nil {
			return err
		}
		if u.Role != booking.RoleAdmin {
			return booking.Errorf(booking.CodeForbidden, "only admins may manage the organization")
		}
		c.Set(actorKey, u)
		return next(c)
	}
}

// apiAdminLayout is GET /api/v1/admin/layout: the organization as an import document.
func (s *Server) apiAdminLayout(c echo.Context) error {
	l, err := s.admin.Export(c.Request().Context(), actorFrom(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, l)
}

// apiAdminList is GET /api/v1/admin/{collection}: {"<collection>": [objects]}, in id order.
func (s *Server) apiAdminList(c echo.Context) error {
	col := layout.Collection(c.Param("collection"))
	objs, err := s.admin.List(c.Request().Context(), actorFrom(c), col)
	if err != nil {
		return err
	}
	out := make([]json.RawMessage, len(objs))
	for i, o := range objs {
		out[i] = o.JSON
	}
	return c.JSON(http.StatusOK, map[layout.Collection][]json.RawMessage{col: out})
}

// apiAdminGet is GET /api/v1/admin/{collection}/{id}: the object, with its ETag.
func (s *Server) apiAdminGet(c echo.Context) error {
	id, err := parseUUID("id", c.Param("id"))
	if err != nil {
		return err
	}
	obj, err := s.admin.Get(c.Request().Context(), actorFrom(c), layout.Collection(c.Param("collection")), id)
	if err != nil {
		return err
	}
	return objectAnswer(c, http.StatusOK, obj)
}

// apiAdminPut is PUT /api/v1/admin/{collection}/{id}: creates (201) or updates (200) the object, under
// If-Match when it is sent.
func (s *Server) apiAdminPut(c echo.Context) error {
	id, err := parseUUID("id", c.Param("id"))
	if err != nil {
		return err
	}
	col := layout.Collection(c.Param("collection"))
	// Refuse a caller or an object that cannot be written before reading a byte of the body.
	if err := s.admin.CheckWrite(c.Request().Context(), actorFrom(c), col, id, false); err != nil {
		return err
	}
	body, err := readBody(c)
	if err != nil {
		return err
	}
	obj, created, err := s.admin.Put(c.Request().Context(), actorFrom(c), col, id, body, ifMatch(c))
	if err != nil {
		return err
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	return objectAnswer(c, status, obj)
}

// apiAdminDelete is DELETE /api/v1/admin/{collection}/{id}: 204, for an object nothing refers to.
func (s *Server) apiAdminDelete(c echo.Context) error {
	id, err := parseUUID("id", c.Param("id"))
	if err != nil {
		return err
	}
	if err := s.admin.Delete(c.Request().Context(), actorFrom(c), layout.Collection(c.Param("collection")), id, ifMatch(c)); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// maxIfMatch bounds the If-Match header the service reads.
const maxIfMatch = 1024

// ifMatch returns the If-Match list, its field lines joined as one (RFC 9110, 5.3): a client may send
// the tags of one list on several lines.
func ifMatch(c echo.Context) string {
	v := strings.Join(c.Request().Header.Values("If-Match"), ", ")
	if len(v) > maxIfMatch {
		v = v[:maxIfMatch]
	}
	return v
}

func objectAnswer(c echo.Context, status int, obj layout.Object) error {
	c.Response().Header().Set("ETag", obj.ETag)
	return c.JSONBlob(status, obj.JSON)
}

// apiAdminAudit is GET /api/v1/admin/audit?collection=&objectId=&actorId=&from=&to=&limit=&cursor=: the
// audit log, newest first, a page at a time.
func (s *Server) apiAdminAudit(c echo.Context) error {
	f, err := auditQuery(c)
	if err != nil {
		return err
	}
	entries, err := s.admin.Audit(c.Request().Context(), actorFrom(c), f)
	if err != nil {
		return err
	}
	out := auditPageDTO{Entries: make([]auditEntryDTO, len(entries))}
	for i, e := range entries {
		out.Entries[i] = toAuditEntry(e)
	}
	if n := len(entries); n > 0 && n == int(f.Limit) {
		next := strconv.FormatInt(entries[n-1].ID, 10)
		out.NextCursor = &next
	}
	return c.JSON(http.StatusOK, out)
}

// defaultAuditLimit is the page size of the audit log when limit is not given.
const defaultAuditLimit = 100

// auditQuery reads the filters of the audit log.
func auditQuery(c echo.Context) (booking.AuditFilter, error) {
	f := booking.AuditFilter{Collection: c.QueryParam("collection"), Limit: defaultAuditLimit}
	var err error
	if len(f.Collection) > 64 {
		return f, invalid("collection: longer than 64 bytes")
	}
	if f.ObjectID, err = uuidQuery(c, "objectId"); err != nil {
		return f, err
	}
	if f.ActorID, err = uuidQuery(c, "actorId"); err != nil {
		return f, err
	}
	if f.From, err = msQuery(c, "from"); err != nil {
		return f, err
	}
	if f.To, err = msQuery(c, "to"); err != nil {
		return f, err
	}
	if v := c.QueryParam("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > layout.MaxAuditEntries {
			return f, invalid("limit: %q is not a whole number between 1 and %d", v, layout.MaxAuditEntries)
		}
		f.Limit = int32(n)
	}
	if v := c.QueryParam("cursor"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1 {
			return f, invalid("cursor: %q is not a cursor this service gave", v)
		}
		f.BeforeID = &n
	}
	return f, nil
}

// auditPageDTO is a page of the audit log.
type auditPageDTO struct {
	Entries    []auditEntryDTO `json:"entries"`
	NextCursor *string         `json:"nextCursor"`
}

// auditEntryDTO is one change: who, when (ms since the epoch), which object, before and after.
type auditEntryDTO struct {
	ID         int64           `json:"id"`
	At         int64           `json:"at"`
	Actor      auditActorDTO   `json:"actor"`
	Collection string          `json:"collection"`
	ObjectID   uuid.UUID       `json:"objectId"`
	Action     string          `json:"action"`
	Before     json.RawMessage `json:"before"`
	After      json.RawMessage `json:"after"`
}

// auditActorDTO is who made a change; id is null for a change nobody signed in made.
type auditActorDTO struct {
	ID   *uuid.UUID `json:"id"`
	Name string     `json:"name"`
}

func toAuditEntry(e booking.AuditEntry) auditEntryDTO {
	return auditEntryDTO{
		ID: e.ID, At: e.At.UnixMilli(), Actor: auditActorDTO{ID: e.ActorID, Name: e.ActorName},
		Collection: e.Collection, ObjectID: e.ObjectID, Action: string(e.Action), Before: e.Before, After: e.After,
	}
}
