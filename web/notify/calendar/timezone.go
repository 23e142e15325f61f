package calendar

import (
	"fmt"
	"time"

	"github.com/emersion/go-ical"
)

// span is a zone and the instants its VTIMEZONE covers.
type span struct {
	zone     *time.Location
	from, to time.Time
}

// timezones returns one VTIMEZONE for each zone the events use, told apart by name, in the order
// of first use. Each covers the changes of offset from a year before the zone's first event to a
// year after its last.
func timezones(events []Event) []*ical.Component {
	var spans []*span
	byName := map[string]*span{}
	for _, ev := range events {
		z := zoneOf(ev.Zone)
		if z == nil {
			continue
		}
		s := byName[z.String()]
		if s == nil {
			s = &span{zone: z, from: ev.Start, to: ev.End}
			byName[z.String()] = s
			spans = append(spans, s)
		}
		if ev.Start.Before(s.from) {
			s.from = ev.Start
		}
		if ev.End.After(s.to) {
			s.to = ev.End
		}
	}
	out := make([]*ical.Component, 0, len(spans))
	for _, s := range spans {
		out = append(out, vtimezone(s.zone, s.from.AddDate(-1, 0, 0), s.to.AddDate(1, 0, 0)))
	}
	return out
}

// vtimezone returns the VTIMEZONE of zone from Go's zone data: the observance in force at from,
// then one for each change of offset up to to. Each is written with its own DTSTART and no RRULE,
// so a client needs no rule of its own. A zone that never changes gets a single STANDARD.
func vtimezone(zone *time.Location, from, to time.Time) *ical.Component {
	c := ical.NewComponent(ical.CompTimezone)
	setText(c.Props, ical.PropTimezoneID, zone.String())
	start, end := from.In(zone).ZoneBounds()
	c.Children = append(c.Children, observance(zone, start, from))
	// ZoneBounds gives a zero end when the offset never changes again.
	for !end.IsZero() && !end.After(to) {
		c.Children = append(c.Children, observance(zone, end, end))
		_, end = end.In(zone).ZoneBounds()
	}
	return c
}

// observance returns the STANDARD or DAYLIGHT component of the offset zone has at instant in,
// which began at start (zero when it has no beginning in the zone data).
func observance(zone *time.Location, start, in time.Time) *ical.Component {
	t := in.In(zone)
	name, offset := t.Zone()
	kind := ical.CompTimezoneStandard
	if t.IsDST() {
		kind = ical.CompTimezoneDaylight
	}
	// DTSTART is the wall time when the offset began, read with the offset before it.
	prev := offset
	dtstart := "19700101T000000"
	if !start.IsZero() {
		_, prev = start.Add(-time.Second).In(zone).Zone()
		dtstart = start.UTC().Add(time.Duration(prev) * time.Second).Format(localLayout)
	}
	c := ical.NewComponent(kind)
	c.Props.Set(&ical.Prop{Name: ical.PropDateTimeStart, Params: ical.Params{}, Value: dtstart})
	c.Props.Set(&ical.Prop{Name: ical.PropTimezoneOffsetFrom, Params: ical.Params{}, Value: utcOffset(prev)})
	c.Props.Set(&ical.Prop{Name: ical.PropTimezoneOffsetTo, Params: ical.Params{}, Value: utcOffset(offset)})
	if name != "" {
		setText(c.Props, ical.PropTimezoneName, name)
	}
	return c
}

// utcOffset writes seconds east of UTC as a UTC-OFFSET value (RFC 5545 §3.3.14): +HHMM, with
// seconds only when there are some. Zero is "+0000", since "-0000" is not allowed.
func utcOffset(seconds int) string {
	sign := '+'
	if seconds < 0 {
		sign, seconds = '-', -seconds
	}
	h, m, s := seconds/3600, seconds/60%60, seconds%60
	if s != 0 {
		return fmt.Sprintf("%c%02d%02d%02d", sign, h, m, s)
	}
	return fmt.Sprintf("%c%02d%02d", sign, h, m)
}
