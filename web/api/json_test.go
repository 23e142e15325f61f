package api

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/wire"
)

// The DTOs below describe the listings' response shapes. encoding/json encodes them by reflection, and
// the hand-written listing encoders must produce the same bytes.

// listedResourceDTO is an element of the free listing (spec 4.2): floor and subcategory carry only
// their IDs, and spaces also have capacity.
type listedResourceDTO struct {
	resourceBase
	Floor       idDTO  `json:"floor"`
	Subcategory idDTO  `json:"subcategory"`
	Visible     bool   `json:"visible"`
	Capacity    *int32 `json:"capacity,omitempty"`
}

func toListedResource(r booking.Resource) listedResourceDTO {
	return listedResourceDTO{
		resourceBase: toResourceBase(r), Floor: ref(r.Floor.ID.String()), Subcategory: ref(r.Subcategory.ID.String()),
		Visible: r.Visible, Capacity: capacity(r),
	}
}

// availableResourceDTO is a resource in an availability response: the listed fields, plus its category,
// its busy intervals within the range, and whether it is free for the whole range.
type availableResourceDTO struct {
	listedResourceDTO
	Category string          `json:"category"`
	Busy     []wire.Interval `json:"busy"`
	Free     bool            `json:"free"`
}

type availabilityResponse struct {
	From      int64                  `json:"from"`
	To        int64                  `json:"to"`
	Resources []availableResourceDTO `json:"resources"`
}

type freeResponse struct {
	FreeResources []listedResourceDTO `json:"freeResources"`
}

// awkward are strings that encoding/json writes with escapes (quotes, control characters, HTML
// characters, line and paragraph separators, invalid UTF-8), plus plain non-ASCII text.
var awkward = []string{
	"", "Goya", `say "hi"`, `back\slash`, "tab\tnew\nline\rreturn\bbell\ffeed", "\x00\x01\x1f\x7f",
	"<b>&amp;</b>", "Alcalá 1.07 — sala", "日本語", "line\u2028para\u2029", "bad \xff\xfe utf-8", "\xe2\x80", "emoji 🙂",
}

func listingResources() []booking.Resource {
	capacity := int32(8)
	var rs []booking.Resource
	for i, s := range awkward {
		r := booking.Resource{
			ID: uuid.New(), Name: s, PosterCode: "MAD-" + s, Image: s, Phone: s,
			Map:          booking.MapCoordinates{TopLeftX: int32(i), TopLeftY: -int32(i), BottomRightX: 1 << 30, BottomRightY: -1 << 31},
			Approachable: i%2 == 0, Visible: i%3 != 0,
			Floor:       booking.Floor{ID: uuid.New()},
			Subcategory: booking.Subcategory{ID: uuid.New(), Category: booking.CategoryWorkstation},
		}
		switch i % 3 {
		case 1:
			r.Subcategory.Category = booking.CategorySpace // a space with unknown capacity
		case 2:
			r.Subcategory.Category, r.Capacity = booking.CategorySpace, &capacity
		}
		rs = append(rs, r)
	}
	return rs
}

// TestListingsEncodeAsEncodingJSON checks that the hand-written listings produce exactly the bytes that
// encoding/json writes for their DTOs.
func TestListingsEncodeAsEncodingJSON(t *testing.T) {
	t.Parallel()
	rs := listingResources()
	from := time.UnixMilli(1795273200000)
	q := booking.AvailabilityQuery{From: from, To: from.Add(24 * time.Hour)}
	var as []booking.ResourceAvailability
	want := availabilityResponse{From: millis(q.From), To: millis(q.To)}
	for i := range rs {
		a := booking.ResourceAvailability{Resource: &rs[i], Busy: []booking.Interval{}, Free: true}
		for j := range i % 3 {
			start := from.Add(time.Duration(j) * time.Hour)
			a.Busy, a.Free = append(a.Busy, booking.Interval{Start: start, End: start.Add(30 * time.Minute)}), false
		}
		as = append(as, a)
		d := availableResourceDTO{listedResourceDTO: toListedResource(rs[i]), Category: string(rs[i].Subcategory.Category), Busy: []wire.Interval{}, Free: a.Free}
		for _, iv := range a.Busy {
			d.Busy = append(d.Busy, wire.NewInterval(iv))
		}
		want.Resources = append(want.Resources, d)
	}
	wantJSON, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	if got := appendAvailability(nil, q, as); !bytes.Equal(got, wantJSON) {
		t.Errorf("availability:\n got %s\nwant %s", got, wantJSON)
	}

	free := freeResponse{FreeResources: []listedResourceDTO{}}
	for _, r := range rs {
		free.FreeResources = append(free.FreeResources, toListedResource(r))
	}
	wantJSON, err = json.Marshal(free)
	if err != nil {
		t.Fatal(err)
	}
	if got := appendFreeResources(nil, rs); !bytes.Equal(got, wantJSON) {
		t.Errorf("free listing:\n got %s\nwant %s", got, wantJSON)
	}
	if got, want := string(appendFreeResources(nil, nil)), `{"freeResources":[]}`; got != want {
		t.Errorf("no free resources: %s, want %s", got, want)
	}
	if got, want := string(appendAvailability(nil, q, nil)), `{"from":1795273200000,"to":1795359600000,"resources":[]}`; got != want {
		t.Errorf("no resources: %s, want %s", got, want)
	}
}

// FuzzAppendString checks that appendString quotes any string exactly as encoding/json does.
func FuzzAppendString(f *testing.F) {
	for _, s := range awkward {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendString(nil, s); !bytes.Equal(got, want) {
			t.Errorf("appendString(%q) = %s, want %s", s, got, want)
		}
	})
}
