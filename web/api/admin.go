package api

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
	"github.com/workspacebooking/booking/web/layout"
)

// The Admin API: the objects of the caller's organization, one at a time, in the format of the layout
// document; the whole organization as one document; the audit log. Admins only (web/layout refuses others).

// AdminLayout is GET /api/v1/admin/layout: the organization as an import document.
func (s *Handlers) AdminLayout(c echo.Context) error {
	l, err := s.layout.Export(c.Request().Context(), kit.Actor(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, l)
}

// AdminList is GET /api/v1/admin/{collection}: {"<collection>": [objects]}, in id order.
func (s *Handlers) AdminList(c echo.Context) error {
	col := layout.Collection(c.Param("collection"))
	objs, err := s.layout.List(c.Request().Context(), kit.Actor(c), col)
	if err != nil {
		return err
	}
	out := make([]json.RawMessage, len(objs))
	for i, o := range objs {
		out[i] = o.JSON
	}
	return c.JSON(http.StatusOK, map[layout.Collection][]json.RawMessage{col: out})
}

// AdminGet is GET /api/v1/admin/{collection}/{id}: the object, with its ETag.
func (s *Handlers) AdminGet(c echo.Context) error {
	id, err := kit.ParseUUID("id", c.Param("id"))
	if err != nil {
		return err
	}
	obj, err := s.layout.Get(c.Request().Context(), kit.Actor(c), layout.Collection(c.Param("collection")), id)
	if err != nil {
		return err
	}
	return objectAnswer(c, http.StatusOK, obj)
}

// AdminPut is PUT /api/v1/admin/{collection}/{id}: creates (201) or updates (200) the object, under
// If-Match when it is sent.
func (s *Handlers) AdminPut(c echo.Context) error {
	id, err := kit.ParseUUID("id", c.Param("id"))
	if err != nil {
		return err
	}
	col := layout.Collection(c.Param("collection"))
	// Refuse a caller or an object that cannot be written before reading a byte of the body.
	if err := s.layout.CheckWrite(c.Request().Context(), kit.Actor(c), col, id, false); err != nil {
		return err
	}
	body, err := kit.ReadBody(c)
	if err != nil {
		return err
	}
	obj, created, err := s.layout.Put(c.Request().Context(), kit.Actor(c), col, id, body, ifMatch(c))
	if err != nil {
		return err
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	return objectAnswer(c, status, obj)
}

// AdminDelete is DELETE /api/v1/admin/{collection}/{id}: 204, for an object nothing refers to.
func (s *Handlers) AdminDelete(c echo.Context) error {
	id, err := kit.ParseUUID("id", c.Param("id"))
	if err != nil {
		return err
	}
	if err := s.layout.Delete(c.Request().Context(), kit.Actor(c), layout.Collection(c.Param("collection")), id, ifMatch(c)); err != nil {
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

// AdminAudit is GET /api/v1/admin/audit?collection=&objectId=&actorId=&from=&to=&limit=&cursor=: the
// audit log, newest first, a page at a time.
func (s *Handlers) AdminAudit(c echo.Context) error {
	f, err := auditQuery(c)
	if err != nil {
		return err
	}
	entries, err := s.layout.Audit(c.Request().Context(), kit.Actor(c), f)
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
		return f, kit.FieldRefuse("collection", "refusal.request.longerThanBytes", map[string]any{"Max": 64})
	}
	if f.ObjectID, err = kit.UUIDQuery(c, "objectId"); err != nil {
		return f, err
	}
	if f.ActorID, err = kit.UUIDQuery(c, "actorId"); err != nil {
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
			return f, kit.FieldRefuse("limit", "refusal.request.limitRange", map[string]any{"Value": strconv.Quote(v), "Max": layout.MaxAuditEntries})
		}
		f.Limit = int32(n)
	}
	if v := c.QueryParam("cursor"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1 {
			return f, kit.FieldRefuse("cursor", "refusal.request.badCursor", map[string]any{"Value": strconv.Quote(v)})
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
