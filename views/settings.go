package views

import (
	"context"

	"github.com/workspacebooking/booking/web/lang"
)

// SettingsPage is a person's own settings: which optional e-mails they get, and their calendar feed.
type SettingsPage struct {
	Chrome Chrome
	// MailNotice and FeedNotice say what the last form did, in words, shown beside that form.
	MailNotice, FeedNotice string
	Mails                  []MailChoice
	// FeedURL is the https address of the person's private calendar feed, WebcalURL the same address
	// for calendar apps (webcal://).
	FeedURL, WebcalURL string
	// VisibleTo is the person's own choice of who sees their bookings ("" for the organization's
	// default, DefaultVisibleTo); VisibilityNotice what the last save did.
	VisibleTo, DefaultVisibleTo string
	VisibilityNotice            string
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
func mailWords(ctx context.Context, kind string) (label, hint string) {
	switch kind {
	case "confirmation":
		return lang.T(ctx, "settings.mailConfirmation"), lang.T(ctx, "settings.mailConfirmationHint")
	case "invitation":
		return lang.T(ctx, "settings.mailInvitation"), lang.T(ctx, "settings.mailInvitationHint")
	case "reminder":
		return lang.T(ctx, "settings.mailReminder"), lang.T(ctx, "settings.mailReminderHint")
	case "approval":
		return lang.T(ctx, "settings.mailApproval"), lang.T(ctx, "settings.mailApprovalHint")
	}
	return kind, ""
}

// mailLabel names a kind of e-mail in a sentence: "check-in reminders".
func mailLabel(ctx context.Context, kind string) string {
	switch kind {
	case "confirmation":
		return lang.T(ctx, "settings.mailConfirmationInSentence")
	case "invitation":
		return lang.T(ctx, "settings.mailInvitationInSentence")
	case "reminder":
		return lang.T(ctx, "settings.mailReminderInSentence")
	case "approval":
		return lang.T(ctx, "settings.mailApprovalInSentence")
	}
	return kind
}
