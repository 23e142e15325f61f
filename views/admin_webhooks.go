package views

import "slices"

// AdminWebhooks is the webhooks page: the organization's endpoints, a form to add one, and the secret of
// the one just added.
type AdminWebhooks struct {
	Chrome     Chrome
	Notice     string
	Endpoints  []WebhookRow
	Max        int // endpoints an organization may have
	EventTypes []Option
	Form       WebhookForm
	NewSecret  *WebhookSecret // shown once
}

// AdminWebhook is the page of one endpoint: its settings, its secret's rotation, and its latest
// deliveries.
type AdminWebhook struct {
	Chrome     Chrome
	Notice     string
	Endpoint   WebhookRow
	EventTypes []Option
	Form       WebhookForm
	NewSecret  *WebhookSecret // shown once, after a rotation
	Deliveries []WebhookDeliveryRow
}

// WebhookRow is an endpoint, in words.
type WebhookRow struct {
	ID, URL, Description string
	EventTypes           []string
	Enabled              bool
	Status               string // "Enabled", or why it gets nothing
	Rotating             string // when the previous secret stops signing; "" when it does not
}

// WebhookForm is the form of an endpoint as typed.
type WebhookForm struct {
	URL, Description string
	EventTypes       []string // the types ticked
	Enabled          bool
	Problem          *AdminProblem // a refusal, in words
}

// ticked reports whether the form has the event type ticked.
func (f WebhookForm) ticked(t string) bool { return slices.Contains(f.EventTypes, t) }

// WebhookSecret is a signing secret just made, with the endpoint it signs for.
type WebhookSecret struct {
	URL, Secret string
	Rotated     bool // made by a rotation: the previous one signs too for a while
}

// WebhookDeliveryRow is one try of a delivery, in words.
type WebhookDeliveryRow struct {
	ID        string
	When      string
	EventType string
	EventID   string
	Attempt   int
	Status    string // "200", or "No answer"
	Outcome   string // "Delivered", "Failed, tried again later"…
	OK        bool
	Answer    string // the start of the answer, shortened for the page
	Error     string
}
