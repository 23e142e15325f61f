package notify

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/lang"
	"github.com/workspacebooking/booking/web/notify/calendar"
	"github.com/workspacebooking/booking/web/outbox"
)

// mailInserts returns the e-mails of ev, one job per recipient and role, leaving out the optional ones
// their recipients turned off. With e-mail off it returns none.
func (s *Service) mailInserts(ctx context.Context, ev outbox.Event, b booking.Booking, attendees []booking.Attendee) ([]river.InsertManyParams, error) {
	if s.mail == nil {
		return nil, nil
	}
	org, err := s.q.OrganizationGet(ctx, ev.OrganizationID)
	if err != nil {
		return nil, fmt.Errorf("get organization: %w", err)
	}
	st := story{ev: ev, b: b, attendees: attendees, base: s.cfg.BaseURL}
	if st.langs, err = s.attendeeLanguages(ctx, ev.OrganizationID, attendees); err != nil {
		return nil, err
	}
	if ev.Booking.Status == string(booking.StatusWaitingApproval) {
		if st.admins, err = s.admins(ctx, ev.OrganizationID); err != nil {
			return nil, err
		}
	}
	if len(ev.DroppedServices) > 0 {
		if st.dropped, err = s.droppedLines(ctx, ev); err != nil {
			return nil, err
		}
	}
	notices := st.notices()
	off, err := s.MailOff(ctx, ev.OrganizationID, optedIn(notices))
	if err != nil {
		return nil, err
	}
	var out []river.InsertManyParams
	for _, n := range notices {
		var unsubscribe string
		if n.optional != "" && n.to.UserID != nil {
			c := off[*n.to.UserID]
			if c.Off(n.optional) {
				continue
			}
			unsubscribe = s.UnsubscribeURL(c, n.optional)
		}
		a, err := s.render(n, st, org.Name, unsubscribe)
		if err != nil {
			return nil, err
		}
		out = append(out, mailInsert(a))
	}
	return out, nil
}

// render writes notice n as a mail job, in the language of its recipient.
func (s *Service) render(n notice, st story, orgName, unsubscribe string) (MailArgs, error) {
	ctx := n.to.words()
	code := lang.Code(lang.Of(ctx))
	m := views.Mail{Lang: code, Title: n.title, Lead: n.lead, Facts: n.facts, Action: n.action,
		Note: noteFor(ctx, n.role, orgName), Unsubscribe: unsubscribe, Organization: orgName}
	var html bytes.Buffer
	if err := views.MailHTML(m).Render(ctx, &html); err != nil {
		return MailArgs{}, fmt.Errorf("render mail: %w", err)
	}
	a := MailArgs{
		MessageID: s.messageID(st.ev, n), OrganizationID: st.ev.OrganizationID, EventID: st.ev.ID,
		FromName: orgName, To: n.to.Email, ToName: n.to.Name, Subject: n.title + " · " + st.b.Resource.Name,
		Text: mailText(ctx, m), HTML: html.String(), Unsubscribe: unsubscribe, Lang: code,
	}
	// An occurrence of a series is in calendars as a day of the series' invitation, not on its own.
	if n.method != "" && st.b.SeriesID == nil {
		ics, err := calendar.Invite(n.method, s.calendarEvent(ctx, st))
		if err != nil {
			return MailArgs{}, fmt.Errorf("invitation of booking %s: %w", st.b.ID, err)
		}
		a.Calendar, a.Method = string(ics), n.method
	}
	return a, nil
}

// optedIn returns the people of the notices that they may turn off: their settings decide whether those
// go out, and give the unsubscribe link.
func optedIn(ns []notice) []uuid.UUID {
	var ids []uuid.UUID
	for _, n := range ns {
		if n.optional != "" && n.to.UserID != nil && !slices.Contains(ids, *n.to.UserID) {
			ids = append(ids, *n.to.UserID)
		}
	}
	return ids
}

// attendeeLanguages returns the userLanguage of the people of the organization among attendees, by
// user id.
func (s *Service) attendeeLanguages(ctx context.Context, org uuid.UUID, attendees []booking.Attendee) (map[uuid.UUID]string, error) {
	var ids []uuid.UUID
	for _, a := range attendees {
		if a.UserID != nil {
			ids = append(ids, *a.UserID)
		}
	}
	out := make(map[uuid.UUID]string, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := s.q.NotifyUserLanguages(ctx, queries.NotifyUserLanguagesParams{OrganizationID: org, Ids: ids})
	if err != nil {
		return nil, fmt.Errorf("get attendees' languages: %w", err)
	}
	for _, r := range rows {
		out[r.ID] = r.UserLanguage
	}
	return out, nil
}

// calendarEvent is the booking as calendars show it, as it was just after the event, its words in
// ctx's language.
func (s *Service) calendarEvent(ctx context.Context, st story) calendar.Event {
	b, es := st.b, st.ev.Booking
	loc, err := booking.Location(st.zone())
	if err != nil {
		loc = nil
	}
	ev := calendar.Event{
		UID: s.bookingUID(b.ID), Sequence: int(es.Revision), Stamp: st.ev.At, Start: es.Start, End: es.End, Zone: loc,
		Summary: whatWords(ctx, b) + " · " + b.Resource.Name, Description: st.description(ctx), Location: calendarLocation(b),
		Status: calendarStatus(booking.Status(es.Status)), Transparent: b.ResourceType == booking.CategoryWorkstation,
		Organizer: calendar.Person{Name: fullName(b.Organizer), Email: s.cfg.From}, URL: b.OnlineMeetingURL,
	}
	if ev.Organizer.Email == "" {
		ev.Organizer.Email = b.Organizer.Email
	}
	ev.Attendees = append(ev.Attendees, calendar.Person{Name: fullName(b.Organizer), Email: b.Organizer.Email})
	for _, a := range st.attendees {
		if a.Email != "" && !strings.EqualFold(a.Email, b.Organizer.Email) {
			ev.Attendees = append(ev.Attendees, calendar.Person{Name: a.Name, Email: a.Email})
		}
	}
	return ev
}

// description is the invitation's DESCRIPTION: the booking's facts, one per line.
func (st story) description(ctx context.Context) string {
	var b strings.Builder
	for _, f := range st.bookingFacts(ctx) {
		fmt.Fprintf(&b, "%s: %s\n", f.Label, f.Value)
	}
	if body := strings.TrimSpace(st.b.Body.Content); body != "" && st.b.Body.BodyType != "HTML" {
		b.WriteString("\n" + body + "\n")
	}
	return strings.TrimSpace(b.String())
}

// calendarStatus is the STATUS of a booking's invitation.
func calendarStatus(s booking.Status) string {
	switch s {
	case booking.StatusWaitingApproval:
		return "TENTATIVE"
	case booking.StatusCancelled, booking.StatusRejected, booking.StatusExpired:
		return "CANCELLED"
	}
	return "CONFIRMED"
}

// noteFor says why a person gets an e-mail.
func noteFor(ctx context.Context, r role, org string) string {
	o := map[string]any{"Org": org}
	switch r {
	case roleAttendee:
		return lang.T(ctx, "mail.noteAttendee", o)
	case roleApprover:
		return lang.T(ctx, "mail.noteApprover", o)
	case roleProvider:
		return lang.T(ctx, "mail.noteProvider", o)
	}
	return lang.T(ctx, "mail.noteOrganizer", o)
}

// mailText is the plain-text part of a mail: the same words as the HTML part.
func mailText(ctx context.Context, m views.Mail) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n%s\n\n", m.Title, m.Lead)
	for _, f := range m.Facts {
		fmt.Fprintf(&b, "%s: %s\n", f.Label, f.Value)
	}
	if m.Action.URL != "" {
		fmt.Fprintf(&b, "\n%s: %s\n", m.Action.Label, m.Action.URL)
	}
	fmt.Fprintf(&b, "\n-- \n%s\n", m.Note)
	if m.Unsubscribe != "" {
		fmt.Fprintf(&b, "%s: %s\n", lang.T(ctx, "mail.stopThese"), m.Unsubscribe)
	}
	return b.String()
}

// messageID is the Message-ID of notice n of ev: the same for every try, different for each recipient
// and role.
func (s *Service) messageID(ev outbox.Event, n notice) string {
	h := sha256.Sum256([]byte(string(n.role) + "|" + strings.ToLower(n.to.Email)))
	return "<" + ev.ID.String() + "." + hex.EncodeToString(h[:6]) + "@" + s.host() + ">"
}

// bookingUID is the UID of a booking in every calendar: the same in invitations and feeds.
func (s *Service) bookingUID(id uuid.UUID) string { return id.String() + "@" + s.host() }

// host is BASE_URL's host name, which names the service in Message-IDs and UIDs.
func (s *Service) host() string {
	if u, err := url.Parse(s.cfg.BaseURL); err == nil && u.Hostname() != "" {
		return u.Hostname()
	}
	return "workspace-booking"
}

// admins returns the organization's active admins, who decide on bookings waiting for approval.
func (s *Service) admins(ctx context.Context, org uuid.UUID) ([]person, error) {
	rows, err := s.q.NotifyAdmins(ctx, org)
	if err != nil {
		return nil, fmt.Errorf("list admins: %w", err)
	}
	out := make([]person, len(rows))
	for i, r := range rows {
		out[i] = person{UserID: &rows[i].ID, Name: booking.FullName(booking.User{Name: r.Name, Surname: r.Surname}), Email: r.Email,
			Lang: r.UserLanguage}
	}
	return out, nil
}

// droppedLines returns the services an event no longer orders, with their contacts.
func (s *Service) droppedLines(ctx context.Context, ev outbox.Event) ([]orderLine, error) {
	rows, err := s.q.NotifyReservables(ctx, queries.NotifyReservablesParams{OrganizationID: ev.OrganizationID, Ids: ev.DroppedServices})
	if err != nil {
		return nil, fmt.Errorf("get dropped services: %w", err)
	}
	out := make([]orderLine, len(rows))
	for i, r := range rows {
		out[i] = orderLine{Name: r.Name, Email: r.Email}
	}
	return out, nil
}

// newSecret returns 32 random bytes, base64url: a feed's or an unsubscribe link's secret.
func newSecret() string {
	b := make([]byte, 32)
	rand.Read(b) //nolint:errcheck // crypto/rand.Read never fails
	return base64.RawURLEncoding.EncodeToString(b)
}
