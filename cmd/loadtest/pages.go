package main

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"github.com/alexedwards/scs/pgxstore"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/workspacebooking/booking/web"
)

// The pages scenario loads the pages a person opens to find a desk, for one floor, the start page (My
// week: 14 days of their bookings, their team's and their usual desk), and the API's availability of the
// same floor, one after the other in the same run: pageParts, in this order. Each part runs for an equal
// share of the run's duration, after the run's warm-up.
var pageParts = []string{"find", "plan", "week", "availability"}

// pageSessions is how many synthetic people the pages are opened as, each with a browser session.
const pageSessions = 100

// pageHours are the hours the pages search, in the building's time zone.
const pageFrom, pageTo = "08:00", "18:00"

// pagePart is what one part of the pages scenario measured.
type pagePart struct {
	Name         string         `json:"name"`
	Path         string         `json:"path"` // one of its requests
	Requests     int            `json:"requests"`
	ElapsedS     float64        `json:"elapsed_s"`
	Rate         float64        `json:"rate"`
	LatencyMS    latencies      `json:"latency_ms"`
	StatusCounts map[string]int `json:"status_counts"`
	Errors       int            `json:"errors"` // answers other than 200, and requests without an answer
}

// pagePaths are the requests of the pages scenario: the list and the plan of the floor (desks, the
// search's hours, the first day the reads look at), and the API's availability of that floor that day.
// /find has no floor of its own: it lists the floor's building, as a person sees it.
type pagePaths struct {
	floor                      int // index into floors
	find, plan, week, apiAvail string
}

// buildPagePaths picks the first floor with desks.
func (w *world) buildPagePaths() {
	for i, f := range w.floors {
		if f.deskSubcategory == [16]byte{} {
			continue
		}
		b := w.buildings[f.building]
		from, to := w.localDay(b.loc, 1)
		q := url.Values{"building": {b.id.String()}, "kind": {"desk"}, "date": {from.Format(time.DateOnly)},
			"from": {pageFrom}, "to": {pageTo}}
		w.pages.floor = i
		w.pages.find = "/find?" + q.Encode()
		q.Set("floor", f.id.String())
		w.pages.plan = "/find/plan?" + q.Encode()
		w.pages.week = "/?" + url.Values{"building": {b.id.String()}}.Encode()
		w.pages.apiAvail = fmt.Sprintf("/api/v1/users/me/buildings/%s/availability?from=%d&to=%d&floorId=%s",
			b.id, from.UnixMilli(), to.UnixMilli(), f.id)
		return
	}
}

// path is the request of a part of the pages scenario.
func (p pagePaths) path(part string) string {
	switch part {
	case "find":
		return p.find
	case "plan":
		return p.plan
	case "week":
		return p.week
	}
	return p.apiAvail
}

// startSessions writes a browser session for each of the first n people into the sessions of the
// database the server keeps them in, once; the pages are opened with their cookies.
func (w *world) startSessions(ctx context.Context, pool *pgxpool.Pool, n int) error {
	if len(w.cookies) > 0 {
		return nil
	}
	store := pgxstore.NewWithCleanupInterval(pool, 0)
	for _, id := range w.userIDs[:min(n, len(w.userIDs))] {
		token, err := web.StartSession(ctx, store, orgID, id)
		if err != nil {
			return err
		}
		w.cookies = append(w.cookies, web.SessionCookie+"="+token)
	}
	return nil
}

// pages runs the parts of the pages scenario one after the other, each for an equal share of the duration after
// the warm-up, and returns every part's tallies, the time measured in all, and each part's figures.
func pages(ctx context.Context, c *client, w *world, o options, l *live) ([]*tally, time.Duration, []pagePart, error) {
	part := o
	part.Duration = max(o.Duration/time.Duration(len(pageParts)), 100*time.Millisecond)
	var all []*tally
	var elapsed time.Duration
	var parts []pagePart
	for _, name := range pageParts {
		tallies, took, err := timedPart(ctx, c, w, part, "pages:"+name, l)
		if err != nil {
			return all, elapsed, parts, err
		}
		all, elapsed = append(all, tallies...), elapsed+took
		r := result{StatusCounts: map[string]int{}}
		r.merge(tallies, took)
		p := pagePart{Name: name, Path: w.pages.path(name), Requests: r.Requests, ElapsedS: r.ElapsedS, Rate: r.Rate,
			LatencyMS: r.LatencyMS, StatusCounts: r.StatusCounts, Errors: r.Requests - r.StatusCounts["200"]}
		parts = append(parts, p)
	}
	return all, elapsed, parts, nil
}

// pageRatio is a part's figure against the API's in the same run: rate and p99.
func pageRatio(parts []pagePart, name string) (rate, p99 float64) {
	var p, api pagePart
	for _, x := range parts {
		if x.Name == name {
			p = x
		}
		if x.Name == "availability" {
			api = x
		}
	}
	if api.Rate > 0 {
		rate = p.Rate / api.Rate
	}
	if api.LatencyMS.P99 > 0 {
		p99 = p.LatencyMS.P99 / api.LatencyMS.P99
	}
	return rate, p99
}

// pagesTable writes the parts of a run of pages side by side, each against the API's availability.
func pagesTable(parts []pagePart) string {
	s := fmt.Sprintf("  %-13s %8s %8s %8s %7s %13s %12s\n", "part", "req/s", "p50 ms", "p99 ms", "errors", "req/s vs API", "p99 vs API")
	for _, p := range parts {
		rate, p99 := pageRatio(parts, p.Name)
		s += fmt.Sprintf("  %-13s %8.0f %8.2f %8.2f %7d %13.2f %12.2f\n", p.Name, p.Rate, p.LatencyMS.P50, p.LatencyMS.P99, p.Errors, rate, p99)
	}
	return s
}
