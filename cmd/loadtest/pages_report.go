package main

import (
	"fmt"
	"strings"
	"time"
)

// pageRow is one part of the pages scenario: the medians of its runs, and of its ratios to the API's
// availability run by run (each against the API measured in the same run).
type pageRow struct {
	Name      string  `json:"name"`
	Runs      int     `json:"runs"`
	Rate      float64 `json:"rate"`
	P50       float64 `json:"p50_ms"`
	P99       float64 `json:"p99_ms"`
	Errors    int     `json:"errors"` // summed over the runs
	RateVsAPI float64 `json:"rate_vs_api"`
	P99VsAPI  float64 `json:"p99_vs_api"`
}

// pageRows are the parts of the runs of pages, in the order of pageParts.
func pageRows(runs []result) []pageRow {
	var out []pageRow
	for _, name := range pageParts {
		w := pageRow{Name: name}
		var rate, p50, p99, rateVs, p99Vs []float64
		for _, r := range runs {
			for _, p := range r.Pages {
				if p.Name != name {
					continue
				}
				w.Runs++
				w.Errors += p.Errors
				rv, pv := pageRatio(r.Pages, name)
				rate, p50, p99 = append(rate, p.Rate), append(p50, p.LatencyMS.P50), append(p99, p.LatencyMS.P99)
				rateVs, p99Vs = append(rateVs, rv), append(p99Vs, pv)
			}
		}
		if w.Runs == 0 {
			continue
		}
		w.Rate, w.P50, w.P99, w.RateVsAPI, w.P99VsAPI = median(rate), median(p50), median(p99), median(rateVs), median(p99Vs)
		out = append(out, w)
	}
	return out
}

// kb writes a number of bytes in kilobytes (1,000 bytes), one decimal.
func kb(n int64) string { return fmt.Sprintf("%.1f KB", float64(n)/1000) }

// writePages writes the pages against the API, and their weight on a cold load.
func (r report) writePages(p printer, rows map[string]row) {
	parts := pageRows(r.Results["pages"])
	if len(parts) == 0 && len(r.Weights) == 0 {
		return
	}
	p("## Pages\n\n")
	if len(parts) > 0 {
		p("The pages a person opens to find a desk, and the start page (My week: 14 days of their bookings, their\n")
		p("team's and their usual desk), against the API's availability of the same floor, one after the other in\n")
		p("each run of pages, each for 1/%d of the run (%s) after the warm-up, at %d clients. The pages are\n",
			len(pageParts), (r.Duration / time.Duration(len(pageParts))).Round(100*time.Millisecond), defaultClients)
		p("opened as %d people, each with a browser session, accepting gzip. `/find` has no floor of its own: it lists\n", pageSessions)
		p("the desks of the floor's whole building (%s of them), and the plan draws the floor's %d resources. Medians of\n",
			thousands(r.Size.FloorsPerBuilding*(r.Size.ResourcesPerFloor-r.Size.RoomsPerFloor)), r.Size.ResourcesPerFloor)
		p("the runs. The ratios are taken run by run, each page against the API measured seconds away from it: this\n")
		p("machine is shared and noisy, so compare ratios rather than single figures.\n\n")
		pagePartsTable(p, parts)
		if w, ok := rows["pages"]; ok && w.PeakRSSMB > 0 {
			p("\nThe server's peak resident memory by the end of the runs of pages: %.0f MB (VmHWM, since it started).\n", w.PeakRSSMB)
		}
		p("\nWhere the time of one `/find` goes, from a CPU profile: [performance.md](performance.md#the-find-pages).\n\n")
	}
	if len(r.Weights) > 0 {
		p("What a browser with an empty cache fetches to show each page: the page and every stylesheet, script,\n")
		p("image and icon it links (and what its stylesheets name), each once. Bytes as sent to a client that\n")
		p("accepts gzip, and uncompressed: the synthetic pages above, and the demo office that `make run` loads, on its\n")
		p("floor with the most resources.\n\n")
		p("| data | page | requests | gzip | uncompressed | of which the page (gzip) | missing |\n|---|---|--:|--:|--:|--:|--:|\n")
		for _, w := range r.Weights {
			var page int64
			if len(w.Assets) > 0 {
				page = w.Assets[0].Gzip
			}
			p("| %s | %s | %d | %s | %s | %s | %d |\n", w.Data, pageName(w.Page), w.Requests, kb(w.Gzip), kb(w.Raw), kb(page), w.Missing)
		}
		p("\n")
	}
}

// pagePartsTable writes the parts of pages side by side, each against the API.
func pagePartsTable(p printer, parts []pageRow) {
	p("| part | request | req/s | p50 ms | p99 ms | errors (all runs) | req/s ÷ API | p99 ÷ API |\n|---|---|--:|--:|--:|--:|--:|--:|\n")
	for _, w := range parts {
		p("| %s | `%s` | %.0f | %.2f | %.2f | %d | %.2f | %.2f |\n", w.Name, pagePartText(w.Name), w.Rate, w.P50, w.P99, w.Errors, w.RateVsAPI, w.P99VsAPI)
	}
}

// pagePartText is what a part of pages requests.
func pagePartText(name string) string {
	switch name {
	case "find":
		return "GET /find?building=…&kind=desk&date=…&from=08:00&to=18:00"
	case "plan":
		return "GET /find/plan?…&floor=…"
	}
	return "GET …/buildings/{b}/availability?floorId=… (bearer token)"
}

// pageName is a page's path without its query: /find, /find/plan.
func pageName(path string) string {
	name, _, _ := strings.Cut(path, "?")
	return name
}

// pagesTerminal is the pages' parts and weights for the terminal.
func (r report) pagesTerminal() string {
	var s strings.Builder
	for _, w := range pageRows(r.Results["pages"]) {
		fmt.Fprintf(&s, "pages %-13s %8.0f req/s  p50 %6.2f ms  p99 %6.2f ms  %d errors  ÷ API: req/s %.2f, p99 %.2f (median)\n",
			w.Name, w.Rate, w.P50, w.P99, w.Errors, w.RateVsAPI, w.P99VsAPI)
	}
	for _, w := range r.Weights {
		fmt.Fprintf(&s, "weight %-9s %-10s %3d requests  %s gzip, %s uncompressed, %d missing\n", w.Data, pageName(w.Page), w.Requests, kb(w.Gzip), kb(w.Raw), w.Missing)
	}
	return s.String()
}

// peakRSS is the server's peak resident memory (VmHWM) over the API scenarios and over every scenario
// (0 when pages did not run). VmHWM only grows while the server runs, and pages runs after the others: so
// once it has run, every later run reports the pages' peak. The API scenarios' own peak is then read from
// their first runs, all made before the first run of pages.
func (s *setInfo) peakRSS() (api, all float64) {
	pages := len(s.Results["pages"]) > 0
	for sc, rs := range s.Results {
		for i, x := range rs {
			all = max(all, x.ServerPeakRSSMB)
			if sc != "pages" && (!pages || i == 0) {
				api = max(api, x.ServerPeakRSSMB)
			}
		}
	}
	if !pages {
		all = 0
	}
	return api, all
}
