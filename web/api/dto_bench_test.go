package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
)

// benchBookingPage returns a full page of booking.MaxPageSize bookings, as the bookings listing loads
// them. Each booking has its creator and organizer, its full resource (floor, building, subcategory,
// rule, two features) and two contracted reservables.
func benchBookingPage() booking.BookingPage {
	org := uuid.New()
	loc, err := booking.Location("Europe/Madrid")
	if err != nil {
		panic(err)
	}
	user := func(name string) booking.User {
		rule := uuid.New()
		return booking.User{
			ID: uuid.New(), OrganizationID: org, Name: name, Surname: "Fernández", Email: name + "@acme.example",
			UserRuleID: &rule, CanBeSearched: true, Type: "SERVICE_INTERNAL", UserLanguage: "es", Role: booking.RoleEmployee,
		}
	}
	building := booking.Building{
		ID: uuid.New(), OrganizationID: org, Name: "Madrid HQ", Country: "ES", City: "Madrid", Address: "Paseo de la Castellana 1",
		Coordinates: &booking.Coordinates{Latitude: 40.4168, Longitude: -3.7038}, Timezone: "Europe/Madrid",
		Status: booking.Activated, Visible: true,
	}
	floor := booking.Floor{ID: uuid.New(), Name: "Planta 1", FloorNumber: 1, Image: "/static/floors/madrid-1.svg",
		Status: booking.Activated, Type: "OFFICE", Visible: true, Building: building}
	capacity := int32(8)
	resource := booking.Resource{
		ID: uuid.New(), OrganizationID: org, Name: "Alcalá", PosterCode: "MAD-1-R02", Phone: "+34 910 000 001",
		Map: booking.MapCoordinates{TopLeftX: 10, TopLeftY: 20, BottomRightX: 210, BottomRightY: 120}, Approachable: true,
		Visible: true, Status: booking.Activated, Capacity: &capacity, Floor: floor,
		Subcategory: booking.Subcategory{ID: uuid.New(), OrganizationID: org, Name: "Meeting room", Category: booking.CategorySpace, CanBeSearched: true},
		Rule: booking.ResourceRule{ID: uuid.New(), StartTime: 8 * time.Hour, EndTime: 20 * time.Hour, MaximumDuration: 4 * time.Hour,
			AdvanceCheckIn: 10 * time.Minute, ExpirationMargin: 15 * time.Minute, AccessControlType: "ANY"},
		Features: []booking.Feature{
			{ID: uuid.New(), OrganizationID: org, Name: "Screen", Email: "av@acme.example"},
			{ID: uuid.New(), OrganizationID: org, Name: "Whiteboard"},
		},
	}
	coffee := booking.Reservable{ID: uuid.New(), OrganizationID: org, Name: "Coffee service", Type: "SERVICE",
		Description: "Coffee, tea and water", ChooseQuantity: true, ChooseDeliveryTime: true, AllowComments: true,
		MinimumCancellation: 2 * time.Hour}
	av := booking.Reservable{ID: uuid.New(), OrganizationID: org, Name: "AV setup", Type: "SERVICE",
		MinimumCancellation: time.Hour, StandardDeliveryTime: 15 * time.Minute}
	creator, organizer := user("rosa"), user("lucia")
	var p booking.BookingPage
	start := time.Date(2026, 11, 24, 10, 0, 0, 0, loc)
	for i := range booking.MaxPageSize {
		s := start.Add(time.Duration(i) * time.Hour)
		p.Bookings = append(p.Bookings, booking.Booking{
			ID: uuid.New(), OrganizationID: org, Start: s, End: s.Add(time.Hour), Status: booking.StatusPending,
			AccessControlType: "ANY", Creator: creator, Organizer: organizer, Resource: resource,
			Subject: fmt.Sprintf("Quarterly review %d", i), Body: booking.Body{Content: "Agenda in the invite, <b>bring numbers</b>", BodyType: "HTML"},
			Importance: "NORMAL", ResourceType: booking.CategorySpace, BuildingAccessStatus: "PENDING",
			CheckIn: booking.Interval{Start: s.Add(-10 * time.Minute), End: s.Add(15 * time.Minute)},
			Reservables: []booking.BookingReservable{
				{Reservable: coffee, DeliveryTime: 0, Quantity: 6, Comment: "Oat milk please"},
				{Reservable: av, DeliveryTime: 15 * time.Minute, Quantity: 1},
			},
		})
	}
	p.NextCursor = "MTc5NTM1OTYwMDAwMDowMWExZmU0OS0wMDAwLTcwMDAtODAwMC0wMDAwMDAwMDAwMDA"
	return p
}

// BenchmarkBookingPageJSON measures the response of GET /api/v1/users/{me}/bookings for a full page:
// building the DTOs, then encoding them with encoding/json as c.JSON does.
func BenchmarkBookingPageJSON(b *testing.B) {
	p := benchBookingPage()
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if err := json.NewEncoder(&buf).Encode(toBookingPage(p)); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(buf.Len()))
}
