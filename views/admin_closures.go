package views

// AdminClosures is the closures page: the organization's closures that have not ended, and a form to
// add one.
type AdminClosures struct {
	Chrome   Chrome
	Notice   string
	Closures []ClosureRow
	Ended    int // closures that have ended, not listed
	Unshown  int // closures that have not ended beyond those listed
	Targets  []ClosureTargetGroup
	Form     ClosureForm
}

// ClosureRow is one closure, in words.
type ClosureRow struct {
	ID, ETag string
	What     string // "Building Madrid", "Floor 1 (Madrid)", "Goya (Madrid, Floor 1)"
	When     string // "from Wed 25 Nov to Fri 27 Nov", in the building's time zone
	Reason   string
	Kept     int    // bookings the closure keeps
	Saved    string // the confirmation of the form that just saved it
}

// ClosureTargetGroup is a group of the "What" select: buildings, floors, or desks and rooms.
type ClosureTargetGroup struct {
	Label   string
	Options []AdminOption // values "building:<id>", "floor:<id>", "resource:<id>"
}

// ClosureForm is the form of a new closure as typed, and what saving it found.
type ClosureForm struct {
	ID               string // the new closure's id, kept when the form is sent again
	Target           string
	FromDate, ToDate string // a building's whole days, yyyy-mm-dd
	From, Until      string // a floor's or resource's times, yyyy-mm-ddThh:mm
	Reason           string
	Problem          *AdminProblem // a refusal, in words
	// Covered are the first bookings the closure would cover, of CoveredCount: the admin chooses to cancel
	// or keep them. CoveredAtLeast says there may be more than CoveredCount.
	Covered        []CoveredBooking
	CoveredCount   int
	CoveredAtLeast bool
	// Meanwhile says the bookings were made after the form was sent.
	Meanwhile bool
}

// CoveredBooking is a booking a closure would cover, in words.
type CoveredBooking struct {
	Who, What, When string
}
