package views

import (
	"context"
	"strings"

	"github.com/workspacebooking/booking/web/lang"
)

// AdminSection is one entry of the admin navigation.
type AdminSection struct {
	Name  string // "buildings": what AdminPage's active names
	Label string // "Buildings", in English; the navigation says it in the page's language (label)
	Path  string // "/admin/buildings"
	Help  string // a few words under the label, in English (help)
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
	{"teams", "Teams", "/admin/teams", "People and neighbourhoods"},
	{"identity", "Identity", "/admin/identity", "Sign-in and provisioning"},
	{"webhooks", "Webhooks", "/admin/webhooks", "Events to other systems"},
	{"utilisation", "Utilisation", "/admin/utilisation", "How desks and rooms are used"},
	{"audit", "Audit", "/admin/audit", "Who changed what"},
}

// label is the section's name in the navigation, in ctx's language.
func (s AdminSection) label(ctx context.Context) string {
	switch s.Name {
	case "buildings":
		return lang.T(ctx, "admin.common.navBuildings")
	case "floors":
		return lang.T(ctx, "admin.common.navFloors")
	case "resources":
		return lang.T(ctx, "admin.common.navResources")
	case "rules":
		return lang.T(ctx, "admin.common.navRules")
	case "catalogue":
		return lang.T(ctx, "admin.common.navCatalogue")
	case "closures":
		return lang.T(ctx, "admin.common.navClosures")
	case "people":
		return lang.T(ctx, "admin.common.navPeople")
	case "teams":
		return lang.T(ctx, "admin.common.navTeams")
	case "identity":
		return lang.T(ctx, "admin.common.navIdentity")
	case "webhooks":
		return lang.T(ctx, "admin.common.navWebhooks")
	case "utilisation":
		return lang.T(ctx, "admin.common.navUtilisation")
	case "audit":
		return lang.T(ctx, "admin.common.navAudit")
	}
	return s.Label
}

// help is the few words under the section's label, in ctx's language.
func (s AdminSection) help(ctx context.Context) string {
	switch s.Name {
	case "buildings":
		return lang.T(ctx, "admin.common.navBuildingsHelp")
	case "floors":
		return lang.T(ctx, "admin.common.navFloorsHelp")
	case "resources":
		return lang.T(ctx, "admin.common.navResourcesHelp")
	case "rules":
		return lang.T(ctx, "admin.common.navRulesHelp")
	case "catalogue":
		return lang.T(ctx, "admin.common.navCatalogueHelp")
	case "closures":
		return lang.T(ctx, "admin.common.navClosuresHelp")
	case "people":
		return lang.T(ctx, "admin.common.navPeopleHelp")
	case "teams":
		return lang.T(ctx, "admin.common.navTeamsHelp")
	case "identity":
		return lang.T(ctx, "admin.common.navIdentityHelp")
	case "webhooks":
		return lang.T(ctx, "admin.common.navWebhooksHelp")
	case "utilisation":
		return lang.T(ctx, "admin.common.navUtilisationHelp")
	case "audit":
		return lang.T(ctx, "admin.common.navAuditHelp")
	}
	return s.Help
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
