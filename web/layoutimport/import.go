package layoutimport

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/mail"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/booking"
)

// ImportSummary counts the objects of an imported layout, keyed by the name of their array in the
// document.
type ImportSummary map[string]int

// Import loads a layout document into the database in one transaction, so a bad document imports
// nothing. Closures come last, after the bookings, so a closure sees the bookings it would cover. Every object is inserted, or updated in place if its id already exists; nothing is deleted.
// A resource's features and services are replaced by the lists given. An optional user field that is
// left out keeps its stored value. Bookings are only inserted: an existing booking is left exactly as
// it is.
// Codes: 2000 naming the array, the index and the field of the first bad object; 4016 a closure that
// covers blocking bookings and says nothing about them (its message names the closure).
func Import(ctx context.Context, svc *booking.Service, l Layout) (ImportSummary, error) {
	if err := svc.ChangeLayout(ctx, func(q *queries.Queries) error { return Write(ctx, svc, q, l, Operator) }); err != nil {
		return nil, err
	}
	return summarize(l), nil
}

// summarize counts the objects in the document.
func summarize(l Layout) ImportSummary {
	return ImportSummary{
		"organizations": len(l.Organizations), "userRules": len(l.UserRules), "mobileRoles": len(l.MobileRoles),
		"users": len(l.Users), "buildings": len(l.Buildings), "floors": len(l.Floors),
		"subcategories": len(l.Subcategories), "resourceRules": len(l.ResourceRules), "features": len(l.Features),
		"reservables": len(l.Reservables), "resources": len(l.Resources), "bookings": len(l.Bookings),
		"closures": len(l.Closures),
	}
}

// Operator names the service's operator, who loads documents with `booking import`, as the writer of a
// document.
var Operator = booking.Changer{Label: "import"}

// Write inserts or updates every object in the document, parents before children, inside the transaction
// that q runs. An id that another object holds (of another collection or organization) is refused.
// Import and the admin API both write through it, so both validate alike. Closures are saved through svc
// (booking.Service.SaveClosure), which locks their buildings; a person's active goes through svc's
// ApplyUserActive, as every deactivation does.
//
// by is who writes, for the audit log and for the rules of people's accounts: Operator, or the admin
// (booking.By) who writes through the Admin API or the pages. An admin may keep or clear a person's
// oidcSubject, never set a new one (only the person's own sign-in does), and changes neither their own
// role nor their own active.
// Codes: 2000 naming the array, the index and the field of the first bad object; 4016 a closure that
// covers blocking bookings and says nothing about them; 4017 a change that leaves the organization
// without an active admin.
func Write(ctx context.Context, svc *booking.Service, q *queries.Queries, l Layout, by booking.Changer) error {
	im := importer{q: q, svc: svc, by: by}
	steps := []func(context.Context, Layout) error{
		im.checkIDs, im.organizations, im.namedRules, im.users, im.buildings, im.floors, im.subcategories,
		im.resourceRules, im.features, im.reservables, im.resources, im.bookings, im.closures,
	}
	for _, step := range steps {
		if err := step(ctx, l); err != nil {
			return err
		}
	}
	return nil
}

type importer struct {
	q   *queries.Queries
	svc *booking.Service
	by  booking.Changer
}

// at names one object of the document in error messages, as in resources[3].floorId.
type at struct {
	array string
	index int
}

func (a at) errorf(field, format string, args ...any) error {
	return booking.Errorf(booking.CodeInvalidRequest, "%s[%d].%s: %s", a.array, a.index, field, fmt.Sprintf(format, args...))
}

func (a at) uuid(field, v string) (uuid.UUID, error) {
	id, err := uuid.Parse(v)
	if err != nil || len(v) != 36 {
		return uuid.Nil, a.errorf(field, "%q is not a UUID", v)
	}
	return id, nil
}

func (a at) optionalUUID(field string, ref *LayoutRef) (*uuid.UUID, error) {
	if ref == nil || ref.ID == "" {
		return nil, nil
	}
	id, err := a.uuid(field, ref.ID)
	return &id, err
}

func (a at) required(field, v string) error {
	if strings.TrimSpace(v) == "" {
		return a.errorf(field, "is required")
	}
	return nil
}

// MaxEmailLength is the longest contact e-mail address accepted (RFC 5321's limit on a path).
const MaxEmailLength = 254

// optionalEmail refuses v unless it is empty or a bare e-mail address (no display name, no angle
// brackets) of at most MaxEmailLength bytes.
func (a at) optionalEmail(field, v string) error {
	if v == "" {
		return nil
	}
	if len(v) > MaxEmailLength {
		return a.errorf(field, "write at most %d characters", MaxEmailLength)
	}
	if addr, err := mail.ParseAddress(v); err != nil || addr.Address != v {
		return a.errorf(field, "%q is not an e-mail address", v)
	}
	return nil
}

// oneOf returns v, or def if v is empty, and refuses a value that is not in allowed.
func (a at) oneOf(field, v, def string, allowed ...string) (string, error) {
	if v == "" {
		v = def
	}
	if !slices.Contains(allowed, v) {
		return "", a.errorf(field, "%q is not one of %s", v, strings.Join(allowed, ", "))
	}
	return v, nil
}

// db turns a database refusal into an error that names the object, and the field if the constraint
// tells which.
func (a at) db(err error) error {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		return fmt.Errorf("import %s[%d]: %w", a.array, a.index, err)
	}
	field := constraintFields[pgErr.ConstraintName]
	if field == "" {
		field = "id"
	}
	switch pgErr.Code {
	case "23503":
		return a.errorf(field, "refers to an object that is neither in the document nor in the database")
	case "23505":
		return a.errorf(field, "is already used by another object")
	case "23514":
		return a.errorf(field, "is out of range")
	case "23P01":
		switch pgErr.ConstraintName {
		case "bookings_one_workstation_per_person":
			return a.errorf(field, "already has another workstation during part of that time")
		case "bookings_no_overlap":
			return a.errorf(field, "overlaps another blocking booking of the resource")
		}
	}
	if strings.HasPrefix(pgErr.Code, "22") {
		// A data exception: text with a NUL or bytes that are not UTF-8, a number too large. The
		// database's own words would name its internals.
		return booking.Errorf(booking.CodeInvalidRequest, "%s[%d]: holds a value that cannot be stored "+
			"(a NUL character, bytes that are not UTF-8, or a number too large)", a.array, a.index)
	}
	return fmt.Errorf("import %s[%d]: %w", a.array, a.index, err)
}

var constraintFields = map[string]string{
	"user_rules_organization_fkey":          "organizationId",
	"mobile_roles_organization_fkey":        "organizationId",
	"users_organization_fkey":               "organizationId",
	"users_user_rule_fkey":                  "userRule.id",
	"users_mobile_role_fkey":                "mobileRole.id",
	"users_email_key":                       "email",
	"users_oidc_subject_key":                "oidcSubject",
	"buildings_organization_fkey":           "organizationId",
	"floors_building_fkey":                  "buildingId",
	"subcategories_organization_fkey":       "organizationId",
	"resource_rules_organization_fkey":      "organizationId",
	"resource_rules_window_check":           "endTime",
	"resource_rules_durations_check":        "maximumDuration",
	"features_organization_fkey":            "organizationId",
	"reservables_organization_fkey":         "organizationId",
	"reservables_times_check":               "minimumCancellationMs",
	"resources_floor_fkey":                  "floorId",
	"resources_subcategory_fkey":            "subcategoryId",
	"resources_resource_rule_fkey":          "resourceRuleId",
	"resources_poster_code_key":             "posterCode",
	"resources_capacity_check":              "capacity",
	"resource_features_feature_fkey":        "featureIds",
	"resource_reservables_reservable_fkey":  "reservableIds",
	"bookings_creator_fkey":                 "creatorId",
	"bookings_organizer_fkey":               "organizerId",
	"bookings_no_overlap":                   "startDate",
	"bookings_one_workstation_per_person":   "organizerId",
	"bookings_status_check":                 "status",
	"bookings_building_access_status_check": "buildingAccessStatus",
}

// given returns nil for an empty string, which is a field the document leaves out.
func given(v string) *string {
	if v == "" {
		return nil
	}
	return &v
}

func boolOr(p *bool, def bool) bool {
	if p == nil {
		return def
	}
	return *p
}

func (im importer) organizations(ctx context.Context, l Layout) error {
	for i, o := range l.Organizations {
		a := at{"organizations", i}
		id, err := a.uuid("id", o.ID)
		if err != nil {
			return err
		}
		if err := a.required("name", o.Name); err != nil {
			return err
		}
		if err := im.q.OrganizationUpsert(ctx, queries.OrganizationUpsertParams{
			ID: id, Name: o.Name, AdditionalServicesActive: o.AdditionalServicesActive,
		}); err != nil {
			return a.db(err)
		}
	}
	return nil
}

// ids parses the id and organizationId that every object of an organization has.
func (a at) ids(id, org string) (uuid.UUID, uuid.UUID, error) {
	i, err := a.uuid("id", id)
	if err != nil {
		return uuid.Nil, uuid.Nil, err
	}
	o, err := a.uuid("organizationId", org)
	return i, o, err
}

func (im importer) namedRules(ctx context.Context, l Layout) error {
	for i, r := range l.UserRules {
		a := at{"userRules", i}
		id, org, err := a.ids(r.ID, r.OrganizationID)
		if err != nil {
			return err
		}
		if err := im.q.UserRuleUpsert(ctx, queries.UserRuleUpsertParams{OrganizationID: org, ID: id, Name: r.Name}); err != nil {
			return a.db(err)
		}
	}
	for i, r := range l.MobileRoles {
		a := at{"mobileRoles", i}
		id, org, err := a.ids(r.ID, r.OrganizationID)
		if err != nil {
			return err
		}
		if err := im.q.MobileRoleUpsert(ctx, queries.MobileRoleUpsertParams{OrganizationID: org, ID: id, Name: r.Name}); err != nil {
			return a.db(err)
		}
	}
	return nil
}

func (im importer) users(ctx context.Context, l Layout) error {
	for i, u := range l.Users {
		a := at{"users", i}
		id, org, err := a.ids(u.ID, u.OrganizationID)
		if err != nil {
			return err
		}
		if err := a.required("name", u.Name); err != nil {
			return err
		}
		if addr, err := mail.ParseAddress(u.Email); err != nil || addr.Address != u.Email {
			return a.errorf("email", "%q is not an e-mail address", u.Email)
		}
		if err := a.image("image", u.Image); err != nil {
			return err
		}
		var role *string
		if u.Role != "" {
			if _, err := a.oneOf("role", u.Role, "", string(booking.RoleEmployee), string(booking.RoleReceptionist), string(booking.RoleAdmin)); err != nil {
				return err
			}
			role = &u.Role
		}
		rule, err := a.optionalUUID("userRule.id", u.UserRule)
		if err != nil {
			return err
		}
		mobile, err := a.optionalUUID("mobileRole.id", u.MobileRole)
		if err != nil {
			return err
		}
		cur, err := im.q.UserImportState(ctx, queries.UserImportStateParams{OrganizationID: org, ID: id})
		exists := err == nil
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("get user: %w", err)
		}
		if !exists || !strings.EqualFold(cur.Email, u.Email) {
			if err := booking.CheckPersonEmail(ctx, im.q, org, fmt.Sprintf("users[%d].email", i), u.Email); err != nil {
				return err
			}
		}
		if err := im.checkSubject(a, u, cur, exists); err != nil {
			return err
		}
		demoted := exists && cur.Role == string(booking.RoleAdmin) && cur.Active && role != nil && *role != cur.Role
		if demoted && im.by.UserID == id {
			return a.errorf("role", "you cannot change your own role; ask another admin")
		}
		// A field left out (or empty) is NULL: an existing user keeps its value, a new one gets the default.
		// An oidcSubject of "" clears the subject.
		p := queries.UserUpsertParams{
			OrganizationID: org, ID: id, Name: u.Name, Email: u.Email, Surname: given(u.Surname), Alias: given(u.Alias),
			Image: given(u.Image), UserRuleID: rule, MobileRoleID: mobile, CanBeSearched: u.CanBeSearched,
			Type: given(u.Type), UserLanguage: given(u.UserLanguage), Role: role, OidcSubject: u.OIDCSubject,
		}
		if err := im.q.UserUpsert(ctx, p); err != nil {
			return a.db(err)
		}
		if demoted {
			if err := booking.KeepAnAdmin(ctx, im.q, org); err != nil {
				return err
			}
		}
		if u.Active != nil {
			// Through the domain, so that a deactivation releases the person's bookings as it does elsewhere.
			if err := im.svc.ApplyUserActive(ctx, im.q, org, id, *u.Active, im.by); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkSubject refuses an admin's new oidcSubject for a person. Only the person's own sign-in binds an
// account to a subject; an admin who could set one could make another organization's person sign in to
// an account of theirs. Keeping the current subject or clearing it ("") is allowed. The operator's import
// may set any subject no other account has.
func (im importer) checkSubject(a at, u LayoutUser, cur queries.UserImportStateRow, exists bool) error {
	if im.by.UserID == uuid.Nil || u.OIDCSubject == nil || *u.OIDCSubject == "" {
		return nil
	}
	if exists && cur.OidcSubject != nil && *cur.OidcSubject == *u.OIDCSubject {
		return nil
	}
	return a.errorf("oidcSubject", "only the person's own sign-in sets it; leave it out to keep it, or send \"\" to clear it")
}

func (im importer) buildings(ctx context.Context, l Layout) error {
	for i, b := range l.Buildings {
		a := at{"buildings", i}
		id, org, err := a.ids(b.ID, b.OrganizationID)
		if err != nil {
			return err
		}
		if err := a.required("name", b.Name); err != nil {
			return err
		}
		if b.Timezone == "" || b.Timezone == "Local" {
			return a.errorf("timezone", "is required (an IANA name such as Europe/Madrid)")
		}
		if _, err := time.LoadLocation(b.Timezone); err != nil {
			return a.errorf("timezone", "%q is not a known time zone", b.Timezone)
		}
		p := queries.BuildingUpsertParams{
			OrganizationID: org, ID: id, Name: b.Name, Country: b.Address.Country, City: b.Address.City,
			Address: b.Address.Address, Timezone: b.Timezone, Status: cmp.Or(b.Status, booking.Activated),
			Visible: boolOr(b.Visible, true),
		}
		if c := b.Address.Coordinates; c != nil {
			if c.Latitude < -90 || c.Latitude > 90 || c.Longitude < -180 || c.Longitude > 180 {
				return a.errorf("address.coordinates", "latitude or longitude out of range")
			}
			p.Latitude, p.Longitude = &c.Latitude, &c.Longitude
		}
		if err := im.q.BuildingUpsert(ctx, p); err != nil {
			return a.db(err)
		}
	}
	return nil
}

func (im importer) floors(ctx context.Context, l Layout) error {
	for i, f := range l.Floors {
		a := at{"floors", i}
		id, org, err := a.ids(f.ID, f.OrganizationID)
		if err != nil {
			return err
		}
		building, err := a.uuid("buildingId", f.BuildingID)
		if err != nil {
			return err
		}
		if err := a.image("image", f.Image); err != nil {
			return err
		}
		if err := a.required("name", f.Name); err != nil {
			return err
		}
		if err := im.q.FloorUpsert(ctx, queries.FloorUpsertParams{
			OrganizationID: org, ID: id, BuildingID: building, Name: f.Name, FloorNumber: f.FloorNumber,
			Image: f.Image, Status: cmp.Or(f.Status, booking.Activated), Type: cmp.Or(f.Type, "OFFICE"),
			Visible: boolOr(f.Visible, true),
		}); err != nil {
			return a.db(err)
		}
	}
	return nil
}

func (im importer) subcategories(ctx context.Context, l Layout) error {
	for i, s := range l.Subcategories {
		a := at{"subcategories", i}
		id, org, err := a.ids(s.ID, s.OrganizationID)
		if err != nil {
			return err
		}
		if err := a.required("name", s.Name); err != nil {
			return err
		}
		cat, err := a.oneOf("category", s.Category, "", string(booking.CategoryWorkstation), string(booking.CategorySpace))
		if err != nil {
			return err
		}
		if err := im.q.SubcategoryUpsert(ctx, queries.SubcategoryUpsertParams{
			OrganizationID: org, ID: id, Name: s.Name, Category: cat, DeleteHistorial: s.DeleteHistorial,
			HideBookings: s.HideBookings, CanBeSearched: boolOr(s.CanBeSearched, true), Shifts: s.Shifts,
		}); err != nil {
			return a.db(err)
		}
	}
	return nil
}

// MaxDurationMS bounds every duration of a rule or a service, in ms: 400 days. Nothing in an office
// needs more, and sums of such durations with an instant never overflow.
const MaxDurationMS = 400 * 24 * int64(time.Hour/time.Millisecond)

// duration refuses a duration in ms outside 0 to MaxDurationMS.
func (a at) duration(field string, v int64) error {
	if v < 0 || v > MaxDurationMS {
		return a.errorf(field, "must be from 0 to %d ms (400 days)", MaxDurationMS)
	}
	return nil
}

func (im importer) resourceRules(ctx context.Context, l Layout) error {
	const day = int64(24 * time.Hour / time.Millisecond)
	for i, r := range l.ResourceRules {
		a := at{"resourceRules", i}
		id, org, err := a.ids(r.ID, r.OrganizationID)
		if err != nil {
			return err
		}
		end := r.EndTime
		if end == 0 {
			end = day
		}
		if r.StartTime < 0 || r.StartTime >= day {
			return a.errorf("startTime", "must be an offset from midnight in [0, %d) ms", day)
		}
		if end <= r.StartTime || end > day {
			return a.errorf("endTime", "must be after startTime and at most %d ms", day)
		}
		for _, f := range []struct {
			name string
			v    int64
		}{
			{"advanceCheckIn", r.AdvanceCheckIn}, {"expirationMargin", r.ExpirationMargin},
			{"maximumDuration", r.MaximumDuration}, {"maximumAdvance", r.MaximumAdvance},
		} {
			if err := a.duration(f.name, f.v); err != nil {
				return err
			}
		}
		if r.AllDayBookingsCheckInMS < 0 || r.AllDayBookingsCheckInMS > day {
			return a.errorf("allDayBookingsCheckInMS", "must be an offset from midnight in [0, %d] ms", day)
		}
		if err := im.q.ResourceRuleUpsert(ctx, queries.ResourceRuleUpsertParams{
			OrganizationID: org, ID: id, Name: r.Name, AdvanceCheckIn: r.AdvanceCheckIn,
			ExpirationMargin: r.ExpirationMargin, StartTime: r.StartTime, EndTime: end,
			MaximumDuration: r.MaximumDuration, MaximumAdvance: r.MaximumAdvance,
			AccessControlType: cmp.Or(r.AccessControlType, "ANY"), RequiresApproval: r.RequiresApproval,
			AllDayBookings: r.AllDayBookings, AllDayBookingsCheckInMs: r.AllDayBookingsCheckInMS,
		}); err != nil {
			return a.db(err)
		}
	}
	return nil
}

func (im importer) features(ctx context.Context, l Layout) error {
	for i, f := range l.Features {
		a := at{"features", i}
		id, org, err := a.ids(f.ID, f.OrganizationID)
		if err != nil {
			return err
		}
		if err := a.required("name", f.Name); err != nil {
			return err
		}
		if err := im.q.FeatureUpsert(ctx, queries.FeatureUpsertParams{OrganizationID: org, ID: id, Name: f.Name, Email: f.Email}); err != nil {
			return a.db(err)
		}
	}
	return nil
}

func (im importer) reservables(ctx context.Context, l Layout) error {
	for i, r := range l.Reservables {
		a := at{"reservables", i}
		id, org, err := a.ids(r.ID, r.OrganizationID)
		if err != nil {
			return err
		}
		if err := a.required("name", r.Name); err != nil {
			return err
		}
		if err := a.duration("minimumCancellationMs", r.MinimumCancellationMs); err != nil {
			return err
		}
		if err := a.duration("standardDeliveryTimeMs", r.StandardDeliveryTimeMs); err != nil {
			return err
		}
		if err := a.optionalEmail("email", r.Email); err != nil {
			return err
		}
		if err := im.q.ReservableUpsert(ctx, queries.ReservableUpsertParams{
			OrganizationID: org, ID: id, Name: r.Name, Type: cmp.Or(r.Type, "SERVICE"), Description: r.Description,
			ChooseQuantity: r.ChooseQuantity, ChooseDeliveryTime: r.ChooseDeliveryTime, AllowComments: r.AllowComments,
			MinimumCancellationMs: r.MinimumCancellationMs, StandardDeliveryTimeMs: r.StandardDeliveryTimeMs, Email: r.Email,
		}); err != nil {
			return a.db(err)
		}
	}
	return nil
}

func (im importer) resources(ctx context.Context, l Layout) error {
	for i, r := range l.Resources {
		a := at{"resources", i}
		id, org, err := a.ids(r.ID, r.OrganizationID)
		if err != nil {
			return err
		}
		if err := a.image("image", r.Image); err != nil {
			return err
		}
		p := queries.ResourceUpsertParams{
			OrganizationID: org, ID: id, Name: r.Name, PosterCode: r.PosterCode, Image: r.Image, Phone: r.Phone,
			TopLeftX: r.MapCoordinates.TopLeftX, TopLeftY: r.MapCoordinates.TopLeftY,
			BottomRightX: r.MapCoordinates.BottomRightX, BottomRightY: r.MapCoordinates.BottomRightY,
			Approachable: boolOr(r.Approachable, true), Visible: boolOr(r.Visible, true),
			Status: cmp.Or(r.Status, booking.Activated), Capacity: r.Capacity,
		}
		if p.FloorID, err = a.uuid("floorId", r.FloorID); err != nil {
			return err
		}
		if p.SubcategoryID, err = a.uuid("subcategoryId", r.SubcategoryID); err != nil {
			return err
		}
		if p.ResourceRuleID, err = a.uuid("resourceRuleId", r.ResourceRuleID); err != nil {
			return err
		}
		if err := a.required("name", r.Name); err != nil {
			return err
		}
		if err := a.required("posterCode", r.PosterCode); err != nil {
			return err
		}
		if !booking.PosterCodeValid(r.PosterCode) {
			return a.errorf("posterCode", "%q may hold only letters A-Z and a-z, digits, '.', '_' and '-', 1 to %d of them", r.PosterCode, booking.MaxPosterCodeLength)
		}
		features, err := a.uuids("featureIds", r.FeatureIDs)
		if err != nil {
			return err
		}
		reservables, err := a.uuids("reservableIds", r.ReservableIDs)
		if err != nil {
			return err
		}
		if err := im.q.ResourceUpsert(ctx, p); err != nil {
			var pgErr *pgconn.PgError
			if errors.As(err, &pgErr) && pgErr.Code == "23505" && pgErr.ConstraintName == "resources_poster_code_key" {
				return a.errorf("posterCode", "%q is already the poster code of another resource of the organization (poster codes are the same whatever their case)", r.PosterCode)
			}
			return a.db(err)
		}
		if err := im.q.ResourceFeaturesDelete(ctx, queries.ResourceFeaturesDeleteParams{OrganizationID: org, ResourceID: id}); err != nil {
			return a.db(err)
		}
		if err := im.q.ResourceFeaturesInsert(ctx, queries.ResourceFeaturesInsertParams{OrganizationID: org, ResourceID: id, FeatureIds: features}); err != nil {
			return a.db(err)
		}
		if err := im.q.ResourceReservablesDelete(ctx, queries.ResourceReservablesDeleteParams{OrganizationID: org, ResourceID: id}); err != nil {
			return a.db(err)
		}
		if err := im.q.ResourceReservablesInsert(ctx, queries.ResourceReservablesInsertParams{OrganizationID: org, ResourceID: id, ReservableIds: reservables}); err != nil {
			return a.db(err)
		}
	}
	return nil
}

// uuids parses a list of ids, dropping repeats.
func (a at) uuids(field string, vs []string) ([]uuid.UUID, error) {
	out := make([]uuid.UUID, 0, len(vs))
	for j, v := range vs {
		id, err := a.uuid(fmt.Sprintf("%s[%d]", field, j), v)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(out, id) { // lists are short
			out = append(out, id)
		}
	}
	return out, nil
}

func (im importer) bookings(ctx context.Context, l Layout) error {
	var statuses []string
	for _, st := range booking.Statuses() {
		statuses = append(statuses, string(st))
	}
	for i, b := range l.Bookings {
		a := at{"bookings", i}
		id, org, err := a.ids(b.ID, b.OrganizationID)
		if err != nil {
			return err
		}
		p := queries.BookingUpsertParams{
			OrganizationID: org, ID: id, StartDate: time.UnixMilli(b.StartDate), EndDate: time.UnixMilli(b.EndDate),
			Subject: b.Subject, BodyContent: b.Body.Content, CreateOnlineMeeting: b.CreateOnlineMeeting,
			SipAddress: b.SipAddress,
		}
		if p.ResourceID, err = a.uuid("resourceId", b.ResourceID); err != nil {
			return err
		}
		if p.CreatorID, err = a.uuid("creatorId", b.CreatorID); err != nil {
			return err
		}
		if p.OrganizerID, err = a.uuid("organizerId", b.OrganizerID); err != nil {
			return err
		}
		if b.EndDate <= b.StartDate {
			return a.errorf("endDate", "must be after startDate")
		}
		if p.StartDate.Before(booking.MinTime) || p.EndDate.After(booking.MaxTime) {
			return a.errorf("startDate", "must lie between the years 1970 and 9999")
		}
		if p.Status, err = a.oneOf("status", b.Status, string(booking.StatusPending), statuses...); err != nil {
			return err
		}
		if p.BodyType, err = a.oneOf("body.bodyType", b.Body.BodyType, "TEXT", booking.BodyTypes()...); err != nil {
			return err
		}
		if p.Importance, err = a.oneOf("importance", b.Importance, "LOW", booking.Importances()...); err != nil {
			return err
		}
		if p.BuildingAccessStatus, err = a.oneOf("buildingAccessStatus", b.BuildingAccessStatus, booking.BuildingAccessPending,
			booking.BuildingAccessPending, booking.BuildingAccessGranted, booking.BuildingAccessDenied); err != nil {
			return err
		}
		n, err := im.q.BookingUpsert(ctx, p)
		if err != nil {
			return a.db(err)
		}
		if n == 0 {
			// Nothing was written: either the booking already exists and is left as it is, or its resource
			// does not exist.
			_, err := im.q.BookingGet(ctx, queries.BookingGetParams{OrganizationID: org, ID: id})
			if errors.Is(err, pgx.ErrNoRows) {
				return a.errorf("resourceId", "refers to an object that is neither in the document nor in the database")
			}
			if err != nil {
				return fmt.Errorf("import %s[%d]: %w", a.array, a.index, err)
			}
		}
	}
	return nil
}

// MaxClosures is the largest number of closures one document may hold.
const MaxClosures = 1000

// closures saves each closure through booking.Service.SaveClosure, which locks its building and
// applies its overlapping choice to the bookings it covers.
func (im importer) closures(ctx context.Context, l Layout) error {
	if len(l.Closures) > MaxClosures {
		return booking.Errorf(booking.CodeInvalidRequest, "closures: at most %d per document", MaxClosures)
	}
	for i, c := range l.Closures {
		a := at{"closures", i}
		spec, err := a.closure(c)
		if err != nil {
			return err
		}
		if _, err := im.svc.SaveClosure(ctx, im.q, spec); err != nil {
			var e *booking.Error
			switch {
			case errors.As(err, &e) && e.Code == booking.CodeInvalidRequest:
				return booking.Errorf(e.Code, "%s[%d].%s", a.array, a.index, e.Message) // the message starts with the field
			case errors.As(err, &e):
				return booking.Errorf(e.Code, "%s[%d]: %s", a.array, a.index, e.Message)
			case retryable(err):
				// A closure waits for bookings of its building and they may wait for it: PostgreSQL breaks
				// such a deadlock, and the whole import is retried (booking.Service.ChangeLayout).
				return fmt.Errorf("import %s[%d]: %w", a.array, a.index, err)
			}
			return a.db(err)
		}
	}
	return nil
}

// closure parses a closure of the document.
func (a at) closure(c LayoutClosure) (booking.ClosureSpec, error) {
	id, org, err := a.ids(c.ID, c.OrganizationID)
	if err != nil {
		return booking.ClosureSpec{}, err
	}
	spec := booking.ClosureSpec{
		Closure: booking.Closure{
			ID: id, OrganizationID: org, Start: time.UnixMilli(c.StartDate), End: time.UnixMilli(c.EndDate), Reason: c.Reason,
		},
		Overlapping: booking.OverlapChoice(c.Overlapping),
	}
	for _, f := range []struct {
		name, v string
		to      **uuid.UUID
	}{{"buildingId", c.BuildingID, &spec.BuildingID}, {"floorId", c.FloorID, &spec.FloorID}, {"resourceId", c.ResourceID, &spec.ResourceID}} {
		if f.v == "" {
			continue
		}
		id, err := a.uuid(f.name, f.v)
		if err != nil {
			return booking.ClosureSpec{}, err
		}
		*f.to = &id
	}
	return spec, nil
}

// retryable reports whether err is a deadlock or a serialization failure, after which the transaction
// can be run again.
func retryable(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && (pgErr.Code == "40P01" || pgErr.Code == "40001")
}
