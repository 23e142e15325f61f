package views

import "github.com/workspacebooking/booking/web/booking"

// KioskOutcome is the answer to a booking or a check-in, in words: done (OK), or refused and why.
type KioskOutcome struct {
	OK      bool
	Title   string
	Message string
}

// KioskView is a resource the receptionist scanned or typed the poster code of, with the form that books
// it now for an employee or checks an employee in.
type KioskView struct {
	Chrome  Chrome
	Status  booking.PosterStatus
	Picker  PeoplePicker  // the employee: Field "user", one person
	Until   string        // the chosen end (RFC 3339), kept after a refusal; empty: the longest
	Outcome *KioskOutcome // what the last booking or check-in did
}
