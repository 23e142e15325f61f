package web

import (
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"github.com/workspacebooking/booking/web/api"
	"github.com/workspacebooking/booking/web/kit"
)

// compress gzips pages and static files of 1 KB or more for the clients that accept it.
var compress = middleware.GzipWithConfig(middleware.GzipConfig{Level: 5, MinLength: 1024})

// routes lists every route of the service: this function and the three below it are the one list.
func (s *Server) routes() {
	e := s.echo
	e.Use(requestID, s.baseHeaders, s.logRequests, middleware.Recover(), s.limitAddresses, withDeadline)

	e.GET("/healthz", s.healthz)
	e.GET("/readyz", s.readyz)
	e.GET("/metrics", s.serveMetrics) // Prometheus; this machine and private networks only
	e.GET("/static/*", s.staticFiles, compress)

	// Pages. A page asked for under another host name than BASE_URL's is sent there first. Every page
	// carries the security headers and a session; state-changing requests from another site are refused
	// (CSRF), and so are bodies over 64 KB; all but the sign-in pages need someone signed in, and are
	// limited per person as the API is. The body is bounded after the person is known, so that its
	// refusal is in their language.
	base := []echo.MiddlewareFunc{s.canonicalHost, s.pageHeaders, compress, s.session, s.crossOrigin}
	page := append(base[:len(base):len(base)], limitPageBody)
	user := append(base[:len(base):len(base)], s.requireUser, s.limitUsers, limitPageBody)
	e.GET(signInPath, s.pageSignIn, page...)
	e.POST("/login/dev", s.pageDevSignIn, page...) // development mode only; 404 otherwise
	e.GET(callbackPath, s.pageAuthCallback, page...)
	e.POST("/logout", s.pageSignOut, page...)
	e.POST("/language", s.pageLanguage, page...) // the language switch of every page, signed in or not
	e.GET("/", s.pages.Week, user...)            // My week: the start page
	e.GET("/people", s.pages.People, user...)    // the colleague picker of the booking and kiosk forms

	s.employeeRoutes(e, user)
	s.consoleRoutes(e, append(user[:len(user):len(user)], s.requireAdmin))

	// SCIM 2.0 provisioning of people by the identity provider (web/scim), with a SCIM token.
	e.Match([]string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete},
		kit.SCIMPrefix+"/*", s.scim.Serve, s.scim.RequireToken)

	s.apiRoutes(e.Group(api.Prefix))
}

// employeeRoutes lists the pages of employees, receptionists and phones (web/pages).
func (s *Server) employeeRoutes(e *echo.Echo, user []echo.MiddlewareFunc) {
	// Employees: find a space (list and floor plan), book it, and look after their bookings.
	e.GET("/find", s.pages.Find, user...)
	e.GET("/find/plan", s.pages.FloorPlan, user...)
	e.GET("/find/resources/:resourceId", s.pages.Resource, user...)
	e.GET("/find/services", s.pages.FindServices, user...) // the services fieldset of the booking form
	// Floor plans, for the floor-plan pages and the apps: signed in, or with a bearer token.
	e.GET("/plans/:floorId/:file", s.pages.Plan, s.pageHeaders, compress, s.session, s.requireUserOrBearer)
	e.POST("/bookings", s.pages.CreateBookings, user...)
	e.GET("/bookings", s.pages.MyBookings, user...)
	e.GET("/bookings/:bookingId", s.pages.Booking, user...)
	e.GET("/bookings/series/:seriesId", s.pages.Series, user...)
	e.POST("/bookings/series/:seriesId/cancel", s.pages.CancelSeries, user...)
	e.POST("/bookings/series/:seriesId/times", s.pages.ChangeSeriesTimes, user...)
	e.POST("/bookings/:bookingId/checkin", s.pages.CheckIn, user...)
	e.POST("/bookings/:bookingId/checkout", s.pages.CheckOut, user...)
	e.POST("/bookings/:bookingId/cancel", s.pages.Cancel, user...)
	e.POST("/bookings/:bookingId/change", s.pages.ChangeBooking, user...)
	e.POST("/bookings/:bookingId/services", s.pages.OrderServices, user...)
	// Admins: bookings waiting for approval.
	e.GET("/approvals", s.pages.Approvals, user...)
	e.POST("/approvals/:bookingId", s.pages.Decide, user...)

	// Receptionists on a tablet, and phones that scanned a poster; admins print the posters.
	e.GET("/kiosk", s.pages.Kiosk, user...)
	e.GET("/kiosk/resource", s.pages.KioskResource, user...)
	e.POST("/kiosk/book", s.pages.KioskBook, user...)
	e.POST("/kiosk/checkin", s.pages.KioskCheckIn, user...)
	e.GET("/p/:posterCode", s.pages.Poster, user...)
	e.POST("/p/:posterCode/book", s.pages.PosterBook, user...)
	e.POST("/p/:posterCode/checkin", s.pages.PosterCheckIn, user...)
	e.GET("/posters", s.pages.Posters, user...)
	e.GET("/posters/print", s.pages.PostersPrint, user...)

	// Everyone: their week (the start page's one tap), who is in on a day, and their favourites.
	e.POST("/week/book", s.pages.WeekBook, user...)
	e.GET("/whos-in", s.pages.WhosIn, user...)
	e.POST("/favourites/people/:personId", s.pages.StarPerson, user...)
	e.POST("/favourites/resources/:resourceId", s.pages.StarResource, user...)

	// Everyone: their own settings (optional e-mails, the calendar feed), and a room's calendar.
	e.GET("/settings", s.pages.Settings, user...)
	e.POST("/settings/mail", s.pages.SaveMailSettings, user...)
	e.POST("/settings/visibility", s.pages.SaveVisibility, user...) // who sees their bookings
	e.POST("/settings/feed", s.pages.RotateFeed, user...)           // a new feed address; the old one stops working
	e.GET("/ical/rooms/:file", s.pages.RoomFeed, user...)
	// Calendar apps and mail clients: the secret in the address is the credential, with no session and
	// no cross-site check (a mail client posts the one-click unsubscribe from elsewhere, RFC 8058).
	secret := []echo.MiddlewareFunc{hideSecret, s.pageHeaders, compress, limitPageBody}
	e.GET("/ical/:file", s.pages.PersonalFeed, secret...) // {feed secret}.ics
	e.GET("/mail/unsubscribe/:secret/:kind", s.pages.Unsubscribe, secret...)
	e.POST("/mail/unsubscribe/:secret/:kind", s.pages.UnsubscribeOneClick, secret...)
}

// consoleRoutes lists the admin console (web/console); adm lets only the organization's admins in.
func (s *Server) consoleRoutes(e *echo.Echo, adm []echo.MiddlewareFunc) {
	// Admins: the office settings.
	e.GET("/admin/rules", s.console.Rules, adm...)
	e.POST("/admin/rules/:ruleId", s.console.SaveRule, adm...)
	e.POST("/admin/rules/:ruleId/sentence", s.console.RuleSentence, adm...)
	e.GET("/admin/catalogue", s.console.Catalogue, adm...)
	e.POST("/admin/catalogue/additional-services", s.console.AdditionalServices, adm...)
	e.POST("/admin/catalogue/:collection/:id", s.console.SaveCatalogueItem, adm...)
	e.GET("/admin/people", s.console.People, adm...)
	e.POST("/admin/people", s.console.AddPerson, adm...)
	e.POST("/admin/people/:userId", s.console.SavePerson, adm...)
	e.POST("/admin/people/:userId/active", s.console.PersonActive, adm...)
	e.POST("/admin/people/:userId/unlink", s.console.UnlinkPerson, adm...) // unbind a person's sign-in
	e.GET("/admin/teams", s.console.Teams, adm...)
	e.POST("/admin/teams", s.console.CreateTeam, adm...)
	e.GET("/admin/teams/:teamId", s.console.Team, adm...)
	e.POST("/admin/teams/:teamId", s.console.SaveTeam, adm...)
	e.POST("/admin/teams/:teamId/delete", s.console.DeleteTeam, adm...)
	e.POST("/admin/teams/:teamId/members", s.console.AddTeamMembers, adm...)
	e.POST("/admin/teams/:teamId/members/:userId/remove", s.console.RemoveTeamMember, adm...)
	e.GET("/admin/audit", s.console.Audit, adm...)
	// Admins: a building's utilisation (aggregates only), as a page and as CSV, and its privacy settings.
	e.GET("/admin/utilisation", s.console.Utilisation, adm...)
	e.GET("/admin/utilisation.csv", s.console.UtilisationCSV, adm...)
	e.POST("/admin/utilisation/settings", s.console.SaveUtilisationSettings, adm...)
	e.GET("/admin/closures", s.console.Closures, adm...)
	e.POST("/admin/closures", s.console.SaveClosure, adm...)
	e.POST("/admin/closures/:closureId/delete", s.console.DeleteClosure, adm...)

	// Admins: how people sign in (e-mail domains, default role, groups) and the SCIM tokens.
	e.GET("/admin/identity", s.console.Identity, adm...)
	e.POST("/admin/identity/settings", s.console.SaveSignInSettings, adm...)
	e.POST("/admin/identity/domains/:domain/verify", s.console.VerifyDomain, adm...)
	e.POST("/admin/identity/tokens", s.console.CreateSCIMToken, adm...)
	e.POST("/admin/identity/tokens/:tokenId/revoke", s.console.RevokeSCIMToken, adm...)

	// Admins: the webhook endpoints, their secrets and their latest deliveries.
	e.GET("/admin/webhooks", s.console.Webhooks, adm...)
	e.POST("/admin/webhooks", s.console.CreateWebhook, adm...)
	e.GET("/admin/webhooks/:webhookId", s.console.Webhook, adm...)
	e.POST("/admin/webhooks/:webhookId", s.console.SaveWebhook, adm...)
	e.POST("/admin/webhooks/:webhookId/rotate", s.console.RotateWebhook, adm...)
	e.POST("/admin/webhooks/:webhookId/delete", s.console.DeleteWebhook, adm...)
	e.POST("/admin/webhooks/:webhookId/deliveries/:deliveryId/resend", s.console.ResendWebhookDelivery, adm...)

	// Admins: the office's layout. Plans are uploaded with a larger body bound.
	upload := []echo.MiddlewareFunc{s.pageHeaders, s.session, s.crossOrigin, limitUploadBody, s.requireUser, s.limitUsers, s.requireAdmin}
	e.GET("/admin/buildings", s.console.Buildings, adm...)
	e.GET("/admin/buildings/new", s.console.NewBuilding, adm...)
	e.POST("/admin/buildings", s.console.SaveBuilding, adm...)
	e.GET("/admin/buildings/:buildingId", s.console.Building, adm...)
	e.POST("/admin/buildings/:buildingId", s.console.SaveBuilding, adm...)
	e.GET("/admin/floors", s.console.Floors, adm...)
	e.GET("/admin/floors/new", s.console.NewFloor, adm...)
	e.POST("/admin/floors", s.console.SaveFloor, adm...)
	e.GET("/admin/floors/:floorId", s.console.Floor, adm...)
	e.POST("/admin/floors/:floorId", s.console.SaveFloor, adm...)
	e.POST("/admin/floors/:floorId/plan/image", s.console.UploadPlan, upload...)
	e.GET("/admin/floors/:floorId/plan", s.console.Plan, adm...)
	e.POST("/admin/floors/:floorId/plan/grid", s.console.PlanGrid, adm...)
	e.POST("/admin/floors/:floorId/neighbourhoods", s.console.CreateNeighbourhood, adm...)
	e.POST("/admin/floors/:floorId/neighbourhoods/:zoneId", s.console.SaveNeighbourhood, adm...)
	e.POST("/admin/floors/:floorId/neighbourhoods/:zoneId/delete", s.console.DeleteNeighbourhood, adm...)
	e.GET("/admin/resources", s.console.Resources, adm...)
	e.GET("/admin/resources/new", s.console.NewResource, adm...)
	e.POST("/admin/resources", s.console.SaveResource, adm...)
	e.POST("/admin/resources/bulk", s.console.ChangeResources, adm...) // one change to the ticked ones
	e.GET("/admin/resources/:resourceId", s.console.Resource, adm...)
	e.POST("/admin/resources/:resourceId", s.console.SaveResource, adm...)
	e.POST("/admin/resources/:resourceId/position", s.console.MoveResource, adm...)
}

// apiRoutes lists the JSON API under /api/v1 (web/api).
func (s *Server) apiRoutes(v1 *echo.Group) {
	// Every /api/v1 route needs a bearer token. The middleware is given per route, not to the group, so
	// that a wrong method still answers 405 rather than the group's catch-all 404.
	// POSTs also take an Idempotency-Key (idempotency.go).
	auth := s.requireBearer
	post := []echo.MiddlewareFunc{auth, s.idempotent}
	// 4.1 Retrieve the status of a resource ("me" or a user id).
	v1.GET("/users/:userId/resources/statusinfo", s.api.StatusInfo, auth)
	// 4.2 Free workstations and spaces (deprecated).
	v1.GET("/users/:userId/buildings/:buildingId/workstations/subcategories/:subcategoryId/free", s.api.FreeWorkstations, auth)
	v1.GET("/users/:userId/buildings/:buildingId/spaces/subcategories/:subcategoryId/free", s.api.FreeSpaces, auth)
	// 4.4 Create standard bookings of spaces, all or none.
	v1.POST("/users/:userId/bookings/spaces/standard", s.api.CreateSpaceBookings, post...)
	// 4.3 Contract reservables for a booking.
	v1.PUT("/bookings/:bookingId/reservables/all", s.api.ContractReservables, auth)

	// The lifecycle of bookings, beyond the published operations.
	v1.POST("/users/:userId/bookings/workstations/standard", s.api.CreateWorkstationBookings, post...)
	v1.GET("/users/:userId/bookings", s.api.UserBookings, auth)
	v1.POST("/users/:userId/resources/checkin", s.api.CheckInByPosterCode, post...)
	v1.GET("/bookings/:bookingId", s.api.GetBooking, auth)
	v1.PATCH("/bookings/:bookingId", s.api.ChangeBooking, auth)
	v1.DELETE("/bookings/:bookingId", s.api.CancelBooking, auth)
	v1.POST("/bookings/:bookingId/checkin", s.api.CheckIn, post...)
	v1.POST("/bookings/:bookingId/checkout", s.api.CheckOut, post...)
	v1.POST("/bookings/:bookingId/approval", s.api.DecideApproval, post...)
	v1.GET("/approvals", s.api.Approvals, auth)
	// Recurring bookings: a series and its occurrences, each an ordinary booking.
	v1.POST("/users/:userId/series", s.api.CreateSeries, post...)
	v1.GET("/users/:userId/series", s.api.UserSeries, auth)
	v1.GET("/series/:seriesId", s.api.GetSeries, auth)
	v1.PATCH("/series/:seriesId", s.api.ChangeSeries, auth)
	v1.DELETE("/series/:seriesId", s.api.CancelSeries, auth)

	// Availability, the successor of the deprecated free listings, and the catalogue.
	v1.GET("/users/:userId/buildings/:buildingId/availability", s.api.Availability, auth)
	v1.GET("/buildings", s.api.Buildings, auth)
	v1.GET("/buildings/:buildingId/floors", s.api.Floors, auth)
	v1.GET("/subcategories", s.api.Subcategories, auth)
	v1.GET("/features", s.api.Features, auth)
	v1.GET("/resources/:resourceId/reservables", s.api.ResourceReservables, auth)

	s.personalAPIRoutes(v1, auth)

	s.adminAPIRoutes(v1, auth)

	// The OpenAPI 3.1 document of everything under /api/v1; public.
	v1.GET("/openapi.json", s.api.OpenAPI)
}

// personalAPIRoutes lists each person's own part of the API: who is in, their favourites, and who sees
// their bookings. {userId} is "me" or their own id.
func (s *Server) personalAPIRoutes(v1 *echo.Group, auth echo.MiddlewareFunc) {
	v1.GET("/users/:userId/buildings/:buildingId/presence", s.api.Presence, auth)
	v1.GET("/users/:userId/favourites", s.api.Favourites, auth)
	v1.PUT("/users/:userId/favourites/resources/:resourceId", s.api.StarResource, auth)
	v1.DELETE("/users/:userId/favourites/resources/:resourceId", s.api.StarResource, auth)
	v1.PUT("/users/:userId/favourites/people/:personId", s.api.StarPerson, auth)
	v1.DELETE("/users/:userId/favourites/people/:personId", s.api.StarPerson, auth)
	v1.GET("/users/:userId/visibility", s.api.Visibility, auth)
	v1.PUT("/users/:userId/visibility", s.api.PutVisibility, auth)
}

// adminAPIRoutes lists the admins' part of the API.
func (s *Server) adminAPIRoutes(v1 *echo.Group, auth echo.MiddlewareFunc) {
	// Admins: the organization's objects one at a time (in the import format), the whole organization as
	// an import document, and the audit log.
	// Writes read the actor's role and active state again from the database (currentAdmin).
	write := []echo.MiddlewareFunc{auth, s.currentAdmin}
	v1.GET("/admin/layout", s.api.AdminLayout, auth)
	v1.GET("/admin/audit", s.api.AdminAudit, auth)
	v1.GET("/admin/identity", s.api.AdminIdentity, auth)
	v1.PUT("/admin/identity", s.api.AdminPutIdentity, write...)
	v1.POST("/admin/identity/domains/:domain/verify", s.api.AdminVerifyDomain, auth, s.currentAdmin, s.idempotent)
	// Admins: the webhook endpoints, their secrets and the deliveries each one got.
	v1.GET("/admin/webhooks", s.api.AdminWebhooks, auth)
	v1.POST("/admin/webhooks", s.api.AdminCreateWebhook, auth, s.currentAdmin, s.idempotent)
	v1.GET("/admin/webhooks/:webhookId", s.api.AdminWebhook, auth)
	v1.PATCH("/admin/webhooks/:webhookId", s.api.AdminPatchWebhook, write...)
	v1.DELETE("/admin/webhooks/:webhookId", s.api.AdminDeleteWebhook, write...)
	v1.POST("/admin/webhooks/:webhookId/rotate", s.api.AdminRotateWebhook, auth, s.currentAdmin, s.idempotent)
	v1.GET("/admin/webhooks/:webhookId/deliveries", s.api.AdminWebhookDeliveries, auth)
	v1.POST("/admin/webhooks/:webhookId/deliveries/:deliveryId/resend", s.api.AdminResendWebhookDelivery, auth, s.currentAdmin, s.idempotent)
	// Admins: teams, their sources and members.
	v1.GET("/admin/teams", s.api.AdminTeams, auth)
	v1.POST("/admin/teams", s.api.AdminCreateTeam, auth, s.currentAdmin, s.idempotent)
	v1.GET("/admin/teams/:teamId", s.api.AdminTeam, auth)
	v1.PUT("/admin/teams/:teamId", s.api.AdminPutTeam, write...)
	v1.DELETE("/admin/teams/:teamId", s.api.AdminDeleteTeam, write...)
	v1.PUT("/admin/teams/:teamId/members/:memberId", s.api.AdminAddTeamMember, write...)
	v1.DELETE("/admin/teams/:teamId/members/:memberId", s.api.AdminRemoveTeamMember, write...)
	v1.GET("/admin/:collection", s.api.AdminList, auth)
	v1.GET("/admin/:collection/:id", s.api.AdminGet, auth)
	v1.PUT("/admin/:collection/:id", s.api.AdminPut, write...)
	v1.DELETE("/admin/:collection/:id", s.api.AdminDelete, write...)
	// Admins: the organization's layout.
	v1.PUT("/admin/floors/:id/plan", s.api.PutFloorPlan, write...)
}
