package notify

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/lang"
	"github.com/workspacebooking/booking/web/outbox"
)

// forProviders returns the e-mails to the contacts of the services ordered on the booking: a new order,
// a changed one (new time, quantity, delivery or comment) and a cancelled one. A service with no contact
// e-mail tells nobody. Orders on a booking waiting for approval wait for the approval. A contact has no
// account: they read the organizer's language.
func (st story) forProviders() []notice {
	ev := st.ev
	waiting := ev.Booking.Status == string(booking.StatusWaitingApproval)
	var news orderNews
	switch ev.Kind {
	case outbox.Created, outbox.Approved:
		news = orderNew
	case outbox.Changed:
		news = orderMoved
	case outbox.ServicesChanged:
		news = orderChanged
	case outbox.Cancelled, outbox.Expired, outbox.Rejected:
		news = orderCancelled
	default:
		return nil
	}
	if waiting && news != orderCancelled {
		return nil
	}
	out := st.orderNotices(st.orderLines(), news)
	if ev.Kind == outbox.ServicesChanged && !waiting {
		out = append(out, st.orderNotices(st.dropped, orderDropped)...)
	}
	return out
}

// orderNews is what an e-mail to a service's contact tells.
type orderNews int

const (
	orderNew       orderNews = iota // a booking orders the service
	orderMoved                      // a booking that orders it has moved
	orderChanged                    // a booking changed what it orders of it
	orderCancelled                  // a booking that ordered it is cancelled
	orderDropped                    // a booking no longer orders it
)

// words returns the title and first sentence of an e-mail telling news about the services named.
func (news orderNews) words(ctx context.Context, services string) (title, lead string) {
	s := map[string]any{"Services": services}
	switch news {
	case orderNew:
		return lang.T(ctx, "mail.orderNew", s), lang.T(ctx, "mail.orderNewLead")
	case orderMoved:
		return lang.T(ctx, "mail.orderChanged", s), lang.T(ctx, "mail.orderMovedLead")
	case orderChanged:
		return lang.T(ctx, "mail.orderChanged", s), lang.T(ctx, "mail.orderChangedLead")
	case orderCancelled:
		return lang.T(ctx, "mail.orderCancelled", s), lang.T(ctx, "mail.orderCancelledLead")
	}
	return lang.T(ctx, "mail.orderCancelled", s), lang.T(ctx, "mail.orderDroppedLead")
}

// orderNotices groups lines by their contact and returns one e-mail per contact.
func (st story) orderNotices(lines []orderLine, news orderNews) []notice {
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
		to := person{Name: ls[0].Name, Email: ls[0].Email, Lang: st.organizer().Lang}
		ctx := to.words()
		facts := st.bookingFacts(ctx)
		for _, l := range ls {
			facts = append(facts, views.MailFact{Label: l.Name, Value: l.words(ctx)})
		}
		title, lead := news.words(ctx, names(ls))
		out = append(out, notice{to: to, role: roleProvider, title: title, lead: lead, facts: facts})
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
		l.Delivery = lang.Clock(st.ev.Booking.Start.Add(br.DeliveryTime).In(loc))
		out = append(out, l)
	}
	return out
}

// words writes an order line: "quantity 3, delivered at 10:30 — “No nuts, please”".
func (l orderLine) words(ctx context.Context) string {
	if l.Quantity == "" {
		return lang.T(ctx, "mail.orderLineCancelled")
	}
	d := map[string]any{"Quantity": l.Quantity, "Delivery": l.Delivery, "Comment": l.Comment}
	if l.Comment != "" {
		return lang.T(ctx, "mail.orderLineComment", d)
	}
	return lang.T(ctx, "mail.orderLine", d)
}

// names joins the names of the services of lines.
func names(lines []orderLine) string {
	ns := make([]string, len(lines))
	for i, l := range lines {
		ns[i] = l.Name
	}
	return strings.Join(ns, ", ")
}

// bookingFacts are the lines that describe the booking in every e-mail about it, in ctx's language.
func (st story) bookingFacts(ctx context.Context) []views.MailFact {
	b, s := st.b, st.ev.Booking
	facts := []views.MailFact{
		{Label: lang.T(ctx, "mail.what"), Value: whatWords(ctx, b)},
		{Label: lang.T(ctx, "mail.when"), Value: whenWords(ctx, s.Start, s.End, st.zone(), st.ev.At)},
		{Label: lang.T(ctx, "mail.where"), Value: whereWords(b)},
		{Label: lang.T(ctx, "mail.organizer"), Value: fullName(b.Organizer)},
		{Label: lang.T(ctx, "mail.status"), Value: statusWords(ctx, booking.Status(s.Status))},
	}
	if b.OnlineMeetingURL != "" {
		facts = append(facts, views.MailFact{Label: lang.T(ctx, "mail.onlineMeeting"), Value: b.OnlineMeetingURL, Link: b.OnlineMeetingURL})
	}
	return facts
}

// whatWords names the booking: its subject, or the kind of place.
func whatWords(ctx context.Context, b booking.Booking) string {
	if s := strings.TrimSpace(b.Subject); s != "" {
		return s
	}
	if b.ResourceType == booking.CategoryWorkstation {
		return lang.T(ctx, "mail.deskBooking")
	}
	return lang.T(ctx, "mail.roomBooking")
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

// whenWords writes a booking's time in its building's zone: "Tue 1 Dec, 09:00–13:00 Madrid time"
// ("mar 1 dic, 09:00–13:00 hora de Madrid"), with both days when it spans midnight and the year when it
// is not now's.
func whenWords(ctx context.Context, start, end time.Time, zone string, now time.Time) string {
	loc, err := booking.Location(zone)
	if err != nil {
		loc, zone = time.UTC, "UTC"
	}
	return lang.Span(ctx, start.In(loc), end.In(loc), now) + " " + lang.Zone(ctx, zone)
}

// statusWords says a booking's status as people say it.
func statusWords(ctx context.Context, s booking.Status) string {
	switch s {
	case booking.StatusWaitingApproval:
		return lang.T(ctx, "mail.statusWaitingApproval")
	case booking.StatusPending:
		return lang.T(ctx, "mail.statusPending")
	case booking.StatusActive:
		return lang.T(ctx, "mail.statusActive")
	case booking.StatusFinished:
		return lang.T(ctx, "mail.statusFinished")
	case booking.StatusExpired:
		return lang.T(ctx, "mail.statusExpired")
	case booking.StatusRejected:
		return lang.T(ctx, "mail.statusRejected")
	case booking.StatusCancelled:
		return lang.T(ctx, "mail.statusCancelled")
	}
	return string(s)
}
