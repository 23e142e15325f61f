package notify

import "github.com/google/uuid"

// BookingUID lets the tests of package notify_test read bookingUID, the UID of a booking's calendar
// events in the feeds and the invitations alike.
func (s *Service) BookingUID(id uuid.UUID) string { return s.bookingUID(id) }
