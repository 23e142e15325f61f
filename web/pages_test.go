package web_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// The page tests use the server as a browser does: a cookie jar keeps the session, forms are posted as
// application/x-www-form-urlencoded, and htmx requests carry HX-Request. The tests read the HTML with
// goquery. The fixture's clock starts at Monday 2026-11-23 09:00 in Madrid.

// pageBundle is a test server, pages included, on a new database with the fixture loaded.
type pageBundle struct {
	*fx.Bundle
	srv    *httptest.Server
	server *web.Server // the handler itself, for tests that list its routes
}

// setupPages starts a server in development mode, which turns on the development sign-in, with sessions
// stored in the database. Each function in deps may change the dependencies before the server is built.
func setupPages(t *testing.T, deps ...func(*web.Deps)) *pageBundle {
	t.Helper()
	dev := func(d *web.Deps) { d.Dev = true }
	tb := setupOIDC(t, nil, append([]func(*web.Deps){dev}, deps...)...)
	return &pageBundle{Bundle: tb.Bundle, srv: tb.srv, server: tb.server}
}

// browser is one person's browser, with its own cookie jar.
type browser struct {
	t      *testing.T
	base   string
	client *http.Client
}

// browser returns a new browser that follows redirects and is not signed in.
func (pb *pageBundle) browser(t *testing.T) *browser {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatalf("cookie jar: %v", err)
	}
	return &browser{t: t, base: pb.srv.URL, client: &http.Client{Jar: jar}}
}

// browserAt is like browser, but every request says it is for host, as when a proxy in front of the
// service passes the host name people typed.
func (pb *pageBundle) browserAt(t *testing.T, host string) *browser {
	t.Helper()
	b := pb.browser(t)
	b.client.Transport = hostHeader{host: host, next: http.DefaultTransport}
	return b
}

// hostHeader sends every request with the Host header host.
type hostHeader struct {
	host string
	next http.RoundTripper
}

func (h hostHeader) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Host = h.host
	return h.next.RoundTrip(r)
}

// signedIn returns a new browser signed in as a fixture user through the development sign-in.
func (pb *pageBundle) signedIn(t *testing.T, user uuid.UUID) *browser {
	t.Helper()
	return signInAs(t, pb.browser(t), user)
}

// signInAs signs b in as a fixture user through the development sign-in, and returns it.
func signInAs(t *testing.T, b *browser, user uuid.UUID) *browser {
	t.Helper()
	p := b.post("/login/dev", url.Values{"user": {user.String()}, "next": {"/bookings"}})
	if p.status != http.StatusOK || p.url.Path != "/bookings" {
		t.Fatalf("development sign-in as %s: status %d at %s, want 200 at /bookings", user, p.status, p.url)
	}
	return b
}

// htmlPage is a response with its body read and its HTML parsed.
type htmlPage struct {
	status int
	header http.Header
	url    *url.URL // the final URL, after redirects
	body   string
	doc    *goquery.Document
}

// do sends a request and reads the response. If htmx is true, the request is marked as coming from htmx.
func (b *browser) do(method, path string, form url.Values, htmx bool) htmlPage {
	b.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequestWithContext(b.t.Context(), method, b.base+path, body)
	if err != nil {
		b.t.Fatalf("new request: %v", err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if htmx {
		req.Header.Set("HX-Request", "true")
	}
	return b.send(req)
}

// send sends a prepared request.
func (b *browser) send(req *http.Request) htmlPage {
	b.t.Helper()
	res, err := b.client.Do(req)
	if err != nil {
		b.t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		b.t.Fatalf("read body: %v", err)
	}
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(data))
	if err != nil {
		b.t.Fatalf("parse HTML of %s: %v", req.URL, err)
	}
	return htmlPage{status: res.StatusCode, header: res.Header, url: res.Request.URL, body: string(data), doc: doc}
}

// get loads a full page.
func (b *browser) get(path string) htmlPage {
	b.t.Helper()
	return b.do(http.MethodGet, path, nil, false)
}

// post submits a form without htmx, and follows the redirect that the server answers with.
func (b *browser) post(path string, form url.Values) htmlPage {
	b.t.Helper()
	return b.do(http.MethodPost, path, form, false)
}

// hxGet and hxPost send the requests htmx sends to replace part of a page.
func (b *browser) hxGet(path string) htmlPage {
	b.t.Helper()
	return b.do(http.MethodGet, path, nil, true)
}
func (b *browser) hxPost(path string, form url.Values) htmlPage {
	b.t.Helper()
	return b.do(http.MethodPost, path, form, true)
}

// text returns the text of the elements that match selector, with whitespace collapsed.
func (p htmlPage) text(selector string) string {
	return strings.Join(strings.Fields(p.doc.Find(selector).Text()), " ")
}

// count returns the number of elements that match selector.
func (p htmlPage) count(selector string) int { return p.doc.Find(selector).Length() }

// attr returns an attribute of the first element that matches selector.
func (p htmlPage) attr(selector, name string) string {
	v, _ := p.doc.Find(selector).First().Attr(name)
	return v
}

// wantStatus fails the test unless the response has the status want.
func (p htmlPage) wantStatus(t *testing.T, want int) {
	t.Helper()
	if p.status != want {
		t.Fatalf("status = %d, want %d; htmlPage text: %s", p.status, want, p.text("main"))
	}
}

// wantText fails the test unless the text of the elements that match selector contains every part.
func (p htmlPage) wantText(t *testing.T, selector string, parts ...string) {
	t.Helper()
	got := p.text(selector)
	for _, part := range parts {
		if !strings.Contains(got, part) {
			t.Errorf("text of %q = %q, want it to contain %q", selector, got, part)
		}
	}
}
