package notify

import (
	"cmp"
	"context"
	"strings"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/lang"
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

// person is a recipient. UserID is nil for a guest or a service's contact. Lang is the code of the
// language their e-mails are written in: a person's own userLanguage, the organizer's for a guest or a
// service's contact, who have no account.
type person struct {
	UserID *uuid.UUID
	Name   string
	Email  string
	Lang   string
}

// words returns a context that speaks p's language, for writing their e-mail.
func (p person) words() context.Context {
	return lang.With(context.Background(), lang.Choose(p.Lang, ""))
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
	// langs holds the userLanguage of the internal attendees, by user id.
	langs map[uuid.UUID]string
}

// orderLine is a service ordered on a booking, as its provider reads it.
type orderLine struct {
	Name, Email, Quantity, Delivery, Comment string
}

// organizer returns the booking's organizer as a recipient.
func (st story) organizer() person {
	o := st.b.Organizer
	return person{UserID: &o.ID, Name: fullName(o), Email: o.Email, Lang: o.UserLanguage}
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
	to := st.organizer()
	ctx := to.words()
	n := notice{to: to, role: roleOrganizer, facts: st.bookingFacts(ctx)}
	mine := func() {
		if self {
			n.optional = OptionalConfirmation
		}
	}
	place := map[string]any{"Place": b.Resource.Name}
	waiting := ev.Booking.Status == string(booking.StatusWaitingApproval)
	switch ev.Kind {
	case outbox.Created:
		n.method = calendar.Request
		who := map[string]any{"Place": b.Resource.Name, "Creator": fullName(b.Creator)}
		switch {
		case waiting && self:
			n.title, n.lead = lang.T(ctx, "mail.bookingWaiting"), lang.T(ctx, "mail.youBookedWaiting", place)
		case waiting:
			n.title, n.lead = lang.T(ctx, "mail.bookingWaiting"), lang.T(ctx, "mail.bookedForYouWaiting", who)
		case self:
			n.title, n.lead = lang.T(ctx, "mail.bookingConfirmed"), lang.T(ctx, "mail.youBooked", place)
		default:
			n.title, n.lead = lang.T(ctx, "mail.bookingConfirmed"), lang.T(ctx, "mail.bookedForYou", who)
		}
		mine()
	case outbox.Changed:
		n.method, n.title, n.lead = calendar.Request, lang.T(ctx, "mail.bookingChanged"), lang.T(ctx, "mail.bookingChangedLead", place)
		if waiting {
			n.lead = lang.T(ctx, "mail.bookingChangedWaitingLead", place)
		}
		mine()
	case outbox.Cancelled:
		switch ev.Reason {
		case outbox.ReasonDeactivated:
			return nil // the organizer's account was closed
		case outbox.ReasonClosure:
			n.method, n.title, n.lead = calendar.Cancel, lang.T(ctx, "mail.bookingClosed"), lang.T(ctx, "mail.bookingClosedLead", place)
		default:
			n.method, n.title, n.lead = calendar.Cancel, lang.T(ctx, "mail.bookingCancelled"), lang.T(ctx, "mail.bookingCancelledLead", place)
			mine()
		}
	case outbox.Expired:
		n.method, n.title, n.lead = calendar.Cancel, lang.T(ctx, "mail.bookingExpired"), lang.T(ctx, "mail.bookingExpiredLead", place)
	case outbox.Approved:
		n.method, n.title, n.lead = calendar.Request, lang.T(ctx, "mail.bookingApproved"), lang.T(ctx, "mail.bookingApprovedLead", place)
	case outbox.Rejected:
		n.method, n.title, n.lead = calendar.Cancel, lang.T(ctx, "mail.bookingRejected"), lang.T(ctx, "mail.bookingRejectedLead", place)
	case outbox.CheckInOpened:
		n.title, n.optional = lang.T(ctx, "mail.checkInOpen"), OptionalReminder
		n.lead = lang.T(ctx, "mail.checkInOpenLead", map[string]any{
			"Place": b.Resource.Name, "Deadline": lang.Moment(ctx, b.CheckIn.End, st.zone(), ev.At)})
		n.action = views.MailLink{Label: lang.T(ctx, "mail.checkIn"), URL: st.base + "/bookings"}
	default:
		return nil
	}
	return []notice{n}
}

// forAttendees returns the invitations, their updates and cancellations for the people invited.
func (st story) forAttendees() []notice {
	ev, b := st.ev, st.b
	var method calendar.Method
	switch ev.Kind {
	case outbox.Created, outbox.Approved, outbox.Changed:
		method = calendar.Request
	case outbox.Cancelled, outbox.Expired, outbox.Rejected:
		method = calendar.Cancel
	default:
		return nil
	}
	if ev.Kind == outbox.Approved && len(st.attendees) == 0 {
		return nil
	}
	subject := strings.TrimSpace(b.Subject)
	data := map[string]any{"Organizer": fullName(b.Organizer), "Subject": subject, "Place": b.Resource.Name}
	var out []notice
	for _, a := range st.attendees {
		if a.Email == "" || strings.EqualFold(a.Email, b.Organizer.Email) {
			continue
		}
		to := person{UserID: a.UserID, Name: a.Name, Email: a.Email, Lang: st.organizer().Lang}
		if a.UserID != nil {
			if l, ok := st.langs[*a.UserID]; ok {
				to.Lang = l
			}
		}
		ctx := to.words()
		n := notice{to: to, role: roleAttendee, method: method, facts: st.bookingFacts(ctx)}
		switch {
		case method == calendar.Cancel:
			n.title = lang.T(ctx, "mail.invitationCancelled")
			if subject != "" {
				n.lead = lang.T(ctx, "mail.invitationCancelledSubjectLead", data)
			} else {
				n.lead = lang.T(ctx, "mail.invitationCancelledPlaceLead", data)
			}
		case ev.Kind == outbox.Changed:
			n.title = lang.T(ctx, "mail.invitationChanged")
			if subject != "" {
				n.lead = lang.T(ctx, "mail.invitationChangedSubjectLead", data)
			} else {
				n.lead = lang.T(ctx, "mail.invitationChangedPlaceLead", data)
			}
		default:
			n.title = lang.T(ctx, "mail.invitation")
			if subject != "" {
				n.lead = lang.T(ctx, "mail.invitationSubjectLead", data)
			} else {
				n.lead = lang.T(ctx, "mail.invitationPlaceLead", data)
			}
		}
		if method == calendar.Request && a.UserID != nil {
			n.optional = OptionalInvitation
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
		ctx := a.words()
		out = append(out, notice{
			to: a, role: roleApprover, optional: OptionalApproval, title: lang.T(ctx, "mail.approvalTitle"),
			lead:   lang.T(ctx, "mail.approvalLead", map[string]any{"Organizer": fullName(st.b.Organizer), "Place": st.b.Resource.Name}),
			facts:  st.bookingFacts(ctx),
			action: views.MailLink{Label: lang.T(ctx, "mail.reviewRequests"), URL: st.base + "/approvals"},
		})
	}
	return out
}

// zone is the IANA name of the booking's building's time zone.
func (st story) zone() string { return st.b.Resource.Floor.Building.Timezone }

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
