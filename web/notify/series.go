package notify

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/lang"
	"github.com/workspacebooking/booking/web/notify/calendar"
	"github.com/workspacebooking/booking/web/outbox"
)

// A recurring booking is told as one: each event of a series sends its organizer one e-mail carrying
// one invitation that repeats (RRULE, an EXDATE per day without a booking, SEQUENCE the series'
// revision, one UID per series), never one e-mail per day. Its creation schedules the check-in reminder
// of each day booked, as the creation of each of its bookings would have.

// workSeries turns one event of a series into its e-mail and reminders, and completes the event, in one
// transaction.
func (s *Service) workSeries(ctx context.Context, job *river.Job[outbox.Args]) error {
	ev := job.Args.Event
	sr, err := s.bookings.SeriesToTell(ctx, ev.OrganizationID, ev.BookingID)
	var be *booking.Error
	if errors.As(err, &be) && be.Code == booking.CodeBookingNotFound {
		return nil // gone with its organization: nobody to tell
	}
	if err != nil {
		return err
	}
	var jobs []river.InsertManyParams
	if s.mail != nil && sr.Organizer.Active && sr.Organizer.Email != "" {
		a, err := s.seriesMail(ctx, ev, sr)
		if err != nil {
			return err
		}
		jobs = append(jobs, mailInsert(a))
	}
	if ev.Kind == outbox.SeriesCreated {
		jobs = append(jobs, s.seriesReminders(ev, sr)...)
	}
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if len(jobs) > 0 {
			if _, err := s.river.InsertManyTx(ctx, tx, jobs); err != nil {
				return fmt.Errorf("write deliveries: %w", err)
			}
		}
		_, err := river.JobCompleteTx[*riverpgxv5.Driver](ctx, tx, job)
		return err
	})
}

// seriesReminders returns the check-in reminders of the days a new series booked.
func (s *Service) seriesReminders(ev outbox.Event, sr booking.Series) []river.InsertManyParams {
	var out []river.InsertManyParams
	for _, o := range sr.Occurrences {
		if o.Booking == nil {
			continue
		}
		b := *o.Booking
		as := outbox.Event{Kind: outbox.Created, OrganizationID: ev.OrganizationID, BookingID: b.ID, At: ev.At,
			Booking: outbox.State{Revision: b.Revision, Status: string(b.Status), Start: b.Start, End: b.End, ResourceID: b.Resource.ID}}
		if r, ok := s.reminder(as, b); ok {
			out = append(out, r)
		}
	}
	return out
}

// seriesMail writes the organizer's e-mail about ev, in their language, with the series' invitation:
// a request, or a cancellation of the whole series.
func (s *Service) seriesMail(ctx context.Context, ev outbox.Event, sr booking.Series) (MailArgs, error) {
	org, err := s.q.OrganizationGet(ctx, ev.OrganizationID)
	if err != nil {
		return MailArgs{}, fmt.Errorf("get organization: %w", err)
	}
	to := person{UserID: &sr.Organizer.ID, Name: fullName(sr.Organizer), Email: sr.Organizer.Email, Lang: sr.Organizer.UserLanguage}
	words := to.words()
	title, method := lang.T(words, "mail.seriesCreated"), calendar.Request
	switch ev.Kind {
	case outbox.SeriesChanged:
		title = lang.T(words, "mail.seriesChanged")
	case outbox.SeriesCancelled:
		title, method = lang.T(words, "mail.seriesCancelled"), calendar.Cancel
	}
	now := s.now()
	m := views.Mail{
		Lang: lang.Code(lang.Of(words)), Title: title, Lead: views.SeriesLine(words, sr, now), Facts: seriesFacts(words, sr, now),
		Action: views.MailLink{Label: lang.T(words, "mail.seriesSee"), URL: strings.TrimSuffix(s.cfg.BaseURL, "/") + views.SeriesPath(sr)},
		Note:   noteFor(words, roleOrganizer, org.Name), Organization: org.Name,
	}
	var html bytes.Buffer
	if err := views.MailHTML(m).Render(words, &html); err != nil {
		return MailArgs{}, fmt.Errorf("render mail: %w", err)
	}
	ics, err := calendar.Invite(method, s.seriesEvent(words, ev, sr))
	if err != nil {
		return MailArgs{}, fmt.Errorf("invitation of series %s: %w", sr.ID, err)
	}
	return MailArgs{
		MessageID: s.messageID(ev, notice{to: to, role: roleOrganizer}), OrganizationID: ev.OrganizationID, EventID: ev.ID,
		FromName: org.Name, To: to.Email, ToName: to.Name, Subject: title + " · " + sr.Resource.Name,
		Text: mailText(words, m), HTML: html.String(), Lang: m.Lang, Calendar: string(ics), Method: method,
	}, nil
}

// seriesFacts are the lines of a series' e-mail: where, and each day it did not book and why.
func seriesFacts(ctx context.Context, sr booking.Series, now time.Time) []views.MailFact {
	facts := []views.MailFact{{Label: lang.T(ctx, "mail.where"), Value: sr.Resource.Name + ", " + sr.Resource.Floor.Name + ", " + sr.Resource.Floor.Building.Name}}
	for _, o := range sr.Occurrences {
		if o.Booking == nil && o.Refused != nil {
			facts = append(facts, views.MailFact{Label: lang.T(ctx, "mail.seriesNotBooked"), Value: views.RefusedDay(ctx, sr, o, now)})
		}
	}
	return facts
}

// seriesEvent is the series as calendars show it: one event, its first day's times, repeating on its
// weekdays until its last day, without the days that have no booking (refused, cancelled on their
// own, or cancelled with their day), its SEQUENCE the series' revision. After a change of times from a
// date, every day shows the new times: an RRULE gives all its days one time.
func (s *Service) seriesEvent(ctx context.Context, ev outbox.Event, sr booking.Series) calendar.Event {
	loc, err := booking.Location(sr.Timezone)
	if err != nil {
		loc = time.UTC
	}
	r := sr.Rule
	first := r.First
	if len(sr.Occurrences) > 0 {
		first = sr.Occurrences[0].Date
	}
	rep := &calendar.Repeat{Weekdays: r.Weekdays, Interval: r.EveryWeeks, Until: booking.LocalTime(r.Until, r.Start, loc)}
	for _, o := range sr.Occurrences {
		if o.Booking == nil || o.Skipped || (!o.Booking.Status.Blocking() && o.Booking.Status != booking.StatusFinished) {
			rep.Except = append(rep.Except, booking.LocalTime(o.Date, r.Start, loc))
		}
	}
	what := strings.TrimSpace(sr.Subject)
	if what == "" {
		what = lang.T(ctx, "mail.deskBooking")
		if sr.Resource.Subcategory.Category == booking.CategorySpace {
			what = lang.T(ctx, "mail.roomBooking")
		}
	}
	status := "CONFIRMED"
	if sr.Status == booking.SeriesCancelled {
		status = "CANCELLED"
	}
	out := calendar.Event{
		UID: sr.ID.String() + ".series@" + s.host(), Sequence: int(sr.Revision), Stamp: ev.At,
		Start: booking.LocalTime(first, r.Start, loc), End: booking.LocalTime(first, r.End, loc), Zone: loc,
		Summary: what + " · " + sr.Resource.Name, Description: views.SeriesLine(ctx, sr, s.now()),
		Location: sr.Resource.Floor.Building.Name + ", " + sr.Resource.Floor.Name + ", " + sr.Resource.Name,
		Status:   status, Transparent: sr.Resource.Subcategory.Category == booking.CategoryWorkstation,
		Organizer: calendar.Person{Name: fullName(sr.Organizer), Email: s.cfg.From},
		Attendees: []calendar.Person{{Name: fullName(sr.Organizer), Email: sr.Organizer.Email}},
		Repeat:    rep,
	}
	if out.Organizer.Email == "" {
		out.Organizer.Email = sr.Organizer.Email
	}
	return out
}
