package api

import (
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
)

// FreeWorkstations is 4.2 for workstations (deprecated).
func (s *Handlers) FreeWorkstations(c echo.Context) error {
	return s.free(c, booking.CategoryWorkstation)
}

// FreeSpaces is 4.2 for spaces (deprecated).
func (s *Handlers) FreeSpaces(c echo.Context) error { return s.free(c, booking.CategorySpace) }

// free is GET /api/v1/users/{me|userId}/buildings/{buildingId}/{workstations|spaces}/subcategories/{subcategoryId}/free.
// It lists the resources of the subcategory that are free during every interval of bookingDays.
func (s *Handlers) free(c echo.Context, category booking.Category) error {
	c.Response().Header().Set("Deprecation", "true")
	c.Response().Header().Set("Link", fmt.Sprintf(`<%s/users/%s/buildings/%s/availability>; rel="successor-version"`,
		Prefix, url.PathEscape(c.Param("userId")), url.PathEscape(c.Param("buildingId"))))
	actor, _, err := s.actingFor(c)
	if err != nil {
		return err
	}
	q := booking.FreeQuery{Category: category}
	if q.BuildingID, err = kit.ParseUUID("buildingId", c.Param("buildingId")); err != nil {
		return err
	}
	if q.SubcategoryID, err = kit.ParseUUID("subcategoryId", c.Param("subcategoryId")); err != nil {
		return err
	}
	if q.Intervals, err = bookingDays(c); err != nil {
		return err
	}
	if q.FeatureIDs, err = featuresQuery(c); err != nil {
		return err
	}
	// Flags that do not change availability are still checked, so that a typo is not silently ignored.
	if category == booking.CategorySpace {
		if q.MinCapacity, err = capacityQuery(c); err != nil {
			return err
		}
		if _, err := boolQuery(c, "createOnlineMeeting"); err != nil {
			return err
		}
	} else {
		if q.AllDay, err = boolQuery(c, "allDayBookings"); err != nil {
			return err
		}
		if _, err := boolQuery(c, "isSupervisedBooking"); err != nil {
			return err
		}
	}
	rs, err := s.bookings.FreeResources(c.Request().Context(), actor, q)
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, func(b []byte) []byte { return appendFreeResources(b, rs) })
}

var bookingDayParam = regexp.MustCompile(`^bookingDays\[(\d+)\]\.(startDate|endDate)$`)

// bookingDays reads bookingDays[i].startDate and bookingDays[i].endDate (brackets percent-encoded or not:
// the query is decoded before it is read), in index order. A date given twice (repeated, or under two
// spellings of one index such as [1] and [01]) is refused: which one to take would be a guess.
func bookingDays(c echo.Context) ([]booking.Interval, error) {
	type day struct{ start, end *time.Time }
	days := map[int]*day{}
	for key, vs := range c.QueryParams() {
		m := bookingDayParam.FindStringSubmatch(key)
		if m == nil {
			if strings.HasPrefix(key, "bookingDays") {
				return nil, kit.Refuse("refusal.request.badBookingDay", map[string]any{"Key": strconv.Quote(key)})
			}
			continue
		}
		i, err := strconv.Atoi(m[1])
		if err != nil || i >= booking.MaxFreeIntervals {
			return nil, kit.FieldRefuse(key, "refusal.request.tooManyIntervals", map[string]any{"Max": booking.MaxFreeIntervals})
		}
		v, err := parseMillis(key, vs[0])
		if err != nil {
			return nil, err
		}
		d := days[i]
		if d == nil {
			d = &day{}
			days[i] = d
		}
		field := &d.end
		if m[2] == "startDate" {
			field = &d.start
		}
		if *field != nil || len(vs) > 1 {
			return nil, kit.FieldRefuse(fmt.Sprintf("bookingDays[%d].%s", i, m[2]), "refusal.request.givenTwice")
		}
		*field = &v
	}
	if len(days) == 0 {
		return nil, kit.FieldRefuse("bookingDays", "refusal.request.intervalRequired")
	}
	out := make([]booking.Interval, 0, len(days))
	for _, i := range slices.Sorted(maps.Keys(days)) {
		d := days[i]
		if d.start == nil || d.end == nil {
			return nil, kit.FieldRefuse(fmt.Sprintf("bookingDays[%d]", i), "refusal.request.startAndEndRequired")
		}
		out = append(out, booking.Interval{Start: *d.start, End: *d.end})
	}
	return out, nil
}
