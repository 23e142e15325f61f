package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// result is what a run measured and checked; it is written as JSON.
type result struct {
	Scenario        string         `json:"scenario"`
	StartedAt       time.Time      `json:"started_at"`
	GoVersion       string         `json:"go_version"`
	Base            []string       `json:"base"`
	Concurrency     int            `json:"concurrency"`
	DurationS       float64        `json:"duration_s"` // as asked (timed scenarios)
	ElapsedS        float64        `json:"elapsed_s"`  // as measured
	WarmupS         float64        `json:"warmup_s,omitempty"`
	WarmupRequests  int            `json:"warmup_requests,omitempty"` // answered before the measurement; checked, not counted
	Requests        int            `json:"requests"`
	Rate            float64        `json:"rate"` // requests a second
	Bookings        int            `json:"bookings"`
	BookingRate     float64        `json:"bookings_per_s"`
	LatencyMS       latencies      `json:"latency_ms"`
	StatusCounts    map[string]int `json:"status_counts"`         // by HTTP status; "error" for no answer
	ErrorCodes      map[string]int `json:"error_codes,omitempty"` // 4xx and 5xx by status and problem code: "409 4001"
	Unexpected      int            `json:"unexpected"`            // answers the scenario does not expect
	Rounds          []round        `json:"rounds,omitempty"`      // contend
	ServerPeakRSSMB float64        `json:"server_peak_rss_mb,omitempty"`
	Pages           []pagePart     `json:"pages,omitempty"`    // pages: each part's figures
	PerBase         []baseResult   `json:"per_base,omitempty"` // each server's share, when workers are pinned
	Check           dbCheck        `json:"check"`
	OK              bool           `json:"ok"`
	Failures        []string       `json:"failures,omitempty"`
}

// baseResult is what one server of a run with pinned workers did.
type baseResult struct {
	Base        string  `json:"base"`
	Bookings    int     `json:"bookings"`
	BookingRate float64 `json:"bookings_per_s"`
}

// perBase returns each server's bookings, worker i having loaded bases[i % len(bases)].
func perBase(bases []string, tallies []*tally, elapsed time.Duration) []baseResult {
	out := make([]baseResult, len(bases))
	for i, b := range bases {
		out[i].Base = b
	}
	for i, t := range tallies {
		out[i%len(bases)].Bookings += t.statuses[201]
	}
	for i := range out {
		if elapsed > 0 {
			out[i].BookingRate = float64(out[i].Bookings) / elapsed.Seconds()
		}
	}
	return out
}

type latencies struct {
	P50  float64 `json:"p50"`
	P95  float64 `json:"p95"`
	P99  float64 `json:"p99"`
	Max  float64 `json:"max"`
	Mean float64 `json:"mean"`
}

// round is one round of contend.
type round struct {
	Round     int `json:"round"`
	Successes int `json:"successes"` // 201
	Conflicts int `json:"conflicts"` // 409 4001
	Other     int `json:"other"`
}

// won reports whether the round went as it must: exactly one 201, and only 409 4001 besides.
func (r round) won() bool { return r.Successes == 1 && r.Other == 0 }

// roundsWon is how many of the run's rounds were won.
func (r result) roundsWon() int {
	n := 0
	for _, rd := range r.Rounds {
		if rd.won() {
			n++
		}
	}
	return n
}

// tally is what one worker saw; the workers' tallies are merged at the end.
type tally struct {
	warmup     int // requests answered during the warm-up: only their unexpected answers and 201s count
	took       []time.Duration
	statuses   map[int]int
	codes      map[[2]int]int
	unexpected int
	examples   []string
	ids        []string
}

// measured is the number of requests the tally measured (those after the warm-up).
func (t *tally) measured() int { return len(t.took) + t.statuses[0] }

func newTally(capacity int) *tally {
	return &tally{took: make([]time.Duration, 0, capacity), statuses: map[int]int{}, codes: map[[2]int]int{}}
}

// live counts the requests of a run for the progress lines.
type live struct{ requests, unexpected atomic.Int64 }

// add records an answer; one of the warm-up (measured false) counts only if unexpected or a booking.
func (t *tally) add(a answer, e expect, measured bool, l *live) {
	l.requests.Add(1)
	switch {
	case !measured:
		t.warmup++
		if a.err == nil && a.status == http.StatusCreated && a.id != "" {
			t.ids = append(t.ids, a.id)
		}
	case a.err != nil:
		t.statuses[0]++
	default:
		t.took = append(t.took, a.took)
		t.statuses[a.status]++
		if a.status >= 400 {
			t.codes[[2]int{a.status, a.code}]++
		}
		if a.status == http.StatusCreated && a.id != "" {
			t.ids = append(t.ids, a.id)
		}
	}
	if !a.welcome(e) || (a.err == nil && a.status == http.StatusCreated && a.id == "") {
		t.unexpected++
		l.unexpected.Add(1)
		if len(t.examples) < 3 {
			what := strconv.Itoa(a.status)
			switch {
			case a.err != nil:
				what = a.err.Error()
			case a.code != 0:
				what += " " + strconv.Itoa(a.code)
			case a.status == http.StatusCreated:
				what += " without a booking id"
			}
			t.examples = append(t.examples, "unexpected answer: "+what)
		}
	}
}

// progress writes a line every second: elapsed time, requests so far, the last second's rate and the
// unexpected answers so far.
func progress(ctx context.Context, l *live, out io.Writer, scenario string, warmup time.Duration) {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	start, last := time.Now(), int64(0)
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			n, note := l.requests.Load(), ""
			if time.Since(start) <= warmup {
				note = " (warm-up)"
			}
			fmt.Fprintf(out, "%-12s %4.0fs %9d requests %7d/s %6d errors%s\n", scenario, time.Since(start).Seconds(), n, n-last, l.unexpected.Load(), note)
			last = n
		}
	}
}

// merge adds up the workers' tallies into the result: counts, rates, latencies and failures. It returns
// the ids of the bookings answered 201, for the check.
func (res *result) merge(tallies []*tally, elapsed time.Duration) []string {
	var took []time.Duration
	var ids []string
	for _, t := range tallies {
		took = append(took, t.took...)
		ids = append(ids, t.ids...)
		res.Unexpected += t.unexpected
		res.WarmupRequests += t.warmup
		for s, n := range t.statuses {
			key := strconv.Itoa(s)
			if s == 0 {
				key = "error"
			}
			res.StatusCounts[key] += n
			res.Requests += n
		}
		for k, n := range t.codes {
			if res.ErrorCodes == nil {
				res.ErrorCodes = map[string]int{}
			}
			res.ErrorCodes[fmt.Sprintf("%d %d", k[0], k[1])] += n
		}
		for _, e := range t.examples {
			if len(res.Failures) < 5 && !slices.Contains(res.Failures, e) {
				res.Failures = append(res.Failures, e)
			}
		}
	}
	res.ElapsedS = elapsed.Seconds()
	res.Bookings = res.StatusCounts["201"]
	if res.ElapsedS > 0 {
		res.Rate = float64(res.Requests) / res.ElapsedS
		res.BookingRate = float64(res.Bookings) / res.ElapsedS
	}
	res.LatencyMS = percentiles(took)
	if res.Unexpected > 0 {
		res.Failures = append(res.Failures, fmt.Sprintf("%d of %d answers unexpected", res.Unexpected, res.Requests))
	}
	for _, r := range res.Rounds {
		if !r.won() {
			res.Failures = append(res.Failures, fmt.Sprintf("round %d: %d successes, %d conflicts, %d other answers", r.Round, r.Successes, r.Conflicts, r.Other))
			if len(res.Failures) > 10 {
				break
			}
		}
	}
	return ids
}

// percentiles are nearest-rank percentiles of the latencies, in milliseconds.
func percentiles(took []time.Duration) latencies {
	if len(took) == 0 {
		return latencies{}
	}
	slices.Sort(took)
	at := func(p float64) float64 {
		i := int(p*float64(len(took))+0.5) - 1
		return ms(took[min(max(i, 0), len(took)-1)])
	}
	var sum time.Duration
	for _, d := range took {
		sum += d
	}
	return latencies{P50: at(0.50), P95: at(0.95), P99: at(0.99), Max: ms(took[len(took)-1]), Mean: ms(sum / time.Duration(len(took)))}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// peakRSS is the most memory the process has held resident, in MB (VmHWM of /proc/PID/status); 0 when
// unknown.
func peakRSS(pid int) float64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")))
			return float64(kb) / 1024
		}
	}
	return 0
}
