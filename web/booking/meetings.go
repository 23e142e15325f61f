package booking

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/google/uuid"
)

// MeetingIDPlaceholder is what an online-meeting template holds where the booking's id goes.
const MeetingIDPlaceholder = "{bookingId}"

// maxMeetingTemplate bounds the length of an online-meeting template.
const maxMeetingTemplate = 2000

// CheckOnlineMeetingURL checks an online-meeting template (ONLINE_MEETING_URL): an absolute http or https
// URL with a host, holding {bookingId} at least once, such as https://meet.example.org/{bookingId}.
func CheckOnlineMeetingURL(template string) error {
	if len(template) > maxMeetingTemplate {
		return fmt.Errorf("ONLINE_MEETING_URL: at most %d characters", maxMeetingTemplate)
	}
	if !strings.Contains(template, MeetingIDPlaceholder) {
		return fmt.Errorf("ONLINE_MEETING_URL %q: must hold %s where the booking's id goes, e.g. https://meet.example.org/%s",
			template, MeetingIDPlaceholder, MeetingIDPlaceholder)
	}
	// The placeholder's braces are not allowed in a URL's host, so check the URL with an id in its place.
	u, err := url.Parse(strings.ReplaceAll(template, MeetingIDPlaceholder, uuid.Nil.String()))
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil {
		return fmt.Errorf("ONLINE_MEETING_URL %q: must be an absolute https (or http) address, e.g. https://meet.example.org/%s",
			template, MeetingIDPlaceholder)
	}
	if strings.ContainsFunc(template, func(r rune) bool { return r <= ' ' || r == '"' || r == '<' || r == '>' || r >= 0x7f }) {
		return fmt.Errorf("ONLINE_MEETING_URL %q: holds a space, a quote, an angle bracket or a character that is not ASCII", template)
	}
	return nil
}

// WithOnlineMeetings makes bookings that ask for an online meeting get one: template (checked by
// CheckOnlineMeetingURL) with the booking's id in place of {bookingId}. Without it, a booking that asks
// for an online meeting is refused.
func WithOnlineMeetings(template string) Option { return func(s *Service) { s.meetings = template } }

// OnlineMeetings reports whether bookings can ask for an online meeting (WithOnlineMeetings).
func (s *Service) OnlineMeetings() bool { return s.meetings != "" }

// meetingURL returns the online-meeting link of the booking with the id, or "" when it asked for none
// or the service has no template.
func (s *Service) meetingURL(id uuid.UUID, create bool) string {
	if !create || s.meetings == "" {
		return ""
	}
	return strings.ReplaceAll(s.meetings, MeetingIDPlaceholder, id.String())
}

// withMeetings fills in the online-meeting links of bs.
func (s *Service) withMeetings(bs []Booking) []Booking {
	for i := range bs {
		bs[i].OnlineMeetingURL = s.meetingURL(bs[i].ID, bs[i].CreateOnlineMeeting)
	}
	return bs
}

// checkOnlineMeeting refuses a booking that asks for an online meeting when the service makes none.
// Codes: 2000.
func (s *Service) checkOnlineMeeting(r NewBooking) error {
	if r.CreateOnlineMeeting && s.meetings == "" {
		return FieldRefuse(CodeInvalidRequest, "createOnlineMeeting", "refusal.booking.noMeetingServer")
	}
	return nil
}
