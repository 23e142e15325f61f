package booking_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
)

// sweepLockKey is the key of the sweep's advisory lock ("booking" in ASCII, as in expiry.go).
const sweepLockKey = 0x626f6f6b696e67

// holdSweepLock takes the sweep's advisory lock in its own transaction, as another instance in the middle
// of a sweep would, and returns a function that releases it.
func holdSweepLock(t *testing.T, pool *pgxpool.Pool) (release func()) {
	t.Helper()
	tx, err := pool.Begin(t.Context())
	if err != nil {
		t.Fatalf("begin: %v", err)
	}
	if _, err := tx.Exec(t.Context(), "SELECT pg_advisory_xact_lock($1)", int64(sweepLockKey)); err != nil {
		t.Fatalf("take the sweep lock: %v", err)
	}
	var once sync.Once
	release = func() {
		once.Do(func() {
			if err := tx.Rollback(context.Background()); err != nil {
				t.Errorf("rollback: %v", err)
			}
		})
	}
	t.Cleanup(release)
	return release
}

func wantSweep(t *testing.T, got, want booking.SweepResult) {
	t.Helper()
	if got != want {
		t.Fatalf("Sweep = %+v, want %+v", got, want)
	}
}

// TestSweep checks when the sweep expires and finishes bookings.
func TestSweep(t *testing.T) {
	t.Parallel()
	at := bookingtest.At

	t.Run("ExpiresNoShowsAndFinishesEndedStays", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		// Check-in closes at 10:15, 12:15 and 14:15; Velázquez is checked in and ends at 11:00.
		g10 := createOne(t, b, u.alice, bookingtest.Request(bookingtest.RoomGoya, at(1, 10, 0), at(1, 11, 0)))
		g12 := createOne(t, b, u.alice, bookingtest.Request(bookingtest.RoomGoya, at(1, 12, 0), at(1, 13, 0)))
		g14 := createOne(t, b, u.alice, bookingtest.Request(bookingtest.RoomGoya, at(1, 14, 0), at(1, 15, 0)))
		v10 := createOne(t, b, u.bob, bookingtest.Request(bookingtest.RoomVelazquez, at(1, 10, 0), at(1, 11, 0)))
		checkIn(t, b, u.bob, v10.ID, at(1, 9, 55))

		b.Clock.Set(at(1, 12, 15))
		wantSweep(t, sweep(t, b), booking.SweepResult{Expired: 2, Finished: 1})
		wantStored(t, b, g10.ID, booking.StatusExpired)
		wantStored(t, b, g12.ID, booking.StatusExpired)
		wantStored(t, b, g14.ID, booking.StatusPending)
		wantStored(t, b, v10.ID, booking.StatusFinished)
		wantInterval(t, "finished booking", times(reread(t, b, v10.ID)), booking.Interval{Start: at(1, 10, 0), End: at(1, 11, 0)})
		// One sweep is enough: the next one finds nothing.
		wantSweep(t, sweep(t, b), booking.SweepResult{})
		// An expired booking can no longer be checked in.
		_, err := b.Service.CheckIn(t.Context(), u.alice, g12.ID)
		bookingtest.WantCode(t, err, booking.CodeBookingNotModifiable)
	})

	t.Run("ExpiresWhenCheckInCloses", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		bk := createOne(t, b, u.alice, bookingtest.Request(bookingtest.RoomGoya, at(1, 10, 0), at(1, 11, 0)))
		b.Clock.Set(at(1, 10, 15).Add(-time.Millisecond))
		wantSweep(t, sweep(t, b), booking.SweepResult{})
		wantStored(t, b, bk.ID, booking.StatusPending)
		b.Clock.Set(at(1, 10, 15))
		wantSweep(t, sweep(t, b), booking.SweepResult{Expired: 1})
		wantStored(t, b, bk.ID, booking.StatusExpired)
	})

	t.Run("FinishesWhenItEnds", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		bk := createOne(t, b, u.alice, bookingtest.Request(bookingtest.RoomGoya, at(1, 10, 0), at(1, 11, 0)))
		checkIn(t, b, u.alice, bk.ID, at(1, 10, 0))
		b.Clock.Set(at(1, 11, 0).Add(-time.Millisecond))
		wantSweep(t, sweep(t, b), booking.SweepResult{})
		wantStored(t, b, bk.ID, booking.StatusActive)
		b.Clock.Set(at(1, 11, 0))
		wantSweep(t, sweep(t, b), booking.SweepResult{Finished: 1})
		wantStored(t, b, bk.ID, booking.StatusFinished)
	})

	t.Run("UndecidedRequestExpiresWhenCheckInCloses", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		bk := createOne(t, b, u.alice, bookingtest.Request(bookingtest.RoomBoard, at(1, 10, 0), at(1, 11, 0)))
		wantStatus(t, bk, booking.StatusWaitingApproval)
		b.Clock.Set(at(1, 10, 15).Add(-time.Millisecond))
		wantSweep(t, sweep(t, b), booking.SweepResult{})
		wantStored(t, b, bk.ID, booking.StatusWaitingApproval)
		b.Clock.Set(at(1, 10, 15))
		wantSweep(t, sweep(t, b), booking.SweepResult{Expired: 1})
		wantStored(t, b, bk.ID, booking.StatusExpired)
		// Too late to decide, and the Boardroom is free again.
		_, err := b.Service.Decide(t.Context(), u.adam, bk.ID, true)
		bookingtest.WantCode(t, err, booking.CodeBookingNotModifiable)
		createOne(t, b, u.bob, bookingtest.Request(bookingtest.RoomBoard, at(1, 10, 15), at(1, 11, 0)))
	})

	t.Run("ApprovedLateIsNotExpiredAtOnce", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		bk := createOne(t, b, u.alice, bookingtest.Request(bookingtest.RoomBoard, at(1, 10, 0), at(1, 11, 0)))
		// Approved at 10:10, so check-in stays open until 10:25.
		b.Clock.Set(at(1, 10, 10))
		if _, err := b.Service.Decide(t.Context(), u.adam, bk.ID, true); err != nil {
			t.Fatalf("Decide: %v", err)
		}
		b.Clock.Set(at(1, 10, 20))
		wantSweep(t, sweep(t, b), booking.SweepResult{})
		wantStored(t, b, bk.ID, booking.StatusPending)
		b.Clock.Set(at(1, 10, 25))
		wantSweep(t, sweep(t, b), booking.SweepResult{Expired: 1})
	})

}

// TestSweepLeavesAlone checks which bookings the sweep leaves alone, and that resources it expires become
// free again.
func TestSweepLeavesAlone(t *testing.T) {
	t.Parallel()
	at := bookingtest.At

	t.Run("LeavesDecidedAndClosedBookingsAlone", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		var bs []booking.Booking
		for i, st := range []booking.Status{booking.StatusExpired, booking.StatusCancelled, booking.StatusRejected, booking.StatusFinished} {
			bs = append(bs, inStatus(t, b, u, st, i+1))
		}
		b.Clock.Set(at(10, 0, 0))
		wantSweep(t, sweep(t, b), booking.SweepResult{})
		for _, bk := range bs {
			wantStored(t, b, bk.ID, bk.Status)
		}
	})

	t.Run("EveryOrganization", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		createOne(t, b, u.alice, bookingtest.Request(bookingtest.RoomGoya, at(1, 10, 0), at(1, 11, 0)))
		createOne(t, b, u.boris, bookingtest.Request(bookingtest.RoomB, at(1, 10, 0), at(1, 11, 0)))
		b.Clock.Set(at(1, 10, 15))
		wantSweep(t, sweep(t, b), booking.SweepResult{Expired: 2})
	})

	t.Run("ExpiredFreesTheResource", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		// A walk-up at 09:00 for 09:00–10:00: check-in closes at 09:15.
		bk := createOne(t, b, u.alice, bookingtest.Request(bookingtest.RoomGoya, at(0, 9, 0), at(0, 10, 0)))
		b.Clock.Set(at(0, 9, 15))
		rest := booking.Interval{Start: at(0, 9, 15), End: at(0, 10, 0)}
		freeRooms := func() []string {
			t.Helper()
			rs, err := b.Service.FreeResources(t.Context(), u.bob, booking.FreeQuery{
				BuildingID: bookingtest.BuildingMadrid, SubcategoryID: bookingtest.SubRoom, Category: booking.CategorySpace,
				Intervals: []booking.Interval{rest},
			})
			if err != nil {
				t.Fatalf("FreeResources: %v", err)
			}
			return names(rs)
		}
		status := func() booking.ResourceStatus {
			t.Helper()
			st, err := b.Service.StatusByPosterCode(t.Context(), u.bob, "MAD-R1")
			if err != nil {
				t.Fatalf("StatusByPosterCode: %v", err)
			}
			return st
		}
		if st := status(); st.IsFree {
			t.Fatalf("before the sweep: IsFree = true, want false")
		}
		if got := freeRooms(); strings.Contains(strings.Join(got, ","), "Goya") {
			t.Fatalf("before the sweep: free rooms = %q, want no Goya", got)
		}

		wantSweep(t, sweep(t, b), booking.SweepResult{Expired: 1})
		wantStored(t, b, bk.ID, booking.StatusExpired)
		st := status()
		if !st.IsFree || st.FreeUntil == nil || !st.FreeUntil.Equal(at(0, 20, 0)) {
			t.Errorf("after the sweep: IsFree = %v, FreeUntil = %v, want true, 20:00", st.IsFree, st.FreeUntil)
		}
		if got := freeRooms(); !strings.Contains(strings.Join(got, ","), "Goya") {
			t.Errorf("after the sweep: free rooms = %q, want Goya among them", got)
		}
		createOne(t, b, u.bob, bookingtest.Request(bookingtest.RoomGoya, rest.Start, rest.End))
	})

	t.Run("SkipsWhileAnotherInstanceSweeps", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		bk := createOne(t, b, u.alice, bookingtest.Request(bookingtest.RoomGoya, at(1, 10, 0), at(1, 11, 0)))
		b.Clock.Set(at(1, 12, 0))
		release := holdSweepLock(t, b.Pool)
		wantSweep(t, sweep(t, b), booking.SweepResult{Skipped: true})
		wantStored(t, b, bk.ID, booking.StatusPending)
		release()
		wantSweep(t, sweep(t, b), booking.SweepResult{Expired: 1})
		wantStored(t, b, bk.ID, booking.StatusExpired)
	})
}

// TestSweepTwoInstances runs two services, each with its own pool, against one database, like two
// serving instances. However their sweeps interleave, each due booking expires exactly once.
func TestSweepTwoInstances(t *testing.T) {
	t.Parallel()
	const (
		due       = 30
		perServer = 8
	)
	at := bookingtest.At
	b := bookingtest.Setup(t)
	u := fixtureUsers(t, b)
	pool, err := pgxpool.New(t.Context(), b.Pool.Config().ConnString())
	if err != nil {
		t.Fatalf("second pool: %v", err)
	}
	t.Cleanup(pool.Close)
	second := booking.NewService(pool, booking.WithClock(b.Clock.Now), booking.WithDatabaseClock(b.Clock.Now))

	// Four bookings a day from tomorrow on Goya and Velázquez, and one that is not due yet.
	bs := spread(t, b, u.alice, due)
	later := createOne(t, b, u.bob, bookingtest.Request(bookingtest.RoomVelazquez, at(20, 10, 0), at(20, 11, 0)))
	b.Clock.Set(at(10, 0, 0))

	t.Run("SecondInstanceSkipsWhileTheFirstSweeps", func(t *testing.T) {
		release := holdSweepLock(t, b.Pool)
		defer release()
		for name, svc := range map[string]*booking.Service{"first": b.Service, "second": second} {
			res, err := svc.Sweep(t.Context())
			if err != nil {
				t.Fatalf("%s: Sweep: %v", name, err)
			}
			if want := (booking.SweepResult{Skipped: true}); res != want {
				t.Errorf("%s: Sweep = %+v, want %+v", name, res, want)
			}
		}
		if got := bookingtest.RowCount(t, b, "SELECT count(*) FROM bookings WHERE status = 'EXPIRED'"); got != 0 {
			t.Errorf("EXPIRED rows = %d, want 0", got)
		}
	})

	t.Run("EachBookingExpiresOnce", func(t *testing.T) {
		var (
			wg      sync.WaitGroup
			mu      sync.Mutex
			results []booking.SweepResult
			errs    []error
			start   = make(chan struct{})
		)
		for i := range 2 * perServer {
			svc := b.Service
			if i%2 == 1 {
				svc = second
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				res, err := svc.Sweep(t.Context())
				mu.Lock()
				defer mu.Unlock()
				results, errs = append(results, res), append(errs, err)
			}()
		}
		close(start)
		wg.Wait()
		expired, swept := 0, 0
		for i, res := range results {
			if errs[i] != nil {
				t.Errorf("Sweep: %v", errs[i])
			}
			if res.Finished != 0 {
				t.Errorf("Sweep = %+v, want nothing finished", res)
			}
			if res.Skipped && res.Expired != 0 {
				t.Errorf("Sweep = %+v: a skipped sweep expired bookings", res)
			}
			if !res.Skipped {
				swept++
			}
			expired += res.Expired
		}
		t.Logf("%d sweeps ran, %d skipped", swept, len(results)-swept)
		if got, want := expired, due; got != want {
			t.Errorf("sum of Expired = %d, want %d", got, want)
		}
		if swept == 0 {
			t.Errorf("every sweep skipped, want at least one to run")
		}
		for _, bk := range bs {
			wantStored(t, b, bk.ID, booking.StatusExpired)
		}
		wantStored(t, b, later.ID, booking.StatusPending)
		// Later sweeps, from either instance, find nothing more.
		for _, svc := range []*booking.Service{b.Service, second} {
			res, err := svc.Sweep(t.Context())
			if err != nil {
				t.Fatalf("Sweep: %v", err)
			}
			if want := (booking.SweepResult{}); res != want {
				t.Errorf("Sweep = %+v, want %+v", res, want)
			}
		}
	})
}

func TestRunSweeps(t *testing.T) {
	t.Parallel()
	at := bookingtest.At
	b := bookingtest.Setup(t)
	u := fixtureUsers(t, b)
	bk := createOne(t, b, u.alice, bookingtest.Request(bookingtest.RoomGoya, at(1, 10, 0), at(1, 11, 0)))
	b.Clock.Set(at(1, 10, 15))
	// Browser sessions: one expired, one still valid (the database's own clock decides).
	if _, err := b.Pool.Exec(t.Context(), `INSERT INTO sessions (token, data, expiry) VALUES
		('old', '\x00', now() - interval '1 minute'), ('live', '\x00', now() + interval '1 hour')`); err != nil {
		t.Fatal(err)
	}

	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() {
		defer close(done)
		b.Service.RunSweeps(ctx, 10*time.Millisecond, log)
	}()
	// Each round sweeps, then deletes the expired sessions. Wait for both, or cancelling could cut a round
	// short between the two.
	deadline := time.Now().Add(5 * time.Second)
	for storedStatus(t, b, bk.ID) != booking.StatusExpired || bookingtest.RowCount(t, b, "SELECT count(*) FROM sessions WHERE token = 'old'") != 0 {
		if time.Now().After(deadline) {
			cancel()
			<-done
			t.Fatalf("within 5s: booking %s, want it EXPIRED and the expired session deleted", storedStatus(t, b, bk.ID))
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatalf("RunSweeps did not return after its context ended")
	}
	if got := logs.String(); !strings.Contains(got, `msg="swept bookings" expired=1 finished=0`) || strings.Contains(got, "level=ERROR") {
		t.Errorf("log = %q, want one line on the swept booking and no error", got)
	}
	rows, _ := b.Pool.Query(t.Context(), `SELECT token FROM sessions ORDER BY token`)
	tokens, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil || len(tokens) != 1 || tokens[0] != "live" {
		t.Errorf("sessions left = %v (%v), want only the live one", tokens, err)
	}
}

// TestSweepInRounds checks that one sweep changes every overdue booking even when there are more than a
// round changes (a thousand of each kind), as after the service was down for days.
func TestSweepInRounds(t *testing.T) {
	t.Parallel()
	b := bookingtest.Setup(t)
	const noShows, stays = 2345, 1001
	// Back-to-back quarters, all over before the clock's day: no-shows on Goya, checked-in stays on
	// Velázquez.
	write := func(room uuid.UUID, status booking.Status, n int) {
		t.Helper()
		_, err := b.Pool.Exec(t.Context(), `
			INSERT INTO bookings (organization_id, id, resource_id, floor_id, resource_type, creator_id, organizer_id,
			                      start_date, end_date, status, check_in_opens_at, check_in_closes_at)
			SELECT $1, gen_random_uuid(), $2, $3, 'SPACE', $4, $4, s, s + interval '15 minutes', $5, s, s + interval '15 minutes'
			FROM generate_series($6::timestamptz, $6::timestamptz + ($7::int - 1) * interval '15 minutes', interval '15 minutes') s`,
			bookingtest.OrgA, room, bookingtest.FloorMadrid, bookingtest.Alice, string(status), bookingtest.At(-40, 0, 0), n)
		if err != nil {
			t.Fatalf("write %d %s bookings: %v", n, status, err)
		}
	}
	write(bookingtest.RoomGoya, booking.StatusPending, noShows)
	write(bookingtest.RoomVelazquez, booking.StatusActive, stays)
	wantSweep(t, sweep(t, b), booking.SweepResult{Expired: noShows, Finished: stays})
	for status, want := range map[string]int{"EXPIRED": noShows, "FINISHED": stays, "PENDING": 0, "ACTIVE": 0} {
		if got := bookingtest.RowCount(t, b, `SELECT count(*) FROM bookings WHERE status = $1`, status); got != want {
			t.Errorf("%d bookings are %s after the sweep, want %d", got, status, want)
		}
	}
	wantSweep(t, sweep(t, b), booking.SweepResult{})
}
