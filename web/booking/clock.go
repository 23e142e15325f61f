package booking

import "time"

// Now is the moment as the service sees it: its clock, which tests may set (WithClock). Pages compare
// bookings with it to tell what can be done to them now.
func (s *Service) Now() time.Time { return s.now() }
