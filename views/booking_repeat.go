package views

import (
	"context"
	"slices"
	"strconv"
	"time"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/lang"
)

// RepeatForm is the "Repeat" part of the booking form, as typed: a recurring booking of one space from
// the chosen day on, made through the same domain rules as the API's series.
type RepeatForm struct {
	On         bool           // "Repeat this booking" is ticked
	Weekdays   []time.Weekday // the days of the week ticked; nil until the form is sent
	EveryWeeks string         // "1" to "4", as chosen
	Until      string         // the last day, YYYY-MM-DD as typed
	Mode       string         // booking.SeriesAll or booking.SeriesFree, as chosen
}

// RepeatDay is one day of the week the form offers.
type RepeatDay struct {
	Day     time.Weekday
	Value   string // as the form sends it: MONDAY
	Ticked  bool
	ShortID string // the checkbox's id
}

// repeatDays returns the days of the week, Monday first, each ticked as the form holds it; before the
// form is sent the chosen day's weekday is ticked.
func (f BookingForm) repeatDays() []RepeatDay {
	ticked := f.Repeat.Weekdays
	if ticked == nil && len(f.Days) > 0 {
		ticked = []time.Weekday{f.Days[0].Weekday()}
	}
	out := make([]RepeatDay, 7)
	for i := range out {
		d := time.Weekday((i + 1) % 7)
		v := booking.WeekdayName(d)
		out[i] = RepeatDay{Day: d, Value: v, Ticked: slices.Contains(ticked, d), ShortID: "b-repeat-" + v}
	}
	return out
}

// repeatEvery returns the choices of "every N weeks", with the one the form holds.
func (f BookingForm) repeatEvery(ctx context.Context) []Choice {
	chosen := f.Repeat.EveryWeeks
	if chosen == "" {
		chosen = "1"
	}
	out := make([]Choice, booking.MaxSeriesEveryWeeks)
	for i := range out {
		v := strconv.Itoa(i + 1)
		out[i] = Choice{Value: v, Label: lang.N(ctx, "find.repeatEveryWeeks", i+1), Chosen: v == chosen}
	}
	return out
}

// Choice is one option of a select.
type Choice struct {
	Value, Label string
	Chosen       bool
}

// repeatFree tells whether the form chooses to book the free days and name the others.
func (f BookingForm) repeatFree() bool { return f.Repeat.Mode == string(booking.SeriesFree) }

// repeatMin and repeatMax bound the last day: from the chosen day to MaxSeriesMonths after it.
func (f BookingForm) repeatMin() string {
	if len(f.Days) == 0 {
		return ""
	}
	return DateValue(f.Days[0])
}

func (f BookingForm) repeatMax() string {
	if len(f.Days) == 0 {
		return ""
	}
	return DateValue(f.Days[0].AddDate(0, booking.MaxSeriesMonths, 0))
}
