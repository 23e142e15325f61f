package web_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web"
	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// planBundle is a server with the development sign-in, so that plans can be fetched as a browser does.
type planBundle struct {
	*testBundle
	pages *pageBundle
}

func setupPlans(t *testing.T) *planBundle {
	t.Helper()
	tb := setup(t, func(d *web.Deps) { d.Dev = true })
	return &planBundle{testBundle: tb, pages: &pageBundle{Bundle: tb.Bundle, srv: tb.srv, server: tb.server}}
}

func floorPlanPath(floor uuid.UUID) string { return api + "/admin/floors/" + floor.String() + "/plan" }

// putPlan uploads body as the floor's plan, as the user, with the Content-Type given.
func (pb *planBundle) putPlan(t *testing.T, as, floor uuid.UUID, contentType string, body []byte) reply {
	t.Helper()
	return pb.callWith(t, as, http.MethodPut, floorPlanPath(floor), body, http.Header{"Content-Type": {contentType}})
}

// floorJSON returns the floor as GET /buildings/{id}/floors answers it.
func (pb *planBundle) floorJSON(t *testing.T, building, floor uuid.UUID) map[string]any {
	t.Helper()
	r := pb.call(t, fx.Alice, http.MethodGet, api+"/buildings/"+building.String()+"/floors", nil)
	wantStatus(t, r, http.StatusOK)
	for _, f := range array(t, "floors", r.object(t)["floors"]) {
		if m := f.(map[string]any); m["id"] == floor.String() {
			return m
		}
	}
	t.Fatalf("floor %s is not listed", floor)
	return nil
}

// layoutVersion returns the organization's layout version.
func (pb *planBundle) layoutVersion(t *testing.T, org uuid.UUID) int64 {
	t.Helper()
	var v int64
	if err := pb.Pool.QueryRow(t.Context(), `SELECT layout_version FROM organizations WHERE id = $1`, org).Scan(&v); err != nil {
		t.Fatalf("layout version: %v", err)
	}
	return v
}

// get fetches a plan's address with a bearer token of the user (uuid.Nil: none).
func (pb *planBundle) get(t *testing.T, as uuid.UUID, path string) reply {
	t.Helper()
	req := pb.request(t, as, http.MethodGet, path, nil)
	res, err := pb.noRedirects().Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	return reply{status: res.StatusCode, header: res.Header, body: body}
}

func (pb *planBundle) noRedirects() *http.Client {
	return &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

const planSVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50"><rect width="100" height="50" fill="#eee"/>` +
	`<script>alert(1)</script><circle cx="10" cy="10" r="5" onload="alert(2)"/></svg>`

// planSVGStored is planSVG as the service stores and serves it.
const planSVGStored = `<?xml version="1.0" encoding="UTF-8"?>` + "\n" +
	`<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 100 50">` +
	`<rect width="100" height="50" fill="#eee"/><circle cx="10" cy="10" r="5"/></svg>` + "\n"

// pngImage returns a PNG of w×h pixels.
func pngImage(t *testing.T, w, h int) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, solid(w, h)); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// jpegImage returns a JPEG of w×h pixels.
func jpegImage(t *testing.T, w, h int) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, solid(w, h), nil); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func solid(w, h int) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := range w {
		img.Set(x, 0, color.RGBA{R: 200, A: 255})
	}
	return img
}

var planAddress = regexp.MustCompile(`^/plans/` + fx.FloorMadrid.String() + `/[0-9a-f]{64}\.(svg|png|jpg)$`)

// TestPutFloorPlan uploads plans of each kind and checks the floor's answer, its new address, and that
// refusals change nothing.
func TestPutFloorPlan(t *testing.T) {
	t.Parallel()
	pb := setupPlans(t)

	// Each upload answers the floor exactly as the catalogue shows it, with the new address.
	images := []string{pb.floorJSON(t, fx.BuildingMadrid, fx.FloorMadrid)["image"].(string)}
	upload := func(t *testing.T, contentType string, body []byte) string {
		t.Helper()
		before := pb.layoutVersion(t, fx.OrgA)
		r := pb.putPlan(t, fx.Adam, fx.FloorMadrid, contentType, body)
		wantStatus(t, r, http.StatusOK)
		got := r.object(t)
		addr, _ := got["image"].(string)
		if !planAddress.MatchString(addr) {
			t.Fatalf("image = %q, want /plans/{floorId}/{sha256}.{ext}", addr)
		}
		if diff := cmp.Diff(pb.floorJSON(t, fx.BuildingMadrid, fx.FloorMadrid), got); diff != "" {
			t.Errorf("answer differs from the catalogue's floor (-catalogue +answer):\n%s", diff)
		}
		if pb.layoutVersion(t, fx.OrgA) == before {
			t.Errorf("the layout version did not move")
		}
		images = append(images, addr)
		return addr
	}

	svg := upload(t, "image/svg+xml", []byte(planSVG))
	if !strings.HasSuffix(svg, ".svg") {
		t.Errorf("SVG address %q, want .svg", svg)
	}
	t.Run("SameBytesSameAddress", func(t *testing.T) {
		before := pb.layoutVersion(t, fx.OrgA)
		r := pb.putPlan(t, fx.Adam, fx.FloorMadrid, "image/svg+xml; charset=utf-8", []byte(planSVG))
		wantStatus(t, r, http.StatusOK)
		if got := r.object(t)["image"]; got != svg {
			t.Errorf("image = %v, want the same address %s", got, svg)
		}
		if pb.layoutVersion(t, fx.OrgA) != before {
			t.Errorf("the same plan again moved the layout version")
		}
	})
	png := upload(t, "image/png", pngImage(t, 40, 30))
	jpg := upload(t, "image/jpeg", jpegImage(t, 40, 30))
	if !strings.HasSuffix(png, ".png") || !strings.HasSuffix(jpg, ".jpg") || png == svg || jpg == png {
		t.Errorf("addresses %s, %s, %s: want a new one, ending .png then .jpg", svg, png, jpg)
	}
	if again := upload(t, "image/png", pngImage(t, 41, 30)); again == png {
		t.Errorf("other bytes kept the address %s", png)
	}
	// Exactly the limit is accepted: a PNG's header decides what it is, and the bytes after it are kept.
	big := append(pngImage(t, 4, 4), make([]byte, booking.MaxPlanBytes)...)[:booking.MaxPlanBytes]
	upload(t, "image/png", big)

	t.Run("AuditLog", func(t *testing.T) {
		// One entry per change of address, newest first; the same bytes again recorded nothing.
		type entry struct{ Action, Actor, Before, After string }
		var want []entry
		for i := len(images) - 1; i > 0; i-- {
			want = append(want, entry{"PLAN", "adam Adler", images[i-1], images[i]})
		}
		floor := fx.FloorMadrid
		es, err := layout.New(pb.Pool, pb.Service).Audit(t.Context(), pb.User(t, fx.OrgA, fx.Adam), booking.AuditFilter{Collection: "floors", ObjectID: &floor})
		if err != nil {
			t.Fatal(err)
		}
		var got []entry
		for _, e := range es {
			if e.ActorID == nil || *e.ActorID != fx.Adam {
				t.Errorf("entry %d: actor %v, want Adam", e.ID, e.ActorID)
			}
			got = append(got, entry{string(e.Action), e.ActorName, imageOf(t, e.Before), imageOf(t, e.After)})
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("audit log (-want +got):\n%s", diff)
		}
	})
}

// imageOf reads the image address of an audit entry's before or after.
func imageOf(t *testing.T, j []byte) string {
	t.Helper()
	var v struct {
		Image string `json:"image"`
	}
	if err := json.Unmarshal(j, &v); err != nil {
		t.Fatalf("audit JSON %s: %v", j, err)
	}
	return v.Image
}

// TestPutFloorPlanRefusals checks each refusal's status and code, and that none of them changes the floor
// or its plan.
func TestPutFloorPlanRefusals(t *testing.T) {
	t.Parallel()
	pb := setupPlans(t)
	wantStatus(t, pb.putPlan(t, fx.Adam, fx.FloorMadrid, "image/svg+xml", []byte(planSVG)), http.StatusOK)
	floor := pb.floorJSON(t, fx.BuildingMadrid, fx.FloorMadrid)
	plans := snapshot(t, pb.Bundle, fx.OrgA)

	over := append(pngImage(t, 4, 4), make([]byte, booking.MaxPlanBytes)...)[:booking.MaxPlanBytes+1]
	for _, tc := range []struct {
		name        string
		as          uuid.UUID
		floor       uuid.UUID
		contentType string
		body        []byte
		status      int
		code        booking.Code
		detail      []string
	}{
		{"WrongType", fx.Adam, fx.FloorMadrid, "text/plain", []byte("hello"), 400, booking.CodeInvalidRequest,
			[]string{"image/svg+xml", "image/png", "image/jpeg"}},
		{"NoType", fx.Adam, fx.FloorMadrid, "", []byte(planSVG), 400, booking.CodeInvalidRequest, []string{"image/svg+xml"}},
		{"GIF", fx.Adam, fx.FloorMadrid, "image/gif", []byte("GIF89a"), 400, booking.CodeInvalidRequest, []string{"image/png"}},
		{"Empty", fx.Adam, fx.FloorMadrid, "image/png", nil, 400, booking.CodeInvalidRequest, []string{"empty"}},
		{"PNGClaimingJPEG", fx.Adam, fx.FloorMadrid, "image/jpeg", pngImage(t, 4, 4), 400, booking.CodeInvalidRequest,
			[]string{"PNG", "image/jpeg"}},
		{"JPEGClaimingPNG", fx.Adam, fx.FloorMadrid, "image/png", jpegImage(t, 4, 4), 400, booking.CodeInvalidRequest,
			[]string{"JPEG", "image/png"}},
		{"TextClaimingPNG", fx.Adam, fx.FloorMadrid, "image/png", []byte("not an image"), 400, booking.CodeInvalidRequest,
			[]string{"not a PNG image"}},
		{"PNGClaimingSVG", fx.Adam, fx.FloorMadrid, "image/svg+xml", pngImage(t, 4, 4), 400, booking.CodeInvalidRequest,
			[]string{"SVG is refused"}},
		{"SVGWithDoctype", fx.Adam, fx.FloorMadrid, "image/svg+xml",
			[]byte(`<!DOCTYPE svg [<!ENTITY a "b">]><svg xmlns="http://www.w3.org/2000/svg"/>`), 400, booking.CodeInvalidRequest,
			[]string{"document type declarations"}},
		{"TooManyPixels", fx.Adam, fx.FloorMadrid, "image/png", pngImage(t, booking.MaxPlanSide+1, 1), 400, booking.CodeInvalidRequest,
			[]string{"20001×1"}},
		// Headers alone, claiming 30,000 pixels a side: refused from the header, no pixels decoded.
		{"PNGHeaderTooWide", fx.Adam, fx.FloorMadrid, "image/png", pngHeader(30_000, 30_000), 400, booking.CodeInvalidRequest,
			[]string{"30000×30000"}},
		{"JPEGHeaderTooWide", fx.Adam, fx.FloorMadrid, "image/jpeg", jpegHeader(30_000, 30_000), 400, booking.CodeInvalidRequest,
			[]string{"30000×30000"}},
		{"TooLarge", fx.Adam, fx.FloorMadrid, "image/png", over, 413, booking.CodePayloadTooLarge, []string{"5242880 bytes"}},
		{"Employee", fx.Alice, fx.FloorMadrid, "image/png", pngImage(t, 4, 4), 403, booking.CodeForbidden, []string{"admins"}},
		{"Receptionist", fx.Rita, fx.FloorMadrid, "image/png", pngImage(t, 4, 4), 403, booking.CodeForbidden, []string{"admins"}},
		{"AnotherOrganizationsFloor", fx.Adam, fx.FloorB, "image/png", pngImage(t, 4, 4), 404, booking.CodeObjectNotFound,
			[]string{fx.FloorB.String()}},
		{"UnknownFloor", fx.Adam, uuid.New(), "image/png", pngImage(t, 4, 4), 404, booking.CodeObjectNotFound, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := pb.putPlan(t, tc.as, tc.floor, tc.contentType, tc.body)
			wantDetail(t, wantProblem(t, r, tc.status, tc.code, noIndex), tc.detail...)
			if diff := cmp.Diff(floor, pb.floorJSON(t, fx.BuildingMadrid, fx.FloorMadrid)); diff != "" {
				t.Errorf("the floor changed (-before +after):\n%s", diff)
			}
			if changed := changedTables(plans, snapshot(t, pb.Bundle, fx.OrgA)); len(changed) > 0 {
				t.Errorf("changed %v", changed)
			}
		})
	}

	t.Run("TooLargeWithoutLength", func(t *testing.T) {
		// A chunked body declares no length: reading stops at the first byte past the limit.
		req := pb.request(t, fx.Adam, http.MethodPut, floorPlanPath(fx.FloorMadrid), nil)
		req.Body = io.NopCloser(io.MultiReader(bytes.NewReader(over), infinite{}))
		req.ContentLength = -1
		req.Header.Set("Content-Type", "image/png")
		r := pb.send(t, req)
		wantProblem(t, r, http.StatusRequestEntityTooLarge, booking.CodePayloadTooLarge, noIndex)
		if changed := changedTables(plans, snapshot(t, pb.Bundle, fx.OrgA)); len(changed) > 0 {
			t.Errorf("changed %v", changed)
		}
	})
	t.Run("SignedOut", func(t *testing.T) {
		r := pb.putPlan(t, uuid.Nil, fx.FloorMadrid, "image/png", pngImage(t, 4, 4))
		wantProblem(t, r, http.StatusUnauthorized, booking.CodeUnauthorized, noIndex)
	})
	t.Run("BadID", func(t *testing.T) {
		r := pb.callWith(t, fx.Adam, http.MethodPut, api+"/admin/floors/nope/plan", pngImage(t, 4, 4), http.Header{"Content-Type": {"image/png"}})
		wantProblem(t, r, http.StatusBadRequest, booking.CodeInvalidRequest, noIndex)
	})
}

// pngHeader returns the start of a PNG whose header says w×h pixels, without any pixels.
func pngHeader(w, h uint32) []byte {
	ihdr := binary.BigEndian.AppendUint32([]byte("IHDR"), w)
	ihdr = binary.BigEndian.AppendUint32(ihdr, h)
	ihdr = append(ihdr, 8, 2, 0, 0, 0) // 8-bit RGB
	out := append([]byte("\x89PNG\r\n\x1a\n"), 0, 0, 0, 13)
	out = append(out, ihdr...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(ihdr))
}

// jpegHeader returns the start of a JPEG whose frame header says w×h pixels, without any pixels.
func jpegHeader(w, h uint16) []byte {
	out := []byte{0xFF, 0xD8, 0xFF, 0xC0, 0, 17, 8}
	out = binary.BigEndian.AppendUint16(out, h)
	out = binary.BigEndian.AppendUint16(out, w)
	out = append(out, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1)
	return append(out, 0xFF, 0xDA, 0, 12) // the start of the scan, where the pixels would begin
}

// infinite is a body that never ends.
type infinite struct{}

func (infinite) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// TestServeFloorPlan fetches the current plan as an app and as a browser, and checks who may not.
func TestServeFloorPlan(t *testing.T) {
	t.Parallel()
	pb := setupPlans(t)
	put := func(contentType string, body []byte) string {
		r := pb.putPlan(t, fx.Adam, fx.FloorMadrid, contentType, body)
		wantStatus(t, r, http.StatusOK)
		return r.object(t)["image"].(string)
	}
	oldSVG := put("image/svg+xml", []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`))
	svg := put("image/svg+xml", []byte(planSVG))
	browser := pb.pages.signedIn(t, fx.Alice)

	wantPlan := func(t *testing.T, r reply, contentType string, body []byte) {
		t.Helper()
		wantStatus(t, r, http.StatusOK)
		want := map[string]string{
			"Cache-Control":           "private, no-cache",
			"Content-Type":            contentType,
			"X-Content-Type-Options":  "nosniff",
			"Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox",
		}
		got := map[string]string{}
		for k := range want {
			got[k] = r.header.Get(k)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("headers (-want +got):\n%s", diff)
		}
		if !bytes.Equal(r.body, body) {
			t.Errorf("body = %q, want %q", clip(r.body), clip(body))
		}
		if tag := r.header.Get("ETag"); !strings.HasPrefix(tag, `"`) || len(tag) < 3 {
			t.Errorf("ETag = %q, want a strong entity tag", tag)
		}
	}

	t.Run("SVGWithToken", func(t *testing.T) {
		wantPlan(t, pb.get(t, fx.Alice, svg), "image/svg+xml", []byte(planSVGStored))
	})
	t.Run("SVGInBrowser", func(t *testing.T) {
		p := browser.get(svg)
		wantPlan(t, reply{status: p.status, header: p.header, body: []byte(p.body)}, "image/svg+xml", []byte(planSVGStored))
	})
	t.Run("NotModified", func(t *testing.T) {
		// The browser asks again every time, and gets 304 while the plan is the one it holds.
		tag := pb.get(t, fx.Alice, svg).header.Get("ETag")
		req := pb.request(t, fx.Alice, http.MethodGet, svg, nil)
		req.Header.Set("If-None-Match", tag)
		r := pb.send(t, req)
		if r.status != http.StatusNotModified || len(r.body) != 0 {
			t.Errorf("status = %d with %d bytes, want 304 without the plan", r.status, len(r.body))
		}
		if got := r.header.Get("Cache-Control"); got != "private, no-cache" {
			t.Errorf("Cache-Control = %q, want private, no-cache", got)
		}
		req = pb.request(t, fx.Alice, http.MethodGet, svg, nil)
		req.Header.Set("If-None-Match", `"another"`)
		wantPlan(t, pb.send(t, req), "image/svg+xml", []byte(planSVGStored))
	})
	t.Run("OldAddress", func(t *testing.T) {
		if r := pb.get(t, fx.Alice, oldSVG); r.status != http.StatusNotFound {
			t.Errorf("status = %d, want 404", r.status)
		}
		if p := browser.get(oldSVG); p.status != http.StatusNotFound {
			t.Errorf("browser: status = %d, want 404", p.status)
		}
	})
	t.Run("WrongExtension", func(t *testing.T) {
		if r := pb.get(t, fx.Alice, strings.TrimSuffix(svg, ".svg")+".png"); r.status != http.StatusNotFound {
			t.Errorf("status = %d, want 404", r.status)
		}
	})
	t.Run("AnotherOrganization", func(t *testing.T) {
		if r := pb.get(t, fx.Boris, svg); r.status != http.StatusNotFound || bytes.Contains(r.body, []byte("<rect")) {
			t.Errorf("status = %d, want 404 without the plan", r.status)
		}
		boris := pb.pages.signedIn(t, fx.Boris)
		if p := boris.get(svg); p.status != http.StatusNotFound || strings.Contains(p.body, "<rect") {
			t.Errorf("browser: status = %d, want 404 without the plan", p.status)
		}
	})
	t.Run("SignedOut", func(t *testing.T) {
		r := pb.get(t, uuid.Nil, svg)
		if r.status != http.StatusSeeOther || r.header.Get("Location") != "/login?next="+url.QueryEscape(svg) {
			t.Errorf("status = %d, Location = %q; want 303 to the sign-in page", r.status, r.header.Get("Location"))
		}
		if bytes.Contains(r.body, []byte("<rect")) {
			t.Errorf("the plan was sent to someone signed out")
		}
	})
	t.Run("BadToken", func(t *testing.T) {
		req := pb.request(t, uuid.Nil, http.MethodGet, svg, nil)
		req.Header.Set("Authorization", "Bearer nope")
		if r := pb.send(t, req); r.status != http.StatusUnauthorized || bytes.Contains(r.body, []byte("<rect")) {
			t.Errorf("status = %d, want 401 without the plan", r.status)
		}
	})
	t.Run("PNGAndJPEG", func(t *testing.T) {
		for _, tc := range []struct {
			contentType string
			body        []byte
		}{{"image/png", pngImage(t, 8, 8)}, {"image/jpeg", jpegImage(t, 8, 8)}} {
			address := put(tc.contentType, tc.body)
			wantPlan(t, pb.get(t, fx.Bob, address), tc.contentType, tc.body)
		}
	})
	t.Run("FloorPlanPageShowsIt", func(t *testing.T) {
		address := put("image/svg+xml", []byte(planSVG))
		p := browser.get("/find/plan?floor=" + fx.FloorMadrid.String())
		p.wantStatus(t, http.StatusOK)
		if got := p.attr("svg image", "href"); got != address {
			t.Errorf("the plan page shows %q, want %q", got, address)
		}
	})
}

// TestServeFloorPlanIfNoneMatch checks each form of If-None-Match that names the plan's tag, and that
// one naming another tag gets the plan.
func TestServeFloorPlanIfNoneMatch(t *testing.T) {
	t.Parallel()
	pb := setupPlans(t)
	r := pb.putPlan(t, fx.Adam, fx.FloorMadrid, "image/svg+xml", []byte(planSVG))
	wantStatus(t, r, http.StatusOK)
	address := r.object(t)["image"].(string)
	tag := pb.get(t, fx.Alice, address).header.Get("ETag")
	for _, tc := range []struct {
		name, header string
		want         int
	}{
		{"Tag", tag, http.StatusNotModified},
		{"WeakTag", "W/" + tag, http.StatusNotModified},
		{"Any", "*", http.StatusNotModified},
		{"InAList", `"another", ` + tag, http.StatusNotModified},
		{"AnotherTag", `"another"`, http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := pb.request(t, fx.Alice, http.MethodGet, address, nil)
			req.Header.Set("If-None-Match", tc.header)
			if got := pb.send(t, req).status; got != tc.want {
				t.Errorf("If-None-Match: %s → %d, want %d", tc.header, got, tc.want)
			}
		})
	}
}
