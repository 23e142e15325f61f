package main

import (
	"encoding/binary"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/layout"
)

// Kinds of synthetic ids.
const (
	kindOrganization = iota + 1
	kindUserRule
	kindMobileRole
	kindUser
	kindBuilding
	kindFloor
	kindSubcategory
	kindRule
	kindFeature
	kindReservable
	kindResource
	kindBooking
)

// synthetic is the number of a synthetic organization. The scenarios load organization 0.
type synthetic int

// id is the organization's id for the n-th object of a kind: 5eedOOOO-00KK-8000-8000-NNNNNNNNNNNN, where
// OOOO is the organization, KK the kind and N the number. It is a version 8 UUID, easy to read and the
// same in every seed.
func (o synthetic) id(kind, n int) uuid.UUID {
	var u uuid.UUID
	u[0], u[1] = 0x5e, 0xed
	binary.BigEndian.PutUint16(u[2:4], uint16(o))
	binary.BigEndian.PutUint16(u[4:6], uint16(kind))
	u[6], u[8] = 0x80, 0x80
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(n))
	copy(u[10:], b[2:])
	return u
}

// seqID is the id of the n-th object of a kind in organization 0, the one the scenarios load.
func seqID(kind, n int) uuid.UUID { return synthetic(0).id(kind, n) }

// orgID is organization 0, the one the scenarios load.
var orgID = seqID(kindOrganization, 0)

// The objects every synthetic organization has one of.
func (o synthetic) org() uuid.UUID             { return o.id(kindOrganization, 0) }
func (o synthetic) roomSubcategory() uuid.UUID { return o.id(kindSubcategory, 0) }
func (o synthetic) deskRule() uuid.UUID        { return o.id(kindRule, 0) }
func (o synthetic) roomRule() uuid.UUID        { return o.id(kindRule, 1) }
func (o synthetic) userRule() uuid.UUID        { return o.id(kindUserRule, 0) }
func (o synthetic) mobileRole() uuid.UUID      { return o.id(kindMobileRole, 0) }
func (o synthetic) coffee() uuid.UUID          { return o.id(kindReservable, 0) }

// features are every organization's features; feature i has id o.id(kindFeature, i).
var features = []string{"Monitor", "Docking station", "Screen", "Whiteboard"}

// deskSubcategory is the subcategory of the desks of one floor. The free listing has no floor filter,
// so a subcategory per floor makes it list one floor's desks, as availability does with floorId.
func (o synthetic) deskSubcategory(floor int) uuid.UUID { return o.id(kindSubcategory, floor+1) }

// zone is the time zone of building b: the buildings of all organizations take the zones in turn.
func (o synthetic) zone(sz size, b int) int { return (int(o)*sz.Buildings + b) % len(zones) }

func posterCode(b, f, r int, room bool) string {
	if room {
		return fmt.Sprintf("B%02d-F%d-R%03d", b, f, r)
	}
	return fmt.Sprintf("B%02d-F%d-D%03d", b, f, r)
}

// name is the organization's name: "Synthetic Corp", then "Synthetic Corp 2", "Synthetic Corp 3"…
func (o synthetic) name() string {
	if o == 0 {
		return "Synthetic Corp"
	}
	return fmt.Sprintf("Synthetic Corp %d", o+1)
}

// skeleton is the organization without its people, resources and bookings. The seed loads it through the
// service's own import, which checks it, and then copies the bulk rows in.
func (o synthetic) skeleton(sz size) layout.Layout {
	org := o.org().String()
	l := layout.Layout{
		Organizations: []layout.LayoutOrganization{{ID: org, Name: o.name(), AdditionalServicesActive: true}},
		UserRules:     []layout.LayoutNamed{{ID: o.userRule().String(), OrganizationID: org, Name: "Staff"}},
		MobileRoles:   []layout.LayoutNamed{{ID: o.mobileRole().String(), OrganizationID: org, Name: "Mobile user"}},
		Subcategories: []layout.LayoutSubcategory{
			{ID: o.roomSubcategory().String(), OrganizationID: org, Name: "Meeting room", Category: string(booking.CategorySpace)},
		},
		Reservables: []layout.LayoutReservable{{
			ID: o.coffee().String(), OrganizationID: org, Name: "Coffee service", ChooseQuantity: true, AllowComments: true,
			MinimumCancellationMs: (2 * time.Hour).Milliseconds(),
		}},
	}
	for i, f := range features {
		l.Features = append(l.Features, layout.LayoutFeature{ID: o.id(kindFeature, i).String(), OrganizationID: org, Name: f})
	}
	for _, r := range []struct {
		id      uuid.UUID
		name    string
		longest time.Duration
	}{{o.deskRule(), "Desks", 10 * time.Hour}, {o.roomRule(), "Meeting rooms", 4 * time.Hour}} {
		l.ResourceRules = append(l.ResourceRules, layout.LayoutResourceRule{
			ID: r.id.String(), OrganizationID: org, Name: r.name,
			StartTime: windowStart.Milliseconds(), EndTime: windowEnd.Milliseconds(),
			MaximumDuration: r.longest.Milliseconds(), MaximumAdvance: maximumAdvance.Milliseconds(),
			AdvanceCheckIn: advanceCheckIn.Milliseconds(), ExpirationMargin: expirationMargin.Milliseconds(),
		})
	}
	for b := range sz.Buildings {
		o.addBuilding(&l, sz, b)
	}
	return l
}

// addBuilding adds building b and its floors to the layout, with a desk subcategory for each floor.
func (o synthetic) addBuilding(l *layout.Layout, sz size, b int) {
	org, building := o.org().String(), o.id(kindBuilding, b).String()
	z := zones[o.zone(sz, b)]
	l.Buildings = append(l.Buildings, layout.LayoutBuilding{
		ID: building, OrganizationID: org, Name: fmt.Sprintf("B%02d %s", b, z.city), Timezone: z.tz,
		Address: layout.LayoutAddress{Country: z.country, City: z.city, Address: fmt.Sprintf("%d Synthetic Street", b+1)},
	})
	for f := range sz.FloorsPerBuilding {
		floor := b*sz.FloorsPerBuilding + f
		l.Floors = append(l.Floors, layout.LayoutFloor{
			ID: o.id(kindFloor, floor).String(), OrganizationID: org, BuildingID: building,
			Name: fmt.Sprintf("Floor %d", f), FloorNumber: int32(f),
		})
		l.Subcategories = append(l.Subcategories, layout.LayoutSubcategory{
			ID: o.deskSubcategory(floor).String(), OrganizationID: org, Name: fmt.Sprintf("Desks B%02d floor %d", b, f),
			Category: string(booking.CategoryWorkstation),
		})
	}
}
