package main

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestWeigh loads a page with known assets and counts what a browser with an empty cache fetches.
func TestWeigh(t *testing.T) {
	page := `<!doctype html><html><head>
<link rel="stylesheet" href="/static/app.css">
<link rel="stylesheet" href="/static/app.css">
<link rel="icon" href="/static/icon.svg">
<link rel="stylesheet" href="https://elsewhere.test/x.css">
<script src="/static/app.js" defer></script>
</head><body>
<img src="data:image/gif;base64,R0lGOD">
<svg><image href="/plans/f/plan.png"></image></svg>
<a href="/bookings">not fetched</a>
</body></html>`
	css := strings.Repeat(`body{font-family:Sans;background:url("/static/bg.png")}`, 20) +
		`@font-face{src:url(fonts/sans.woff2)}` + `.x{background:url(data:image/png;base64,AAAA)}`
	files := map[string]string{
		"/find": page, "/static/app.css": css, "/static/icon.svg": "<svg/>", "/static/app.js": "console.log(1)",
		"/plans/f/plan.png": "PNG", "/static/bg.png": "BG", "/static/fonts/sans.woff2": "FONT",
	}
	gz := func(s string) []byte {
		var b bytes.Buffer
		z := gzip.NewWriter(&b)
		z.Write([]byte(s))
		z.Close()
		return b.Bytes()
	}
	var cookies []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cookies = append(cookies, r.Header.Get("Cookie"))
		body, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		// The page and the stylesheet are sent gzipped, as the server does for text of 1 KB or more.
		if (r.URL.Path == "/find" || r.URL.Path == "/static/app.css") && strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(gz(body))
			return
		}
		w.Write([]byte(body))
	}))
	defer srv.Close()

	got, err := weigh(t.Context(), srv.Client(), srv.URL, "s=1", "test", "/find")
	if err != nil {
		t.Fatal(err)
	}
	want := []asset{
		{Path: "/find", Kind: "page", Status: 200, Raw: int64(len(page)), Gzip: int64(len(gz(page)))},
		{Path: "/static/app.css", Kind: "stylesheet", Status: 200, Raw: int64(len(css)), Gzip: int64(len(gz(css)))},
		{Path: "/static/icon.svg", Kind: "icon", Status: 200, Raw: 6, Gzip: 6},
		{Path: "/static/app.js", Kind: "script", Status: 200, Raw: 14, Gzip: 14},
		{Path: "/plans/f/plan.png", Kind: "image", Status: 200, Raw: 3, Gzip: 3},
		{Path: "/static/bg.png", Kind: "image", Status: 200, Raw: 2, Gzip: 2},
		{Path: "/static/fonts/sans.woff2", Kind: "font", Status: 200, Raw: 4, Gzip: 4},
	}
	if diff := cmp.Diff(want, got.Assets); diff != "" {
		t.Errorf("assets (-want +got):\n%s", diff)
	}
	var raw, sent int64
	for _, a := range want {
		raw, sent = raw+a.Raw, sent+a.Gzip
	}
	if got.Requests != 7 || got.Raw != raw || got.Gzip != sent || got.Missing != 0 || got.Status != 200 {
		t.Errorf("weight: %d requests, %d bytes, %d gzip, %d missing, status %d; want 7, %d, %d, 0, 200",
			got.Requests, got.Raw, got.Gzip, got.Missing, got.Status, raw, sent)
	}
	if got.Gzip >= got.Raw {
		t.Errorf("gzip %d bytes, raw %d: the page and stylesheet were sent compressed", got.Gzip, got.Raw)
	}
	for _, c := range cookies {
		if c != "s=1" {
			t.Errorf("a request with cookie %q, want the session's on every request", c)
		}
	}

	t.Run("MissingAsset", func(t *testing.T) {
		delete(files, "/static/app.js")
		got, err := weigh(t.Context(), srv.Client(), srv.URL, "", "test", "/find")
		if err != nil || got.Missing != 1 || got.Requests != 7 {
			t.Errorf("weight %+v, %v; want 7 requests, one missing", got, err)
		}
	})
	t.Run("PageRefused", func(t *testing.T) {
		if _, err := weigh(t.Context(), srv.Client(), srv.URL, "", "test", "/nowhere"); err == nil {
			t.Error("a page answered 404 was weighed")
		}
	})
}
