package views

import "strings"

// AdminSection is one entry of the admin navigation.
type AdminSection struct {
	Name  string // "buildings": what AdminPage's active names
	Label string // "Buildings"
	Path  string // "/admin/buildings"
	Help  string // a few words under the label
}

// AdminSections are the admin pages in the order the navigation lists them.
var AdminSections = []AdminSection{
	{"buildings", "Buildings", "/admin/buildings", "Offices, addresses, time zones"},
	{"floors", "Floors", "/admin/floors", "Levels and their plans"},
	{"resources", "Resources", "/admin/resources", "Desks and rooms"},
	{"rules", "Rules", "/admin/rules", "When and how long"},
	{"catalogue", "Catalogue", "/admin/catalogue", "Kinds, features, services"},
	{"closures", "Closures", "/admin/closures", "Holidays and repairs"},
	{"people", "People", "/admin/people", "Roles and access"},
	{"identity", "Identity", "/admin/identity", "Sign-in and provisioning"},
	{"webhooks", "Webhooks", "/admin/webhooks", "Events to other systems"},
	{"audit", "Audit", "/admin/audit", "Who changed what"},
}

// current marks the section's link when active names it, by name, label or path.
func (s AdminSection) current(active string) string {
	a := strings.ToLower(strings.TrimSpace(active))
	if a == s.Name || a == s.Path || strings.HasPrefix(a, s.Path+"/") {
		return "page"
	}
	return ""
}

// titled returns the chrome with another title.
func (c Chrome) titled(title string) Chrome {
	if title != "" {
		c.Title = title
	}
	return c
}
