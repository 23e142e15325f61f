package views

import "github.com/workspacebooking/booking/web/booking"

// PeoplePicker is the state of a colleague picker: who is chosen, and who matches the query.
type PeoplePicker struct {
	Field  string // the form field: one user id per chosen person
	Multi  bool   // several people (check boxes) or one (radio buttons)
	Query  string
	Chosen []booking.User
	Found  []booking.User
}
