package notify

import (
	"cmp"
	"strings"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/notify/calendar"
	"github.com/workspacebooking/booking/web/outbox"
)

// The kinds of e-mail a person may turn off on their settings page (notice_settings.mail_off). Every
// other e-mail tells of something done to a person's booking by someone else, and always goes out.
const (
	OptionalConfirmation = "confirmation" // a booking I made, changed or cancelled myself
	OptionalInvitation   = "invitation"   // an invitation to a booking someone else organizes
	OptionalReminder     = "reminder"     // check-in has opened
	OptionalApproval     = "approval"     // admins: a booking waits for approval
)

// role is why a person gets an e-mail about a booking.
type role string

const (
	roleOrganizer role = "organizer"
	roleAttendee  role = "attendee"
	roleApprover  role = "approver"
	roleProvider  role = "provider" // the contact of an ordered service
)

// person is a recipient. UserID is nil for a guest or a service's contact.
type person struct {
	UserID *uuid.UUID
	Name   string
	Email  string
}

// notice is one e-mail to write: to whom, why, and what it says.
type notice struct {
	to       person
	role     role
	optional string // the kind that turns it off; "" if it always goes out
	title    string
	lead     string
	method   calendar.Method // the invitation it carries; "" for none
	facts    []views.MailFact
	action   views.MailLink
}

// story is what the notices of one event are written from.
type story struct {
	ev        outbox.Event
	b         booking.Booking
	attendees []booking.Attendee
	admins    []person
	dropped   []orderLine // services no longer ordered (ServicesChanged)
	base      string      // BASE_URL, for links
}

// orderLine is a service ordered on a booking, as its provider reads it.
type orderLine struct {
	Name, Email, Quantity, Delivery, Comment string
}

// organizer returns the booking's organizer as a recipient.
func (st story) organizer() person {
	o := st.b.Organizer
	return person{UserID: &o.ID, Name: fullName(o), Email: o.Email}
}

// notices returns every e-mail of the story's event.
func (st story) notices() []notice {
	var out []notice
	out = append(out, st.forOrganizer()...)
	out = append(out, st.forAttendees()...)
	out = append(out, st.forApprovers()...)
	out = append(out, st.forProviders()...)
	return dedupe(out)
}

// forOrganizer returns the organizer's e-mail about the event, if any.
func (st story) forOrganizer() []notice {
	ev, b := st.ev, st.b
	if !b.Organizer.Active || b.Organizer.Email == "" {
		return nil
	}
	self := b.Creator.ID == b.Organizer.ID
	n := notice{to: st.organizer(), role: roleOrganizer, facts: st.bookingFacts()}
	mine := func() {
		if self {
			n.optional = OptionalConfirmation
		}
	}
	place := b.Resource.Name
	switch ev.Kind {
	case outbox.Created:
		n.method, n.title, n.lead = calendar.Request, "Booking confirmed", "You have booked "+place+"."
		if !self {
			n.lead = fullName(b.Creator) + " booked " + place + " for you."
		}
		if ev.Booking.Status == string(booking.StatusWaitingApproval) {
			n.title = "Booking waiting for approval"
			n.lead += " An admin must approve it; you will get an e-mail when they decide."
		}
		mine()
	case outbox.Changed:
		n.method, n.title, n.lead = calendar.Request, "Booking changed", "Your booking of "+place+" has changed."
		if ev.Booking.Status == string(booking.StatusWaitingApproval) {
			n.lead += " It waits for an admin's approval again."
		}
		mine()
	case outbox.Cancelled:
		switch ev.Reason {
		case outbox.ReasonDeactivated:
			return nil // the organizer's account was closed
		case outbox.ReasonClosure:
			n.method, n.title, n.lead = calendar.Cancel, "Booking cancelled: closed", place+" is closed at that time, so your booking was cancelled."
		default:
			n.method, n.title, n.lead = calendar.Cancel, "Booking cancelled", "Your booking of "+place+" is cancelled."
			mine()
		}
	case outbox.Expired:
		n.method, n.title = calendar.Cancel, "Booking expired"
		n.lead = "Your booking of " + place + " expired: nobody checked in (or approved it) in time, so the place is free for others."
	case outbox.Approved:
		n.method, n.title, n.lead = calendar.Request, "Booking approved", "Your booking of "+place+" is approved."
	case outbox.Rejected:
		n.method, n.title, n.lead = calendar.Cancel, "Booking rejected", "Your booking of "+place+" was not approved."
	case outbox.CheckInOpened:
		n.title, n.optional = "Check-in is open", OptionalReminder
		n.lead = "Check in to " + place + " by " + booking.MomentWords(b.CheckIn.End, st.zone(), ev.At) + ", or the booking expires."
		n.action = views.MailLink{Label: "Check in", URL: st.base + "/bookings"}
	default:
		return nil
	}
	return []notice{n}
}

// forAttendees returns the invitations, their updates and cancellations for the people invited.
func (st story) forAttendees() []notice {
	ev, b := st.ev, st.b
	var method calendar.Method
	title := ""
	switch ev.Kind {
	case outbox.Created, outbox.Approved:
		method, title = calendar.Request, "Invitation"
	case outbox.Changed:
		method, title = calendar.Request, "Invitation changed"
	case outbox.Cancelled, outbox.Expired, outbox.Rejected:
		method, title = calendar.Cancel, "Invitation cancelled"
	default:
		return nil
	}
	if ev.Kind == outbox.Approved && len(st.attendees) == 0 {
		return nil
	}
	org := fullName(b.Organizer)
	var out []notice
	for _, a := range st.attendees {
		if a.Email == "" || strings.EqualFold(a.Email, b.Organizer.Email) {
			continue
		}
		n := notice{to: person{UserID: a.UserID, Name: a.Name, Email: a.Email}, role: roleAttendee, method: method,
			title: title, facts: st.bookingFacts()}
		switch method {
		case calendar.Request:
			n.lead = org + " invites you to " + st.what() + "."
			if ev.Kind == outbox.Changed {
				n.lead = org + " changed " + st.what() + ", which you are invited to."
			}
			if a.UserID != nil {
				n.optional = OptionalInvitation
			}
		case calendar.Cancel:
			n.lead = st.what() + ", which " + org + " invited you to, is cancelled."
		}
		out = append(out, n)
	}
	return out
}

// forApprovers returns the requests to the organization's admins when a booking waits for approval.
func (st story) forApprovers() []notice {
	ev := st.ev
	if (ev.Kind != outbox.Created && ev.Kind != outbox.Changed) || ev.Booking.Status != string(booking.StatusWaitingApproval) {
		return nil
	}
	out := make([]notice, 0, len(st.admins))
	for _, a := range st.admins {
		out = append(out, notice{
			to: a, role: roleApprover, optional: OptionalApproval, title: "A booking waits for your approval",
			lead:   fullName(st.b.Organizer) + " asks to book " + st.b.Resource.Name + ".",
			facts:  st.bookingFacts(),
			action: views.MailLink{Label: "Review the requests", URL: st.base + "/approvals"},
		})
	}
	return out
}

// zone is the IANA name of the booking's building's time zone.
func (st story) zone() string { return st.b.Resource.Floor.Building.Timezone }

// what names the booking for a sentence: its subject in quotes, or its place.
func (st story) what() string {
	if s := strings.TrimSpace(st.b.Subject); s != "" {
		return "“" + s + "”"
	}
	return "a booking of " + st.b.Resource.Name
}

// fullName is a person's name and surname, or their e-mail address when they have no name.
func fullName(u booking.User) string { return cmp.Or(booking.FullName(u), u.Email) }

// dedupe keeps one e-mail per recipient and role: a person invited twice gets one invitation.
func dedupe(ns []notice) []notice {
	seen := map[string]bool{}
	out := ns[:0]
	for _, n := range ns {
		k := string(n.role) + "|" + strings.ToLower(n.to.Email)
		if n.to.Email == "" || seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, n)
	}
	return out
}
