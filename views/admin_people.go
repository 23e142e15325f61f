package views

// AdminPeople is the people page: a search, the people it finds, and a form to add someone.
type AdminPeople struct {
	Chrome Chrome
	Notice string
	Query  string
	People []PersonRow
	Total  int // how many people the search found; more than len(People) when the list is cut
	New    PersonForm
}

// PersonRow is one person with the forms that change them.
type PersonRow struct {
	PersonForm
	ID, ETag string
	Active   bool
	Self     bool // the signed-in admin: they cannot deactivate themselves here
	Saved    string
	Open     bool // the change form starts open (it was just sent)
	// Subject is the identity provider's subject the person's account is bound to ("" for none), and
	// BoundAt when their sign-in bound it ("" when the audit log does not say).
	Subject, BoundAt string
}

// PersonForm holds the values of a person's form as typed.
type PersonForm struct {
	Name, Surname, Email, Role, Language string
	Problem                              *AdminProblem // a refusal, in words
}
