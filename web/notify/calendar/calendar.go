// Package calendar builds the iCalendar documents (RFC 5545) of bookings: the invitations (RFC 5546)
// that booking e-mails carry, and the published calendars of the feeds. It reads no database and
// knows nothing of HTTP.
package calendar

import (
	"bytes"
	"errors"
	"fmt"
	"time"

	"github.com/emersion/go-ical"
)

// Method is the iTIP method of an invitation.
type Method string

// The methods of RFC 5546 that the service sends.
const (
	Request Method = "REQUEST"
	Cancel  Method = "CANCEL"
)

// Person is an organizer or an attendee: an e-mail address and, when Name is set, a CN parameter.
// An organizer without Email is left out of a feed; an invitation needs one.
type Person struct{ Name, Email string }

// Event is one booking as a calendar event. UID, Stamp, Start and End are required, End is after
// Start, and Status is one of "CONFIRMED", "TENTATIVE" or "CANCELLED".
type Event struct {
	UID         string    // stable per booking, e.g. "<booking uuid>@<host>"
	Sequence    int       // grows with every change and on cancel
	Stamp       time.Time // DTSTAMP (written in UTC)
	Start, End  time.Time
	Zone        *time.Location // the building's zone: DTSTART/DTEND carry TZID=<zone name>, and a VTIMEZONE for it is included
	Summary     string
	Description string
	Location    string   // "Building, Floor, Resource"
	URL         string   // online meeting link; "" for none (then no URL property)
	Status      string   // "CONFIRMED", "TENTATIVE" or "CANCELLED"
	Transparent bool     // desks: TRANSP:TRANSPARENT; otherwise TRANSP:OPAQUE
	Organizer   Person   // ORGANIZER;CN="Name":mailto:email
	Attendees   []Person // ATTENDEE;CN=...;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=FALSE:mailto:...
	Repeat      *Repeat  // a weekly series whose first occurrence is Start–End: RRULE and EXDATEs; nil for one
}

// prodID names the service as the maker of the documents.
const prodID = "-//Workspace Booking//Booking//EN"

// Invite returns a VCALENDAR with METHOD:<method>, PRODID, VERSION:2.0, CALSCALE:GREGORIAN, one VTIMEZONE
// for ev.Zone (none when it is nil or UTC) and one VEVENT. For Cancel the STATUS is CANCELLED whatever
// ev.Status says. It refuses an unknown method, an event Feed would refuse, an event without an
// organizer or an attendee, and a request without a summary.
func Invite(method Method, ev Event) ([]byte, error) {
	switch method {
	case Request:
		if ev.Summary == "" {
			return nil, errors.New("calendar: invite: a request needs a summary")
		}
	case Cancel:
		ev.Status = "CANCELLED"
	default:
		return nil, fmt.Errorf("calendar: invite: unknown method %q", method)
	}
	if ev.Organizer.Email == "" {
		return nil, errors.New("calendar: invite: no organizer")
	}
	if len(ev.Attendees) == 0 {
		return nil, errors.New("calendar: invite: no attendee")
	}
	if err := check(ev); err != nil {
		return nil, fmt.Errorf("calendar: invite: %w", err)
	}
	cal := newCalendar()
	setText(cal.Props, ical.PropMethod, string(method))
	out, err := encode(cal, []Event{ev})
	if err != nil {
		return nil, fmt.Errorf("calendar: invite: %w", err)
	}
	return out, nil
}

// Feed returns a VCALENDAR with no METHOD (a published calendar), X-WR-CALNAME:<name>,
// one VTIMEZONE per distinct zone used, and one VEVENT per event, in the order given. Zones are told
// apart by name. It refuses an event without a UID, stamp, start or end, with End not after Start,
// with an unknown status or a negative sequence, with a bad URL or e-mail address, or in a zone
// without a name.
func Feed(name string, events []Event) ([]byte, error) {
	for i, ev := range events {
		if err := check(ev); err != nil {
			return nil, fmt.Errorf("calendar: feed: event %d (%s): %w", i, ev.UID, err)
		}
	}
	cal := newCalendar()
	setText(cal.Props, "X-WR-CALNAME", name)
	out, err := encode(cal, events)
	if err != nil {
		return nil, fmt.Errorf("calendar: feed: %w", err)
	}
	return out, nil
}

// ContentType returns the MIME type of an invitation: `text/calendar; method=REQUEST; charset=UTF-8`.
func ContentType(method Method) string {
	return "text/calendar; method=" + string(method) + "; charset=UTF-8"
}

// newCalendar returns a VCALENDAR with the properties every document has.
func newCalendar() *ical.Calendar {
	cal := ical.NewCalendar()
	setText(cal.Props, ical.PropProductID, prodID)
	setText(cal.Props, ical.PropVersion, "2.0")
	setText(cal.Props, ical.PropCalendarScale, "GREGORIAN")
	return cal
}

// placeholder is a component put in a calendar with no event and cut out after encoding.
const placeholder = "X-NO-EVENTS"

// encode adds the events, which check has passed, and their zones to cal, and returns its text,
// folded.
func encode(cal *ical.Calendar, events []Event) ([]byte, error) {
	cal.Children = append(cal.Children, timezones(events)...)
	for _, ev := range events {
		cal.Children = append(cal.Children, vevent(ev))
	}
	// go-ical refuses a VCALENDAR without a component. RFC 5545 wants one too, but a feed of someone
	// with no bookings must still be served, and calendar clients accept it empty.
	if len(cal.Children) == 0 {
		cal.Children = append(cal.Children, ical.NewComponent(placeholder))
	}
	var buf bytes.Buffer
	if err := ical.NewEncoder(&buf).Encode(cal); err != nil {
		return nil, err
	}
	out := bytes.Replace(buf.Bytes(), []byte("BEGIN:"+placeholder+"\r\nEND:"+placeholder+"\r\n"), nil, 1)
	return fold(out), nil
}

// vevent returns the VEVENT of ev, which check has passed.
func vevent(ev Event) *ical.Component {
	c := ical.NewComponent(ical.CompEvent)
	setText(c.Props, ical.PropUID, ev.UID)
	setInt(c.Props, ical.PropSequence, ev.Sequence)
	setUTC(c.Props, ical.PropDateTimeStamp, ev.Stamp)
	setTime(c.Props, ical.PropDateTimeStart, ev.Start, ev.Zone)
	setTime(c.Props, ical.PropDateTimeEnd, ev.End, ev.Zone)
	for name, text := range map[string]string{
		ical.PropSummary:     ev.Summary,
		ical.PropDescription: ev.Description,
		ical.PropLocation:    ev.Location,
	} {
		if text != "" {
			setText(c.Props, name, text)
		}
	}
	if u, _ := uri(ev.URL); u != "" {
		c.Props.Set(&ical.Prop{Name: ical.PropURL, Params: ical.Params{}, Value: u})
	}
	setText(c.Props, ical.PropStatus, ev.Status)
	addRepeat(c, ev)
	transp := "OPAQUE"
	if ev.Transparent {
		transp = "TRANSPARENT"
	}
	setText(c.Props, ical.PropTransparency, transp)
	if ev.Organizer.Email != "" {
		c.Props.Set(address(ical.PropOrganizer, ev.Organizer, nil))
	}
	for _, p := range ev.Attendees {
		c.Props.Add(address(ical.PropAttendee, p, ical.Params{
			ical.ParamRole:                {"REQ-PARTICIPANT"},
			ical.ParamParticipationStatus: {"NEEDS-ACTION"},
			ical.ParamRSVP:                {"FALSE"},
		}))
	}
	return c
}

// address returns an ORGANIZER or ATTENDEE property for p, with params and p's name as CN.
func address(name string, p Person, params ical.Params) *ical.Prop {
	if params == nil {
		params = ical.Params{}
	}
	if cn := cleanParam(p.Name); cn != "" {
		params.Set(ical.ParamCommonName, cn)
	}
	return &ical.Prop{Name: name, Params: params, Value: "mailto:" + p.Email}
}
