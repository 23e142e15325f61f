package views

import "github.com/workspacebooking/booking/web/identity"

// AdminIdentity is the admins' page of how people come from the identity provider: the sign-in settings
// and the SCIM tokens.
type AdminIdentity struct {
	Chrome
	Settings identity.SignInSettings
	Tokens   []identity.SCIMToken
	SCIMURL  string        // the SCIM base URL to give the identity provider
	NewToken *NewSCIMToken // the token just created, shown once
	Notice   string
	Problem  *AdminProblem // a refused change, in words
	// Domains and GroupRoles are the text of the form as sent, kept when a change is refused.
	Domains, GroupRoles string
	// Scopes are the scopes the service asks the identity provider for; nil when none is configured.
	Scopes []string
}

// NewSCIMToken is a SCIM token just created, with its secret.
type NewSCIMToken struct {
	Name, Secret string
}
