package views

// SettingsPage is a person's own settings: which optional e-mails they get, and their calendar feed.
type SettingsPage struct {
	Chrome Chrome
	// MailNotice and FeedNotice say what the last form did, in words, shown beside that form.
	MailNotice, FeedNotice string
	Mails                  []MailChoice
	// FeedURL is the https address of the person's private calendar feed, WebcalURL the same address
	// for calendar apps (webcal://).
	FeedURL, WebcalURL string
}

// MailChoice is one optional kind of e-mail on the settings page; On when the person gets it.
type MailChoice struct {
	Kind string
	On   bool
}

// UnsubscribePage is what a one-click unsubscribe link shows: a button that asks to stop one kind of
// e-mail (Action is where it posts), what was done (Done), or why the link does nothing (Problem).
type UnsubscribePage struct {
	Chrome  Chrome
	Kind    string
	Action  string
	Done    bool
	Problem string
}

// mailWords names a kind of e-mail (notify.MailKinds) and says when it is sent.
func mailWords(kind string) (label, hint string) {
	switch kind {
	case "confirmation":
		return "Confirmations of my own bookings", "When I book, change or cancel something myself."
	case "invitation":
		return "Invitations", "When a colleague invites me to a booking they organize, or changes it. A cancellation always comes, so that my calendar drops it."
	case "reminder":
		return "Check-in reminders", "When check-in opens for a booking of mine."
	case "approval":
		return "Bookings to approve", "When a booking waits for an admin's approval."
	}
	return kind, ""
}

// mailLabel names a kind of e-mail in a sentence: "check-in reminders".
func mailLabel(kind string) string {
	switch kind {
	case "confirmation":
		return "confirmations of your own bookings"
	case "invitation":
		return "invitations to colleagues' bookings"
	case "reminder":
		return "check-in reminders"
	case "approval":
		return "bookings waiting for approval"
	}
	return kind
}
