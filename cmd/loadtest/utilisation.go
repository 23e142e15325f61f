package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/alexedwards/scs/pgxstore"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/workspacebooking/booking/web"
)

// The utilisation report on the standard data set: the busiest building's last 90 closed days are
// rolled up before the servers start, then, after the first run of pages, the organization's admin opens the 90-day report
// of its busiest building, by floor, one request after another; and the same figures are computed by a
// plain query over the bookings, for comparison.

// utilisationRequests and plainQueries are how many times each is timed.
const (
	utilisationRequests = 15
	plainQueries        = 5
	utilisationDays     = 90
)

// utilisationResult is what the report cost.
type utilisationResult struct {
	RollUp       time.Duration // the sweep over every closed day
	BuildingDays int           // the building-days it rolled up
	Bookings     int64         // the building's bookings in the period
	PageMS       []float64     // each GET of the page, in order
	PlainMS      []float64     // each plain query over the bookings
}

// prepareUtilisation rolls up the last 90 closed days of the standard data set's busiest building, as
// the server's sweep would, and times it. Only those: the sweep's first run over every building and the
// last 400 days would take half an hour.
func prepareUtilisation(ctx context.Context, b *benchRun) error {
	fmt.Fprintln(b.stdout, "bench: rolling up 90 days of the busiest building for the utilisation report")
	pool := b.sets[0].pool
	org, building, _, _, err := busiestBuilding(ctx, pool)
	if err != nil {
		return err
	}
	start := time.Now()
	var n int
	if err := pool.QueryRow(ctx, `
		SELECT count(*) FROM buildings bd,
		     LATERAL generate_series((now() AT TIME ZONE bd.timezone)::date - $3::int, (now() AT TIME ZONE bd.timezone)::date - 1, interval '1 day') d,
		     LATERAL utilisation_roll_up(bd.organization_id, bd.id, d::date) r
		WHERE bd.organization_id = $1 AND bd.id = $2`, org, building, utilisationDays).Scan(&n); err != nil {
		return fmt.Errorf("roll up: %w", err)
	}
	b.rep.Utilisation = &utilisationResult{RollUp: time.Since(start), BuildingDays: n}
	return nil
}

// measureUtilisation times the page and the plain query after the first run of pages.
func measureUtilisation(ctx context.Context, b *benchRun, run int) error {
	if run != 1 || b.rep.Utilisation == nil {
		return nil
	}
	u, set := b.rep.Utilisation, b.sets[0]
	org, building, admin, tz, err := busiestBuilding(ctx, set.pool)
	if err != nil {
		return err
	}
	loc, err := time.LoadLocation(tz)
	if err != nil {
		return err
	}
	y, m, d := time.Now().In(loc).Date()
	last := time.Date(y, m, d-1, 0, 0, 0, 0, loc)
	first := last.AddDate(0, 0, 1-utilisationDays)
	token, err := web.StartSession(ctx, pgxstore.NewWithCleanupInterval(set.pool, 0), org, admin)
	if err != nil {
		return err
	}
	path := "/admin/utilisation?" + url.Values{"building": {building.String()}, "by": {"floor"},
		"from": {first.Format(time.DateOnly)}, "to": {last.Format(time.DateOnly)}}.Encode()
	hc := &http.Client{Timeout: 30 * time.Second}
	defer hc.CloseIdleConnections()
	for range utilisationRequests {
		ms, err := timeUtilisationPage(ctx, hc, set.srv.base+path, web.SessionCookie+"="+token)
		if err != nil {
			return err
		}
		u.PageMS = append(u.PageMS, ms)
	}
	for range plainQueries {
		start := time.Now()
		n, err := plainUtilisation(ctx, set.pool, org, building, first, last.AddDate(0, 0, 1))
		if err != nil {
			return fmt.Errorf("plain query: %w", err)
		}
		u.PlainMS, u.Bookings = append(u.PlainMS, float64(time.Since(start).Microseconds())/1000), n
	}
	return nil
}

// busiestBuilding is the organization's building with the most bookings, its admin and time zone.
func busiestBuilding(ctx context.Context, pool *pgxpool.Pool) (org, building, admin uuid.UUID, tz string, err error) {
	err = pool.QueryRow(ctx, `
		SELECT f.organization_id, f.building_id, bd.timezone,
		       (SELECT u.id FROM users u WHERE u.organization_id = f.organization_id AND u.role = 'ADMIN' ORDER BY u.id LIMIT 1)
		FROM bookings bk
		JOIN floors f ON f.organization_id = bk.organization_id AND f.id = bk.floor_id
		JOIN buildings bd ON bd.organization_id = f.organization_id AND bd.id = f.building_id
		GROUP BY f.organization_id, f.building_id, bd.timezone ORDER BY count(*) DESC LIMIT 1`).Scan(&org, &building, &tz, &admin)
	if err != nil {
		err = fmt.Errorf("the busiest building: %w", err)
	}
	return org, building, admin, tz, err
}

// timeUtilisationPage loads the page once and returns how long the answer took, body included.
func timeUtilisationPage(ctx context.Context, hc *http.Client, page, cookie string) (float64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, page, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Cookie", cookie)
	start := time.Now()
	res, err := hc.Do(req)
	if err != nil {
		return 0, err
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	ms := float64(time.Since(start).Microseconds()) / 1000
	if err != nil {
		return 0, err
	}
	if res.StatusCode != http.StatusOK || !strings.Contains(string(body), "util-report") {
		return 0, fmt.Errorf("GET %s: status %d without a report", page, res.StatusCode)
	}
	return ms, nil
}

// plainUtilisation computes the report's booked, checked-in and no-show hours and the most distinct
// people in one day per floor straight from the bookings (the bookable hours and the hours of the day
// left out: it is a lower bound of the plain query's cost), and returns how many bookings it read.
func plainUtilisation(ctx context.Context, pool *pgxpool.Pool, org, building uuid.UUID, from, to time.Time) (int64, error) {
	var n int64
	err := pool.QueryRow(ctx, `
		WITH b AS (
			SELECT bk.floor_id, (bk.start_date AT TIME ZONE bd.timezone)::date AS day, bk.organizer_id,
			       utilisation_ms(tstzrange(bk.start_date, bk.end_date)) AS booked,
			       CASE WHEN bk.checked_in_at IS NOT NULL THEN utilisation_ms(tstzrange(bk.checked_in_at, greatest(bk.checked_in_at, bk.end_date))) ELSE 0 END AS checked,
			       CASE WHEN bk.status = 'EXPIRED' THEN utilisation_ms(tstzrange(bk.start_date, bk.end_date)) ELSE 0 END AS no_show
			FROM bookings bk
			JOIN floors f ON f.organization_id = bk.organization_id AND f.id = bk.floor_id
			JOIN buildings bd ON bd.organization_id = f.organization_id AND bd.id = f.building_id
			WHERE bk.organization_id = $1 AND f.building_id = $2 AND bk.start_date >= $3 AND bk.start_date < $4
			  AND bk.status IN ('PENDING', 'ACTIVE', 'FINISHED', 'EXPIRED')
		), days AS (
			SELECT floor_id, day, count(*) AS bookings, sum(booked) AS booked, sum(checked) AS checked,
			       sum(no_show) AS no_show, count(DISTINCT organizer_id) AS people
			FROM b GROUP BY floor_id, day
		), floors AS (
			SELECT floor_id, sum(bookings) AS bookings, sum(booked), sum(checked), sum(no_show), max(people)
			FROM days GROUP BY floor_id
		)
		SELECT coalesce(sum(bookings), 0)::bigint FROM floors`, org, building, from, to).Scan(&n)
	return n, err
}

// median is the middle of xs (the mean of the two middle ones for an even count); 0 for none.
func medianOf(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(xs))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// writeUtilisation writes what the utilisation report cost.
func (r report) writeUtilisation(p printer) {
	u := r.Utilisation
	if u == nil || len(u.PageMS) == 0 {
		return
	}
	p("\n## Utilisation report\n\n")
	p("Before the servers started, the busiest building's last %d closed days were rolled up in %s. Then\n", u.BuildingDays, u.RollUp.Round(100*time.Millisecond))
	p("the organization's admin opened `/admin/utilisation` of its busiest building (%d bookings in the period),\n", u.Bookings)
	p("the last %d closed days by floor, %d times one after another; the plain query computes part of the same\n", utilisationDays, len(u.PageMS))
	p("figures (booked, checked-in and no-show hours and the most people in a day, per floor) from the bookings.\n\n")
	p("| what | median ms | slowest ms |\n|---|--:|--:|\n")
	p("| the page, from the daily roll-ups (rendered, over HTTP) | %.1f | %.1f |\n", medianOf(u.PageMS), slices.Max(u.PageMS))
	p("| the plain query over the bookings (SQL only) | %.1f | %.1f |\n", medianOf(u.PlainMS), slices.Max(u.PlainMS))
}
