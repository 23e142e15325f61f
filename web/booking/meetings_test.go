package booking_test

import (
	"errors"
	"testing"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
)

const meetingTemplate = "https://meet.example.org/{bookingId}"

func TestCheckOnlineMeetingURL(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		template string
		ok       bool
	}{
		{"https://meet.example.org/{bookingId}", true},
		{"http://meet.internal:8443/rooms/{bookingId}?lang=en", true},
		{"https://meet.example.org/r?id={bookingId}&again={bookingId}", true},
		{"https://meet.example.org/", false},            // no placeholder
		{"meet.example.org/{bookingId}", false},         // not absolute
		{"ftp://meet.example.org/{bookingId}", false},   // another scheme
		{"https:///{bookingId}", false},                 // no host
		{"https://{bookingId}.meet.example.org/", true}, // the id in the host name
		{"https://user:pw@meet.example.org/{bookingId}", false},
		{"https://meet.example.org/{bookingId} x", false},   // a space
		{"https://meet.example.org/\"{bookingId}\"", false}, // quotes
		{"https://meet.example.org/ü/{bookingId}", false},   // not ASCII
	} {
		err := booking.CheckOnlineMeetingURL(tc.template)
		if got := err == nil; got != tc.ok {
			t.Errorf("CheckOnlineMeetingURL(%q) = %v, want ok %v", tc.template, err, tc.ok)
		}
	}
}

func TestOnlineMeetings(t *testing.T) {
	t.Parallel()
	online := func() booking.NewBooking {
		r := goya(10, 11)
		r.CreateOnlineMeeting = true
		return r
	}

	t.Run("WithoutTemplateIsRefusedNamingTheField", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		if b.Service.OnlineMeetings() {
			t.Errorf("OnlineMeetings() = true without a template")
		}
		_, err := book(t, b, u.alice, u.alice, booking.CategorySpace, online())
		bookingtest.WantCode(t, err, booking.CodeInvalidRequest)
		wantIndex(t, err, 0)
		var e *booking.Error
		if errors.As(err, &e); e.Field != "createOnlineMeeting" {
			t.Errorf("Field = %q, want createOnlineMeeting", e.Field)
		}
		bookingtest.WantMessagePrefix(t, err, "createOnlineMeeting: this service has no online-meeting server configured")
		wantNoBookings(t, b)
	})

	t.Run("LinkFollowsTheBooking", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t, booking.WithOnlineMeetings(meetingTemplate))
		u := fixtureUsers(t, b)
		made := createOne(t, b, u.alice, online())
		want := "https://meet.example.org/" + made.ID.String()
		if made.OnlineMeetingURL != want {
			t.Errorf("made: OnlineMeetingURL = %q, want %q", made.OnlineMeetingURL, want)
		}
		if got := reread(t, b, made.ID).OnlineMeetingURL; got != want {
			t.Errorf("read: OnlineMeetingURL = %q, want %q", got, want)
		}
		end := bookingtest.At(1, 11, 30)
		moved, err := b.Service.Change(t.Context(), u.alice, made.ID, booking.BookingChange{End: &end})
		if err != nil || moved.OnlineMeetingURL != want {
			t.Errorf("changed: OnlineMeetingURL = %q (%v), want %q", moved.OnlineMeetingURL, err, want)
		}
		cancelled, err := b.Service.Cancel(t.Context(), u.alice, made.ID)
		if err != nil || cancelled.OnlineMeetingURL != want {
			t.Errorf("cancelled: OnlineMeetingURL = %q (%v), want %q", cancelled.OnlineMeetingURL, err, want)
		}
		plain := createOne(t, b, u.alice, velazquez(10, 11))
		if plain.OnlineMeetingURL != "" {
			t.Errorf("a booking without an online meeting has the link %q", plain.OnlineMeetingURL)
		}
	})
}
