package views

import "github.com/workspacebooking/booking/web/booking"

// PosterView is what a phone shows after scanning a poster: the resource's status, "book now" and "check
// in" for the signed-in person.
type PosterView struct {
	Chrome  Chrome
	Status  booking.PosterStatus
	Viewer  booking.User
	Outcome *KioskOutcome // what the last booking or check-in did
}

// PostersView is the admins' page to print posters: the buildings, the floors of the chosen one, and the
// resources of the chosen floor.
type PostersView struct {
	Chrome    Chrome
	Buildings []booking.Building
	Building  booking.Building // the chosen building
	Floors    []booking.Floor
	Floor     *booking.Floor // the chosen floor, nil when none
	Resources []booking.Resource
	Warning   string // why posters cannot be printed now; "" when they can
}

// PosterCard is one printed poster: the resource, the address its QR code holds and the code.
type PosterCard struct {
	Resource booking.Resource
	URL      string
	QR       QR
}

// PostersPrintView is a set of posters ready to print, one per page.
type PostersPrintView struct {
	Chrome  Chrome
	Back    string // the posters page to go back to
	Cards   []PosterCard
	Warning string // why no posters are printed; "" when they are
}
