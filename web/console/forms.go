package console

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
	"github.com/workspacebooking/booking/web/lang"
	"github.com/workspacebooking/booking/web/layout"
)

// The one way the console's forms work, for every area.
//
//   - Objects are read and written through layout.Service in the import format, decoded into their
//     import type with their version (object, list, get, put). Every form carries the version it was
//     opened with, so a form saved after someone else changed the object is refused (412) rather than
//     overwriting the change, and shows the current version.
//   - A path's id that is not an id names nothing: 404, as an unknown one (pathID).
//   - Fields are read from the posted form with the readers below.
//   - A refusal becomes words beside the form that caused it (refusal); the field it names is said as the
//     form labels it. Failures (5xx) and refusals about the page itself (401, 403, 404, 429) are answered
//     with the error page instead.

// object is an object of a collection decoded into its import type, with its version.
type object[T any] struct {
	V    T
	ETag string
}

// decode decodes an object of the import format into T.
func decode[T any](o layout.Object) (object[T], error) {
	var v T
	if err := json.Unmarshal(o.JSON, &v); err != nil {
		return object[T]{}, fmt.Errorf("decode %s %s: %w", o.Collection, o.ID, err)
	}
	return object[T]{V: v, ETag: o.ETag}, nil
}

// list reads a collection of the actor's organization, decoded.
func list[T any](ctx context.Context, s *Handlers, actor booking.User, coll layout.Collection) ([]object[T], error) {
	objs, err := s.layout.List(ctx, actor, coll)
	if err != nil {
		return nil, err
	}
	out := make([]object[T], 0, len(objs))
	for _, o := range objs {
		d, err := decode[T](o)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

// get reads one object of the actor's organization, decoded.
func get[T any](ctx context.Context, s *Handlers, actor booking.User, coll layout.Collection, id uuid.UUID) (object[T], error) {
	o, err := s.layout.Get(ctx, actor, coll, id)
	if err != nil {
		return object[T]{}, err
	}
	return decode[T](o)
}

// put saves v if its version is still ifMatch ("" for a new object), and returns it as saved.
func put[T any](ctx context.Context, s *Handlers, actor booking.User, coll layout.Collection, id uuid.UUID, v T, ifMatch string) (object[T], error) {
	body, err := json.Marshal(v)
	if err != nil {
		return object[T]{}, fmt.Errorf("encode %s: %w", coll, err)
	}
	o, _, err := s.layout.Put(ctx, actor, coll, id, body, ifMatch)
	if err != nil {
		return object[T]{}, err
	}
	return decode[T](o)
}

// pathID reads the id of a path parameter. One that is not an id names nothing, and is answered as an id
// unknown in the organization is: 404.
func pathID(c echo.Context, name string) (uuid.UUID, error) {
	v := c.Param(name)
	id, err := uuid.Parse(v)
	if err != nil || len(v) != 36 {
		return uuid.Nil, pathNotFound(name, v)
	}
	return id, nil
}

// pathNotFound is the refusal of a path parameter of the console that names nothing.
func pathNotFound(name, v string) error {
	data := map[string]any{"ID": strconv.Quote(kit.ClipText(v))}
	switch name {
	case "buildingId":
		return booking.Refuse(booking.CodeBuildingNotFound, "refusal.console.noBuilding", data)
	case "floorId":
		return booking.Refuse(booking.CodeFloorNotFound, "refusal.console.noFloor", data)
	case "resourceId":
		return booking.Refuse(booking.CodeResourceNotFound, "refusal.console.noResource", data)
	}
	return booking.Refuse(booking.CodeObjectNotFound, "refusal.console.noObject", data)
}

// The readers of a posted form's fields. label names the field in a refusal, as the form does.

// textField reads a field with its surrounding spaces trimmed.
func textField(form url.Values, name string) string { return strings.TrimSpace(form.Get(name)) }

// checkField reads a check box.
func checkField(form url.Values, name string) bool { return form.Get(name) == "true" }

// statusField reads the status select: ACTIVATED or DEACTIVATED.
func statusField(form url.Values) (string, error) {
	switch v := form.Get("status"); v {
	case booking.Activated, "DEACTIVATED":
		return v, nil
	default:
		return "", kit.Refuse("admin.common.chooseStatus")
	}
}

// numberField reads a whole number from lo to hi; label names the field in ctx's language ("the floor
// number").
func numberField(ctx context.Context, form url.Values, name, label string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(textField(form, name))
	if err != nil || n < lo || n > hi {
		return 0, kit.Refused(lang.T(ctx, "admin.common.numberRange", map[string]any{"Label": label, "Min": lo, "Max": hi}))
	}
	return n, nil
}

// choiceField reads an id chosen in a select; refused is the refusal when none is chosen ("choose a
// building"), in the page's language.
func choiceField(form url.Values, name, refused string) (string, error) {
	v := textField(form, name)
	if _, err := uuid.Parse(v); err != nil {
		return "", kit.Refused(refused)
	}
	return v, nil
}

// wholeNumber reads a whole number from 0 to max; empty is 0. Its refusal is in ctx's language.
func wholeNumber(ctx context.Context, form url.Values, name, label string, max int64) (int64, error) {
	v := textField(form, name)
	if v == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 || n > max {
		return 0, kit.RefuseForm("%s", lang.T(ctx, "admin.rules.refuseWholeNumber", map[string]any{"Label": label, "Max": max}))
	}
	return n, nil
}

// clockField reads a time of day written HH:MM as an offset from midnight; set is false when it is empty.
// Its refusal is in ctx's language.
func clockField(ctx context.Context, form url.Values, name, label string) (d time.Duration, set bool, err error) {
	v := textField(form, name)
	if v == "" {
		return 0, false, nil
	}
	if v == "24:00" {
		return 24 * time.Hour, true, nil
	}
	t, err := time.Parse("15:04", v)
	if err != nil {
		return 0, false, kit.RefuseForm("%s", lang.T(ctx, "admin.rules.refuseClock", map[string]any{"Label": label}))
	}
	return time.Duration(t.Hour())*time.Hour + time.Duration(t.Minute())*time.Minute, true, nil
}

// postedForm reads the posted form, refusing text the database cannot store.
func postedForm(c echo.Context) (url.Values, error) {
	form, err := c.FormParams()
	if err != nil {
		return nil, kit.Refuse("admin.common.formUnreadable", map[string]any{"Error": err})
	}
	return form, kit.CheckFormText(form)
}

// refusal turns a refused save, in the words of c's language, into the words shown beside the form that caused it, with the status to
// answer with. what names the object in a stale save ("building"); words names the fields as the form
// labels them, by their name in the import format ("endTime": "Until"). Anything else is returned as
// an error, for the error page: a failure, and refusals about the page rather than the form (401, 403,
// 404, 429).
func refusal(c echo.Context, err error, what string, words map[string]string) (*views.AdminProblem, int, error) {
	ctx := kit.Ctx(c)
	var fr *kit.FormRefusal
	if errors.As(err, &fr) {
		return &views.AdminProblem{Title: lang.T(ctx, "admin.common.checkForm"), Message: fr.Text}, fr.Status, nil
	}
	de, code := kit.Refusal(err)
	switch code {
	case 0, http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusTooManyRequests:
		return nil, 0, err
	case http.StatusPreconditionFailed:
		return &views.AdminProblem{
			Title:   lang.T(ctx, "admin.common.staleTitle"),
			Message: lang.T(ctx, "admin.common.staleMessage", map[string]any{"What": what}),
			Stale:   true,
		}, code, nil
	}
	if code >= 500 {
		return nil, 0, err
	}
	title := lang.T(ctx, "admin.common.notSaved")
	if code == http.StatusBadRequest {
		title = lang.T(ctx, "admin.common.checkForm")
	}
	return &views.AdminProblem{Title: title, Message: refusalWords(ctx, de, words), Field: formField(de.Field)}, code, nil
}

// refusalWords is a refusal's message for a person, in ctx's language when the refusal has its words
// there (booking.Error.In): the field named as the form labels it ("Until: must be after From") rather
// than by its path in the import format ("resourceRules[0].endTime: …").
func refusalWords(ctx context.Context, de *booking.Error, words map[string]string) string {
	msg := de.In(ctx)
	if de.Field == "" {
		return kit.PageErrorMessage(ctx, kit.Problem{Status: kit.HTTPStatus(de.Code), Code: int(de.Code), Detail: msg})
	}
	rest := strings.TrimPrefix(msg, de.Field+": ")
	if label, ok := words[formField(de.Field)]; ok {
		return kit.ToSentence(label + ": " + rest)
	}
	return kit.ToSentence(rest)
}

// formField is the name of a field in the import format without the object it belongs to:
// "resources[3].floorId" is "floorId".
func formField(path string) string {
	if i := strings.Index(path, "]."); i >= 0 {
		return path[i+2:]
	}
	return path
}

// listValues reads a collection as list does, as its values and their versions side by side.
func listValues[T any](ctx context.Context, s *Handlers, actor booking.User, coll layout.Collection) ([]T, []string, error) {
	objs, err := list[T](ctx, s, actor, coll)
	if err != nil {
		return nil, nil, err
	}
	vs, etags := make([]T, len(objs)), make([]string, len(objs))
	for i, o := range objs {
		vs[i], etags[i] = o.V, o.ETag
	}
	return vs, etags, nil
}

// getValue reads one object as get does, as its value and its version.
func getValue[T any](ctx context.Context, s *Handlers, actor booking.User, coll layout.Collection, id uuid.UUID) (T, string, error) {
	o, err := get[T](ctx, s, actor, coll, id)
	return o.V, o.ETag, err
}

// putValue saves an object as put does, and returns its value and its version as saved.
func putValue[T any](ctx context.Context, s *Handlers, actor booking.User, coll layout.Collection, id uuid.UUID, v T, ifMatch string) (T, string, error) {
	o, err := put(ctx, s, actor, coll, id, v, ifMatch)
	return o.V, o.ETag, err
}
