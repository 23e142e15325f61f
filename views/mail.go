package views

// Mail is one e-mail about a booking, for its HTML part (MailHTML). Package notify writes the plain-text
// part from the same fields.
type Mail struct {
	Lang  string // the code of the language of the text ("en", "es"), for <html lang>; render in a context of that language
	Title string // the heading, also the subject without the organization's name
	Lead  string // the first sentence: what happened
	Facts []MailFact
	// Action is the one button of the mail, such as "Review the request"; zero for none. It opens a
	// page: links in e-mails never act by themselves, since mail scanners follow them.
	Action MailLink
	// Note says why the person gets this e-mail.
	Note string
	// Unsubscribe is the page that turns this kind of e-mail off; "" for e-mails that are not optional.
	Unsubscribe string
	// Organization is the name of the organization that sends it.
	Organization string
}

// MailFact is one line of a mail's summary: "When", "Tue 1 Dec, 09:00–13:00 Madrid time".
type MailFact struct {
	Label string
	Value string
	Link  string // if set, Value links there
}

// MailLink is a link shown as a button.
type MailLink struct {
	Label string
	URL   string
}
