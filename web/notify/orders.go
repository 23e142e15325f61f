package notify

import (
	"strconv"
	"strings"
	"time"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/outbox"
)

// forProviders returns the e-mails to the contacts of the services ordered on the booking: a new order,
// a changed one (new time, quantity, delivery or comment) and a cancelled one. A service with no contact
// e-mail tells nobody. Orders on a booking waiting for approval wait for the approval.
func (st story) forProviders() []notice {
	ev := st.ev
	waiting := ev.Booking.Status == string(booking.StatusWaitingApproval)
	var title, lead string
	lines := st.orderLines()
	switch ev.Kind {
	case outbox.Created, outbox.Approved:
		if waiting {
			return nil
		}
		title, lead = "New order", "A booking orders your service."
	case outbox.Changed:
		if waiting {
			return nil
		}
		title, lead = "Order changed", "A booking that orders your service has moved."
	case outbox.ServicesChanged:
		if waiting {
			return nil
		}
		title, lead = "Order changed", "A booking changed what it orders of your service."
	case outbox.Cancelled, outbox.Expired, outbox.Rejected:
		title, lead = "Order cancelled", "A booking that ordered your service is cancelled: nothing needs delivering."
	default:
		return nil
	}
	out := st.orderNotices(lines, title, lead)
	if ev.Kind == outbox.ServicesChanged && !waiting {
		out = append(out, st.orderNotices(st.dropped, "Order cancelled", "A booking no longer orders your service: nothing needs delivering.")...)
	}
	return out
}

// orderNotices groups lines by their contact and returns one e-mail per contact.
func (st story) orderNotices(lines []orderLine, title, lead string) []notice {
	byEmail := map[string][]orderLine{}
	var order []string
	for _, l := range lines {
		k := strings.ToLower(strings.TrimSpace(l.Email))
		if k == "" {
			continue
		}
		if _, ok := byEmail[k]; !ok {
			order = append(order, k)
		}
		byEmail[k] = append(byEmail[k], l)
	}
	out := make([]notice, 0, len(order))
	for _, k := range order {
		ls := byEmail[k]
		facts := st.bookingFacts()
		for _, l := range ls {
			facts = append(facts, views.MailFact{Label: l.Name, Value: l.words()})
		}
		out = append(out, notice{to: person{Name: ls[0].Name, Email: ls[0].Email}, role: roleProvider,
			title: title + ": " + names(ls), lead: lead, facts: facts})
	}
	return out
}

// orderLines returns the services ordered on the booking.
func (st story) orderLines() []orderLine {
	loc, err := booking.Location(st.zone())
	if err != nil {
		loc = time.UTC
	}
	out := make([]orderLine, 0, len(st.b.Reservables))
	for _, br := range st.b.Reservables {
		l := orderLine{Name: br.Reservable.Name, Email: br.Reservable.Email, Comment: br.Comment,
			Quantity: strconv.Itoa(int(br.Quantity))}
		l.Delivery = st.ev.Booking.Start.Add(br.DeliveryTime).In(loc).Format("15:04")
		out = append(out, l)
	}
	return out
}

// words writes an order line: "3, delivered at 10:30 — «No nuts, please»".
func (l orderLine) words() string {
	if l.Quantity == "" {
		return "cancelled"
	}
	s := "quantity " + l.Quantity + ", delivered at " + l.Delivery
	if l.Comment != "" {
		s += " — “" + l.Comment + "”"
	}
	return s
}

// names joins the names of the services of lines.
func names(lines []orderLine) string {
	ns := make([]string, len(lines))
	for i, l := range lines {
		ns[i] = l.Name
	}
	return strings.Join(ns, ", ")
}

// bookingFacts are the lines that describe the booking in every e-mail about it.
func (st story) bookingFacts() []views.MailFact {
	b, s := st.b, st.ev.Booking
	facts := []views.MailFact{
		{Label: "What", Value: whatWords(b)},
		{Label: "When", Value: whenWords(s.Start, s.End, st.zone())},
		{Label: "Where", Value: whereWords(b)},
		{Label: "Organizer", Value: fullName(b.Organizer)},
		{Label: "Status", Value: statusWords(booking.Status(s.Status))},
	}
	if b.OnlineMeetingURL != "" {
		facts = append(facts, views.MailFact{Label: "Online meeting", Value: b.OnlineMeetingURL, Link: b.OnlineMeetingURL})
	}
	return facts
}

// whatWords names the booking: its subject, or the kind of place.
func whatWords(b booking.Booking) string {
	if s := strings.TrimSpace(b.Subject); s != "" {
		return s
	}
	if b.ResourceType == booking.CategoryWorkstation {
		return "Desk booking"
	}
	return "Room booking"
}

// calendarLocation is a booking's LOCATION in invitations and feeds alike: building, floor, resource,
// "Madrid HQ, Floor 2, Desk 2.14".
func calendarLocation(b booking.Booking) string {
	return b.Resource.Floor.Building.Name + ", " + b.Resource.Floor.Name + ", " + b.Resource.Name
}

// whereWords writes the place as an e-mail reads it, the place first: "Desk 2.14, Floor 2, Madrid HQ".
func whereWords(b booking.Booking) string {
	return b.Resource.Name + ", " + b.Resource.Floor.Name + ", " + b.Resource.Floor.Building.Name
}

// whenWords writes a booking's time in its building's zone: "Tue 1 Dec 2026, 09:00–13:00 Madrid time",
// with both dates when it spans midnight.
func whenWords(start, end time.Time, zone string) string {
	loc, err := booking.Location(zone)
	if err != nil {
		loc, zone = time.UTC, "UTC"
	}
	s, e := start.In(loc), end.In(loc)
	label := booking.ZoneLabel(zone)
	sy, sm, sd := s.Date()
	if ey, em, ed := e.Date(); sy == ey && sm == em && sd == ed {
		return s.Format("Mon 2 Jan 2006, 15:04") + "–" + e.Format("15:04") + " " + label
	}
	return s.Format("Mon 2 Jan 2006, 15:04") + " – " + e.Format("Mon 2 Jan 2006, 15:04") + " " + label
}

// statusWords says a booking's status as people say it.
func statusWords(s booking.Status) string {
	switch s {
	case booking.StatusWaitingApproval:
		return "Waiting for approval"
	case booking.StatusPending:
		return "Confirmed: check in when you arrive"
	case booking.StatusActive:
		return "Checked in"
	case booking.StatusFinished:
		return "Over"
	case booking.StatusExpired:
		return "Expired"
	case booking.StatusRejected:
		return "Rejected"
	case booking.StatusCancelled:
		return "Cancelled"
	}
	return string(s)
}
