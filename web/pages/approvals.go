package pages

import (
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
	"github.com/workspacebooking/booking/web/lang"
)

// Approvals: the admins' list of bookings waiting for approval, each approved or rejected with the same
// domain method as POST /api/v1/bookings/{id}/approval.

// approvalsForbidden is what everybody but admins reads on the approval pages.
func approvalsForbidden(c echo.Context) error {
	return booking.Errorf(booking.CodeForbidden, "%s", lang.T(kit.Ctx(c), "approvals.forbidden"))
}

// Approvals is GET /approvals[?cursor=]: what waits for approval, earliest first, a page at a time
// (with htmx, "Show more" answers the next page's rows only).
func (s *Handlers) Approvals(c echo.Context) error {
	cursor := c.QueryParam("cursor")
	p, err := s.approvals(c, cursor)
	if booking.ErrorCode(err) == booking.CodeForbidden {
		return approvalsForbidden(c)
	}
	if err != nil {
		return err
	}
	if kit.IsHTMX(c) && cursor != "" {
		return kit.Render(c, http.StatusOK, views.ApprovalsMore(p))
	}
	_, p.Notice = s.PopFlash(c)
	return kit.Render(c, http.StatusOK, views.ApprovalsPage(p))
}

// Decide is POST /approvals/{bookingId} (decision=approve|reject). Without htmx the browser goes back
// to the list with the outcome; with htmx the row is answered with its outcome. A refusal (the booking no
// longer waits, or waited too long to be approved) is shown in words with its status.
func (s *Handlers) Decide(c echo.Context) error {
	id, err := pageBookingID(c)
	if err != nil {
		return err
	}
	var approve bool
	switch c.FormValue("decision") {
	case "approve":
		approve = true
	case "reject":
	default:
		return kit.FieldRefuse("decision", "approvals.chooseDecision")
	}
	ctx, actor := kit.Ctx(c), kit.Actor(c)
	b, err := s.bookings.Decide(ctx, actor, id, approve)
	if booking.ErrorCode(err) == booking.CodeForbidden {
		return approvalsForbidden(c)
	}
	if err != nil {
		refusal, status := bookingRefusal(ctx, err)
		if refusal == "" {
			return err
		}
		if b, err = s.bookings.Booking(ctx, actor, id); err != nil {
			return err
		}
		if kit.IsHTMX(c) {
			return kit.Render(c, status, views.ApprovalRowView(views.ApprovalRow{Booking: b, Now: s.bookings.Now(), Error: refusal}))
		}
		return s.renderApprovals(c, status, lang.T(ctx, "approvals.refusalFor", map[string]any{
			"Resource": b.Resource.Name, "Name": views.FullName(b.Organizer), "Refusal": refusal,
		}))
	}
	outcome := views.ApprovalOutcome(ctx, b)
	if kit.IsHTMX(c) {
		return kit.Render(c, http.StatusOK, views.ApprovalRowView(views.ApprovalRow{Booking: b, Now: s.bookings.Now(), Outcome: outcome}))
	}
	s.PutFlash(c, "", lang.T(ctx, "approvals.decided", map[string]any{
		"Outcome": outcome, "Resource": b.Resource.Name, "Name": views.FullName(b.Organizer),
		"When": views.BookingWhen(ctx, b, s.bookings.Now()),
	}))
	return c.Redirect(http.StatusSeeOther, "/approvals")
}

// approvals reads one page of the bookings waiting for approval, starting after cursor.
func (s *Handlers) approvals(c echo.Context, cursor string) (views.Approvals, error) {
	page, err := s.bookings.WaitingApproval(c.Request().Context(), kit.Actor(c), booking.Page{Cursor: cursor})
	if err != nil {
		return views.Approvals{}, err
	}
	p := views.Approvals{Chrome: s.Chrome(c, lang.T(kit.Ctx(c), "approvals.title"))}
	for _, b := range page.Bookings {
		p.Rows = append(p.Rows, views.ApprovalRow{Booking: b, Now: s.bookings.Now()})
	}
	if page.NextCursor != "" {
		p.More = "/approvals?cursor=" + url.QueryEscape(page.NextCursor)
	}
	return p, nil
}

// renderApprovals renders the first page of the list with a refusal above it.
func (s *Handlers) renderApprovals(c echo.Context, status int, refusal string) error {
	p, err := s.approvals(c, "")
	if err != nil {
		return err
	}
	p.Error = refusal
	return kit.Render(c, status, views.ApprovalsPage(p))
}
