package console

import (
	"context"

	"github.com/workspacebooking/booking/web/lang"
)

// knownFieldWords name, in ctx's language, the fields of the import format whose names do not read well
// split into words, or that the page says in another language; ok is false for the others. The fields
// are in two lists, to keep each function short.
func knownFieldWords(ctx context.Context, key string) (words string, ok bool) {
	if words, ok := knownFieldWordsOne(ctx, key); ok {
		return words, true
	}
	if words, ok := knownFieldWordsTwo(ctx, key); ok {
		return words, true
	}
	return knownFieldWordsThree(ctx, key)
}

// knownFieldWordsOne is the first half of knownFieldWords.
func knownFieldWordsOne(ctx context.Context, key string) (words string, ok bool) {
	switch key {
	case "startTime":
		return lang.T(ctx, "admin.audit.fieldStartTime"), true
	case "endTime":
		return lang.T(ctx, "admin.audit.fieldEndTime"), true
	case "maximumDuration":
		return lang.T(ctx, "admin.audit.fieldMaximumDuration"), true
	case "maximumAdvance":
		return lang.T(ctx, "admin.audit.fieldMaximumAdvance"), true
	case "advanceCheckIn":
		return lang.T(ctx, "admin.audit.fieldAdvanceCheckIn"), true
	case "expirationMargin":
		return lang.T(ctx, "admin.audit.fieldExpirationMargin"), true
	case "allDayBookingsCheckInMS":
		return lang.T(ctx, "admin.audit.fieldAllDayBookingsCheckInMS"), true
	case "allDayBookings":
		return lang.T(ctx, "admin.audit.fieldAllDayBookings"), true
	case "requiresApproval":
		return lang.T(ctx, "admin.audit.fieldRequiresApproval"), true
	case "minimumCancellationMs":
		return lang.T(ctx, "admin.audit.fieldMinimumCancellationMs"), true
	case "standardDeliveryTimeMs":
		return lang.T(ctx, "admin.audit.fieldStandardDeliveryTimeMs"), true
	case "chooseQuantity":
		return lang.T(ctx, "admin.audit.fieldChooseQuantity"), true
	case "chooseDeliveryTime":
		return lang.T(ctx, "admin.audit.fieldChooseDeliveryTime"), true
	case "allowComments":
		return lang.T(ctx, "admin.audit.fieldAllowComments"), true
	case "userLanguage":
		return lang.T(ctx, "admin.audit.fieldUserLanguage"), true
	case "email":
		return lang.T(ctx, "admin.audit.fieldEmail"), true
	case "canBeSearched":
		return lang.T(ctx, "admin.audit.fieldCanBeSearched"), true
	case "resourceRuleId":
		return lang.T(ctx, "admin.audit.fieldResourceRuleId"), true
	case "subcategoryId":
		return lang.T(ctx, "admin.audit.fieldSubcategoryId"), true
	case "floorId":
		return lang.T(ctx, "admin.audit.fieldFloorId"), true
	case "buildingId":
		return lang.T(ctx, "admin.audit.fieldBuildingId"), true
	case "featureIds":
		return lang.T(ctx, "admin.audit.fieldFeatureIds"), true
	case "reservableIds":
		return lang.T(ctx, "admin.audit.fieldReservableIds"), true
	case "posterCode":
		return lang.T(ctx, "admin.audit.fieldPosterCode"), true
	case "name":
		return lang.T(ctx, "admin.audit.fieldName"), true
	case "surname":
		return lang.T(ctx, "admin.audit.fieldSurname"), true
	case "role":
		return lang.T(ctx, "admin.audit.fieldRole"), true
	case "active":
		return lang.T(ctx, "admin.audit.fieldActive"), true
	case "additionalServicesActive":
		return lang.T(ctx, "admin.audit.fieldAdditionalServicesActive"), true
	case "accessControlType":
		return lang.T(ctx, "admin.audit.fieldAccessControlType"), true
	case "category":
		return lang.T(ctx, "admin.audit.fieldCategory"), true
	}
	return "", false
}

// knownFieldWordsTwo is the second half of knownFieldWords.
func knownFieldWordsTwo(ctx context.Context, key string) (words string, ok bool) {
	switch key {
	case "visible":
		return lang.T(ctx, "admin.audit.fieldVisible"), true
	case "hideBookings":
		return lang.T(ctx, "admin.audit.fieldHideBookings"), true
	case "startDate":
		return lang.T(ctx, "admin.audit.fieldStartDate"), true
	case "endDate":
		return lang.T(ctx, "admin.audit.fieldEndDate"), true
	case "keptBookingIds":
		return lang.T(ctx, "admin.audit.fieldKeptBookingIds"), true
	case "releasedBookings":
		return lang.T(ctx, "admin.audit.fieldReleasedBookings"), true
	case "resourceId":
		return lang.T(ctx, "admin.audit.fieldResourceId"), true
	case "timezone":
		return lang.T(ctx, "admin.audit.fieldTimezone"), true
	case "oidcSubject":
		return lang.T(ctx, "admin.audit.fieldOidcSubject"), true
	case "verifiedBy":
		return lang.T(ctx, "admin.audit.fieldVerifiedBy"), true
	case "defaultRole":
		return lang.T(ctx, "admin.audit.fieldDefaultRole"), true
	case "defaultBookingsVisibleTo":
		return lang.T(ctx, "admin.identity.defaultVisibility"), true
	case "userRule.id":
		return lang.T(ctx, "admin.audit.fieldUserRuleId"), true
	case "mobileRole.id":
		return lang.T(ctx, "admin.audit.fieldMobileRoleId"), true
	case "address":
		return lang.T(ctx, "admin.audit.fieldAddress"), true
	case "city":
		return lang.T(ctx, "admin.audit.fieldCity"), true
	case "country":
		return lang.T(ctx, "admin.audit.fieldCountry"), true
	case "status":
		return lang.T(ctx, "admin.audit.fieldStatus"), true
	case "type":
		return lang.T(ctx, "admin.audit.fieldType"), true
	case "image":
		return lang.T(ctx, "admin.audit.fieldImage"), true
	case "floorNumber":
		return lang.T(ctx, "admin.audit.fieldFloorNumber"), true
	case "capacity":
		return lang.T(ctx, "admin.audit.fieldCapacity"), true
	case "phone":
		return lang.T(ctx, "admin.audit.fieldPhone"), true
	case "description":
		return lang.T(ctx, "admin.audit.fieldDescription"), true
	case "reason":
		return lang.T(ctx, "admin.audit.fieldReason"), true
	case "domain":
		return lang.T(ctx, "admin.audit.fieldDomain"), true
	case "domains":
		return lang.T(ctx, "admin.audit.fieldDomains"), true
	case "enabled":
		return lang.T(ctx, "admin.audit.fieldEnabled"), true
	case "eventTypes":
		return lang.T(ctx, "admin.audit.fieldEventTypes"), true
	case "reportThreshold":
		return lang.T(ctx, "admin.audit.fieldReportThreshold"), true
	case "retentionMonths":
		return lang.T(ctx, "admin.audit.fieldRetentionMonths"), true
	case "groupsClaim":
		return lang.T(ctx, "admin.audit.fieldGroupsClaim"), true
	case "importance":
		return lang.T(ctx, "admin.audit.fieldImportance"), true
	case "approachable":
		return lang.T(ctx, "admin.audit.fieldApproachable"), true
	case "createOnlineMeeting":
		return lang.T(ctx, "admin.audit.fieldCreateOnlineMeeting"), true
	}
	return "", false
}

// knownFieldWordsThree is the rest of knownFieldWords: the fields of teams and neighbourhoods.
func knownFieldWordsThree(ctx context.Context, key string) (words string, ok bool) {
	switch key {
	case "idpGroup":
		return lang.T(ctx, "admin.audit.fieldIdpGroup"), true
	case "scimGroupId":
		return lang.T(ctx, "admin.audit.fieldScimGroupId"), true
	case "membersAdded":
		return lang.T(ctx, "admin.audit.fieldMembersAdded"), true
	case "membersRemoved":
		return lang.T(ctx, "admin.audit.fieldMembersRemoved"), true
	case "teamId":
		return lang.T(ctx, "admin.audit.fieldTeamId"), true
	case "teamOnly":
		return lang.T(ctx, "admin.audit.fieldTeamOnly"), true
	case "area":
		return lang.T(ctx, "admin.audit.fieldArea"), true
	}
	return "", false
}
