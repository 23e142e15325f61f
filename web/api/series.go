package api

import (
	"context"
	"net/http"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
)

// seriesRequest is the body of POST /users/{userId}/series. Pointers tell absent from zero.
type seriesRequest struct {
	Resource *struct {
		ID *string `json:"id"`
	} `json:"resource"`
	StartTime  *string  `json:"startTime"`
	EndTime    *string  `json:"endTime"`
	FirstDate  *string  `json:"firstDate"`
	UntilDate  *string  `json:"untilDate"`
	Weekdays   []string `json:"weekdays"`
	EveryWeeks *int     `json:"everyWeeks"`
	Mode       *string  `json:"mode"`
	Subject    *string  `json:"subject"`
}

// seriesChangeRequest is the body of PATCH /series/{seriesId}.
type seriesChangeRequest struct {
	From      *string `json:"from"`
	StartTime *string `json:"startTime"`
	EndTime   *string `json:"endTime"`
	Mode      *string `json:"mode"`
}

// seriesDTO is a series; Occurrences is left out of listings.
type seriesDTO struct {
	ID          string          `json:"id"`
	Organizer   idDTO           `json:"organizer"`
	Creator     idDTO           `json:"creator"`
	Resource    seriesResource  `json:"resource"`
	Weekdays    []string        `json:"weekdays"`
	EveryWeeks  int             `json:"everyWeeks"`
	FirstDate   string          `json:"firstDate"`
	UntilDate   string          `json:"untilDate"`
	StartTime   string          `json:"startTime"`
	EndTime     string          `json:"endTime"`
	TimeZone    string          `json:"timeZone"`
	Subject     string          `json:"subject"`
	Mode        string          `json:"mode"`
	Status      string          `json:"status"`
	Revision    int32           `json:"revision"`
	Occurrences []occurrenceDTO `json:"occurrences,omitempty"`
}

type seriesResource struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// occurrenceDTO is one day of a series: its booking, or why it has none (refused), or both after a
// change that could not move the booking.
type occurrenceDTO struct {
	Date    string      `json:"date"`
	Booking *bookingDTO `json:"booking,omitempty"`
	Refused *refusedDTO `json:"refused,omitempty"`
	Skipped bool        `json:"skipped,omitempty"`
}

type refusedDTO struct {
	Code   int    `json:"code"`
	Name   string `json:"name"`
	Detail string `json:"detail"`
}

type seriesListDTO struct {
	Series []seriesDTO `json:"series"`
}

// toSeries returns the JSON of sr, its refusals said in ctx's language.
func toSeries(ctx context.Context, sr booking.Series) seriesDTO {
	r := sr.Rule
	out := seriesDTO{
		ID: sr.ID.String(), Organizer: ref(sr.Organizer.ID.String()), Creator: ref(sr.Creator.ID.String()),
		Resource: seriesResource{ID: sr.Resource.ID.String(), Name: sr.Resource.Name}, EveryWeeks: r.EveryWeeks,
		FirstDate: r.First.String(), UntilDate: r.Until.String(), StartTime: booking.ClockOf(r.Start), EndTime: booking.ClockOf(r.End),
		TimeZone: sr.Timezone, Subject: sr.Subject, Mode: string(sr.Mode), Status: sr.Status, Revision: sr.Revision,
		Weekdays: make([]string, len(r.Weekdays)),
	}
	for i, d := range r.Weekdays {
		out.Weekdays[i] = booking.WeekdayName(d)
	}
	for _, o := range sr.Occurrences {
		dto := occurrenceDTO{Date: o.Date.String(), Skipped: o.Skipped}
		if o.Booking != nil {
			b := toBooking(*o.Booking)
			dto.Booking = &b
		}
		if o.Refused != nil {
			dto.Refused = &refusedDTO{Code: int(o.Refused.Code), Name: o.Refused.Code.Name(), Detail: o.Refused.In(ctx)}
		}
		out.Occurrences = append(out.Occurrences, dto)
	}
	return out
}

// CreateSeries is POST /api/v1/users/{me|userId}/series: a recurring booking, made all or none (mode
// ALL, the default) or day by day (FREE). It answers 201 with the series and its occurrences.
func (s *Handlers) CreateSeries(c echo.Context) error {
	actor, organizer, err := s.actingFor(c)
	if err != nil {
		return err
	}
	var req seriesRequest
	if err := decodeObject(c, &req, "resource", "startTime", "endTime", "firstDate", "untilDate", "weekdays", "everyWeeks", "mode", "subject"); err != nil {
		return err
	}
	r, err := req.toRequest()
	if err != nil {
		return err
	}
	r.Creator, r.Organizer = actor, organizer
	sr, err := s.bookings.CreateSeries(c.Request().Context(), r)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, toSeries(kit.Ctx(c), sr))
}

// toRequest reads the body's fields; the domain checks their bounds.
func (req seriesRequest) toRequest() (booking.SeriesRequest, error) {
	var r booking.SeriesRequest
	if req.Resource == nil || req.Resource.ID == nil {
		return r, kit.FieldRefuse("resource.id", "refusal.request.required")
	}
	var err error
	if r.ResourceID, err = kit.ParseUUID("resource.id", *req.Resource.ID); err != nil {
		return r, err
	}
	if r.Rule.Start, err = clockField("startTime", req.StartTime); err != nil {
		return r, err
	}
	if r.Rule.End, err = clockField("endTime", req.EndTime); err != nil {
		return r, err
	}
	if r.Rule.First, err = dateField("firstDate", req.FirstDate); err != nil {
		return r, err
	}
	if r.Rule.Until, err = dateField("untilDate", req.UntilDate); err != nil {
		return r, err
	}
	for _, w := range req.Weekdays {
		d, ok := booking.ParseWeekday(w)
		if !ok {
			return r, kit.FieldRefuse("weekdays", "refusal.request.notWeekday", map[string]any{"Value": w})
		}
		r.Rule.Weekdays = append(r.Rule.Weekdays, d)
	}
	r.Rule.EveryWeeks = 1
	if req.EveryWeeks != nil {
		r.Rule.EveryWeeks = *req.EveryWeeks
	}
	r.Mode, r.Subject = modeOf(req.Mode), deref(req.Subject)
	return r, nil
}

// modeOf returns the mode sent, ALL when none is.
func modeOf(m *string) booking.SeriesMode {
	if m == nil {
		return booking.SeriesAll
	}
	return booking.SeriesMode(*m)
}

// clockField reads a required time of day ("09:00") in minutes after midnight.
func clockField(field string, v *string) (int, error) {
	if v == nil {
		return 0, kit.FieldRefuse(field, "refusal.request.required")
	}
	m, err := booking.ParseClock(*v)
	if err != nil {
		return 0, kit.FieldRefuse(field, "refusal.request.notClock", map[string]any{"Value": *v})
	}
	return m, nil
}

// dateField reads a required date ("2026-12-01").
func dateField(field string, v *string) (booking.Date, error) {
	if v == nil {
		return booking.Date{}, kit.FieldRefuse(field, "refusal.request.required")
	}
	return parseDate(field, *v)
}

func parseDate(field, v string) (booking.Date, error) {
	d, err := booking.ParseDate(v)
	if err != nil {
		return booking.Date{}, kit.FieldRefuse(field, "refusal.request.notDate", map[string]any{"Value": v})
	}
	return d, nil
}

// UserSeries is GET /api/v1/users/{me|userId}/series: the user's series that have not ended, without
// their occurrences.
func (s *Handlers) UserSeries(c echo.Context) error {
	_, organizer, err := s.actingFor(c)
	if err != nil {
		return err
	}
	list, err := s.bookings.UserSeries(c.Request().Context(), organizer)
	if err != nil {
		return err
	}
	ctx := kit.Ctx(c)
	out := seriesListDTO{Series: make([]seriesDTO, len(list))}
	for i, sr := range list {
		out.Series[i] = toSeries(ctx, sr)
	}
	return c.JSON(http.StatusOK, out)
}

// onSeries runs do on the series named by {seriesId}, as the caller, and answers the series it returns.
func (s *Handlers) onSeries(c echo.Context, do func(ctx context.Context, actor booking.User, id uuid.UUID) (booking.Series, error)) error {
	id, err := kit.ParseUUID("seriesId", c.Param("seriesId"))
	if err != nil {
		return err
	}
	sr, err := do(c.Request().Context(), kit.Actor(c), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toSeries(kit.Ctx(c), sr))
}

// GetSeries is GET /api/v1/series/{seriesId}: the series with every occurrence.
func (s *Handlers) GetSeries(c echo.Context) error {
	return s.onSeries(c, s.bookings.Series)
}

// ChangeSeries is PATCH /api/v1/series/{seriesId} {from, startTime, endTime, mode}: new times of day
// from a date on (today when from is absent).
func (s *Handlers) ChangeSeries(c echo.Context) error {
	var req seriesChangeRequest
	if err := decodeObject(c, &req, "from", "startTime", "endTime", "mode"); err != nil {
		return err
	}
	var ch booking.SeriesChange
	var err error
	if ch.Start, err = clockField("startTime", req.StartTime); err != nil {
		return err
	}
	if ch.End, err = clockField("endTime", req.EndTime); err != nil {
		return err
	}
	if req.From != nil {
		if ch.From, err = parseDate("from", *req.From); err != nil {
			return err
		}
	}
	ch.Mode = modeOf(req.Mode)
	return s.onSeries(c, func(ctx context.Context, actor booking.User, id uuid.UUID) (booking.Series, error) {
		return s.bookings.ChangeSeries(ctx, actor, id, ch)
	})
}

// CancelSeries is DELETE /api/v1/series/{seriesId}[?from=YYYY-MM-DD]: cancels the whole series, or its
// days from a date on. One occurrence is cancelled as any booking (DELETE /bookings/{bookingId}).
func (s *Handlers) CancelSeries(c echo.Context) error {
	var from *booking.Date
	if v := c.QueryParam("from"); v != "" {
		d, err := parseDate("from", v)
		if err != nil {
			return err
		}
		from = &d
	}
	return s.onSeries(c, func(ctx context.Context, actor booking.User, id uuid.UUID) (booking.Series, error) {
		return s.bookings.CancelSeries(ctx, actor, id, from)
	})
}
