package web_test

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web"
	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// TestPageBookingFormCountedFirst checks that a booking form asking for more bookings than one request may
// make is refused from its counts alone, before any booking is built. Otherwise 20 spaces on 50 days for
// 1000 colleagues would put a million attendee rows in memory. The test is not parallel, so that the
// memory it measures belongs to this request only.
func TestPageBookingFormCountedFirst(t *testing.T) {
	pb := setupPages(t)
	b := pb.signedIn(t, fx.Alice)
	form := url.Values{"from": {"10:00"}, "to": {"11:00"}}
	for range 20 {
		form.Add("resource", uuid.NewString())
	}
	for i := range 50 {
		form.Add("date", fx.At(1+i, 0, 0).Format(time.DateOnly))
	}
	for range 1000 {
		form.Add("attendee", fx.Bob.String())
	}
	if n := len(form.Encode()); n > web.MaxPageBody {
		t.Fatalf("the form is %d bytes, want one under the page limit", n)
	}

	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	p := b.hxPost("/bookings", form)
	runtime.ReadMemStats(&after)

	p.wantStatus(t, http.StatusBadRequest)
	p.wantText(t, ".booking-error", "20 spaces on 50 days make 1000 bookings, and at most 100 can be made at once. Choose fewer days or spaces.")
	if got := after.TotalAlloc - before.TotalAlloc; got > 8<<20 {
		t.Errorf("refusing the form allocated %d MB, want less than 8 MB: nothing is built before the count", got>>20)
	}
	if n := len(findOwnBookings(t, pb, fx.Alice)); n != 0 {
		t.Errorf("%d bookings made, want none", n)
	}
}

func TestPageLimits(t *testing.T) {
	t.Parallel()

	// The form's colleagues and guests are counted together, once, against booking.MaxAttendees, before
	// the people are looked up or the rest of the form is read. The refused form keeps its spaces.
	t.Run("InvitedPeopleCounted", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Alice)
		invited := func(colleagues, guests int) url.Values {
			form := bookForm([]uuid.UUID{fx.RoomGoya}, "2026-11-24")
			for range colleagues {
				form.Add("attendee", fx.Bob.String())
			}
			var gs []string
			for i := range guests {
				gs = append(gs, fmt.Sprintf("guest%d@example.com", i))
			}
			form.Set("guests", strings.Join(gs, "\n"))
			return form
		}
		tooMany := invited(60, 60)
		tooMany.Set("to", "later")
		for _, tc := range []struct {
			name string
			form url.Values
			want string
		}{
			{"Colleagues", invited(booking.MaxAttendees+1, 0), fmt.Sprintf(
				"%d people are invited, colleagues and guests together, and at most %d can be invited to a booking.",
				booking.MaxAttendees+1, booking.MaxAttendees)},
			{"ColleaguesAndGuestsFirst", tooMany, fmt.Sprintf(
				"120 people are invited, colleagues and guests together, and at most %d can be invited to a booking.",
				booking.MaxAttendees)},
		} {
			t.Run(tc.name, func(t *testing.T) {
				p := b.hxPost("/bookings", tc.form)
				p.wantStatus(t, http.StatusBadRequest)
				if got := p.text(".booking-error p:last-child"); got != tc.want {
					t.Errorf("refusal = %q, want %q", got, tc.want)
				}
				if p.count(`input[name=resource][checked][value="`+fx.RoomGoya.String()+`"]`) != 1 {
					t.Errorf("the refused form lost its space")
				}
			})
		}
		if n := len(findOwnBookings(t, pb, fx.Alice)); n != 0 {
			t.Errorf("%d bookings made, want none", n)
		}
		// Exactly booking.MaxAttendees people is allowed.
		p := b.hxPost("/bookings", invited(1, booking.MaxAttendees-1))
		p.wantStatus(t, http.StatusOK)
		if n := len(findOwnBookings(t, pb, fx.Alice)); n != 1 {
			t.Errorf("%d bookings made with %d people invited, want 1", n, booking.MaxAttendees)
		}
	})

	// A page request's body may be at most 64 KB, whether or not Content-Length gives its size. A larger
	// body gets 413 and a page that says so.
	t.Run("BodyOver64KB", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Alice)
		form := bookForm([]uuid.UUID{fx.RoomGoya}, "2026-11-24")
		form.Set("subject", strings.Repeat("x", web.MaxPageBody))
		body := form.Encode()
		for _, tc := range []struct {
			name   string
			htmx   bool
			reader func() io.Reader
		}{
			{"WithLength", false, func() io.Reader { return strings.NewReader(body) }},
			{"Chunked", false, func() io.Reader { return io.MultiReader(strings.NewReader(body)) }},
			{"Htmx", true, func() io.Reader { return strings.NewReader(body) }},
		} {
			req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, b.base+"/bookings", tc.reader())
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			if tc.htmx {
				req.Header.Set("HX-Request", "true")
			}
			p := b.send(req)
			if p.status != http.StatusRequestEntityTooLarge || !strings.Contains(p.body, "This form is larger than 64 KB") {
				t.Errorf("%s: %d %q, want 413 saying the form is larger than 64 KB", tc.name, p.status, p.text("body"))
			}
		}
		// A person who speaks Spanish reads it in Spanish.
		if _, err := pb.Pool.Exec(t.Context(), `UPDATE users SET user_language = 'es' WHERE id = $1`, fx.Bob); err != nil {
			t.Fatal(err)
		}
		bob := pb.signedIn(t, fx.Bob)
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, bob.base+"/bookings", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if p := bob.send(req); p.status != http.StatusRequestEntityTooLarge || !strings.Contains(p.body, "Este formulario ocupa más de 64 KB") {
			t.Errorf("in Spanish: %d %q, want 413 saying the form is larger than 64 KB in Spanish", p.status, p.text("body"))
		}
		// Just under the limit, the form is read, and refused for its content, not for its size.
		form.Set("subject", strings.Repeat("x", web.MaxPageBody-len(body)+web.MaxPageBody-200))
		if n := len(form.Encode()); n > web.MaxPageBody {
			t.Fatalf("form of %d bytes, want one under the limit", n)
		}
		if p := b.hxPost("/bookings", form); p.status == http.StatusRequestEntityTooLarge {
			t.Errorf("a form of %d bytes = 413, want it read", len(form.Encode()))
		}
		if n := len(findOwnBookings(t, pb, fx.Alice)); n > 1 {
			t.Errorf("%d bookings made, want at most the one under the limit", n)
		}
	})

	// A signed-in person has the same rate limit on the pages as on the API, with one bucket for both. A
	// burst spent on the API leaves nothing for the pages, and the other way round.
	t.Run("PerUserOnPages", func(t *testing.T) {
		t.Parallel()
		dev := func(d *web.Deps) { d.Dev = true }
		tb := setupOIDC(t, nil, dev, withLimits(web.Limits{PerUser: web.Limit{Rate: slow, Burst: 3}}))
		pb := &pageBundle{Bundle: tb.Bundle, srv: tb.srv, server: tb.server}
		status := statusPath("me", "MAD-R1")

		since := time.Now()
		alice := pb.signedIn(t, fx.Alice) // signing in lands on /bookings, which uses one token
		wantStatus(t, tb.call(t, fx.Alice, http.MethodGet, status, nil), http.StatusOK)
		wantStatus(t, tb.call(t, fx.Alice, http.MethodGet, status, nil), http.StatusOK)
		p := alice.get("/find")
		if p.status != http.StatusTooManyRequests || !strings.Contains(p.text("main"), "Too many requests from this user") {
			t.Errorf("GET /find after the burst went on the API = %d %q, want the 429 page", p.status, p.text("main"))
		}
		wantRetryAfter(t, p.header.Get("Retry-After"), since)
		p = alice.hxPost("/bookings", bookForm([]uuid.UUID{fx.RoomGoya}, "2026-11-24"))
		if p.status != http.StatusTooManyRequests {
			t.Errorf("POST /bookings over the limit = %d, want 429", p.status)
		}
		if n := len(findOwnBookings(t, pb, fx.Alice)); n != 0 {
			t.Errorf("%d bookings made over the limit, want none", n)
		}

		// Bob has his own bucket. Once he spends it on the pages, the API refuses him.
		since = time.Now()
		bob := pb.signedIn(t, fx.Bob)
		bob.get("/find").wantStatus(t, http.StatusOK)
		bob.get("/bookings").wantStatus(t, http.StatusOK)
		r := tb.call(t, fx.Bob, http.MethodGet, status, nil)
		wantProblem(t, r, http.StatusTooManyRequests, booking.CodeTooManyRequests, noIndex)
		wantRetryAfter(t, r.header.Get("Retry-After"), since)
	})
}

// TestThrottledLogNamesTheUser checks that the log line of a request refused by the per-user rate limit
// names the user.
func TestThrottledLogNamesTheUser(t *testing.T) {
	t.Parallel()
	var logs syncBuffer
	tb := setup(t, withLimits(web.Limits{PerUser: web.Limit{Rate: slow, Burst: 1}}), func(d *web.Deps) {
		d.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	})
	status := statusPath("me", "MAD-R1")
	wantStatus(t, tb.call(t, fx.Alice, http.MethodGet, status, nil), http.StatusOK)
	wantStatus(t, tb.call(t, fx.Alice, http.MethodGet, status, nil), http.StatusTooManyRequests)
	for line := range strings.Lines(logs.String()) {
		if strings.Contains(line, "msg=request ") && strings.Contains(line, "status=429") {
			if !strings.Contains(line, "user="+fx.Alice.String()) {
				t.Errorf("the 429 log line names no user, want %s:\n%s", fx.Alice, line)
			}
			return
		}
	}
	t.Errorf("no log line of a 429 request:\n%s", logs.String())
}
