package web_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// Approvals: admins see the bookings waiting for approval and approve or reject them; nobody else may.

// approvalRow returns the CSS selector of a booking's row on the approvals page.
func approvalRow(id uuid.UUID) string { return "#approval-" + id.String() }

// TestPageApprovals checks the list of bookings waiting for an admin's approval, and who may see it.
func TestPageApprovals(t *testing.T) {
	t.Parallel()

	t.Run("AdminSeesWhoWhatWhen", func(t *testing.T) {
		pb := setupPages(t)
		bk := pb.mbCreate(t, fx.Alice, fx.RoomBoard, fx.At(1, 10, 0), fx.At(1, 11, 0), withSubject("Board meeting"))
		pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0)) // needs no approval
		p := pb.signedIn(t, fx.Adam).get("/approvals")
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "h1", "Approvals")
		if got := p.count(".approval"); got != 1 {
			t.Fatalf("rows = %d, want the one booking waiting; page: %s", got, p.text("main"))
		}
		p.wantText(t, approvalRow(bk.ID), "Boardroom", "for alice Archer", "alice@acme.test",
			"Tue 24 Nov, 10:00–11:00 Madrid time", "madrid-1 · Madrid HQ", "Board meeting")
		for _, d := range []string{"approve", "reject"} {
			if p.count(approvalRow(bk.ID)+` form[action="/approvals/`+bk.ID.String()+`"] button[name=decision][value=`+d+`]`) != 1 {
				t.Errorf("no %s button", d)
			}
		}
		if got := p.attr(`nav a[href="/approvals"]`, "aria-current"); got != "page" {
			t.Errorf("Approvals link aria-current = %q, want page", got)
		}
	})

	t.Run("EmptyState", func(t *testing.T) {
		pb := setupPages(t)
		p := pb.signedIn(t, fx.Adam).get("/approvals")
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "main", "Nothing waits for approval.")
	})

	t.Run("OthersAre403", func(t *testing.T) {
		pb := setupPages(t)
		bk := pb.mbCreate(t, fx.Alice, fx.RoomBoard, fx.At(1, 10, 0), fx.At(1, 11, 0))
		for _, who := range []uuid.UUID{fx.Alice, fx.Rita} {
			b := pb.signedIn(t, who)
			p := b.get("/approvals")
			p.wantStatus(t, http.StatusForbidden)
			p.wantText(t, "main", "Only admins approve bookings.")
			if p.count(".approval") != 0 {
				t.Errorf("a non-admin sees the requests")
			}
			b.post("/approvals/"+bk.ID.String(), url.Values{"decision": {"approve"}}).wantStatus(t, http.StatusForbidden)
			r := b.hxPost("/approvals/"+bk.ID.String(), url.Values{"decision": {"approve"}})
			r.wantStatus(t, http.StatusForbidden)
			if r.header.Get("HX-Retarget") != "#notice" {
				t.Errorf("htmx 403 is not shown in the page's notice")
			}
			r.wantText(t, ".notice", "Only admins approve bookings.")
		}
		pb.mbWantStatus(t, fx.Alice, bk.ID, booking.StatusWaitingApproval)
		if p := pb.signedIn(t, fx.Alice).get("/bookings"); p.count(`nav a[href="/approvals"]`) != 0 {
			t.Errorf("an employee's menu links to approvals")
		}
	})

	t.Run("PagedWithShowMore", func(t *testing.T) {
		pb := setupPages(t)
		alice := pb.mbUser(t, fx.Alice)
		var reqs []booking.NewBooking
		for d := 1; d <= booking.DefaultPageSize+1; d++ {
			reqs = append(reqs, booking.NewBooking{ResourceID: fx.RoomBoard, Start: fx.At(d, 10, 0), End: fx.At(d, 11, 0)})
		}
		if _, err := pb.Service.CreateBookings(t.Context(), booking.CreateRequest{Creator: alice, Organizer: alice, Category: booking.CategorySpace, Bookings: reqs}); err != nil {
			t.Fatalf("book: %v", err)
		}
		b := pb.signedIn(t, fx.Adam)
		p := b.get("/approvals")
		if got := p.count(".approval"); got != booking.DefaultPageSize {
			t.Fatalf("first page = %d rows, want %d", got, booking.DefaultPageSize)
		}
		p.wantText(t, ".approval", "Tue 24 Nov") // earliest first
		next := b.hxGet(p.attr(".more a", "hx-get"))
		next.wantStatus(t, http.StatusOK)
		if got := next.count(".approval"); got != 1 || next.count(".more") != 0 || next.count("header.top") != 0 {
			t.Errorf("next page = %d rows, %d more links; want the last row alone", got, next.count(".more"))
		}
		next.wantText(t, ".approval", "Mon 14 Dec")
	})
}

// TestPageApprovalsDecide checks approving and rejecting from the approvals page, with and without htmx.
func TestPageApprovalsDecide(t *testing.T) {
	t.Parallel()

	t.Run("ApproveWithoutJavaScript", func(t *testing.T) {
		pb := setupPages(t)
		bk := pb.mbCreate(t, fx.Alice, fx.RoomBoard, fx.At(1, 10, 0), fx.At(1, 11, 0))
		b := pb.signedIn(t, fx.Adam)
		p := b.post("/approvals/"+bk.ID.String(), url.Values{"decision": {"approve"}})
		p.wantStatus(t, http.StatusOK)
		if p.url.Path != "/approvals" {
			t.Errorf("after approving at %s, want back at /approvals", p.url)
		}
		p.wantText(t, ".notice.ok", "Approved — now pending check-in: Boardroom for alice Archer, Tue 24 Nov, 10:00–11:00 Madrid time.")
		p.wantText(t, "main", "Nothing waits for approval.")
		pb.mbWantStatus(t, fx.Alice, bk.ID, booking.StatusPending)
		pb.signedIn(t, fx.Alice).get("/bookings").wantText(t, card(bk.ID), "Pending check-in")
	})

	t.Run("RejectWithHTMXReplacesTheRow", func(t *testing.T) {
		pb := setupPages(t)
		bk := pb.mbCreate(t, fx.Alice, fx.RoomBoard, fx.At(1, 10, 0), fx.At(1, 11, 0))
		p := pb.signedIn(t, fx.Adam).hxPost("/approvals/"+bk.ID.String(), url.Values{"decision": {"reject"}})
		p.wantStatus(t, http.StatusOK)
		if p.count("header.top") != 0 || p.count("li"+approvalRow(bk.ID)) != 1 {
			t.Fatalf("htmx answer is not the row alone: %s", p.body)
		}
		p.wantText(t, approvalRow(bk.ID)+" [role=status]", "Rejected")
		if p.count(approvalRow(bk.ID)+" form") != 0 {
			t.Errorf("a decided row still offers decisions")
		}
		pb.mbWantStatus(t, fx.Alice, bk.ID, booking.StatusRejected)
	})

	t.Run("ApproveWithHTMX", func(t *testing.T) {
		pb := setupPages(t)
		bk := pb.mbCreate(t, fx.Alice, fx.RoomBoard, fx.At(1, 10, 0), fx.At(1, 11, 0))
		p := pb.signedIn(t, fx.Adam).hxPost("/approvals/"+bk.ID.String(), url.Values{"decision": {"approve"}})
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, approvalRow(bk.ID)+" [role=status]", "Approved — now pending check-in")
		pb.mbWantStatus(t, fx.Alice, bk.ID, booking.StatusPending)
	})

	t.Run("DecidedAlreadyIs409InWords", func(t *testing.T) {
		pb := setupPages(t)
		bk := pb.mbCreate(t, fx.Alice, fx.RoomBoard, fx.At(1, 10, 0), fx.At(1, 11, 0))
		if _, err := pb.Service.Decide(t.Context(), pb.mbUser(t, fx.Adam), bk.ID, false); err != nil {
			t.Fatalf("reject: %v", err)
		}
		b := pb.signedIn(t, fx.Adam)
		p := b.hxPost("/approvals/"+bk.ID.String(), url.Values{"decision": {"approve"}})
		p.wantStatus(t, http.StatusConflict)
		p.wantText(t, approvalRow(bk.ID)+" [role=alert]", "The booking is REJECTED; only a booking waiting for approval can be approved or rejected.")
		p = b.post("/approvals/"+bk.ID.String(), url.Values{"decision": {"approve"}})
		p.wantStatus(t, http.StatusConflict)
		p.wantText(t, "[role=alert]", "Boardroom for alice Archer: The booking is REJECTED")
		pb.mbWantStatus(t, fx.Alice, bk.ID, booking.StatusRejected)
	})

	t.Run("TooLateToApproveButNotToReject", func(t *testing.T) {
		pb := setupPages(t)
		bk := pb.mbCreate(t, fx.Alice, fx.RoomBoard, fx.At(0, 10, 0), fx.At(0, 11, 0))
		pb.Clock.Set(fx.At(0, 10, 20)) // check-in closed at 10:15
		b := pb.signedIn(t, fx.Adam)
		p := b.hxPost("/approvals/"+bk.ID.String(), url.Values{"decision": {"approve"}})
		p.wantStatus(t, http.StatusConflict)
		p.wantText(t, "[role=alert]", "Check-in closed at 10:15 Madrid time")
		pb.mbWantStatus(t, fx.Alice, bk.ID, booking.StatusWaitingApproval)
		b.hxPost("/approvals/"+bk.ID.String(), url.Values{"decision": {"reject"}}).wantStatus(t, http.StatusOK)
		pb.mbWantStatus(t, fx.Alice, bk.ID, booking.StatusRejected)
	})

	t.Run("BadDecisionOrID", func(t *testing.T) {
		pb := setupPages(t)
		bk := pb.mbCreate(t, fx.Alice, fx.RoomBoard, fx.At(1, 10, 0), fx.At(1, 11, 0))
		b := pb.signedIn(t, fx.Adam)
		b.post("/approvals/"+bk.ID.String(), url.Values{"decision": {"maybe"}}).wantStatus(t, http.StatusBadRequest)
		b.post("/approvals/nope", url.Values{"decision": {"approve"}}).wantStatus(t, http.StatusNotFound)
		b.post("/approvals/"+uuid.NewString(), url.Values{"decision": {"approve"}}).wantStatus(t, http.StatusNotFound)
		pb.mbWantStatus(t, fx.Alice, bk.ID, booking.StatusWaitingApproval)
	})
}
