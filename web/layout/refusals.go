package layout

import (
	"fmt"

	"github.com/workspacebooking/booking/web/booking"
)

// The database's refusals of a write, in the words of the document (interpretError reads the codes).

// db turns a database refusal into an error that names the object, and the field if the constraint
// tells which.
func (a at) db(err error) error {
	e := interpretError(err)
	if e.kind == failNone {
		return fmt.Errorf("import %s[%d]: %w", a.array, a.index, err)
	}
	field := constraintFields[e.constraint]
	if field == "" {
		field = "id"
	}
	switch e.kind {
	case failForeignKey:
		return booking.FieldRefuse(booking.CodeInvalidRequest, a.path(field), "refusal.layout.unknownReference")
	case failUnique:
		return booking.FieldRefuse(booking.CodeInvalidRequest, a.path(field), "refusal.layout.idTaken")
	case failCheck:
		return booking.FieldRefuse(booking.CodeInvalidRequest, a.path(field), "refusal.layout.outOfRange")
	case failExclusion:
		switch e.constraint {
		case "bookings_one_workstation_per_person":
			return booking.FieldRefuse(booking.CodeInvalidRequest, a.path(field), "refusal.layout.workstationHeld")
		case "bookings_no_overlap":
			return booking.FieldRefuse(booking.CodeInvalidRequest, a.path(field), "refusal.layout.overlapsBooking")
		}
	case failDataException:
		// Text with a NUL or bytes that are not UTF-8, a number too large. The database's own words
		// would name its internals.
		return booking.Refuse(booking.CodeInvalidRequest, "refusal.layout.unstorableValue", map[string]any{
			"Array": a.array, "Index": fmt.Sprint(a.index)})
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
