package booking_test

import (
	"bytes"
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
)

// The request hashes and the response that the idempotency tests store.
var (
	hash   = bytes.Repeat([]byte{1}, 32)
	other  = bytes.Repeat([]byte{2}, 32)
	answer = booking.StoredAnswer{Status: 201, ContentType: "application/json", Body: []byte(`{"bookings":[]}`)}
)

// claim claims the key for u with the request hash h, and fails the test on any error.
func claim(t *testing.T, b *bookingtest.Bundle, u booking.User, key string, h []byte) (bool, *booking.StoredAnswer) {
	t.Helper()
	claimed, a, err := b.Service.ClaimIdempotencyKey(t.Context(), u, key, h)
	if err != nil {
		t.Fatalf("ClaimIdempotencyKey(%s): %v", key, err)
	}
	return claimed, a
}

func TestIdempotencyKeyStore(t *testing.T) {
	t.Parallel()
	age := func(t *testing.T, b *bookingtest.Bundle, by string) {
		t.Helper()
		if _, err := b.Pool.Exec(t.Context(), `UPDATE idempotency_keys SET created_at = created_at - $1::interval`, by); err != nil {
			t.Fatal(err)
		}
	}

	t.Run("ClaimRunAnswer", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		if claimed, _ := claim(t, b, u.alice, "k", hash); !claimed {
			t.Fatal("a new key is not claimed")
		}
		// While the first request runs there is no response yet, and another request with the key gets 4220.
		if claimed, a := claim(t, b, u.alice, "k", hash); claimed || a != nil {
			t.Errorf("claim while running = %v, %v; want neither claimed nor answered", claimed, a)
		}
		_, _, err := b.Service.ClaimIdempotencyKey(t.Context(), u.alice, "k", other)
		bookingtest.WantCode(t, err, booking.CodeIdempotencyKeyReused)
		if err := b.Service.CompleteIdempotencyKey(t.Context(), u.alice, "k", answer); err != nil {
			t.Fatal(err)
		}
		claimed, a := claim(t, b, u.alice, "k", hash)
		if claimed {
			t.Errorf("claim after the answer claimed the key, want the answer")
		}
		wantEqual(t, "answer", &answer, a)
		// A key that has a response is not released.
		if err := b.Service.ReleaseIdempotencyKey(t.Context(), u.alice, "k"); err != nil {
			t.Fatal(err)
		}
		if _, a := claim(t, b, u.alice, "k", hash); a == nil {
			t.Error("release forgot an answered key")
		}
	})

	t.Run("KeysAreEachUsersOwn", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		for _, who := range []booking.User{u.alice, u.bob, u.boris} {
			if claimed, _ := claim(t, b, who, "k", hash); !claimed {
				t.Errorf("%s's key k is not claimed: another user's k holds it", who.Email)
			}
		}
	})

	t.Run("ReleasedKeyRunsAgain", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		claim(t, b, u.alice, "k", hash)
		if err := b.Service.ReleaseIdempotencyKey(t.Context(), u.alice, "k"); err != nil {
			t.Fatal(err)
		}
		if claimed, _ := claim(t, b, u.alice, "k", other); !claimed {
			t.Error("a released key is not claimed again")
		}
	})

	t.Run("AbandonedClaimIsTakenOverBySameRequest", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		claim(t, b, u.alice, "k", hash)
		age(t, b, "30 seconds")
		if claimed, a := claim(t, b, u.alice, "k", hash); claimed || a != nil {
			t.Errorf("claim 30 s on = %v, %v; want the first still waited for", claimed, a)
		}
		age(t, b, "1 minute")
		_, _, err := b.Service.ClaimIdempotencyKey(t.Context(), u.alice, "k", other)
		bookingtest.WantCode(t, err, booking.CodeIdempotencyKeyReused)
		if claimed, _ := claim(t, b, u.alice, "k", hash); !claimed {
			t.Error("the same request does not take over a key unanswered for 90 s")
		}
	})

	t.Run("ExpiredKeyIsNew", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		claim(t, b, u.alice, "k", hash)
		if err := b.Service.CompleteIdempotencyKey(t.Context(), u.alice, "k", answer); err != nil {
			t.Fatal(err)
		}
		age(t, b, "23 hours")
		if _, a := claim(t, b, u.alice, "k", hash); a == nil {
			t.Fatal("the answer is forgotten before 24 hours")
		}
		age(t, b, "2 hours")
		if claimed, _ := claim(t, b, u.alice, "k", other); !claimed {
			t.Error("a key 25 hours old is not claimed as new")
		}
	})

}

// TestIdempotencyKeyRecordsBookings checks that the bookings a keyed request makes are recorded on its key
// in the same transaction. A rerun of the request that finds them recorded returns them, in the request's
// order, and creates nothing.
func TestIdempotencyKeyRecordsBookings(t *testing.T) {
	t.Parallel()
	b := bookingtest.Setup(t)
	u := fixtureUsers(t, b)
	two := []booking.NewBooking{
		bookingtest.Request(bookingtest.RoomVelazquez, bookingtest.At(1, 10, 0), bookingtest.At(1, 11, 0)),
		bookingtest.Request(bookingtest.RoomGoya, bookingtest.At(1, 10, 0), bookingtest.At(1, 11, 0)),
	}
	create := func(key string) ([]booking.Booking, error) {
		return b.Service.CreateBookings(t.Context(), booking.CreateRequest{Creator: u.alice, Organizer: u.alice, Category: booking.CategorySpace, Bookings: two, IdempotencyKey: key})
	}
	recorded := func(key string) int {
		return bookingtest.RowCount(t, b, `SELECT cardinality(booking_ids) FROM idempotency_keys WHERE key = $1`, key)
	}
	claim(t, b, u.alice, "k", hash)
	first, err := create("k")
	if err != nil {
		t.Fatal(err)
	}
	if got := recorded("k"); got != 2 {
		t.Errorf("bookings recorded on the key = %d, want 2", got)
	}
	// Once bookings are recorded on the key it is not released, because a retry must find them.
	if err := b.Service.ReleaseIdempotencyKey(t.Context(), u.alice, "k"); err != nil {
		t.Fatal(err)
	}
	again, err := create("k")
	if err != nil {
		t.Fatalf("the request run again: %v, want the bookings made", err)
	}
	wantEqual(t, "the request run again", ids(first), ids(again))
	if again[0].Resource.Name != "Velázquez" {
		t.Errorf("first booking of the run again on %q, want Velázquez", again[0].Resource.Name)
	}
	if got, want := bookingtest.TableCount(t, b, "bookings"), 2; got != want {
		t.Errorf("bookings = %d, want %d", got, want)
	}
	// A refused request records nothing, and its key may be released.
	claim(t, b, u.alice, "refused", hash)
	_, err = create("refused")
	bookingtest.WantCode(t, err, booking.CodeResourceNotAvailable)
	if got := recorded("refused"); got != 0 {
		t.Errorf("bookings recorded on a refused request's key = %d, want 0", got)
	}
	if err := b.Service.ReleaseIdempotencyKey(t.Context(), u.alice, "refused"); err != nil {
		t.Fatal(err)
	}
	if n := bookingtest.RowCount(t, b, `SELECT count(*) FROM idempotency_keys WHERE key = 'refused'`); n != 0 {
		t.Errorf("the refused request's key was not released")
	}
}

func TestRunSweepsDeletesExpiredIdempotencyKeys(t *testing.T) {
	t.Parallel()
	b := bookingtest.Setup(t)
	u := fixtureUsers(t, b)
	for _, key := range []string{"old", "new"} {
		if _, _, err := b.Service.ClaimIdempotencyKey(t.Context(), u.alice, key, []byte{1}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := b.Pool.Exec(t.Context(), `UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = 'old'`); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() {
		defer close(done)
		b.Service.RunSweeps(ctx, 10*time.Millisecond, slog.New(slog.DiscardHandler))
	}()
	defer func() { cancel(); <-done }()
	bookingtest.WaitFor(t, "the sweeps to delete the expired key", func() bool {
		return bookingtest.RowCount(t, b, `SELECT count(*) FROM idempotency_keys WHERE key = 'old'`) == 0
	})
	if n := bookingtest.RowCount(t, b, `SELECT count(*) FROM idempotency_keys WHERE key = 'new'`); n != 1 {
		t.Errorf("the key of a moment ago was deleted too (%d left)", n)
	}
}
