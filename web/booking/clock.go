package booking

import "time"

// Now returns the current time by the service's clock, which tests may replace (WithClock). Pages use it
// to decide what can be done to a booking now.
func (s *Service) Now() time.Time { return s.now() }
