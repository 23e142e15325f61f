// Package outbox records the events worth telling people about, in the transaction of the change that
// causes them: a row of outbox_events commits or rolls back with the change, so a refused or rolled-back
// request records nothing, and a committed one is never lost. Package notify moves the events on to
// River, which works them: it turns each event into e-mails and webhook deliveries and sends them.
//
// Record takes the caller's transaction. It is the one exported function outside package queries that
// does: it writes into whatever transaction the change runs in.
package outbox

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"

	"github.com/workspacebooking/booking/queries"
)

// Kind names what happened to a booking. The names are those of the webhook event types.
type Kind string

// The kinds of event. A booking made while waiting for approval is created too: its status says so.
const (
	Created         Kind = "booking.created"
	Changed         Kind = "booking.changed"          // new time or resource
	Cancelled       Kind = "booking.cancelled"        // by a person, a closure or a deactivation (Reason)
	Released        Kind = "booking.released"         // checked out early, or ended by a deactivation
	Expired         Kind = "booking.expired"          // nobody checked in: a no-show
	Approved        Kind = "booking.approved"         // an admin approved it
	Rejected        Kind = "booking.rejected"         // an admin rejected it
	CheckInOpened   Kind = "booking.check_in_opened"  // written by notify, for the moment check-in opens
	ServicesChanged Kind = "booking.services_changed" // services ordered, changed or cancelled
)

// The kinds of event of a recurring booking, told as one invitation that repeats. Their BookingID is the
// series' id, and their State its revision, status, first occurrence and resource. An occurrence
// cancelled on its own changes its series.
const (
	SeriesCreated   Kind = "series.created"
	SeriesChanged   Kind = "series.changed" // new times, an end from a date, or a day cancelled on its own
	SeriesCancelled Kind = "series.cancelled"
)

// Series reports whether k is an event of a series rather than of one booking.
func (k Kind) Series() bool { return strings.HasPrefix(string(k), "series.") }

// Kinds lists every kind, in the order the documentation gives them.
var Kinds = []Kind{Created, Changed, Cancelled, Released, Expired, Approved, Rejected, CheckInOpened, ServicesChanged}

// Reasons for a cancellation or release that nobody asked for.
const (
	ReasonClosure     = "closure"     // a closure covers the booking
	ReasonDeactivated = "deactivated" // its organizer was deactivated
)

// State is what a booking was just after the event: a later change does not alter what an event says.
type State struct {
	Revision   int32     `json:"revision"`
	Status     string    `json:"status"`
	Start      time.Time `json:"start"`
	End        time.Time `json:"end"`
	ResourceID uuid.UUID `json:"resourceId"`
}

// Event is one thing that happened to one booking. Its ID is the idempotency key of everything sent for
// it: each e-mail's Message-ID and each webhook delivery's webhook-id derive from it.
type Event struct {
	ID             uuid.UUID `json:"id"`
	Kind           Kind      `json:"kind"`
	OrganizationID uuid.UUID `json:"organizationId"`
	BookingID      uuid.UUID `json:"bookingId"`
	At             time.Time `json:"at"` // when it happened; for CheckInOpened, when check-in opens
	Booking        State     `json:"booking"`
	// Reason says why a booking was cancelled or released when its organizer did not do it.
	Reason string `json:"reason,omitempty"`
	// DroppedServices lists the services (reservable ids) a ServicesChanged event no longer orders, so
	// that their providers hear of the cancellation.
	DroppedServices []uuid.UUID `json:"droppedServices,omitempty"`
}

// New returns an event of kind k about the booking, with a fresh id.
func New(k Kind, org, booking uuid.UUID, at time.Time, st State) Event {
	return Event{ID: NewID(), Kind: k, OrganizationID: org, BookingID: booking, At: at, Booking: st}
}

// NewID returns a fresh event id: a UUIDv7, so that ids grow with time and give the outbox its order.
func NewID() uuid.UUID { return uuid.Must(uuid.NewV7()) }

// Args is the River job of an event.
type Args struct {
	Event
}

// Kind is the River job kind of an event.
func (Args) Kind() string { return "booking_event" }

// Queue is the River queue of events, e-mails and webhook deliveries.
const Queue = river.QueueDefault

// MaxAttempts is how often an event job is tried before it is discarded.
const MaxAttempts = 25

// Record writes the events into the outbox in tx. They become visible when tx commits, and vanish with it
// if it rolls back. Package notify moves them on to River, which works them.
func Record(ctx context.Context, tx pgx.Tx, events ...Event) error {
	if len(events) == 0 {
		return nil
	}
	n := len(events)
	p := queries.OutboxEventsInsertParams{
		Ids: make([]uuid.UUID, n), OrganizationIds: make([]uuid.UUID, n), Kinds: make([]string, n),
		BookingIds: make([]uuid.UUID, n), Ats: make([]time.Time, n), Revisions: make([]int32, n),
		Statuses: make([]string, n), StartDates: make([]time.Time, n), EndDates: make([]time.Time, n),
		ResourceIds: make([]uuid.UUID, n), Reasons: make([]string, n), DroppedServices: make([]string, n),
	}
	for i, ev := range events {
		p.Ids[i], p.OrganizationIds[i], p.Kinds[i], p.BookingIds[i], p.Ats[i] = ev.ID, ev.OrganizationID, string(ev.Kind), ev.BookingID, ev.At
		p.Revisions[i], p.Statuses[i], p.StartDates[i], p.EndDates[i] = ev.Booking.Revision, ev.Booking.Status, ev.Booking.Start, ev.Booking.End
		p.ResourceIds[i], p.Reasons[i], p.DroppedServices[i] = ev.Booking.ResourceID, ev.Reason, arrayLiteral(ev.DroppedServices)
	}
	if err := queries.New(tx).OutboxEventsInsert(ctx, p); err != nil {
		return fmt.Errorf("outbox: record %d event(s): %w", len(events), err)
	}
	return nil
}

// arrayLiteral returns ids as a PostgreSQL array literal, or "" for none.
func arrayLiteral(ids []uuid.UUID) string {
	if len(ids) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteByte('{')
	for i, id := range ids {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(id.String())
	}
	b.WriteByte('}')
	return b.String()
}

// Claimed returns the event of a row taken out of the outbox.
func Claimed(r queries.OutboxEvent) Event {
	ev := Event{
		ID: r.ID, Kind: Kind(r.Kind), OrganizationID: r.OrganizationID, BookingID: r.BookingID, At: r.At,
		Booking:         State{Revision: r.Revision, Status: r.Status, Start: r.StartDate, End: r.EndDate, ResourceID: r.ResourceID},
		DroppedServices: r.DroppedServices,
	}
	if r.Reason != nil {
		ev.Reason = *r.Reason
	}
	return ev
}

// InTx runs fn in one transaction on pool and records the events fn adds to its batch in the same
// transaction, just before it commits. If fn fails, nothing is recorded. The domain packages run their
// changes through it.
func InTx(ctx context.Context, pool *pgxpool.Pool, fn func(tx pgx.Tx, ev *Batch) error) error {
	return pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		var ev Batch
		if err := fn(tx, &ev); err != nil {
			return err
		}
		return Record(ctx, tx, ev.events...)
	})
}

// Batch collects the events of one transaction, for the code that records them before it commits.
type Batch struct{ events []Event }

// Add adds events to the batch.
func (b *Batch) Add(events ...Event) { b.events = append(b.events, events...) }
